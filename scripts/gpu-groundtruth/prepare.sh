#!/usr/bin/env bash
# Copies the sources of the ground-truth programs into .gt-carry/ (ignored by
# git, carried to the GPU machine with `carry: [".gt-carry"]`) and writes
# .gt-carry/programs.tsv, the list device-run.sh, lines.py and compare.py read.
#
#   bash scripts/gpu-groundtruth/prepare.sh [SUITES_DIR]
#
# SUITES_DIR (default /work/.gt-suites) holds checkouts of
#   cavazos-lab+PolyBench-ACC  (github.com/cavazos-lab/PolyBench-ACC)
#   NVIDIA+cuda-samples        (github.com/NVIDIA/cuda-samples)
# The commits used are written to .gt-carry/suites.txt.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SUITES=${1:-/work/.gt-suites}
PB=$SUITES/cavazos-lab+PolyBench-ACC
CS=$SUITES/NVIDIA+cuda-samples
C=$ROOT/.gt-carry
mkdir -p "$ROOT/.git/info"
grep -qx '/.gt-carry/' "$ROOT/.git/info/exclude" 2>/dev/null || echo '/.gt-carry/' >>"$ROOT/.git/info/exclude"
rm -rf "$C"; mkdir -p "$C/polybench" "$C/cuda-samples/Samples"
commit() {  # DIR -> commit id (a git checkout, or a copy with a .suite-commit file)
  if [ -f "$1/.suite-commit" ]; then awk '{print $1; exit}' "$1/.suite-commit"
  else git -C "$1" rev-parse HEAD; fi
}
{
  echo "polybench	$(commit "$PB")	github.com/cavazos-lab/PolyBench-ACC"
  echo "cuda-samples	$(commit "$CS")	github.com/NVIDIA/cuda-samples"
} >"$C/suites.txt"

# ---- PolyBench-ACC (CUDA): every program, MINI_DATASET -----------------------
cp -r "$PB/CUDA" "$C/polybench/CUDA"
find "$C/polybench" -type f ! -name '*.cu' ! -name '*.cuh' ! -name '*.h' ! -name '*.c' -delete

