// Arrays of structures read and written through one field, against the
// structure of arrays. Seed: AoS {float x, y} through .x needs 8 sectors per
// request against SoA's 4.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s
// RUN: %not %coalesce-lint %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param n=1048576
//
// Lane l of a warp touches the 4 bytes at R*l + F (record size R, field
// offset F); warps shift by 32*R bytes and blocks by 256*R, multiples of 32.
//   R = 8:  bytes 0..255 (+F): 8 sectors (F = 0), ideal 4.
//   R = 12: the last lane's field ends at 12*31 + F + 3 <= 383: sectors 0..11,
//           every sector hit (gaps of 12 < 32 bytes): 12, ideal 4.
//   R = 16: 16*l + F: one lane per 16 bytes, 512 bytes: 16, ideal 4.
#include <cuda_runtime.h>

struct Pair { float x, y; };           // 8 bytes
struct Point3 { float x, y, z; };      // 12 bytes
struct Quad { float x, y, z, w; };     // 16 bytes (4-byte aligned)
struct SoA { float *x, *y; };          // by value: the arrays themselves

__global__ void aosPair(Pair *res, const float *a, const float *b, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n)
    res[i].x = a[i] + b[i];
  // CHECK: [[@LINE-1]]:5: access: kernel=aosPair op=store base=res elem=4 expr='res[i].x' sectors=8 ideal=4 class=aos
  // CHECK: [[@LINE-2]]:16: access: kernel=aosPair op=load base=a elem=4 expr='a[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-3]]:23: access: kernel=aosPair op=load base=b elem=4 expr='b[i]' sectors=4 ideal=4 class=coalesced
  // WARN: aos.cu:[[@LINE-4]]:5: warning: {{.*}}store
  // WARN-NOT: aos.cu:[[@LINE-5]]:16: warning
}

// The seed's SoA kernel: `struct SoA { float x[N]; float y[N]; }` in global
// memory, res->x[i]: one float per lane, consecutive: 4 sectors.
struct SoAFixed { float x[1 << 20]; float y[1 << 20]; };
__global__ void soaPair(SoAFixed *res, const float *a, const float *b, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n)
    res->x[i] = a[i] + b[i];
  // CHECK: [[@LINE-1]]:5: access: kernel=soaPair op=store base=res elem=4 expr='res->x[i]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: aos.cu:[[@LINE-2]]:5: warning
}

// Reading .y of {float x, y}: the same 8 sectors, shifted by 4 bytes.
__global__ void aosPairY(float *out, const Pair *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].y;
  // CHECK: [[@LINE-1]]:12: access: kernel=aosPairY op=load base=p elem=4 expr='p[i].y' sectors=8 ideal=4 class=aos
}

// 12-byte records: 12 sectors for every field.
__global__ void aosPoint3(float *out, const Point3 *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].z;
  // CHECK: [[@LINE-1]]:12: access: kernel=aosPoint3 op=load base=p elem=4 expr='p[i].z' sectors=12 ideal=4 class=aos
}

// 16-byte records: 16 sectors.
__global__ void aosQuad(Quad *q, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  q[i].w = in[i];
  // CHECK: [[@LINE-1]]:3: access: kernel=aosQuad op=store base=q elem=4 expr='q[i].w' sectors=16 ideal=4 class=aos
}

// Structure of arrays passed by value: s.x[i] is a plain coalesced access.
// (The GPU harness skips this kernel: it cannot fill a struct of pointers.)
__global__ void soaByValue(SoA s, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s.x[i] = in[i];
  // CHECK: [[@LINE-1]]:3: access: kernel=soaByValue op=store base={{.*}} elem=4 expr='s.x[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:12: access: kernel=soaByValue op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
}
// CHECK-NOT: access:

int main() {
  const int n = 1 << 20;
  Pair *p;
  Point3 *p3;
  Quad *q;
  SoAFixed *soa;
  float *a, *b, *o;
  cudaMalloc(&p, 64 << 20);
  cudaMalloc(&p3, 64 << 20);
  cudaMalloc(&q, 64 << 20);
  cudaMalloc(&soa, sizeof(SoAFixed));
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&o, 64 << 20);
  aosPair<<<n / 256, 256>>>(p, a, b, n);
  soaPair<<<n / 256, 256>>>(soa, a, b, n);
  aosPairY<<<256, 256>>>(o, p);
  aosPoint3<<<256, 256>>>(o, p3);
  aosQuad<<<256, 256>>>(q, a);
  SoA s = {o, o + n};
  soaByValue<<<256, 256>>>(s, a);
  cudaDeviceSynchronize();
  return 0;
}
