// Lanes that leave a loop by `break` keep the values they had at their
// break (issue 29): the sampled passes of a loop that may break join, for
// each pass, the values at its breaks into the values its lanes leave
// with, and the lanes gone in an earlier pass (broken, or their condition
// false) keep theirs. Each number is the exact count over the 32 lanes,
// enumerated lane by lane; the tool before gave `unknown` for all six.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// RUN: %coalesce-lint --fail-on=never --block=32 --format=json %s | FileCheck %s --check-prefix=WHY
// CENSUS: self-check: 9 memory operations in the census of 9 kernels, 0 missing from the report
// GPU-ARGS: --block=32
#include <cuda_runtime.h>

// Lane t breaks in pass t % 4: k = t + 32 * (t % 4).
__global__ void laneBreak(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 4; ++i) {
    if (i == (t & 3))
      break;
    k += 32;
  }
  out[k] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:3: access: kernel=laneBreak op=store base=out elem=4 expr='out[k]' sectors=16 ideal=4 class=strided
}

// A break inside a switch leaves the switch; the one after it the loop
// (lanes with bit 1 after two passes, the others after three).
__global__ void switchInLoop(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 3; ++i) {
    switch (t & 1) {
    case 1:
      k += 64;
      break;
    default:
      k += 1;
    }
    if (i == 1 && (t & 2))
      break;
  }
  out[k] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:3: access: kernel=switchInLoop op=store base=out elem=4 expr='out[k]' sectors=13 ideal=4 class=strided
}

// The inner loop's break ends the inner loop only, in both outer passes.
__global__ void innerBreak(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (j == (t & 1) + 1)
        break;
      k += 8;
    }
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:3: access: kernel=innerBreak op=store base=out elem=4 expr='out[k]' sectors=7 ideal=4 class=strided
}

// A do-while whose break depends on the carried k: lane t leaves after
// t % 4 + 1 passes.
__global__ void doWhileBreak(float *out) {
  int t = threadIdx.x;
  int k = t, i = 0;
  do {
    k += 4;
    if (k > t + 4 * (t & 3))
      break;
    ++i;
  } while (i < 4);
  out[2 * k] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:3: access: kernel=doWhileBreak op=store base=out elem=4 expr='out[2 * k]' sectors=11 ideal=4 class=strided
}

// The same as laneBreak with a bound the samples cannot reach (n): the
// value after the loop is unknown, and the reason names the break.
__global__ void boundUnknown(float *out, int n) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < n; ++i) {
    if (i == (t & 3))
      break;
    k += 32;
  }
  out[k] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:3: access: kernel=boundUnknown op=store base=out elem=4 expr='out[k]' sectors=n/a ideal=n/a class=unknown
// WHY: "reason": "address depends on a per-lane value the engine cannot model: k, its value after the loop at break-values.cu:{{[0-9]+}} (a break or return may end it before its condition does)"
}

// A return inside the loop is not followed past it (the lanes that
// return run nothing after it): unknown, as before.
__global__ void returnInLoop(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    if (t & 1)
      return;
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:3: access: kernel=returnInLoop op=store base=out elem=4 expr='out[k]' sectors=n/a ideal=n/a class=unknown
// WHY: "reason": "address depends on a per-lane value the engine cannot model: k, its value after the loop at break-values.cu:{{[0-9]+}} (a break or return may end it before its condition does)"
}

// A break after the access: lane t stores in passes 0..t % 4, so pass k's
// store runs where the lanes did not leave in pass k - 1 (32, 24, 16 and 8
// lanes: 20 sectors per request; the tool before gave 32).
__global__ void breakAfter(float *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i) {
    out[t * 8 + i] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:5: access: kernel=breakAfter op=store base=out elem=4 expr='out[t * 8 + i]' sectors=20 ideal=2.5 class=strided
    if (i >= (t & 3))
      break;
  }
}

// A break whose condition holds in one pass only (i == t % 4): the lanes
// that broke in any earlier pass stay gone (the three passes that store
// average 16 sectors: 24, 16, 8 lanes; the tool before gave 24, counting
// them again once their pass was over).
__global__ void breakAtOnePass(float *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    if (i == (t & 3))
      break;
    out[t * 8 + i] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:5: access: kernel=breakAtOnePass op=store base=out elem=4 expr='out[t * 8 + i]' sectors=16 ideal=2 class=strided
  }
}

// The same condition after the access: pass k stores in the lanes that did
// not break in any pass before it (32, 24, 16 and 8 lanes of t % 4 > k - 1:
// 20 sectors per request; the tool before gave 26, the lanes gone two
// passes before storing again).
__global__ void breakAfterAtOnePass(float *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    out[t * 8 + i] = 1.0f;
// CHECK: break-values.cu:[[@LINE-1]]:5: access: kernel=breakAfterAtOnePass op=store base=out elem=4 expr='out[t * 8 + i]' sectors=20 ideal=2.5 class=strided
    if (i == (t & 3))
      break;
  }
}
