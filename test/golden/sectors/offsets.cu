// Constant offsets `in[i + off]` on floats: the seed article's measured table
// (4.00 for off = 0, 8, 16, 32; 5.00 for 1, 2, 7, 31).
// RUN: %coalesce-lint --print-accesses --fail-on=never --param off=3 --param n=1048576 %s | FileCheck %s
// RUN: %not %coalesce-lint --param off=3 --param n=1048576 %s | FileCheck %s --check-prefix=WARN
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --check-prefix=DEFAULT
// GPU-ARGS: --param off=3 --param n=1048576
//
// Lane l reads the 4 bytes at 4*(256*blockIdx.x + 32w + l + off): warps and
// blocks shift by multiples of 128 bytes, so each request covers the 128
// bytes starting at 4*off mod 32. That is 4 sectors when 4*off is a multiple
// of 32 (off = 0, 8, 16, 24, 32), else the 128 bytes straddle one more
// sector: 5. Ideal ceil(32*4/32) = 4.
#include <cuda_runtime.h>

__global__ void constantOffsets(float *o, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  s += in[i + 0];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 0]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: offsets.cu:[[@LINE-2]]:{{.*}}warning
  s += in[i + 1];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 1]' sectors=5 ideal=4 class=misaligned
  // WARN: offsets.cu:[[@LINE-2]]:8: warning: misaligned load
  s += in[i + 2];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 2]' sectors=5 ideal=4 class=misaligned
  s += in[i + 3];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 3]' sectors=5 ideal=4 class=misaligned
  s += in[i + 4];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 4]' sectors=5 ideal=4 class=misaligned
  s += in[i + 5];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 5]' sectors=5 ideal=4 class=misaligned
  s += in[i + 6];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 6]' sectors=5 ideal=4 class=misaligned
  s += in[i + 7];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 7]' sectors=5 ideal=4 class=misaligned
  s += in[i + 8];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 8]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: offsets.cu:[[@LINE-2]]:{{.*}}warning
  s += in[i + 16];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 16]' sectors=4 ideal=4 class=coalesced
  s += in[i + 31];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 31]' sectors=5 ideal=4 class=misaligned
  s += in[i + 32];
  // CHECK: [[@LINE-1]]:8: access: kernel=constantOffsets op=load base=in elem=4 expr='in[i + 32]' sectors=4 ideal=4 class=coalesced
  o[i] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=constantOffsets op=store base=o elem=4 expr='o[i]' sectors=4 ideal=4 class=coalesced
}

// The seed's kernel (sumArraysGPU): the offset is a parameter. With
// --param off=3 both loads cost 5 (4*3 = 12 bytes into a sector); the store
// is aligned.
__global__ void seedOffset(float *a, float *b, float *res, int off, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = i + off;
  if (k < n)
    res[i] = a[k] + b[k];
  // CHECK: [[@LINE-1]]:5: access: kernel=seedOffset op=store base=res elem=4 expr='res[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:14: access: kernel=seedOffset op=load base=a elem=4 expr='a[k]' sectors=5 ideal=4 class=misaligned
  // CHECK: [[@LINE-3]]:21: access: kernel=seedOffset op=load base=b elem=4 expr='b[k]' sectors=5 ideal=4 class=misaligned
  // Without --param, the launch in main gives off = 3 and n = 1 << 20,
  // exactly as --param would.
  // DEFAULT: [[@LINE-6]]:14: access: kernel=seedOffset op=load base=a elem=4 expr='a[k]' sectors=5 ideal=4 class=misaligned
  // DEFAULT: [[@LINE-7]]:14: note: n = 1048576, off = 3 from the launch at {{.*}}offsets.cu:[[#@LINE+10]]
}
// CHECK-NOT: access:

int main() {
  float *a, *b, *o;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&o, 64 << 20);
  constantOffsets<<<256, 256>>>(o, a);
  seedOffset<<<256, 256>>>(a, b, o, 3, 1 << 20);
  cudaDeviceSynchronize();
  return 0;
}
