// Broadcasts (one address per warp or per block) and reversed indices.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=1048576 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --fail-on=never --param n=1048576 %s | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
// GPU-ARGS: --param n=1048576
#include <cuda_runtime.h>

// All 32 lanes on one float: 1 sector. Ideal ceil(32*4/32) = 4 (the
// contiguous cost of 32 lanes' bytes), so a broadcast is never a finding.
__global__ void broadcasts(float *out, float *perBlock, const float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = a[0];
  // CHECK: [[@LINE-1]]:13: access: kernel=broadcasts op=load base=a elem=4 expr='a[0]' sectors=1 ideal=4 class=uniform
  s += a[blockIdx.x];
  // CHECK: [[@LINE-1]]:8: access: kernel=broadcasts op=load base=a elem=4 expr='a[blockIdx.x]' sectors=1 ideal=4 class=uniform
  // threadIdx.x / 32 is the warp number: one address per warp.
  s += a[threadIdx.x / 32];
  // CHECK: [[@LINE-1]]:8: access: kernel=broadcasts op=load base=a elem=4 expr='a[threadIdx.x / 32]' sectors=1 ideal=4 class=uniform
  // threadIdx.x / 8: 4 floats (16 bytes) in one sector, 8 lanes each.
  s += a[threadIdx.x / 8];
  // CHECK: [[@LINE-1]]:8: access: kernel=broadcasts op=load base=a elem=4 expr='a[threadIdx.x / 8]' sectors=1 ideal=4 class=coalesced
  // threadIdx.x % 8: 8 floats (32 bytes), one sector.
  s += a[threadIdx.x % 8];
  // CHECK: [[@LINE-1]]:8: access: kernel=broadcasts op=load base=a elem=4 expr='a[threadIdx.x % 8]' sectors=1 ideal=4 class=coalesced
  out[i] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=broadcasts op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
  // One lane per block: one request of 1 sector, ideal ceil(1*4/32) = 1.
  if (threadIdx.x == 0)
    perBlock[blockIdx.x] = s;
  // CHECK: [[@LINE-1]]:5: access: kernel=broadcasts op=store base=perBlock elem=4 expr='perBlock[blockIdx.x]' sectors=1 ideal=1 class=uniform
  // WARN-NOT: warning:
}

// Reversed indices. a[31 - threadIdx.x % 32]: the warp's 32 floats in
// reverse order, the same 128 aligned bytes: 4.
// a[n - 1 - i] with n = 2^20: warp w of block b reads indices
// n - 32 - 32(8b + w) .. n - 1 - 32(8b + w): 128 bytes starting at a multiple
// of 128: 4.
__global__ void reversed(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = a[31 - threadIdx.x % 32];
  // CHECK: [[@LINE-1]]:13: access: kernel=reversed op=load base=a elem=4 expr='a[31 - threadIdx.x % 32]' sectors=4 ideal=4 class=coalesced
  s += a[n - 1 - i];
  // CHECK: [[@LINE-1]]:8: access: kernel=reversed op=load base=a elem=4 expr='a[n - 1 - i]' sectors=4 ideal=4 class=coalesced
  out[n - 1 - i] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=reversed op=store base=out elem=4 expr='out[n - 1 - i]' sectors=4 ideal=4 class=coalesced
}

// The block-reversed variant with a 1-element shift, n - i (not n - 1 - i):
// indices n - 31 - 32k .. n - 32k: 4 bytes into a sector: 5.
__global__ void reversedShifted(float *out, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[n - i];
  // CHECK: [[@LINE-1]]:3: access: kernel=reversedShifted op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:12: access: kernel=reversedShifted op=load base=a elem=4 expr='a[n - i]' sectors=5 ideal=4 class=misaligned
  // WARN: uniform.cu:[[@LINE-3]]:12: warning: misaligned load
  // WARN-NOT: warning:
}
// CHECK-NOT: access:

int main() {
  float *a, *o, *p;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&o, 64 << 20);
  cudaMalloc(&p, 64 << 20);
  broadcasts<<<256, 256>>>(o, p, a);
  reversed<<<256, 256>>>(o, a, 1 << 20);
  reversedShifted<<<256, 256>>>(o, a, 1 << 20);
  cudaDeviceSynchronize();
  return 0;
}
