// A loop of fixed trip count choosing one stage per iteration (Rodinia
// myocyte's 13-stage Runge-Kutta-Fehlberg step) with a value carried from
// stage to stage that has no closed form: the iterations are sampled to the
// loop's end (up to 16), not only the first 8, so the last stages run.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 %s | FileCheck %s --implicit-check-not=access:
#include <cuda_runtime.h>

// off after j passes: 0, 0, 3, 6, 9, 18, 21, 42, 45, 90, 93, 186, 189 (the
// odd stages add 3, the even ones double). Stage 12 stores at float
// 2 * tid + 189: lanes 8 bytes apart from byte 756 (20 into a sector), so a
// warp's 32 floats span bytes 756..1007, sectors 23..31: 9 sectors where 4
// would do; every warp and block starts a multiple of 256 bytes further.
// Before, iteration 12 was never sampled and the store was `unknown` (no
// lane executes).
__global__ void stages(const float *in, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int off = 0;
  for (int j = 0; j < 13; j++) {
    if (j == 12)
      out[tid * 2 + off] = in[tid];
// CHECK: [[@LINE-1]]:7: access: kernel=stages op=store base=out elem=4 expr='out[tid * 2 + off]' sectors=9 ideal=4 class=strided
// CHECK: [[@LINE-2]]:28: access: kernel=stages op=load base=in elem=4 expr='in[tid]' sectors=4 ideal=4 class=coalesced
    off = (j & 1) ? off + 3 : off * 2;
  }
}

// The same with both counters declared up front and an inner loop (myocyte's
// `int i, j;`): the outer loop's counter is named after j, the variable its
// increment steps, never after the inner loop's i (the choice used to follow
// the order of a set of pointers, and in some runs the two loops shared the
// name "i" and stage 12 never ran). Stage 12 stores the 13th value of
// `acc`, 189 as above.
__global__ void stagesInner(const float *in, float *out, int n) {
  int i, j;
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int off = 0;
  for (j = 0; j < 13; j++) {
    for (i = 0; i < 4; i++)
      out[tid + 1024 * i] = in[tid];
// CHECK: [[@LINE-1]]:7: access: kernel=stagesInner op=store base=out elem=4 expr='out[tid + 1024 * i]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:29: access: kernel=stagesInner op=load base=in elem=4 expr='in[tid]' sectors=4 ideal=4 class=coalesced
    if (j == 12)
      out[tid * 2 + off] = in[tid];
// CHECK: [[@LINE-1]]:7: access: kernel=stagesInner op=store base=out elem=4 expr='out[tid * 2 + off]' sectors=9 ideal=4 class=strided
// CHECK: [[@LINE-2]]:28: access: kernel=stagesInner op=load base=in elem=4 expr='in[tid]' sectors=4 ideal=4 class=coalesced
    off = (j & 1) ? off + 3 : off * 2;
  }
}
