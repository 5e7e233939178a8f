#!/usr/bin/env bash
# The "modern code" ground-truth programs: llm.c's dev/cuda kernel benchmarks
# (bf16 and fp32) and siboehm's SGEMM_CUDA (fp32 SGEMM kernels 1..12).
# Copies their sources into .gt-carry-modern/ (ignored by git, carried to the
# GPU machine with `carry: [".gt-carry-modern"]`), shrinks the problem sizes
# of the host code in place (same line count, see below), and writes
# .gt-carry-modern/programs.tsv in the format of prepare.sh.
#
#   bash scripts/gpu-groundtruth/prepare-modern.sh [SUITES_DIR]
#   GT_CARRY_DIR=/tmp/x/.gt-carry-modern bash scripts/gpu-groundtruth/prepare-modern.sh   # elsewhere
#
# SUITES_DIR (default /work/.suites) holds checkouts (or plain copies with a
# .suite-commit file) of
#   llm.c        github.com/karpathy/llm.c        (f1e2ace)
#   sgemm-cuda   github.com/siboehm/SGEMM_CUDA    (60cba6f)
# The commits used are written to .gt-carry-modern/suites.txt, and every
# source edit to .gt-carry-modern/patches.diff.
#
# Problem sizes. The benchmarks fix their sizes in main() (B = 8, T = 1024 and
# up to 2000 timed repeats for every block size; SGEMM at 128 .. 4096, 50
# repeats each), which under ncu and with their CPU references would take far
# longer than the GPU budget. Each edit below replaces a number on one line of
# host code: line numbers and kernels are unchanged, and the tool analyzes the
# same edited copies that the GPU runs. What changes: B = 2, T = 256 (C, V, NH,
# OC as upstream), one timed repeat, global_norm L = 1, SGEMM sizes {128, 256}.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SUITES=${1:-/work/.suites}
LL=$SUITES/llm.c
SG=$SUITES/sgemm-cuda
# GT_CARRY_DIR: another place for it (its last component must stay
# .gt-carry-modern: lines.py and compare.py name files relative to it)
C=${GT_CARRY_DIR:-$ROOT/.gt-carry-modern}
[ "$(basename "$C")" = .gt-carry-modern ] || { echo "prepare-modern: GT_CARRY_DIR must end in .gt-carry-modern" >&2; exit 2; }
if [ -z "${GT_CARRY_DIR:-}" ] && [ -d "$ROOT/.git" ]; then
  mkdir -p "$ROOT/.git/info"
  grep -qx '/.gt-carry-modern/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.gt-carry-modern/' >>"$ROOT/.git/info/exclude"
fi
rm -rf "$C"; mkdir -p "$C/llmc/dev" "$C/sgemm"

commit() {  # DIR -> commit id
  if [ -f "$1/.suite-commit" ]; then awk '{print $1; exit}' "$1/.suite-commit"
  else git -C "$1" rev-parse HEAD; fi
}
{
  echo "llmc	$(commit "$LL")	github.com/karpathy/llm.c (dev/cuda)"
  echo "sgemm	$(commit "$SG")	github.com/siboehm/SGEMM_CUDA"
} >"$C/suites.txt"

cp -r "$LL/dev/cuda" "$C/llmc/dev/cuda"
find "$C/llmc" -type f ! -name '*.cu' ! -name '*.h' ! -name '*.cuh' -delete
cp "$SG/sgemm.cu" "$C/sgemm/"
cp -r "$SG/src" "$C/sgemm/src"
mkdir -p "$C/orig"
cp -r "$C/llmc" "$C/sgemm" "$C/orig/"

