// Values a loop computes without a closed form, from inputs the same in all
// lanes of a warp: MLX's general (strided) kernels index a row with
// threadIdx.y and turn it into a memory offset by a loop over a run-time
// number of dimensions (`elem_to_loc`), then read the row's elements with
// threadIdx.x. Issue 26, fortieth session: 13,426 of MLX's 14,973 unknowns
// ("a_loc, its value after the loop at utils.cuh:333 (the trip count is
// not known)"). Whatever the loop computes, it computes from its inputs:
// where every per-lane input is the same in a warp's lanes (a block of
// 32-thread rows), so is the result, an offset like any uniform unknown.
// A loop that reads the lane running it (threadIdx, in a function it
// calls too), or whose
// inputs differ between the lanes (candle's `get_strided_index(i, ...)`
// with i from threadIdx.x; rows of 16 threads) stays unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32,8 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=16,16 %s | FileCheck %s --check-prefix=HALF
// RUN: %coalesce-lint --format=json --fail-on=never --block=32,8 %s | FileCheck %s --check-prefix=WHY
// RUN: %coalesce-lint --self-check --fail-on=never --block=32,8 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 20 memory operations in the census of 4 kernels, 0 missing from the report
// Rows of 16 threads: two rows in a warp, the offsets differ.
// HALF: loop-inputs.cu:57:30: access: kernel=copy_rows op=load base=in elem=4 expr='in[loc + x * stride_x]' sectors=n/a ideal=n/a class=unknown
// WHY-DAG: "reason": "address depends on a per-lane value the engine cannot model: loc, its value after the loop at loop-inputs.cu:38 (the trip count is not known)"
// WHY-DAG: "reason": "address depends on a per-lane value the engine cannot model: loc, its value after the loop at loop-inputs.cu:79 (the trip count is not known)"
// WHY-DAG: "reason": "address depends on a per-lane value the engine cannot model: loc, its value after the loop at loop-inputs.cu:97 (the trip count is not known)"
// WHY-DAG: "'loc' is computed from values the same in all lanes of a warp: the same value in all its lanes"
#include <cuda_runtime.h>
#include <cstdint>

struct Shape {
  int s[8];
};
struct Strides {
  int64_t s[8];
};

__device__ int64_t elem_to_loc(int64_t elem, const int *shape,
                               const int64_t *strides, int ndim) {
  int64_t loc = 0;
  for (int i = ndim - 1; i >= 0; --i) {
    loc += (elem % shape[i]) * strides[i];
    elem /= shape[i];
  }
  return loc;
}

// MLX's copy_g: the row from threadIdx.y, its offset by the loop, the
// row's elements by threadIdx.x at the innermost stride.
__global__ void copy_rows(const float *in, float *out, Shape shape,
                          Strides strides, int ndim, int64_t rows) {
  int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  int shape_x = shape.s[ndim - 1];
  int64_t stride_x = strides.s[ndim - 1];
  int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  int64_t loc = elem_to_loc(row * shape_x, shape.s, strides.s, ndim);
  if (x < shape_x)
    out[row * shape_x + x] = in[loc + x * stride_x];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=copy_rows op=store base=out elem=4 expr='out[row * shape_x + x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:30: access: kernel=copy_rows op=load base=in elem=4 expr='in[loc + x * stride_x]' sectors=32 ideal=4 class=strided {{.*}}
}

// The element from threadIdx.x (candle's unary kernels): each lane its own
// offset, not known.
__global__ void copy_elements(const float *in, float *out, Shape shape,
                              Strides strides, int ndim, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[elem_to_loc(i, shape.s, strides.s, ndim)];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=copy_elements op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:14: access: kernel=copy_elements op=load base=in elem=4 expr='in[elem_to_loc(i, shape.s, strides.s, ndim)]' sectors=n/a ideal=n/a class=unknown {{.*}}
}

// The loop reads threadIdx.x itself: its result is not a function of the
// row alone.
__global__ void lane_in_loop(const float *in, float *out, const int *shape,
                             int ndim) {
  int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
  int64_t loc = 0;
  for (int i = ndim - 1; i >= 0; --i) {
    loc += (row % shape[i]) * (threadIdx.x & 1);
// CHECK-DAG: [[@LINE-1]]:19: access: kernel=lane_in_loop op=load base=shape elem=4 expr='shape[i]' sectors=1 ideal=4 class=uniform {{.*}}
    row /= shape[i];
// CHECK-DAG: [[@LINE-1]]:12: access: kernel=lane_in_loop op=load base=shape elem=4 expr='shape[i]' sectors=1 ideal=4 class=uniform {{.*}}
  }
  out[threadIdx.x] = in[loc + threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=lane_in_loop op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:22: access: kernel=lane_in_loop op=load base=in elem=4 expr='in[loc + threadIdx.x]' sectors=n/a ideal=n/a class=unknown {{.*}}
}

// A function the loop calls reads threadIdx.x: the same.
__device__ int lane_bit() { return threadIdx.x & 1; }

__global__ void lane_in_callee(const float *in, float *out, const int *shape,
                               int ndim) {
  int64_t row = blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
  int64_t loc = 0;
  for (int i = ndim - 1; i >= 0; --i) {
    loc += (row % shape[i]) * lane_bit();
// CHECK-DAG: [[@LINE-1]]:19: access: kernel=lane_in_callee op=load base=shape elem=4 expr='shape[i]' sectors=1 ideal=4 class=uniform {{.*}}
    row /= shape[i];
// CHECK-DAG: [[@LINE-1]]:12: access: kernel=lane_in_callee op=load base=shape elem=4 expr='shape[i]' sectors=1 ideal=4 class=uniform {{.*}}
  }
  out[threadIdx.x] = in[loc + threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=lane_in_callee op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:22: access: kernel=lane_in_callee op=load base=in elem=4 expr='in[loc + threadIdx.x]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
