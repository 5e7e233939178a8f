// Vector types: one 8- or 16-byte access per lane (LDG.E.64 / LDG.E.128),
// and the seed's float4 copy.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param N=262144 %s | FileCheck %s
// RUN: %not %coalesce-lint --param N=262144 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param N=262144
#include <cuda_runtime.h>

// The seed's vectorized_copy: 32 lanes x 16 bytes = 512 contiguous bytes:
// 16 sectors per request, ideal ceil(32*16/32) = 16: coalesced.
__global__ void vectorizedCopy(float4 *dst, float4 *src, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) {
    float4 v = src[idx];
    // CHECK: [[@LINE-1]]:16: access: kernel=vectorizedCopy op=load base=src elem=16 expr='src[idx]' sectors=16 ideal=16 class=coalesced
    dst[idx] = v;
    // CHECK: [[@LINE-1]]:5: access: kernel=vectorizedCopy op=store base=dst elem=16 expr='dst[idx]' sectors=16 ideal=16 class=coalesced
    // WARN-NOT: vectors.cu:[[@LINE-2]]:{{.*}}warning
  }
}

// float2: 256 contiguous bytes: 8, ideal 8. double2: 16, ideal 16.
__global__ void pairs(float2 *f2, double2 *d2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 a = f2[i];
  // CHECK: [[@LINE-1]]:14: access: kernel=pairs op=load base=f2 elem=8 expr='f2[i]' sectors=8 ideal=8 class=coalesced
  double2 b = d2[i];
  // CHECK: [[@LINE-1]]:15: access: kernel=pairs op=load base=d2 elem=16 expr='d2[i]' sectors=16 ideal=16 class=coalesced
  a.x += (float)b.y;
  f2[i] = a;
  // CHECK: [[@LINE-1]]:3: access: kernel=pairs op=store base=f2 elem=8 expr='f2[i]' sectors=8 ideal=8 class=coalesced
}

// Reinterpreting a float buffer as float4: the same 16-byte accesses.
__global__ void reinterpreted(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(in)[i];
  // CHECK: [[@LINE-1]]:14: access: kernel=reinterpreted op=load base=in elem=16 expr='reinterpret_cast<const float4 *>(in)[i]' sectors=16 ideal=16 class=coalesced
  v.x *= 2.0f;
  reinterpret_cast<float4 *>(out)[i] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=reinterpreted op=store base=out elem=16 expr='reinterpret_cast<float4 *>(out)[i]' sectors=16 ideal=16 class=coalesced
}

// float4 with a stride of 2 elements (32 bytes): every lane its own
// sector: 32, ideal 16. One component of a float4 array: 4 bytes per lane,
// 16 bytes apart: 512 bytes, 16 sectors, ideal 4: like an AoS field.
__global__ void vectorPitfalls(float4 *out, const float4 *in, float *comp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[2 * i];
  // CHECK: [[@LINE-1]]:14: access: kernel=vectorPitfalls op=load base=in elem=16 expr='in[2 * i]' sectors=32 ideal=16 class=strided
  // WARN: vectors.cu:[[@LINE-2]]:14: warning: uncoalesced load
  out[i] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=vectorPitfalls op=store base=out elem=16 expr='out[i]' sectors=16 ideal=16 class=coalesced
  comp[i] = in[i].y;
  // CHECK: [[@LINE-1]]:3: access: kernel=vectorPitfalls op=store base=comp elem=4 expr='comp[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:13: access: kernel=vectorPitfalls op=load base=in elem=4 expr='in[i].y' sectors=16 ideal=4 class=aos
}
// CHECK-NOT: access:

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&c, 64 << 20);
  vectorizedCopy<<<1024, 256>>>((float4 *)a, (float4 *)b, 262144);
  pairs<<<256, 256>>>((float2 *)a, (double2 *)b);
  reinterpreted<<<256, 256>>>(a, b);
  vectorPitfalls<<<256, 256>>>((float4 *)a, (float4 *)b, c);
  cudaDeviceSynchronize();
  return 0;
}
