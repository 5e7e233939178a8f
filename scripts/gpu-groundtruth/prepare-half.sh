#!/usr/bin/env bash
# The half-precision ground-truth programs (the 'half' set):
#   hgemv      Bruce-Lee-LY's cuda_hgemv (half GEMV, src/thread/*.cu, src/warp/*.cu)
#   hgemm      Bruce-Lee-LY's cuda_hgemm (tensor-core half GEMM, src/simt_naive.cu,
#              src/wmma/*.cu, src/mma/*.cu)
#   fastgemv   wangsiping97's FastGEMV (fp16, int8 and int4 GEMV with fp16 vectors)
#   llama-awq  ankan-ban's llama_cu_awq (int4 AWQ GEMV and the transformer's half
#              kernels, gpu_kernels.h, driven through llama2_q4.cu's host code)
# Copies their sources, unmodified, into .gt-carry-half/ (ignored by git,
# carried to the GPU machine with `carry: [".gt-carry-half"]`) together with
# what was written here to run them (half/hgemv-driver.cu, hgemm-driver.cu:
# the suites' own src/main.cu needs gflags, which the GPU machine lacks;
# half/llama-awq-driver.cu: llama2_q4.cu's main needs a converted checkpoint;
# half/cub-max-compat.h: cub::Max/Min, which CCCL 3 removed), and writes
# .gt-carry-half/programs.tsv in the format of prepare.sh plus a 7th column,
# the tool's own arguments (--param/--block for what the run uses and the
# analyzed files cannot tell). FastGEMV runs its own main.cpp.
#
#   bash scripts/gpu-groundtruth/prepare-half.sh [SUITES_DIR]
#   GT_CARRY_DIR=/tmp/x/.gt-carry-half bash scripts/gpu-groundtruth/prepare-half.sh   # elsewhere
#   GT_HALF_SUITES="fastgemv llama-awq" bash scripts/gpu-groundtruth/prepare-half.sh  # some only
#
# SUITES_DIR (default /work/.suites) holds checkouts (or plain copies with a
# .suite-commit file) of
#   hgemv      github.com/Bruce-Lee-LY/cuda_hgemv      (55eaca46)
#   hgemm      github.com/Bruce-Lee-LY/cuda_hgemm      (0d26c2e4)
#   fastgemv   github.com/wangsiping97/FastGEMV        (1fdff6f7)
#   llama-awq  github.com/ankan-ban/llama_cu_awq       (d0453fd0)
# A suite that is not there is left out with a warning (the replay then
# checks the others); GT_HALF_SUITES picks some (default: all four).
#
# Sizes. hgemv/hgemm: each file's host wrapper takes N, K (hgemv) or M, N, K
# (hgemm) from main.cu's flags, so in each file they are unknown parameters:
# the tool gets the driver's sizes with --param (column 7). hgemv: N = K =
# 4096 (the top of the README's range; main.cu's default is N = 256, K =
# 128); hgemm: main.cu's defaults M = 512, N = 2048, K = 1024. One launch of
# every wrapper.
# fastgemv: size 4096 with blockDim (128, 8), the README's published setting
# for 4096 (method_and_result.md, P100), once per data type (-b 16, 8, 4).
# Its kernels are launched from test_gemv.cu with the block shape of
# main.cpp's flags and defined in fast_gemv.cu, another translation unit, so
# the tool gets the shape (--block) and the scalars (n, num_per_thread,
# mat_size) that the launch would give.
# llama-awq: one layer of Llama-2-7B (dim 4096, hidden 11008, 32 heads,
# vocab 32000, seq_len 4096) at position 100, and one layer of a GQA model
# of Llama-2-70B's geometry (dim 8192, hidden 28672, 64 heads, 8 KV heads)
# with a 16384-token context at position 9000 (the GQA branch and
# softmax_kernel_no_smem); each time a prompt step (argmax) and a generated
# step (top-p). The sizes come from the checkpoint's header at run time
# (struct fields, not parameters) and the launch shapes follow from them;
# the tool gets the one value it asks for, the position (--param *pPos=...).
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
FG_SIZE=${GT_FASTGEMV_SIZE:-4096}; FG_BX=${GT_FASTGEMV_BX:-128}; FG_BY=${GT_FASTGEMV_BY:-8}
AWQ_POS=${GT_AWQ_POS:-100}; AWQ_LONG_POS=${GT_AWQ_LONG_POS:-9000}

commit() {  # DIR -> commit id
  if [ -f "$1/.suite-commit" ]; then awk '{print $1; exit}' "$1/.suite-commit"
  else git -C "$1" rev-parse HEAD; fi
}
declare -A URL=([hgemv]=github.com/Bruce-Lee-LY/cuda_hgemv [hgemm]=github.com/Bruce-Lee-LY/cuda_hgemm
                [fastgemv]=github.com/wangsiping97/FastGEMV [llama-awq]=github.com/ankan-ban/llama_cu_awq)
