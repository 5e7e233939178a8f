// Values a loop without a closed form computes from inputs the same in all
// lanes of a warp (see loop-inputs.cu), in kernels a synthesized launch can
// run: the row of a 32x8 block from threadIdx.y, its offset by a loop over
// a run-time number of digits, each row 64 floats (256 bytes) apart so that
// the offset keeps the row's sectors aligned.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32,8 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never --block=32,8 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// GPU-ARGS: --block=32,8 --param ndim=3 --param stride=2
// CENSUS: self-check: 6 memory operations in the census of 3 kernels, 0 missing from the report
#include <cuda_runtime.h>

__device__ int row_offset(int row, int ndim) {
  int loc = 0;
  for (int i = ndim - 1; i >= 0; --i) {
    loc += (row % 3) * 64;
    row /= 3;
  }
  return loc;
}

// Each warp reads 32 consecutive floats of its row: 4 sectors.
__global__ void rows_coalesced(const float *in, float *out, int ndim) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int loc = row_offset(row, ndim);
  out[row * 32 + threadIdx.x] = in[loc + threadIdx.x];
}

// The same rows read at a stride: 8 sectors with stride 2.
__global__ void rows_strided(const float *in, float *out, int ndim,
                             int stride) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int loc = row_offset(row, ndim);
  out[row * 32 + threadIdx.x] = in[loc + threadIdx.x * stride];
}

// The offset of each lane's own element (from threadIdx.x): different in
// every lane, not known.
__global__ void lanes_own(const float *in, float *out, int ndim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int loc = row_offset(i, ndim);
  out[i] = in[loc];
}

// The lines the GPU measured stay where they were: the expectations are here.
// CHECK-DAG: loop-inputs-rows.cu:25:3: access: kernel=rows_coalesced op=store base=out elem=4 expr='out[row * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: loop-inputs-rows.cu:25:33: access: kernel=rows_coalesced op=load base=in elem=4 expr='in[loc + threadIdx.x]' sectors=4 ideal=4 worst=5 class=misaligned {{.*}}
// CHECK-DAG: loop-inputs-rows.cu:33:3: access: kernel=rows_strided op=store base=out elem=4 expr='out[row * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: loop-inputs-rows.cu:33:33: access: kernel=rows_strided op=load base=in elem=4 expr='in[loc + threadIdx.x * stride]' sectors=32 ideal=4 class=strided {{.*}}
// CHECK-DAG: loop-inputs-rows.cu:41:3: access: kernel=lanes_own op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: loop-inputs-rows.cu:41:12: access: kernel=lanes_own op=load base=in elem=4 expr='in[loc]' sectors=n/a ideal=n/a class=unknown {{.*}}
