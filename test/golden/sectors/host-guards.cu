// Host code past an early return knows the value the guard tested
// (cuda-samples FDTD3d): `if (radius != RADIUS) return false;` leaves
// radius == 4, so the padding computed from it before, 128 / 4 - radius =
// 28 floats, is a constant at the launch. The kernel's index adds RADIUS =
// 4 floats: 28 + 4 = 32 floats, 128 bytes, so every warp's 32 floats fill
// 4 whole sectors. Before, the padding stayed symbolic and the same accesses
// were reported misaligned (5 sectors; the H200 measured 4). exit() and
// other noreturn calls leave as a return does.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
#include <cuda_runtime.h>
#define RADIUS 4

__global__ void stencil(float *out, const float *in, int dimx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
  out[i] = in[i];
// CHECK: [[@LINE-1]]:3: access: kernel=stencil op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:12: access: kernel=stencil op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
}
// JSON: "'out' starts 112 bytes into its allocation from the launch at

bool run(int dimx, const int radius) {
  const int padding = (128 / sizeof(float)) - radius;
  if (radius != RADIUS) {
    return false;
  }
  float *in = 0, *out = 0;
  cudaMalloc((void **)&in, 4096 * sizeof(float));
  cudaMalloc((void **)&out, 4096 * sizeof(float));
  stencil<<<dimx / 256, 256>>>(out + padding, in + padding, dimx);
  return true;
}

__global__ void copy2(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + RADIUS;
  out[i] = in[i];
// CHECK: [[@LINE-1]]:3: access: kernel=copy2 op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:12: access: kernel=copy2 op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
}

void runOrExit(int dimx, int radius) {
  const int padding = 32 - radius;
  if (radius != RADIUS) {
    exit(1);
  }
  float *in = 0, *out = 0;
  cudaMalloc((void **)&in, 4096 * sizeof(float));
  cudaMalloc((void **)&out, 4096 * sizeof(float));
  copy2<<<dimx / 256, 256>>>(out + padding, in + padding);
}
