// Strided stores `out[i * s]` for s = 1, 2, 3, 4, 8, 32 and element sizes 1,
// 2, 4, 8 and 16 bytes, with a full warp of 256-thread blocks.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s
// RUN: %not %coalesce-lint %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS:
//
// Lane l of warp w writes B bytes at byte B*s*(32w + l + 256*blockIdx.x):
// warps and blocks shift by multiples of 32 bytes, so every request is the
// one of warp 0. An element never straddles a sector (B divides 32 and the
// address is a multiple of B), so
//   sectors = number of distinct floor(B*s*l / 32), l = 0..31
//           = floor(31*B*s / 32) + 1 when B*s <= 32, else 32;
//   ideal   = ceil(32*B / 32) = B.
#include <cuda_runtime.h>

// B = 1: s=1: 1, s=2: floor(62/32)+1 = 2, s=3: floor(93/32)+1 = 3,
// s=4: floor(124/32)+1 = 4, s=8: floor(248/32)+1 = 8, s=32: 32. Ideal 1.
__global__ void strideChar(char *o1, char *o2, char *o3, char *o4, char *o8,
                           char *o32) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  char v = (char)i;
  o1[i * 1] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideChar op=store base=o1 elem=1 expr='o1[i * 1]' sectors=1 ideal=1 class=coalesced
  // WARN-NOT: [[@LINE-2]]:{{.*}}warning
  o2[i * 2] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideChar op=store base=o2 elem=1 expr='o2[i * 2]' sectors=2 ideal=1 class=strided
  // WARN: [[@LINE-2]]:3: warning: uncoalesced store
  o3[i * 3] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideChar op=store base=o3 elem=1 expr='o3[i * 3]' sectors=3 ideal=1 class=strided
  o4[i * 4] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideChar op=store base=o4 elem=1 expr='o4[i * 4]' sectors=4 ideal=1 class=strided
  o8[i * 8] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideChar op=store base=o8 elem=1 expr='o8[i * 8]' sectors=8 ideal=1 class=strided
  o32[i * 32] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideChar op=store base=o32 elem=1 expr='o32[i * 32]' sectors=32 ideal=1 class=strided
}

// B = 2: s=1: floor(62/32)+1 = 2, s=2: floor(124/32)+1 = 4,
// s=3: floor(186/32)+1 = 6, s=4: floor(248/32)+1 = 8,
// s=8: floor(496/32)+1 = 16, s=32: 32. Ideal 2.
__global__ void strideShort(short *o1, short *o2, short *o3, short *o4,
                            short *o8, short *o32) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  short v = (short)i;
  o1[i * 1] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideShort op=store base=o1 elem=2 expr='o1[i * 1]' sectors=2 ideal=2 class=coalesced
  o2[i * 2] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideShort op=store base=o2 elem=2 expr='o2[i * 2]' sectors=4 ideal=2 class=strided
  o3[i * 3] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideShort op=store base=o3 elem=2 expr='o3[i * 3]' sectors=6 ideal=2 class=strided
  o4[i * 4] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideShort op=store base=o4 elem=2 expr='o4[i * 4]' sectors=8 ideal=2 class=strided
  o8[i * 8] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideShort op=store base=o8 elem=2 expr='o8[i * 8]' sectors=16 ideal=2 class=strided
  o32[i * 32] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideShort op=store base=o32 elem=2 expr='o32[i * 32]' sectors=32 ideal=2 class=strided
}

// B = 4: s=1: 4, s=2: 8, s=3: floor(372/32)+1 = 12, s=4: 16, s=8: 32,
// s=32: 32. Ideal 4.
__global__ void strideFloat(float *o1, float *o2, float *o3, float *o4,
                            float *o8, float *o32) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (float)i;
  o1[i * 1] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat op=store base=o1 elem=4 expr='o1[i * 1]' sectors=4 ideal=4 class=coalesced
  o2[i * 2] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat op=store base=o2 elem=4 expr='o2[i * 2]' sectors=8 ideal=4 class=strided
  o3[i * 3] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat op=store base=o3 elem=4 expr='o3[i * 3]' sectors=12 ideal=4 class=strided
  o4[i * 4] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat op=store base=o4 elem=4 expr='o4[i * 4]' sectors=16 ideal=4 class=strided
  o8[i * 8] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat op=store base=o8 elem=4 expr='o8[i * 8]' sectors=32 ideal=4 class=strided
  o32[i * 32] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat op=store base=o32 elem=4 expr='o32[i * 32]' sectors=32 ideal=4 class=strided
}

