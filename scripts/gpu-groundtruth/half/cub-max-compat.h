/* cub::Max and cub::Min of CUDA 12's cub, removed in CCCL 3 (cuda::maximum<>
 * and cuda::minimum<> replace them): llama_cu_awq's gpu_kernels.h uses them.
 * The same stand-in as scripts/real-code/run-suite.sh generates; copied by
 * prepare-half.sh to .gt-carry-half/llama-awq/gt-cub-max-compat.h. */
#pragma once
#include <cub/cub.cuh>
namespace cub {
struct Max {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
}
