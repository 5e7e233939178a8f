#!/usr/bin/env bash
# find-cuda.sh - print the CUDA toolkit directory (one holding
# include/cuda_runtime.h), looked for in the order coalesce-lint uses:
# $CUDA_PATH, the toolkit of the nvcc on $PATH, /usr/local/cuda.
# Exit status 2, with what was tried and how to fix it on stderr, when none.
set -euo pipefail

tried=()
valid() { [[ -f $1/include/cuda_runtime.h ]]; }

if [[ -n ${CUDA_PATH:-} ]]; then
  if valid "$CUDA_PATH"; then echo "$CUDA_PATH"; exit 0; fi
  tried+=("\$CUDA_PATH=$CUDA_PATH (no include/cuda_runtime.h)")
else
  tried+=("\$CUDA_PATH (not set)")
fi

if nvcc=$(command -v nvcc 2>/dev/null); then
  # <toolkit>/bin/nvcc, possibly reached through a symbolic link.
  dir=$(dirname "$(dirname "$(realpath "$nvcc")")")
  if valid "$dir"; then echo "$dir"; exit 0; fi
  tried+=("nvcc at $nvcc -> $dir (no include/cuda_runtime.h)")
else
  tried+=("nvcc on \$PATH (not found)")
fi

dir=/usr/local/cuda
if valid "$dir"; then echo "$dir"; exit 0; fi
tried+=("$dir (no include/cuda_runtime.h)")

{
  echo "error: no CUDA toolkit found. Tried:"
  printf '  - %s\n' "${tried[@]}"
  echo "The CUDA toolkit (12.x or 13.x) is not installed by these scripts."
  echo "Install it from https://developer.nvidia.com/cuda-downloads, or point to"
  echo "an existing one:  CUDA_PATH=/path/to/cuda bash scripts/bootstrap.sh ..."
  echo "(or put its bin/ directory, holding nvcc, on PATH)."
} >&2
exit 2
