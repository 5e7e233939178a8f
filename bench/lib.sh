#!/usr/bin/env bash
# bench/lib.sh - what the benchmarks share: the CUDA toolkit, the clang flags
# the tool parses with, and timing with medians. Sourced, not run.
#
# Expects LINT, CLANG, ARCH and REPS set by the caller; sets CUDA,
# CLANG_ARGS, GNU_TIME and TMP (removed on exit).

die() { printf 'bench: error: %s\n' "$*" >&2; exit 2; }

[[ -x $LINT ]] || die "$LINT not built: run 'bash scripts/bootstrap.sh example' first"
command -v "$CLANG" >/dev/null || die "$CLANG not found"
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer"
CUDA=$(bash scripts/find-cuda.sh) || exit 2
export CUDA_PATH=$CUDA

# The same device-only flags as cudaDeviceParseArgs (CompileFlags.h).
CLANG_ARGS=(-fsyntax-only -x cuda --cuda-device-only "--cuda-gpu-arch=$ARCH"
            "--cuda-path=$CUDA")
[[ -d $CUDA/include/cccl ]] && CLANG_ARGS+=(-isystem "$CUDA/include/cccl")
CLANG_ARGS+=(-Wno-unknown-cuda-version)

GNU_TIME=${GNU_TIME:-/usr/bin/time}
if [[ ! -x $GNU_TIME ]] || ! "$GNU_TIME" -f '%M' true 2>/dev/null; then
  GNU_TIME=
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# measure OK_STATUSES CMD... : runs CMD once, appends
# "<wall ms> <peak KiB> <user+system CPU ms>"
# to $TMP/samples; a status outside OK_STATUSES (a regex) aborts the bench.
measure() {
  local ok=$1; shift
  local start end rc=0 rss=NA
  start=$(date +%s%N)
  if [[ -n $GNU_TIME ]]; then
    "$GNU_TIME" -f '%M %U %S' -o "$TMP/rss" "$@" >"$TMP/out" 2>&1 || rc=$?
  else
    "$@" >"$TMP/out" 2>&1 || rc=$?
  fi
  end=$(date +%s%N)
  if [[ ! $rc =~ ^($ok)$ ]]; then
    cat "$TMP/out" >&2
    die "'$*' exited with $rc"
  fi
  local cpu=NA
  if [[ -n $GNU_TIME ]]; then
    read -r rss u s < <(tail -n 1 "$TMP/rss")
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%d", (u + s) * 1000 }')
  fi
  echo "$(( (end - start) / 1000000 )) $rss $cpu" >>"$TMP/samples"
}

# median COLUMN: the median of one column of $TMP/samples.
median() {
  awk -v c="$1" '{ print $c }' "$TMP/samples" | sort -n | awk '
    { v[NR] = $1 }
    END {
      if (v[1] == "NA") { print "n/a"; exit }
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      print m
    }'
}

# bench NAME OK_STATUSES CMD... : prints one table row.
bench() {
  local name=$1 ok=$2; shift 2
  measure "$ok" "$@"  # warm-up: file cache, dynamic loader
  : >"$TMP/samples"
  for ((i = 0; i < REPS; i++)); do measure "$ok" "$@"; done
  local ms kib cpu
  ms=$(median 1)
  kib=$(median 2)
  cpu=$(median 3)
  awk -v n="$name" -v ms="$ms" -v kib="$kib" -v cpu="$cpu" 'BEGIN {
    mib = (kib == "n/a") ? "n/a" : sprintf("%.0f", kib / 1024)
    c = (cpu == "n/a") ? "n/a" : sprintf("%.3f", cpu / 1000)
    printf "| %s | %.3f | %s | %s |\n", n, ms / 1000, mib, c
  }'
}

