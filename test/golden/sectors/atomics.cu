// Atomics: where the hardware departs from the plain model.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s
// RUN: %not %coalesce-lint %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS:
#include <cuda_runtime.h>

// Float atomics to one address are not merged: 32 lanes on one float cost
// distinct sectors (1) x the most lanes on one address (32) = 32 per
// request; ideal 4. One address per warp: class uniform.
// Integer atomics to a warp-uniform address are aggregated by the compiler
// (vote + popc, one atomic from one lane): 1 per request.
__global__ void sameAddress(float *fsum, int *count, float *perBlock,
                            int *perBlockCount) {
  atomicAdd(&fsum[0], 1.0f);
  // CHECK: [[@LINE-1]]:14: access: kernel=sameAddress op=atomic base=fsum elem=4 expr='fsum[0]' sectors=32 ideal=4 class=uniform
  atomicAdd(&count[0], 1);
  // CHECK: [[@LINE-1]]:14: access: kernel=sameAddress op=atomic base=count elem=4 expr='count[0]' sectors=1 ideal=4 class=uniform
  atomicAdd(&perBlock[blockIdx.x], 2.0f);
  // CHECK: [[@LINE-1]]:14: access: kernel=sameAddress op=atomic base=perBlock elem=4 expr='perBlock[blockIdx.x]' sectors=32 ideal=4 class=uniform
  atomicAdd(&perBlockCount[blockIdx.x], 1);
  // CHECK: [[@LINE-1]]:14: access: kernel=sameAddress op=atomic base=perBlockCount elem=4 expr='perBlockCount[blockIdx.x]' sectors=1 ideal=4 class=uniform
}

// Atomics to distinct addresses cost what stores do: 4 for consecutive
// floats or ints, 8 with a stride of 2 (256 bytes).
__global__ void distinctAddresses(float *facc, int *hist, int *sparse) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&facc[i], 1.0f);
  // CHECK: [[@LINE-1]]:14: access: kernel=distinctAddresses op=atomic base=facc elem=4 expr='facc[i]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: atomics.cu:[[@LINE-2]]:{{.*}}warning
  atomicAdd(&hist[i], 1);
  // CHECK: [[@LINE-1]]:14: access: kernel=distinctAddresses op=atomic base=hist elem=4 expr='hist[i]' sectors=4 ideal=4 class=coalesced
  atomicAdd(&sparse[2 * i], 1);
  // CHECK: [[@LINE-1]]:14: access: kernel=distinctAddresses op=atomic base=sparse elem=4 expr='sparse[2 * i]' sectors=8 ideal=4 class=strided
  // WARN: atomics.cu:[[@LINE-2]]:14: warning: {{.*}}sparse[2 * i]
}
// CHECK-NOT: access:

int main() {
  float *f, *g;
  int *c, *h, *s;
  cudaMalloc(&f, 64 << 20);
  cudaMalloc(&g, 64 << 20);
  cudaMalloc(&c, 64 << 20);
  cudaMalloc(&h, 64 << 20);
  cudaMalloc(&s, 64 << 20);
  sameAddress<<<64, 256>>>(f, c, g, h);
  distinctAddresses<<<64, 256>>>(f, h, s);
  cudaDeviceSynchronize();
  return 0;
}