// B = 8: s=1: 8, s=2: 16, s=3: floor(744/32)+1 = 24, s=4: 32 (B*s = 32),
// s=8 and s=32: 32. Ideal 8.
__global__ void strideDouble(double *o1, double *o2, double *o3, double *o4,
                             double *o8, double *o32) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = (double)i;
  o1[i * 1] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideDouble op=store base=o1 elem=8 expr='o1[i * 1]' sectors=8 ideal=8 class=coalesced
  o2[i * 2] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideDouble op=store base=o2 elem=8 expr='o2[i * 2]' sectors=16 ideal=8 class=strided
  o3[i * 3] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideDouble op=store base=o3 elem=8 expr='o3[i * 3]' sectors=24 ideal=8 class=strided
  o4[i * 4] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideDouble op=store base=o4 elem=8 expr='o4[i * 4]' sectors=32 ideal=8 class=strided
  o8[i * 8] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideDouble op=store base=o8 elem=8 expr='o8[i * 8]' sectors=32 ideal=8 class=strided
  o32[i * 32] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideDouble op=store base=o32 elem=8 expr='o32[i * 32]' sectors=32 ideal=8 class=strided
}

// B = 16 (one 128-bit store per lane): s=1: 512 bytes = 16 sectors, s=2:
// B*s = 32: 32; s >= 3: each lane its own sector (16-byte aligned, so no
// straddling): 32. Ideal 16.
__global__ void strideFloat4(float4 *o1, float4 *o2, float4 *o3, float4 *o4,
                             float4 *o8, float4 *o32) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = make_float4(i, i, i, i);
  o1[i * 1] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat4 op=store base=o1 elem=16 expr='o1[i * 1]' sectors=16 ideal=16 class=coalesced
  o2[i * 2] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat4 op=store base=o2 elem=16 expr='o2[i * 2]' sectors=32 ideal=16 class=strided
  o3[i * 3] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat4 op=store base=o3 elem=16 expr='o3[i * 3]' sectors=32 ideal=16 class=strided
  o4[i * 4] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat4 op=store base=o4 elem=16 expr='o4[i * 4]' sectors=32 ideal=16 class=strided
  o8[i * 8] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat4 op=store base=o8 elem=16 expr='o8[i * 8]' sectors=32 ideal=16 class=strided
  o32[i * 32] = v;
  // CHECK: [[@LINE-1]]:3: access: kernel=strideFloat4 op=store base=o32 elem=16 expr='o32[i * 32]' sectors=32 ideal=16 class=strided
}

// CHECK-NOT: access:

#define BYTES (64u << 20)
int main() {
  void *b[6];
  for (int k = 0; k < 6; ++k)
    cudaMalloc(&b[k], BYTES);
  // 64 blocks of 256 threads: at most 16384 * 32 * 16 bytes = 8 MiB.
  strideChar<<<64, 256>>>((char *)b[0], (char *)b[1], (char *)b[2],
                          (char *)b[3], (char *)b[4], (char *)b[5]);
  strideShort<<<64, 256>>>((short *)b[0], (short *)b[1], (short *)b[2],
                           (short *)b[3], (short *)b[4], (short *)b[5]);
  strideFloat<<<64, 256>>>((float *)b[0], (float *)b[1], (float *)b[2],
                           (float *)b[3], (float *)b[4], (float *)b[5]);
  strideDouble<<<64, 256>>>((double *)b[0], (double *)b[1], (double *)b[2],
                            (double *)b[3], (double *)b[4], (double *)b[5]);
  strideFloat4<<<64, 256>>>((float4 *)b[0], (float4 *)b[1], (float4 *)b[2],
                            (float4 *)b[3], (float4 *)b[4], (float4 *)b[5]);
  cudaDeviceSynchronize();
  for (int k = 0; k < 6; ++k)
    cudaFree(b[k]);
  return 0;
}