# ---- size edits (one line each; every one must apply exactly once) -----------
edit() {  # FILE LINE-REGEX SED-EXPR
  local f=$1 re=$2 ex=$3 n before
  n=$(grep -cE "$re" "$f" || true)
  [ "$n" = 1 ] || { echo "prepare-modern: '$re' matches $n lines in $f" >&2; exit 1; }
  before=$(wc -l <"$f")
  sed -i -E "/$re/ s/$ex/" "$f"
  [ "$(wc -l <"$f")" = "$before" ] || { echo "prepare-modern: line count changed in $f" >&2; exit 1; }
}
D=$C/llmc/dev/cuda
for f in "$D"/*.cu; do
  b=$(basename "$f" .cu)
  [ "$b" = nccl_all_reduce ] && continue
  grep -qE '^\s*int B = (4|8|32);' "$f" && edit "$f" '^\s*int B = (4|8|32);' 'int B = (4|8|32);/int B = 2;'
  grep -qE '^\s*int T = 1024;' "$f" && edit "$f" '^\s*int T = 1024;' 'int T = 1024;/int T = 256;'
  grep -qE '^\s*int64_t B = 8; ' "$f" && edit "$f" '^\s*int64_t B = 8; ' 'int64_t B = 8;/int64_t B = 2;'
  grep -qE '^\s*int64_t T = 1024; ' "$f" && edit "$f" '^\s*int64_t T = 1024; ' 'int64_t T = 1024;/int64_t T = 256; '
  grep -qE '^\s*int repeat_times = [0-9]+;' "$f" && \
    sed -i -E 's/^(\s*)int repeat_times = [0-9]+;/\1int repeat_times = 1;/' "$f"
done
edit "$D/global_norm.cu" '^\s*int L = 12;' 'int L = 12;/int L = 1;'
edit "$C/sgemm/sgemm.cu" 'std::vector<int> SIZE = \{' '\{128, 256, 512, 1024, 2048, 4096\}/{128, 256}'
edit "$C/sgemm/sgemm.cu" 'int repeat_times = 50;' 'int repeat_times = 50;/int repeat_times = 1;'
# layernorm_backward kernel 9 asserts C % 256 == 0, which the file's C = 1600
# is not: a second copy at C = 1536 (only for kernels 9 and 10) runs it.
mkdir -p "$C/llmc-c1536/dev/cuda" "$C/orig/llmc-c1536/dev/cuda"
cp "$D/layernorm_backward.cu" "$D/common.h" "$C/llmc-c1536/dev/cuda/"
cp "$D/layernorm_backward.cu" "$D/common.h" "$C/orig/llmc-c1536/dev/cuda/"
edit "$C/llmc-c1536/dev/cuda/layernorm_backward.cu" '^\s*int C = 1600;' 'int C = 1600;/int C = 1536;'
(cd "$C/orig" && for d in llmc sgemm llmc-c1536; do diff -r -U0 "$d" "../$d" | grep -v "^diff \|^--- " | sed "s|^+++ ../\([^\t]*\).*|+++ \1|" || true; done) >"$C/patches.diff"
rm -rf "$C/orig"

# ---- the program list (columns as in prepare.sh) --------------------------------
L=$C/programs.tsv
printf '#suite\tname\tdir\tnvcc_args\trun_args\tlint_files\n' >"$L"
# SGEMM_CUDA: sgemm.cu + src/runner.cu (which includes the 12 kernels), -Isrc as
# its CMakeLists.txt; kernel 0 is cuBLAS alone: not run. Each kernel's first
# launch (the one profiled) is at the first size, m = n = k = 128; the
# runner computes the grid from M and N (CEIL_DIV(M, 32)), so the tool is
# given them (issue 28: per-launch figures).
for k in $(seq 1 12); do
  if [ "$k" = 1 ]; then nv='-Isrc sgemm.cu src/runner.cu -lcublas'; else nv='=sgemm-k1'; fi
  printf 'sgemm\tsgemm-k%s\tsgemm\t%s\t%s\tsgemm.cu src/runner.cu\t--param M=128 --param N=128 --param K=128\n' "$k" "$nv" "$k" >>"$L"
done

# llm.c dev/cuda: every file but nccl_all_reduce (MPI + NCCL), built as its
# header comment says (-O3 --use_fast_math, cuBLAS/cuBLASLt, OpenMP for the
# matmuls), one run per kernel number of its dispatch switch. attention_forward
# 10 needs cuDNN (-DENABLE_CUDNN): not run. The files that compute in bf16 say
# so themselves (#define ENABLE_BF16); no -D is passed.
LLF='--use_fast_math -std=c++17'
ll() {  # NAME KERNEL_NUMBERS [EXTRA_NVCC]
  local n=$1 ks=$2 extra=${3:-} first=
  for k in $ks; do
    if [ -z "$first" ]; then
      first=llmc-$n-k$k
      printf 'llmc\t%s\tllmc/dev/cuda\t%s %s %s.cu -lcublas -lcublasLt\t%s\t%s.cu\n' "$first" "$LLF" "$extra" "$n" "$k" "$n" >>"$L"
    else
      printf 'llmc\t%s\tllmc/dev/cuda\t=%s\t%s\t%s.cu\n' "llmc-$n-k$k" "$first" "$k" "$n" >>"$L"
    fi
  done
}
ll adamw                          '1 2'
ll attention_backward             '1 2 3 4 5 6 7 8'
ll attention_forward              '1 2 3 4 5 6'
ll classifier_fused               '1 2 3 4 5'
ll crossentropy_forward           '1'
ll crossentropy_softmax_backward  '1'
ll encoder_backward               '1 2'
ll encoder_forward                '1 2 3'
ll fused_residual_forward         '1 2 3 4 5 6'
ll gelu_backward                  '1 2'
ll gelu_forward                   '1 2'
ll global_norm                    '1 2 3 4'
ll layernorm_backward             '1 2 3 4 5 6 7 8 9 10'
ll layernorm_forward              '1 2 3 4 5 6'
ll matmul_backward                '1' '-Xcompiler -fopenmp'
ll matmul_backward_bias           '1 2 3 4 5 7 8 9'
ll matmul_forward                 '1 2 3 4' '-Xcompiler -fopenmp'
ll permute                        '1'
ll residual_forward               '1 2'
ll softmax_forward                '1 2 3 4 5 6 7 8'
ll trimat_forward                 '0 1 2 3 4'
printf 'llmc\tllmc-layernorm_backward_c1536-k9\tllmc-c1536/dev/cuda\t%s layernorm_backward.cu -lcublas -lcublasLt\t9\tlayernorm_backward.cu\n' "$LLF" >>"$L"
printf 'llmc\tllmc-layernorm_backward_c1536-k10\tllmc-c1536/dev/cuda\t=llmc-layernorm_backward_c1536-k9\t10\tlayernorm_backward.cu\n' >>"$L"
echo "prepared $(grep -vc '^#' "$L") programs in $C ($(du -sh "$C" | cut -f1)); $(grep -c '^+[^+]' "$C/patches.diff") lines edited"
