// Divergent branches, partial warps and early-return guards.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=65536 %s | FileCheck %s
// RUN: %not %coalesce-lint --param n=65536 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param n=65536
#include <cuda_runtime.h>

// Half a warp: lanes 0..15 access 16 contiguous floats (64 bytes at a
// multiple of 128): 2 sectors; ideal ceil(16*4/32) = 2. Both branches alike.
__global__ void halfWarp(float *a, float *b, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 < 16)
    a[i] = in[i];
  else
    b[i] = 2.0f;
  // CHECK: [[@LINE-3]]:5: access: kernel=halfWarp op=store base=a elem=4 expr='a[i]' sectors=2 ideal=2 class=coalesced
  // CHECK: [[@LINE-4]]:12: access: kernel=halfWarp op=load base=in elem=4 expr='in[i]' sectors=2 ideal=2 class=coalesced
  // CHECK: [[@LINE-3]]:5: access: kernel=halfWarp op=store base=b elem=4 expr='b[i]' sectors=2 ideal=2 class=coalesced
  // WARN-NOT: divergence.cu:[[@LINE-7]]:{{.*}}warning
}

// Even lanes only: 16 lanes at byte 8k, k = 0..15, span 128 bytes: 4
// sectors; ideal ceil(16*4/32) = 2. Not contiguous: strided.
__global__ void evenLanes(float *out, const float *in) {
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  if (tid % 2 == 0)
    out[i] = in[i];
  // CHECK: [[@LINE-1]]:5: access: kernel=evenLanes op=store base=out elem=4 expr='out[i]' sectors=4 ideal=2 class=strided
  // CHECK: [[@LINE-2]]:14: access: kernel=evenLanes op=load base=in elem=4 expr='in[i]' sectors=4 ideal=2 class=strided
  // WARN: divergence.cu:[[@LINE-3]]:5: warning: uncoalesced store
}

// Early-return guard; n = 65536 = grid * block, so every lane passes: 4.
__global__ void earlyReturn(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = 2.0f * in[i];
  // CHECK: [[@LINE-1]]:3: access: kernel=earlyReturn op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:19: access: kernel=earlyReturn op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
}

// Blocks of 48 threads: warp 0 is full (128 bytes at 192*blockIdx.x, a
// multiple of 32: 4 sectors, ideal 4); warp 1 has 16 lanes (64 bytes at
// 192*b + 128: 2 sectors, ideal 2). Average (4 + 2)/2 = 3, ideal 3.
__global__ void partialWarp(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=partialWarp op=store base=out elem=4 expr='out[i]' sectors=3 ideal=3 class=coalesced
  // CHECK: [[@LINE-2]]:12: access: kernel=partialWarp op=load base=in elem=4 expr='in[i]' sectors=3 ideal=3 class=coalesced
}

// Only the first 16 threads of a block: one request per block, 2 sectors.
__global__ void firstHalfWarp(float *out) {
  if (threadIdx.x < 16)
    out[blockIdx.x * 16 + threadIdx.x] = 1.0f;
  // CHECK: [[@LINE-1]]:5: access: kernel=firstHalfWarp op=store base=out elem=4 expr='out[blockIdx.x * 16 + threadIdx.x]' sectors=2 ideal=2 class=coalesced
}

// A lane-dependent condition on a loop counter: lanes 0..k-1 for k = 0..31
// (k = 0 issues no request). Active lanes are one contiguous run starting at
// a sector: ceil(4k/32) sectors = ideal. Over the 31 requests k = 1..31:
// (8*1 + 8*2 + 8*3 + 7*4) / 31 = 76/31 = 2.45 sectors, ideal the same.
// (Every iteration of the bounded loop is sampled, not just k = 0..7.)
__global__ void triangle(float *out) {
  for (int k = 0; k < 32; ++k)
    if (threadIdx.x % 32 < k)
      out[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
  // CHECK: [[@LINE-1]]:7: access: kernel=triangle op=load+store base=out elem=4 expr='out[blockIdx.x * blockDim.x + threadIdx.x]' sectors=2.45 ideal=2.45 class=coalesced
}
// CHECK-NOT: access:

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&c, 64 << 20);
  halfWarp<<<256, 256>>>(a, b, c);
  evenLanes<<<256, 256>>>(a, c);
  earlyReturn<<<256, 256>>>(a, c, 65536);
  partialWarp<<<256, 48>>>(a, c);
  firstHalfWarp<<<256, 256>>>(a);
  triangle<<<64, 256>>>(a);
  cudaDeviceSynchronize();
  return 0;
}