want=(${GT_HALF_SUITES:-hgemv hgemm fastgemv llama-awq})
have=()
for s in "${want[@]}"; do
  [ -n "${URL[$s]:-}" ] || { echo "prepare-half: unknown suite '$s'" >&2; exit 2; }
  if [ -d "$SUITES/$s" ]; then have+=("$s"); else echo "prepare-half: no $SUITES/$s: left out" >&2; fi
done
rm -rf "$C"; mkdir -p "$C"
: >"$C/suites.txt"
for s in "${have[@]}"; do
  echo "$s	$(commit "$SUITES/$s")	${URL[$s]}" >>"$C/suites.txt"
  mkdir -p "$C/$s"
  case "$s" in
    hgemv|hgemm)
      cp -r "$SUITES/$s/src" "$C/$s/src"
      cp "$HERE/half/$s-driver.cu" "$C/$s/gt-driver.cu"
      cp "$HERE/half/driver-common.h" "$C/$s/" ;;
    fastgemv)
      cp "$SUITES/$s"/*.cu "$SUITES/$s"/*.cuh "$SUITES/$s"/*.h "$SUITES/$s/main.cpp" "$C/$s/" ;;
    llama-awq)
      cp "$SUITES/$s/llama2_q4.cu" "$SUITES/$s"/*.h "$C/$s/"
      cp "$HERE/half/cub-max-compat.h" "$C/$s/gt-cub-max-compat.h"
      cp "$HERE/half/llama-awq-driver.cu" "$C/$s/gt-driver.cu"
      cp "$HERE/half/driver-common.h" "$C/$s/" ;;
  esac
done

# llama-awq: the values of each kernel's first launch in the run (the one
# device-run.sh's default filter profiles), computed from the geometry with
# the formulas of llama2_q4.cu's host code (run_llama_network, matmul,
# MultiHeadAttention, run_transformer's sequence bins), so that every finding
# has its per-launch figure (issue 28). The sizes live in the checkpoint's
# header at run time, which the tool cannot read. The first launch of
# mat_vec_kernel_int4 is the attention output (wq_o: dim x dim, accum) when
# dim == kv_dim (qkv_matvec_kernel does q, k, v) and wq_q (dim x dim)
# otherwise.
awq_params() {  # DIM HIDDEN HEADS KV_HEADS VOCAB SEQ_LEN POS -> the tool's arguments
  local dim=$1 hidden=$2 heads=$3 kvh=$4 vocab=$5 seq=$6 pos=$7
  local hs=$((dim / heads)) kvdim=$((dim * kvh / heads)) kvmul=$((heads / kvh)) bin=128 g=0 a=()
  while (( g < 7 )); do (( pos + 1 <= bin )) && break; bin=$((bin * 2)); g=$((g + 1)); done
  (( pos + 1 > bin || g == 7 )) && bin=$seq
  per_kernel() { local kern=$1; shift; for kv in "$@"; do a+=(--param "$kern:$kv"); done; }
  int4_gemv() {  # KERNEL INPUT OUTPUT: the int4 GEMV's sizes (matmul, qkv_matvec, ffn_matvec_silu)
    local sh=$(( ($2 + 127) / 128 ))
    per_kernel "$1" inputElements=$2 opElements=$3 scales_height=$sh packed_zeros_height=$(( (sh + 7) / 8 )) \
      packed_weights_height=$(( ($2 + 31) / 32 * 4 ))
  }
  a+=(--param "*pPos=$pos")
  per_kernel copy_embedding_kernel size=$dim
  per_kernel rmsnorm_kernel size=$dim elementsPerThread=$(( (dim + 1023) / 1024 ))
  if (( dim == kvdim )); then
    int4_gemv qkv_matvec_kernel "$dim" "$dim"; per_kernel qkv_matvec_kernel loff=0
    int4_gemv mat_vec_kernel_int4 "$dim" "$dim"; per_kernel mat_vec_kernel_int4 accum=1 loff=-1
  else
    int4_gemv mat_vec_kernel_int4 "$dim" "$dim"; per_kernel mat_vec_kernel_int4 accum=0 loff=-1
  fi
  a+=(--block "RoPERotation_kernel:$((hs / 2))")
  per_kernel RoPERotation_kernel gridDim.x=$heads num_kv_heads=$kvh head_size=$hs loff=0
  per_kernel mat_vec_kernel_simple gridDim.x=$(( (bin + 31) / 32 )) gridDim.y=$heads n=$hs \
    numSerialElements=$(( (hs + 31) / 32 )) ip_stride=$hs w_stride=$hs w_row_stride=$((dim / kvmul)) kv_mul=$kvmul
  if (( bin <= 8192 )); then per_kernel softmax_kernel num_heads=$heads; else per_kernel softmax_kernel_no_smem num_heads=$heads; fi
  per_kernel vec_mat_kernel gridDim.x=$(( (hs + 31) / 32 )) gridDim.y=$heads N=$hs w_stride=$hs op_stride=$hs \
    w_row_stride=$((dim / kvmul)) kv_mul=$kvmul
  int4_gemv ffn_matvec_silu_kernel "$dim" "$hidden"
  per_kernel mat_vec_kernel n=$dim d=$vocab numSerialLoads=$(( ((dim + 31) / 32 + 7) / 8 )) ip_stride=0 w_stride=0 \
    op_stride=0 w_row_stride=$dim
  per_kernel convert_fp16_to_fp32 elements=$vocab; per_kernel argmax_kernel size=$vocab
  per_kernel softmax_logits_kernel size=$vocab; per_kernel sample_top_p_kernel n=$vocab
  echo "${a[*]}"
}
# ---- the program list (columns of prepare.sh, plus the tool's arguments) ------
# hgemv/hgemm: nvcc flags as the suites' CMakeLists.txt (Release):
# --use_fast_math --expt-relaxed-constexpr, src/common on the include path
# (their -std=c++11 is left out: nvcc 13 defaults to C++17). The .cu files of
# column 4 are also what half/device-build.sh compiles one by one.
# fastgemv: its Makefile's -O3 -std=c++17 (its -gencode list is replaced by
# device-run.sh's -arch=sm_90); one binary (column 4 "=fastgemv16": the same
# binary) run once per data type.
# llama-awq: a bare nvcc command line, as its CMakeLists.txt; the forced
# include gives the tool the cub stand-in too (compare.py passes -include).
L=$C/programs.tsv
printf '#suite\tname\tdir\tnvcc_args\trun_args\tlint_files\tlint_args\n' >"$L"
for s in "${have[@]}"; do
  case "$s" in
    hgemv)
      hv=$(cd "$C/hgemv" && ls src/thread/*.cu src/warp/*.cu | tr '\n' ' ' | sed 's/ $//')
      printf 'hgemv\thgemv\thgemv\t--use_fast_math --expt-relaxed-constexpr -Isrc/common gt-driver.cu %s\t%s %s\t%s\t--param N=%s --param K=%s\n' \
        "$hv" "$HV_N" "$HV_K" "$hv" "$HV_N" "$HV_K" >>"$L" ;;
    hgemm)
      hm=$(cd "$C/hgemm" && ls src/simt_naive.cu src/wmma/*.cu src/mma/*.cu | tr '\n' ' ' | sed 's/ $//')
      printf 'hgemm\thgemm\thgemm\t--use_fast_math --expt-relaxed-constexpr -Isrc/common gt-driver.cu %s\t%s %s %s\t%s\t--param M=%s --param N=%s --param K=%s\n' \
        "$hm" "$HM_M" "$HM_N" "$HM_K" "$hm" "$HM_M" "$HM_N" "$HM_K" >>"$L" ;;
    fastgemv)
      fl="--block gemv_fp16:$FG_BX,$FG_BY --block gemv_quantized_int8:$FG_BX,$FG_BY"
      fl+=" --block gemv_quantized_int4:$FG_BX,$FG_BY --param n=$FG_SIZE"
      fl+=" --param num_per_thread=$((FG_SIZE / FG_BX)) --param mat_size=$((FG_SIZE / 2))"
      for b in 16 8 4; do
        nv="-std=c++17 main.cpp test_gemv.cu fast_gemv.cu utility.cu"
        [ "$b" = 16 ] || nv="=fastgemv16"
        printf 'fastgemv\tfastgemv%s\tfastgemv\t%s\t-s %s -x %s -y %s -i 1 -b %s\tfast_gemv.cu test_gemv.cu utility.cu\t%s\n' \
          "$b" "$nv" "$FG_SIZE" "$FG_BX" "$FG_BY" "$b" "$fl" >>"$L"
      done ;;
    llama-awq)
      printf 'llama-awq\tawq-7b\tllama-awq\t-include gt-cub-max-compat.h gt-driver.cu\t4096 11008 32 32 32000 4096 1 %s\tllama2_q4.cu\t%s\n' \
        "$AWQ_POS" "$(awq_params 4096 11008 32 32 32000 4096 "$AWQ_POS")" >>"$L"
      printf 'llama-awq\tawq-gqa-long\tllama-awq\t=awq-7b\t8192 28672 64 8 32000 16384 1 %s\tllama2_q4.cu\t%s\n' \
        "$AWQ_LONG_POS" "$(awq_params 8192 28672 64 8 32000 16384 "$AWQ_LONG_POS")" >>"$L" ;;
  esac
done
echo "prepared $(grep -vc '^#' "$L") programs of ${#have[@]} suites in $C ($(du -sh "$C" | cut -f1))"