# ---- cuda-samples: programs that need no input file and no library -----------
SAMPLES="0_Introduction/vectorAdd 0_Introduction/matrixMul 0_Introduction/mergeSort
0_Introduction/simpleTemplates 6_Performance/transpose 6_Performance/alignedTypes
2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/scan
2_Concepts_and_Techniques/histogram 2_Concepts_and_Techniques/convolutionSeparable
2_Concepts_and_Techniques/scalarProd 2_Concepts_and_Techniques/sortingNetworks
2_Concepts_and_Techniques/shfl_scan 2_Concepts_and_Techniques/threadFenceReduction
5_Domain_Specific/fastWalshTransform 5_Domain_Specific/BlackScholes
5_Domain_Specific/binomialOptions 5_Domain_Specific/quasirandomGenerator
5_Domain_Specific/SobolQRNG 5_Domain_Specific/FDTD3d
3_CUDA_Features/globalToShmemAsyncCopy"
mkdir -p "$C/cuda-samples/Common"
cp "$CS"/Common/*.h "$C/cuda-samples/Common/"
for s in $SAMPLES; do
  mkdir -p "$C/cuda-samples/Samples/$s"
  (cd "$CS/Samples/$s" && find . -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) \
     -exec cp --parents {} "$C/cuda-samples/Samples/$s/" \;)
done

# ---- the program list ----------------------------------------------------------
# columns: suite  name  dir (relative to .gt-carry; cwd of build and run)
#          nvcc-args (after `nvcc -O3 -arch=sm_90 -lineinfo -o BIN`; "=NAME" reuses
#          NAME's binary)  run-args  lint-files (space-separated, relative to dir)
L=$C/programs.tsv
printf '#suite\tname\tdir\tnvcc_args\trun_args\tlint_files\n' >"$L"
PBDEF='-DMINI_DATASET -DcudaThreadSynchronize=cudaDeviceSynchronize'
(cd "$C/polybench/CUDA" && find . -name '*.cu' | sort) | while read -r f; do
  d=${f%/*}; d=${d#./}; n=$(basename "$f" .cu)
  up=$(echo "$d" | sed 's|[^/]*|..|g')      # back to CUDA/
  extra=
  case $n in
    jacobi1D) extra='-DTSTEPS=20 -DN=1024' ;;           # MINI has 10000 steps
    fdtd2d)   extra='-DTMAX=20 -DNX=512 -DNY=512' ;;     # MINI has 500 steps
  esac
  printf 'polybench\t%s\tpolybench/CUDA/%s\t%s %s -I%s/utilities %s.cu\t\t%s.cu\n' \
    "pb-$n" "$d" "$PBDEF" "$extra" "$up" "$n" "$n" >>"$L"
done
cs() { printf 'cuda-samples\t%s\tcuda-samples/Samples/%s\t-I../../../Common %s\t%s\t%s\n' "$@" >>"$L"; }
I=0_Introduction; P=6_Performance; T=2_Concepts_and_Techniques; D=5_Domain_Specific; F=3_CUDA_Features
cs vectorAdd      $I/vectorAdd      'vectorAdd.cu' '' 'vectorAdd.cu'
cs matrixMul      $I/matrixMul      'matrixMul.cu' '' 'matrixMul.cu'
cs mergeSort      $I/mergeSort      'mergeSort.cu bitonic.cu main.cpp mergeSort_host.cpp mergeSort_validate.cpp' '' 'mergeSort.cu bitonic.cu'
cs simpleTemplates $I/simpleTemplates 'simpleTemplates.cu' '' 'simpleTemplates.cu'
cs transpose      $P/transpose      'transpose.cu' '' 'transpose.cu'
cs alignedTypes   $P/alignedTypes   'alignedTypes.cu' '' 'alignedTypes.cu'
cs reduction      $T/reduction      'reduction.cpp reduction_kernel.cu' '' 'reduction_kernel.cu'
for k in 0 1 2 3 4 5; do
  printf 'cuda-samples\treduction-k%s\tcuda-samples/Samples/%s\t=reduction\t--kernel=%s\treduction_kernel.cu\n' $k $T/reduction $k >>"$L"
done
cs scan           $T/scan           'main.cpp scan_gold.cpp scan.cu' '' 'scan.cu'
cs histogram      $T/histogram      'histogram256.cu histogram64.cu histogram_gold.cpp main.cpp' '' 'histogram256.cu histogram64.cu'
cs convolutionSeparable $T/convolutionSeparable 'convolutionSeparable.cu convolutionSeparable_gold.cpp main.cpp' '' 'convolutionSeparable.cu'
cs scalarProd     $T/scalarProd     'scalarProd_cpu.cpp scalarProd.cu' '' 'scalarProd.cu'
cs sortingNetworks $T/sortingNetworks 'main.cpp bitonicSort.cu oddEvenMergeSort.cu sortingNetworks_validate.cpp' '' 'bitonicSort.cu oddEvenMergeSort.cu'
cs shfl_scan      $T/shfl_scan      'shfl_scan.cu' '' 'shfl_scan.cu'
cs threadFenceReduction $T/threadFenceReduction 'threadFenceReduction.cu' '' 'threadFenceReduction.cu'
cs fastWalshTransform $D/fastWalshTransform 'fastWalshTransform.cu fastWalshTransform_gold.cpp' '' 'fastWalshTransform.cu'
cs BlackScholes   $D/BlackScholes   'BlackScholes.cu BlackScholes_gold.cpp' '' 'BlackScholes.cu'
cs binomialOptions $D/binomialOptions 'binomialOptions.cpp binomialOptions_gold.cpp binomialOptions_kernel.cu' '' 'binomialOptions_kernel.cu'
cs quasirandomGenerator $D/quasirandomGenerator 'quasirandomGenerator.cpp quasirandomGenerator_gold.cpp quasirandomGenerator_kernel.cu' '' 'quasirandomGenerator_kernel.cu'
cs SobolQRNG      $D/SobolQRNG      'sobol_gold.cpp sobol_gpu.cu sobol_primitives.cpp sobol.cpp' '' 'sobol_gpu.cu'
cs FDTD3d         $D/FDTD3d         '-Iinc src/FDTD3d.cpp src/FDTD3dGPU.cu src/FDTD3dReference.cpp' '--dimx=128 --dimy=128 --dimz=128 --timesteps=2' 'src/FDTD3dGPU.cu'
cs globalToShmemAsyncCopy $F/globalToShmemAsyncCopy 'globalToShmemAsyncCopy.cu' '' 'globalToShmemAsyncCopy.cu'

echo "prepared $(grep -vc '^#' "$L") programs in $C ($(du -sh "$C" | cut -f1))"
