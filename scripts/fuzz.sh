#!/usr/bin/env bash
# fuzz.sh - build and run a libFuzzer target of fuzz/ (docs/fuzzing.md).
#
#   bash scripts/fuzz.sh [TARGET] [SECONDS]
#
# TARGET: expr (default; fuzz-expr, the symbolic engine) or pipeline
# (fuzz-pipeline, the whole analysis on mutated CUDA sources). SECONDS: how
# long to fuzz (default 60).
#
# Steps: configures $COALESCE_FUZZ_BUILD_DIR (default build-fuzz) once with
# clang++-22 and -DCOALESCE_FUZZ=ON (coverage, ASan, UBSan), builds only the
# target, then runs it on its corpus: $BUILD/corpus/TARGET, where new inputs
# are kept from run to run, seeded with fuzz/corpus/TARGET and (pipeline)
# every .cu file of test/golden and examples, with fuzz/cuda.dict. The
# pipeline parses with a precompiled CUDA wrapper header ($BUILD/cuda.pch,
# made here) instead of the CUDA headers: the same declarations, faster.
# Prints executions, executions per second, coverage, and each crash with
# the command that reproduces it.
#
# Environment: COALESCE_FUZZ_BUILD_DIR, JOBS (ninja -j, default 2),
# FUZZ_ARGS (more libFuzzer options), CUDA_PATH (pipeline).
# Exit status: 0 no crash; 1 a crash, hang or leak was found (inputs under
# $BUILD/artifacts/TARGET); 2 usage or build error; 77 clang++-22 or its
# libFuzzer runtime (Debian package libclang-rt-22-dev) is missing.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${COALESCE_FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-2}
CXX=clang++-22

say() { printf '==> %s\n' "$*"; }
die() { printf 'fuzz: error: %s\n' "$1" >&2; exit "${2:-2}"; }

usage() {
  echo "usage: bash scripts/fuzz.sh [expr|pipeline] [SECONDS]" >&2
  exit 2
}

[[ $# -le 2 ]] || usage
case ${1:-expr} in
  expr | fuzz-expr) target=expr ;;
  pipeline | fuzz-pipeline) target=pipeline ;;
  *) usage ;;
esac
seconds=${2:-60}
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || usage
binary=$BUILD_DIR/bin/fuzz-$target

# clang++-22 with a libFuzzer runtime: link a do-nothing target.
command -v "$CXX" >/dev/null 2>&1 ||
  die "$CXX not found (Debian package clang-22)" 77
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const char *, unsigned long) { return 0; }' \
  >"$probe/probe.cpp"
"$CXX" -fsanitize=fuzzer "$probe/probe.cpp" -o "$probe/probe" >/dev/null 2>&1 ||
  die "$CXX cannot link -fsanitize=fuzzer: install the Debian package libclang-rt-22-dev" 77

if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  say "configure: $CXX, -DCOALESCE_FUZZ=ON ($BUILD_DIR)"
  mkdir -p "$BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$CXX" -DCOALESCE_FUZZ=ON -DCOALESCE_BUILD_TESTS=OFF \
    >"$BUILD_DIR/configure.log" 2>&1 || {
    cat "$BUILD_DIR/configure.log" >&2
    rm -f "$BUILD_DIR/build.ninja"
    die "cmake configure failed (output above)"
  }
fi
say "build: ninja -C $BUILD_DIR -j$JOBS fuzz-$target"
ninja -C "$BUILD_DIR" -j"$JOBS" "fuzz-$target" || die "build failed"

corpus=$BUILD_DIR/corpus/$target
artifacts=$BUILD_DIR/artifacts/$target
mkdir -p "$corpus" "$artifacts"
seeds=()
[[ -d fuzz/corpus/$target ]] && seeds+=("fuzz/corpus/$target")
options=(-print_final_stats=1 "-artifact_prefix=$artifacts/")
if [[ $target == expr ]]; then
  options+=(-max_len=512 -timeout=30 -rss_limit_mb=2048)
