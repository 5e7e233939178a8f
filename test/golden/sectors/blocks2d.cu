// 2-D blocks 16x16 and 32x8 reading rows of W floats, with row widths that
// are a multiple of 8 elements (32 bytes) and ones that are not.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param W=1024 --param V=1001 --param U=1020 %s | FileCheck %s
// RUN: %not %coalesce-lint --param W=1024 --param V=1001 --param U=1020 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param W=1024 --param V=1001 --param U=1020
//
// Lane (tx, ty) of warp w reads a[y*W + x], x = 16*blockIdx.x + tx (or 32*),
// y = 16*blockIdx.y + ty (or 8*). blockIdx.x shifts by 64 (128) bytes and
// blockIdx.y by 16*4*W (8*4*W) bytes, a multiple of 32 for every W here,
// so the average over the rows of one block is exact. A row of 4*W bytes
// starts at byte 4*W*ty mod 32 of a sector.
//
// 16x16: a warp is rows ty = 2w and 2w+1, 16 floats (64 bytes) each: 2
//   sectors for a row starting on a sector, 3 otherwise. Ideal 4.
//   W = 1024: 4*W = 0 mod 32: 2 + 2 = 4.
//   V = 1001: 4*V = 4004 = 4 mod 32: a row starts on a sector only for
//     ty = 0, 8: (2*2 + 14*3) / 8 warps = 46/8 = 5.75.
//   U = 1020: 4*U = 4080 = 16 mod 32: rows alternate 0, 16: 2 + 3 = 5.
// 32x8: a warp is one row of 32 floats (128 bytes): 4 or 5 sectors. Ideal 4.
//   W = 1024: 4.   V = 1001: ty = 0 aligned, 7 not: (4 + 7*5)/8 = 4.875.
//   U = 1020: ty even aligned: (4 + 5)/2 = 4.5.
// The stores out[y*1024 + x] are aligned rows: 4. (Averages print with two
// decimals: 4.875 shows as 4.88.)
// No bounds check: the grids cover x < 1008 (1024), y < 128, and every
// thread reads; the store pitch 1024 keeps the writes disjoint.
#include <cuda_runtime.h>

__global__ void rows16x16W(float *out, const float *a, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = a[y * W + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=rows16x16W op=store base=out elem=4 expr='out[y * 1024 + x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:23: access: kernel=rows16x16W op=load base=a elem=4 expr='a[y * W + x]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: blocks2d.cu:[[@LINE-3]]:{{.*}}warning
}

__global__ void rows16x16V(float *out, const float *a, int V) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = a[y * V + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=rows16x16V op=store base=out elem=4 expr='out[y * 1024 + x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:23: access: kernel=rows16x16V op=load base=a elem=4 expr='a[y * V + x]' sectors=5.75 ideal=4 class=misaligned
  // WARN: blocks2d.cu:[[@LINE-3]]:23: warning: misaligned load
}

__global__ void rows16x16U(float *out, const float *a, int U) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = a[y * U + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=rows16x16U op=store base=out elem=4 expr='out[y * 1024 + x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:23: access: kernel=rows16x16U op=load base=a elem=4 expr='a[y * U + x]' sectors=5 ideal=4 class=misaligned
}

__global__ void rows32x8W(float *out, const float *a, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = a[y * W + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=rows32x8W op=store base=out elem=4 expr='out[y * 1024 + x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:23: access: kernel=rows32x8W op=load base=a elem=4 expr='a[y * W + x]' sectors=4 ideal=4 class=coalesced
}

__global__ void rows32x8V(float *out, const float *a, int V) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = a[y * V + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=rows32x8V op=store base=out elem=4 expr='out[y * 1024 + x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:23: access: kernel=rows32x8V op=load base=a elem=4 expr='a[y * V + x]' sectors=4.88 ideal=4 class=misaligned
}

__global__ void rows32x8U(float *out, const float *a, int U) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 1024 + x] = a[y * U + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=rows32x8U op=store base=out elem=4 expr='out[y * 1024 + x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:23: access: kernel=rows32x8U op=load base=a elem=4 expr='a[y * U + x]' sectors=4.5 ideal=4 class=misaligned
}
// CHECK-NOT: access:

int main() {
  float *a, *o;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&o, 64 << 20);
  rows16x16W<<<dim3(63, 8), dim3(16, 16)>>>(o, a, 1024);
  rows16x16V<<<dim3(63, 8), dim3(16, 16)>>>(o, a, 1001);
  rows16x16U<<<dim3(63, 8), dim3(16, 16)>>>(o, a, 1020);
  rows32x8W<<<dim3(32, 16), dim3(32, 8)>>>(o, a, 1024);
  rows32x8V<<<dim3(32, 16), dim3(32, 8)>>>(o, a, 1001);
  rows32x8U<<<dim3(32, 16), dim3(32, 8)>>>(o, a, 1020);
  cudaDeviceSynchronize();
  return 0;
}
