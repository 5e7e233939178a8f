// Ping-pong buffers swapped in a host time-step loop (issue 8's last false
// alarms: cuda-samples FDTD3d). Both allocations are padded by 128 /
// sizeof(float) - RADIUS floats, so that with the kernel's `+ RADIUS` every
// row starts on a 128-byte boundary, and the loop swaps the two pointers
// after each launch. The allocation each argument points into alternates,
// the offset into it does not: the launch passes pointers 112 bytes into
// 256-byte-aligned allocations on every iteration, and the accesses at
// `+ RADIUS` are aligned (measured at the ideal on the H200: FDTD3d's lines
// in docs/groundtruth). Before, the swapped pointers were unknown and their
// offset taken as 0: 5 sectors for 4.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
#include <cuda_runtime.h>
#define RADIUS 4

__global__ void step(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + RADIUS] = in[i + RADIUS] + in[i];
  // CHECK: [[@LINE-1]]:3: access: kernel=step op=store base=out elem=4 expr='out[i + RADIUS]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
  // CHECK: [[@LINE-2]]:21: access: kernel=step op=load base=in elem=4 expr='in[i + RADIUS]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
  // CHECK: [[@LINE-3]]:38: access: kernel=step op=load base=in elem=4 expr='in[i]' sectors=5 ideal=4 class=misaligned {{.*}}block=256(launch-site)
}

int main() {
  const int padding = 128 / sizeof(float) - RADIUS;
  const int n = 1 << 20;
  float *a = 0, *b = 0;
  cudaMalloc((void **)&a, (n + padding + 2 * RADIUS) * sizeof(float));
  cudaMalloc((void **)&b, (n + padding + 2 * RADIUS) * sizeof(float));
  float *src = a + padding, *dst = b + padding;
  for (int it = 0; it < 100; it++) {
    step<<<n / 256, 256>>>(dst, src, n);
    float *tmp = dst;
    dst = src;
    src = tmp;
  }
}
// CHECK-NOT: access:
