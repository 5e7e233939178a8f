// A library on the system include path (-isystem): its kernels are not the
// user's, its host function's launch is not the user's launch, and what it
// includes is a system header too (inner.cuh, although on the user's path).
#pragma once
#include <cuda_runtime.h>

#define LIB_NAMESPACE_BEGIN namespace lib {
#define LIB_NAMESPACE_END }

namespace lib {
__global__ void libKernel(float *p, int s) { p[threadIdx.x * s] = 0.f; }

template <typename K> void launchWith64(K k, float *p) { k<<<1, 64>>>(p, 1); }

#include "inner.cuh"
} // namespace lib
