// Index arithmetic in 64 bits and through casts.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=32 %s | FileCheck %s
// RUN: %not %coalesce-lint --param n=32 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param n=32
#include <cuda_runtime.h>
#include <cstddef>

// size_t and long long indices: the same lanes as int: 4 for unit stride,
// 8 for a stride of 2 (256 bytes), 32 for 32 (seed: in[idx * 32]).
__global__ void wideIndices(float *out, const float *in, const double *d) {
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  float s = in[i];
  // CHECK: [[@LINE-1]]:13: access: kernel=wideIndices op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
  s += in[j * 2];
  // CHECK: [[@LINE-1]]:8: access: kernel=wideIndices op=load base=in elem=4 expr='in[j * 2]' sectors=8 ideal=4 class=strided
  s += in[i * 32LL];
  // CHECK: [[@LINE-1]]:8: access: kernel=wideIndices op=load base=in elem=4 expr='in[i * 32LL]' sectors=32 ideal=4 class=strided
  s += (float)d[(int)j];
  // CHECK: [[@LINE-1]]:15: access: kernel=wideIndices op=load base=d elem=8 expr='d[(int)j]' sectors=8 ideal=8 class=coalesced
  out[(unsigned)j] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=wideIndices op=store base=out elem=4 expr='out[(unsigned)j]' sectors=4 ideal=4 class=coalesced
}

// A stride given at run time through a 64-bit product: n = 32 floats
// (128 bytes) between lanes: 32.
__global__ void wideStride(float *out, const float *in, int n) {
  unsigned u = blockIdx.x * blockDim.x + threadIdx.x;
  out[u] = in[(size_t)u * n];
  // CHECK: [[@LINE-1]]:3: access: kernel=wideStride op=store base=out elem=4 expr='out[u]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:12: access: kernel=wideStride op=load base=in elem=4 expr='in[(size_t)u * n]' sectors=32 ideal=4 class=strided
  // WARN: casts.cu:[[@LINE-3]]:12: warning: uncoalesced load
}

// Narrowing casts wrap: (unsigned char)(16 * lane) is 16*lane mod 256, so
// lanes l and l + 16 share an address: 16 floats 64 bytes apart: 16
// sectors (32 without the wrap). Ideal 4.
__global__ void narrowing(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(unsigned char)(threadIdx.x * 16)];
  // CHECK: [[@LINE-1]]:3: access: kernel=narrowing op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:12: access: kernel=narrowing op=load base=in elem=4 expr='in[(unsigned char)(threadIdx.x * 16)]' sectors=16 ideal=4 class=strided
}
// CHECK-NOT: access:

int main() {
  float *a, *o;
  double *d;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&o, 64 << 20);
  cudaMalloc(&d, 64 << 20);
  wideIndices<<<64, 256>>>(o, a, d);
  wideStride<<<64, 256>>>(o, a, 32);
  narrowing<<<64, 256>>>(o, a);
  cudaDeviceSynchronize();
  return 0;
}
