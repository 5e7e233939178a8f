// What a pass of a loop adds to a variable (issue 29: induction as the CFG
// has it). A change inside a branch, a nested loop, or after a statement
// that may end the pass is no step of every pass: the tool before summed
// every `k += c` of the body once per pass (`if (t & 1) k += 64;` stepped
// every lane by 64, a nested loop's `k += 1` counted once per outer pass).
// Lanes that `continue` keep the values they had there: `k += 1` after the
// continue changes the other lanes' k only (the two kernels below: 9
// measured on an H200; the tool before kept no values there: 10 and 5).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 5 memory operations in the census of 5 kernels, 0 missing from the report
// GPU-ARGS: --block=32
#include <cuda_runtime.h>

// Three passes of the inner loop per outer pass: k = 6 after both, lanes
// 24 bytes apart, 24 sectors (the tool before: k = 2, 8 sectors).
__global__ void innerSteps(float *out, int n) {
  int t = threadIdx.x;
  int k = 0;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j)
      k += 1;
  }
  out[t * k] = 1.0f;
// CHECK: loop-steps.cu:[[@LINE-1]]:3: access: kernel=innerSteps op=store base=out elem=4 expr='out[t * k]' sectors=24 ideal=4 class=strided
}

// Two passes: odd lanes step by 65, even lanes by 1: k = t + 130 and
// t + 2, 10 sectors (the tool before: every lane by 65, 5).
__global__ void branchStep(float *out, int n) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    if (t & 1)
      k += 64;
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: loop-steps.cu:[[@LINE-1]]:3: access: kernel=branchStep op=store base=out elem=4 expr='out[k]' sectors=10 ideal=4 class=strided
}

// Two passes: odd lanes continue with k + 64, even lanes go on to k + 1:
// k = t + 128 and t + 2, 9 sectors (the tool before: t + 130, 10).
__global__ void continueKeeps(float *out, int n) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    if (t & 1) {
      k += 64;
      continue;
    }
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: loop-steps.cu:[[@LINE-1]]:3: access: kernel=continueKeeps op=store base=out elem=4 expr='out[k]' sectors=9 ideal=4 class=strided
}

// The same through a switch arm that continues: 9 (the tool before: 5).
__global__ void switchContinueKeeps(float *out, int n) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    switch (t & 1) {
    case 1:
      k += 64;
      continue;
    default:
      break;
    }
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: loop-steps.cu:[[@LINE-1]]:3: access: kernel=switchContinueKeeps op=store base=out elem=4 expr='out[k]' sectors=9 ideal=4 class=strided
}

// Every lane steps by 2 in every pass (both changes run each pass): after
// two passes k = t + 4, 16 bytes into a sector, 5 sectors, as before.
__global__ void everyPass(float *out, int n) {
  int k = threadIdx.x;
  for (int i = 0; i < 2; ++i) {
    k += 1;
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: loop-steps.cu:[[@LINE-1]]:3: access: kernel=everyPass op=store base=out elem=4 expr='out[k]' sectors=5 ideal=4 class=misaligned
}
