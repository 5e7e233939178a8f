// A kernel's by-value `cuda::std::array` (MLX's Shape and Strides, passed
// `const __grid_constant__`) is in parameter space: an element read through
// operator[] or through the pointer data() returns, in the kernel or in a
// function given that pointer, is excluded like any read of a kernel
// argument, and its value is the same in every lane (issue 26,
// thirty-eighth session: MLX's CUDA back end at first contact had 103,447
// accesses "cannot follow the pointer 'shape'", and the values read through
// it unknown per lane). A thread's own cuda::std::array stays the thread's.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never --block=256 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// RUN: %coalesce-lint --format=json --fail-on=never --block=256 %s | FileCheck %s --check-prefix=JSON

// CENSUS: self-check: 9 memory operations in the census of 3 kernels, 0 missing from the report
#include <cuda/std/array>
#include <cstdint>

using Shape = cuda::std::array<int32_t, 8>;
using Strides = cuda::std::array<int64_t, 8>;

__device__ int64_t locOf(int64_t elem, const int *shape, const int64_t *strides,
                         int ndim) {
  int64_t loc = 0;
  for (int i = ndim - 1; i >= 0; --i) {
    loc += (elem % shape[i]) * strides[i];
    elem /= shape[i];
  }
  return loc;
}

// The row's start is one value per block; lanes step by the last stride.
__global__ void rows(const float *in, float *out, const __grid_constant__ Shape shape,
                     const __grid_constant__ Strides strides, int ndim) {
  int64_t x = blockIdx.x * blockDim.x + threadIdx.x;
  int64_t start = locOf(int64_t(blockIdx.y) * shape[ndim - 1], shape.data(),
                        strides.data(), ndim);
  out[blockIdx.y * blockDim.x * gridDim.x + x] = in[start + x];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=rows op=store base=out elem=4 expr='out[blockIdx.y * blockDim.x * gridDim.x + x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:50: access: kernel=rows op=load base=in elem=4 expr='in[start + x]' sectors=4 ideal=4 worst=5 class=misaligned {{.*}}
}

// The last stride through data(), as a pointer kept in a variable.
__global__ void lastStride(const float *in, float *out,
                           const __grid_constant__ Strides strides, int ndim) {
  const int64_t *s = strides.data();
  out[threadIdx.x] = in[threadIdx.x * s[ndim - 1]];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=lastStride op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:22: access: kernel=lastStride op=load base=in elem=4 expr='in[threadIdx.x * s[ndim - 1]]' sectors=32 ideal=4 class=strided {{.*}}
}
// JSON: "assuming s[ndim - 1] >= 8 (s[ndim - 1] = 1024 used)"

// A cuda::std::array of the thread's own is the thread's local memory; the
// stores through its operator[] are not followed element by element (yet):
// the value read back is unknown, named as the user wrote it.
__global__ void ownArray(float *out) {
  cuda::std::array<int, 2> k;
  k[0] = threadIdx.x;
  k[1] = 2 * threadIdx.x;
  out[k[1]] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=ownArray op=store base=out elem=4 expr='out[k[1]]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
// JSON: "address depends on a per-lane value the engine cannot model: 'k[1]' is read back from the thread's local memory ('__elems_'), whose stores the analysis does not follow there"
