// A switch as the CFG has it (issue 29): an arm that falls into the next
// label goes on there with its own values, and `default:` runs where no
// label of the switch holds, those after it included. Before, a variable
// a falling-through switch changed was unknown, and a `default:` written
// first ran wherever the labels before it (none) did not hold.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 --param zero:k=0 --param one:k=1 --param firstDefault:k=1 %s | FileCheck %s --implicit-check-not=access:
// GPU-ARGS: --block=32 --param zero:k=0 --param one:k=1 --param firstDefault:k=1
#include <cuda_runtime.h>

__device__ int strideOf(int k) {
  int s = 1;
  switch (k) {
  case 0:
    s = 4; // falls through
  case 1:
    s *= 2;
    break;
  case 2:
    s = 2;
    break;
  default:
    break;
  }
  return s;
}

// k = 0 runs both arms: 8 floats (32 bytes) apart, a sector per lane.
__global__ void zero(float *out, int k) { out[threadIdx.x * strideOf(k)] = 1.0f; }
// CHECK: switch-fallthrough.cu:[[@LINE-1]]:43: access: kernel=zero op=store base=out elem=4 expr='out[threadIdx.x * strideOf(k)]' sectors=32 ideal=4 class=strided

// k = 1 the second only: 2 floats apart, 256 bytes, 8 sectors.
__global__ void one(float *out, int k) { out[threadIdx.x * strideOf(k)] = 1.0f; }
// CHECK: switch-fallthrough.cu:[[@LINE-1]]:42: access: kernel=one op=store base=out elem=4 expr='out[threadIdx.x * strideOf(k)]' sectors=8 ideal=4 class=strided

// k = 1: the default arm (first) does not run, its store in no lane.
__global__ void firstDefault(float *out, int k) {
  int s = 32;
  switch (k) {
  default:
    s = 8;
    out[threadIdx.x * 2] = 0.0f;
// CHECK: switch-fallthrough.cu:[[@LINE-1]]:5: access: kernel=firstDefault op=store base=out elem=4 expr='out[threadIdx.x * 2]' sectors=n/a ideal=n/a class=unknown
    break;
  case 1:
    s = 1;
    break;
  }
  out[threadIdx.x * s] = 1.0f;
// CHECK: switch-fallthrough.cu:[[@LINE-1]]:3: access: kernel=firstDefault op=store base=out elem=4 expr='out[threadIdx.x * s]' sectors=4 ideal=4 class=coalesced
}
