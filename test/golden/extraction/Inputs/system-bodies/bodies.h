// A library on the system include path (-isystem). The tool skips the bodies
// of its functions, except those the walker follows (namespace cub, curand's
// generators): the broken body below is never parsed, so it reports no error.
#pragma once
#include <cuda_runtime.h>

namespace lib {
__device__ inline void brokenHelper(float *p) { p[undeclaredName] = 0.f; }
__device__ inline void storeTwice(float *p, int i) { p[i * 2] = 0.f; }
// An object the kernel reaches through a pointer (cuco's `cuda::atomic *`).
struct counter {
  unsigned long n;
  __device__ unsigned long add(unsigned long v) { return n += v; }
};
} // namespace lib

namespace cub {
template <typename T> __device__ void storeStrided(T *p, int i, T v) {
  p[i * 2] = v;
}
} // namespace cub
