// A loop of an inlined __device__ function whose counter has the name of a
// loop around the call (`j` in both, Rodinia myocyte's attempts around its
// 13 stages) counts its own iterations: two symbols, each keyed by its
// loop, the callee's printed with its loop's line (`j@29`).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --block=32 --explain-access=%s:35:9 %s | FileCheck %s --check-prefix=DRAWN
// GPU-ARGS: --block=32
#include <cuda_runtime.h>

__device__ void rows(const float *a, float *out) {
  for (int j = 0; j < 2; ++j)
    out[j * 32 + threadIdx.x] = a[j * 32 + threadIdx.x];
}

// The caller's j shifts `a` by 4 bytes a step: one of its 8 values is
// aligned (4 sectors), 7 are not (5): 39/8 = 4.875 whatever the callee's j.
// One counter for both loops would pair caller j = callee j in {0, 1}: 4.5.
__global__ void shifted(const float *a, float *out) {
  for (int j = 0; j < 8; ++j)
    rows(a + j, out + 64 * j);
}
// CHECK: inlined-loop-names.cu:12:5: access: kernel=shifted op=store base=out elem=4 expr='out[j * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced
// CHECK: inlined-loop-names.cu:12:33: access: kernel=shifted op=load base=a elem=4 expr='a[j * 32 + threadIdx.x]' sectors=4.88 ideal=4 class=misaligned

// Rodinia myocyte's shape: 12 attempts (j) around 13 stages (the callee's
// j). With one counter, stage 12 needed j < 12 && j == 12: "no lane
// executes". Each stage's accesses are reached.
__device__ void stages(const float *in, float *tmp) {
  for (int j = 0; j < 13; j++) {
    if (j == 0) {
      for (int i = 0; i < 91; i++)
        tmp[i] = in[i];
    } else if (j == 12) {
      for (int i = 0; i < 91; i++)
        tmp[i] = in[i] + tmp[11 * 91 + i];
    }
  }
}
__global__ void attempts(const float *in, float *tmp, int workload, int xmax) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < workload)
    for (int k = 1; k < xmax + 1; k++)
      for (int j = 0; j < 12; j++)
        stages(in + tid * 91, tmp + (tid * xmax + k) * 13 * 91);
}
// CHECK: inlined-loop-names.cu:[[@LINE-14]]:9: access: kernel=attempts op=store base=tmp elem=4 expr='tmp[i]' sectors=32 ideal=4 class=strided
// CHECK: inlined-loop-names.cu:[[@LINE-15]]:18: access: kernel=attempts op=load base=in elem=4 expr='in[i]' sectors=32 ideal=4 class=strided
// CHECK: inlined-loop-names.cu:[[@LINE-13]]:9: access: kernel=attempts op=store base=tmp elem=4 expr='tmp[i]' sectors=32 ideal=4 class=strided
// CHECK: inlined-loop-names.cu:[[@LINE-14]]:18: access: kernel=attempts op=load base=in elem=4 expr='in[i]' sectors=32 ideal=4 class=strided
// CHECK: inlined-loop-names.cu:[[@LINE-15]]:26: access: kernel=attempts op=load base=tmp elem=4 expr='tmp[11 * 91 + i]' sectors=32 ideal=4 class=strided
// CHECK-NOT: access:
// The drawn request is at the stage the guard search moved the counter to.
// DRAWN: assuming j@29 >= 12 so that the access executes
// DRAWN: one request drawn ({{.*}}iteration 12 of the loop over j@29, iteration 0 of the loop over k)