else
  # The seeds: every CUDA source of the golden tests and the examples.
  seed_dir=$BUILD_DIR/seeds/pipeline
  rm -rf "$seed_dir" && mkdir -p "$seed_dir"
  while IFS= read -r f; do
    cp "$f" "$seed_dir/$(echo "${f#./}" | tr / _)"
  done < <(find test/golden examples -name '*.cu' -o -name '*.cuh' | sort)
  seeds+=("$seed_dir")

  cuda=$(bash scripts/find-cuda.sh) || exit 2
  export CUDA_PATH=$cuda
  # The wrapper clang includes into every CUDA file, precompiled with the
  # flags the analysis uses (driver/CudaInstallation.cpp) plus -nocudainc.
  pch=$BUILD_DIR/cuda.pch
  flags=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_90 "--cuda-path=$cuda")
  [[ -d $cuda/include/cccl ]] && flags+=(-isystem "$cuda/include/cccl")
  flags+=(-Wno-unknown-cuda-version -nocudainc -isystem "$cuda/include")
  if [[ ! -s $pch || ! -f $BUILD_DIR/cuda-wrapper.cuh ||
        $pch -ot $(command -v "$CXX") ]]; then
    say "precompiling the CUDA wrapper header: $pch"
    # The PCH refers to the header it was made from: keep it next to it.
    echo '#include <__clang_cuda_runtime_wrapper.h>' >"$BUILD_DIR/cuda-wrapper.cuh"
    # -emit-pch writes to stdout under the driver's -fsyntax-only.
    "$CXX" "${flags[@]}" -Xclang -emit-pch -fsyntax-only "$BUILD_DIR/cuda-wrapper.cuh" \
      >"$pch.tmp" && mv "$pch.tmp" "$pch" || die "cannot precompile the CUDA headers"
  fi
  export COALESCE_FUZZ_PCH=$pch
  options+=(-max_len=16384 -timeout=150 -rss_limit_mb=4096 -dict=fuzz/cuda.dict)
fi
# shellcheck disable=SC2206 # FUZZ_ARGS is a list of options
options+=(-max_total_time="$seconds" ${FUZZ_ARGS:-})

# UBSan aborts on the first report (-fno-sanitize-recover); with a stack.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# ASan records every allocation's stack: 8 frames instead of 30 makes the
# deeply recursive engine about 3 times faster and its memory flat.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=8}
log=$BUILD_DIR/fuzz-$target.log
before=$(find "$artifacts" -type f | wc -l)
say "run: $binary ${options[*]} $corpus ${seeds[*]}"
start=$(date +%s)
rc=0
"$binary" "${options[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1 || rc=$?
elapsed=$(($(date +%s) - start))

# The summary: libFuzzer's final statistics and its last status line.
stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
status=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' <<<"$status")
units=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$status")
execs=$(stat number_of_executed_units)
rate=$(awk -v n="${execs:-0}" -v t="$elapsed" 'BEGIN { printf "%.1f", t ? n / t : 0 }')
say "fuzz-$target: ${elapsed} s, ${execs:-?} executions ($rate/s)," \
  "coverage ${cov:-?}, corpus ${units:-?} inputs, peak RSS $(stat peak_rss_mb) MiB" \
  "(log: $log)"
if [[ $rc -ne 0 ]]; then
  grep -E 'ERROR: |fuzz-(expr|pipeline): |SUMMARY: ' "$log" | head -20 >&2 || true
  new=$(find "$artifacts" -type f -newermt "@$start" | sort)
  say "fuzz-$target FOUND A PROBLEM (libFuzzer exit $rc). Inputs:"
  for f in $new; do
    echo "  $f    reproduce: $binary $f"
  done
  (( $(find "$artifacts" -type f | wc -l) > before )) || tail -30 "$log" >&2
  exit 1
fi
say "fuzz-$target: no crash, hang or leak"
