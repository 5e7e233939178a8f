#!/usr/bin/env bash
# The half-precision ground-truth programs: Bruce-Lee-LY's cuda_hgemv (half
# GEMV, src/thread/*.cu and src/warp/*.cu) and cuda_hgemm (tensor-core half
# GEMM, src/simt_naive.cu, src/wmma/*.cu, src/mma/*.cu). Copies their src/
# trees, unmodified, into .gt-carry-half/ (ignored by git, carried to the GPU
# machine with `carry: [".gt-carry-half"]`) together with a driver per suite
# (half/hgemv-driver.cu, half/hgemm-driver.cu, written here: the suites' own
# src/main.cu needs gflags, which the GPU machine lacks), and writes
# .gt-carry-half/programs.tsv in the format of prepare.sh plus a 7th column,
# the tool's own arguments (--param for the sizes the driver uses).
#
#   bash scripts/gpu-groundtruth/prepare-half.sh [SUITES_DIR]
#   GT_CARRY_DIR=/tmp/x/.gt-carry-half bash scripts/gpu-groundtruth/prepare-half.sh   # elsewhere
#
# SUITES_DIR (default /work/.suites) holds checkouts (or plain copies with a
# .suite-commit file) of
#   hgemv   github.com/Bruce-Lee-LY/cuda_hgemv   (55eaca46)
#   hgemm   github.com/Bruce-Lee-LY/cuda_hgemm   (0d26c2e4)
#
# Sizes. Each file's host wrapper takes N, K (hgemv) or M, N, K (hgemm) from
# main.cu's flags, so in each file they are unknown parameters: the tool gets
# the driver's sizes with --param (column 7). hgemv: N = K = 4096 (the top of
# the README's range; main.cu's default is N = 256, K = 128); hgemm: main.cu's
# defaults M = 512, N = 2048, K = 1024. One launch of every wrapper.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/scripts/gpu-groundtruth
SUITES=${1:-/work/.suites}
C=${GT_CARRY_DIR:-$ROOT/.gt-carry-half}
[ "$(basename "$C")" = .gt-carry-half ] || { echo "prepare-half: GT_CARRY_DIR must end in .gt-carry-half" >&2; exit 2; }
if [ -z "${GT_CARRY_DIR:-}" ] && [ -d "$ROOT/.git" ]; then
  mkdir -p "$ROOT/.git/info"
  grep -qx '/.gt-carry-half/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.gt-carry-half/' >>"$ROOT/.git/info/exclude"
fi
HV_N=${GT_HGEMV_N:-4096}; HV_K=${GT_HGEMV_K:-4096}
HM_M=${GT_HGEMM_M:-512}; HM_N=${GT_HGEMM_N:-2048}; HM_K=${GT_HGEMM_K:-1024}

commit() {  # DIR -> commit id
  if [ -f "$1/.suite-commit" ]; then awk '{print $1; exit}' "$1/.suite-commit"
  else git -C "$1" rev-parse HEAD; fi
}
rm -rf "$C"; mkdir -p "$C"
{
  echo "hgemv	$(commit "$SUITES/hgemv")	github.com/Bruce-Lee-LY/cuda_hgemv"
  echo "hgemm	$(commit "$SUITES/hgemm")	github.com/Bruce-Lee-LY/cuda_hgemm"
} >"$C/suites.txt"
for s in hgemv hgemm; do
  mkdir -p "$C/$s"
  cp -r "$SUITES/$s/src" "$C/$s/src"
  cp "$HERE/half/$s-driver.cu" "$C/$s/gt-driver.cu"
done

# ---- the program list (columns of prepare.sh, plus the tool's arguments) ------
# nvcc flags as the suites' CMakeLists.txt (Release): --use_fast_math
# --expt-relaxed-constexpr, src/common on the include path (their -std=c++11
# is left out: nvcc 13 defaults to C++17). The .cu files of column 4 are also
# what half/device-build.sh compiles one by one.
L=$C/programs.tsv
printf '#suite\tname\tdir\tnvcc_args\trun_args\tlint_files\tlint_args\n' >"$L"
hv=$(cd "$C/hgemv" && ls src/thread/*.cu src/warp/*.cu | tr '\n' ' ' | sed 's/ $//')
hm=$(cd "$C/hgemm" && ls src/simt_naive.cu src/wmma/*.cu src/mma/*.cu | tr '\n' ' ' | sed 's/ $//')
printf 'hgemv\thgemv\thgemv\t--use_fast_math --expt-relaxed-constexpr -Isrc/common gt-driver.cu %s\t%s %s\t%s\t--param N=%s --param K=%s\n' \
  "$hv" "$HV_N" "$HV_K" "$hv" "$HV_N" "$HV_K" >>"$L"
printf 'hgemm\thgemm\thgemm\t--use_fast_math --expt-relaxed-constexpr -Isrc/common gt-driver.cu %s\t%s %s %s\t%s\t--param M=%s --param N=%s --param K=%s\n' \
  "$hm" "$HM_M" "$HM_N" "$HM_K" "$hm" "$HM_M" "$HM_N" "$HM_K" >>"$L"
echo "prepared $(grep -vc '^#' "$L") programs in $C ($(du -sh "$C" | cut -f1))"
