// Jumps as the CFG has them (issue 29): a return, break or continue
// anywhere inside a statement (nested branches, an else, a switch arm)
// leaves the rest of its block to the lanes that did not take it; a break
// inside a switch arm leaves the switch with the values it had there. The
// tool before saw only `if (c) jump;` (then-branch, no else) and made a
// switch with a return or continue inside, or a break inside a branch or a
// braced arm, opaque.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 --param n=1 --param k=0 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 --param n=1 --param k=0 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 11 memory operations in the census of 9 kernels, 0 missing from the report
// GPU-ARGS: --block=32 --param n=1 --param k=0
#include <cuda_runtime.h>

// With n > 0 lanes 0 to 15 return: lanes 16 to 31 store, 2 sectors (the
// tool before: 4, every lane).
__global__ void nestedReturn(float *out, int n) {
  int t = threadIdx.x;
  if (t < 16) {
    if (n > 0)
      return;
  }
  out[t] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=nestedReturn op=store base=out elem=4 expr='out[t]' sectors=2 ideal=2 class=coalesced
}

// The else returns: lanes 8 to 31 go on, 3 sectors (before: 4).
__global__ void elseReturn(float *out) {
  int t = threadIdx.x;
  if (t >= 8) {
    out[t + 64] = 0.0f;
// CHECK: jumps.cu:[[@LINE-1]]:5: access: kernel=elseReturn op=store base=out elem=4 expr='out[t + 64]' sectors=3 ideal=3 class=coalesced
  } else
    return;
  out[t] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=elseReturn op=store base=out elem=4 expr='out[t]' sectors=3 ideal=3 class=coalesced
}

// The then-branch returns and an else follows: lanes 8 to 31 (before: 4).
__global__ void returnThenElse(float *out) {
  int t = threadIdx.x;
  if (t < 8)
    return;
  else
    out[t + 64] = 0.0f;
// CHECK: jumps.cu:[[@LINE-1]]:5: access: kernel=returnThenElse op=store base=out elem=4 expr='out[t + 64]' sectors=3 ideal=3 class=coalesced
  out[t] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=returnThenElse op=store base=out elem=4 expr='out[t]' sectors=3 ideal=3 class=coalesced
}

// An arm that returns: with k = 0, s = 4, 16 floats apart (before: the
// switch was opaque, unknown).
__global__ void switchReturn(float *out, int k) {
  int s = 1;
  switch (k) {
  case 0:
    s = 4;
    break;
  case 1:
    return;
  default:
    s = 2;
  }
  out[threadIdx.x * s] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=switchReturn op=store base=out elem=4 expr='out[threadIdx.x * s]' sectors=16 ideal=4 class=strided
}

// A braced arm ending in its break (before: opaque): s = 8, 32 sectors.
__global__ void bracedArm(float *out, int k) {
  int s = 1;
  switch (k) {
  case 0: {
    s = 8;
    break;
  }
  default:
    s = 2;
    break;
  }
  out[threadIdx.x * s] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=bracedArm op=store base=out elem=4 expr='out[threadIdx.x * s]' sectors=32 ideal=4 class=strided
}

// A break inside the arm's branch: lanes 0 to 15 leave with s = 2 (4
// sectors), lanes 16 to 31 go on to s = 8 (16 sectors): 20 (before:
// opaque).
__global__ void armBreak(float *out, int k) {
  int t = threadIdx.x;
  int s = 1;
  switch (k) {
  case 0:
    s = 2;
    if (t < 16)
      break;
    s = 8;
    break;
  default:
    break;
  }
  out[t * s] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=armBreak op=store base=out elem=4 expr='out[t * s]' sectors=20 ideal=4 class=strided
}

// A continue two branches deep: in pass 1 lanes 0 to 15 skip the store
// (2 sectors), the other passes 4: 3.5 per request (before: 4).
__global__ void nestedContinue(float *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    if (t < 16) {
      if (i == 1)
        continue;
    }
    out[t + i * 32] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:5: access: kernel=nestedContinue op=store base=out elem=4 expr='out[t + i * 32]' sectors=3.5 ideal=3.5 class=coalesced
  }
}

// A continue inside a switch inside the loop: in pass 0 lanes 0 to 15
// skip the store (2 sectors), in pass 1 all store (4): 3 (before: 4).
__global__ void switchContinue(float *out) {
  for (int i = 0; i < 2; ++i) {
    switch (threadIdx.x / 16) {
    case 0:
      if (i == 0)
        continue;
      break;
    default:
      break;
    }
    out[threadIdx.x + 32 * i] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:5: access: kernel=switchContinue op=store base=out elem=4 expr='out[threadIdx.x + 32 * i]' sectors=3 ideal=3 class=coalesced
  }
}

// A goto out of the switch goes on to its label (k = 0: s = 4).
__global__ void gotoArm(float *out, int k) {
  int s = 1;
  switch (k) {
  case 0:
    s = 4;
    goto done;
  default:
    s = 2;
  }
done:
  out[threadIdx.x * s] = 1.0f;
// CHECK: jumps.cu:[[@LINE-1]]:3: access: kernel=gotoArm op=store base=out elem=4 expr='out[threadIdx.x * s]' sectors=16 ideal=4 class=strided
}
