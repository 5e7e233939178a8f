#!/usr/bin/env bash
# Builds examples/cmake-launcher with CMAKE_CUDA_COMPILER_LAUNCHER set to
# coalesce-lint --launcher: the build prints the transpose finding, stays quiet
# for the coalesced file, and succeeds; with --fail-on=warning the finding
# fails the build. Needs nvcc and a host compiler it accepts (exit 77: skip).
#
#   cmake-launcher-test.sh COALESCE_LINT SOURCE_DIR WORK_DIR
set -euo pipefail
LINT=$1 SRC=$2 WORK=$3
NVCC=${CUDACXX:-}
[[ -n $NVCC ]] || NVCC=$(command -v nvcc || true)
[[ -n $NVCC ]] || { [[ -x /usr/local/cuda/bin/nvcc ]] && NVCC=/usr/local/cuda/bin/nvcc; }
if [[ -z $NVCC ]]; then
  echo "SKIP: no nvcc"; exit 77
fi
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$WORK" && mkdir -p "$WORK"
if ! cmake -S "$SRC/examples/cmake-launcher" -B "$WORK/ok" "${GEN[@]}" \
     -DCMAKE_CUDA_COMPILER="$NVCC" \
     "-DCMAKE_CUDA_COMPILER_LAUNCHER=$LINT;--launcher;--" >"$WORK/ok.configure.log" 2>&1; then
  if grep -q "No CMAKE_CUDA_COMPILER could be found\|The CUDA compiler identification is unknown\|is not able to compile a simple test program" "$WORK/ok.configure.log"; then
    echo "SKIP: nvcc cannot compile here"; cat "$WORK/ok.configure.log"; exit 77
  fi
  cat "$WORK/ok.configure.log"; fail "configure failed"
fi
cmake --build "$WORK/ok" >"$WORK/ok.build.log" 2>&1 || { cat "$WORK/ok.build.log"; fail "the build failed with the launcher"; }
cat "$WORK/ok.build.log"
grep -q "transpose.cu:9:5: warning: transposed store to 'out\[x \* height + y\]'" "$WORK/ok.build.log" \
  || fail "no transpose finding in the build log"
grep -q "block shape 32x8 from the launch" "$WORK/ok.build.log" \
  || fail "the launch shape (dim3 block(TILE, 8), TILE from -DTILE=32) was not used"
grep -q "saxpy.cu:.*warning" "$WORK/ok.build.log" && fail "a finding in the coalesced saxpy.cu"
[[ -f $WORK/ok/libkernels.a ]] || fail "the library was not built"

# Findings fail the build when asked.
cmake -S "$SRC/examples/cmake-launcher" -B "$WORK/strict" "${GEN[@]}" \
  -DCMAKE_CUDA_COMPILER="$NVCC" \
  "-DCMAKE_CUDA_COMPILER_LAUNCHER=$LINT;--launcher;--fail-on=warning;--" >"$WORK/strict.configure.log" 2>&1 \
  || { cat "$WORK/strict.configure.log"; fail "configure (strict) failed"; }
if cmake --build "$WORK/strict" >"$WORK/strict.build.log" 2>&1; then
  cat "$WORK/strict.build.log"; fail "the strict build succeeded despite a finding"
fi
grep -q "transposed store" "$WORK/strict.build.log" || fail "no finding in the strict build log"
echo "PASS"
