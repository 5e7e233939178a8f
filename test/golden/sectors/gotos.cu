// A `goto` forward to a label of an enclosing block (issue 29): the lanes
// that take it skip the statements up to the label and resume there with
// the values they had at the goto. A goto back (a loop) is not followed:
// what the code since its label changed is unknown after it. Each number
// is the exact count over the 32 lanes, enumerated lane by lane; the tool
// before ignored every goto (8 sectors for an ideal of 4 where 16 lanes
// store, 20 and 24 for nestedGoto, unknown for gotoInLoop, and backGoto's
// k = t + 1 as if the goto never ran).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// RUN: %coalesce-lint --fail-on=never --block=32 --format=json %s | FileCheck %s --check-prefix=WHY
// CENSUS: self-check: 11 memory operations in the census of 7 kernels, 0 missing from the report
// GPU-ARGS: --block=32
#include <cuda_runtime.h>

// Odd lanes skip k = 2 * t and the first store.
__global__ void fwdGoto(float *out) {
  int t = threadIdx.x;
  int k = t;
  if (t & 1)
    goto done;
  k = 2 * t;
  out[k] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=fwdGoto op=store base=out elem=4 expr='out[k]' sectors=8 ideal=2 class=strided
done:
  out[k + 64] = 2.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=fwdGoto op=store base=out elem=4 expr='out[k + 64]' sectors=8 ideal=4 class=strided
}

// A goto out of a nested block and a branch, past a store.
__global__ void nestedGoto(float *out) {
  int t = threadIdx.x;
  int k = t;
  {
    if (t & 2) {
      k += 100;
      goto skip;
    }
    k *= 3;
  }
  out[k] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=nestedGoto op=store base=out elem=4 expr='out[k]' sectors=8 ideal=2 class=strided
skip:
  out[k + 1] = 2.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=nestedGoto op=store base=out elem=4 expr='out[k + 1]' sectors=17 ideal=4 class=strided
}

// A goto to a label inside the loop body: each pass, lanes with (t + i)
// odd skip k += 32, so every lane adds 32 once: k = t + 34, 136 bytes off
// a sector boundary.
__global__ void gotoInLoop(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    if ((t + i) & 1)
      goto next;
    k += 32;
  next:
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=gotoInLoop op=store base=out elem=4 expr='out[k]' sectors=5 ideal=4 class=misaligned
}

// A goto back: its loop is not followed.
__global__ void backGoto(float *out) {
  int t = threadIdx.x;
  int k = t, n = 0;
again:
  k += 1;
  n++;
  if (n < 2)
    goto again;
  out[k] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=backGoto op=store base=out elem=4 expr='out[k]' sectors=n/a ideal=n/a class=unknown
// WHY: "reason": "address depends on a per-lane value the engine cannot model: k, changed in the loop the goto at gotos.cu:{{[0-9]+}} makes back to label 'again', whose passes are not followed"
}

// A goto out of a loop: the lanes that take it go on to the label, but
// which of them took it, and in which pass, is not followed past the loop:
// the value they bring there is unknown (the tool before ignored the goto:
// 20 sectors, as if every lane had k = 5 * t; 16 for the 32 lanes).
__global__ void gotoOut(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 4; ++i) {
    if (t & 1)
      goto found;
    k += 32;
  }
  k = 5 * t;
found:
  out[k] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=gotoOut op=store base=out elem=4 expr='out[k]' sectors=n/a ideal=n/a class=unknown
// WHY: "reason": "address depends on a per-lane value the engine cannot model: which lanes take the goto out of the loop at gotos.cu:{{[0-9]+}} to label 'found' (not followed past the loop)"
}

// In the loop, a lane that took a goto out in an earlier pass is gone:
// pass k stores in the 32, 24, 16 and 8 lanes of t % 4 >= k (20 sectors
// per request; the tool before gave 32). Every lane reaches the label.
__global__ void gotoOutAfter(float *out) {
  int t = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    out[t * 8 + i] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:5: access: kernel=gotoOutAfter op=store base=out elem=4 expr='out[t * 8 + i]' sectors=20 ideal=2.5 class=strided
    if (i == (t & 3))
      goto done;
  }
done:
  out[t + 32] = 2.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=gotoOutAfter op=store base=out elem=4 expr='out[t + 32]' sectors=4 ideal=4 class=coalesced
}


// A goto out of a switch arm goes on to its label like any goto (n > 0,
// assumed 1024: lanes t % 4 == 1 skip out[k] with k = 3 * t). The tool before
// made what the switch changes unknown for both stores.
__global__ void switchGoto(float *out, int n) {
  int t = threadIdx.x;
  int k = t;
  switch (t & 3) {
  case 0:
    k = 2 * t;
    break;
  case 1:
    if (n > 0) {
      k = 3 * t;
      goto done;
    }
    k = 4 * t;
    break;
  default:
    k = t + 1;
  }
  out[k] = 0.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=switchGoto op=store base=out elem=4 expr='out[k]' sectors=8 ideal=3 class=strided
done:
  out[k + 256] = 1.0f;
// CHECK: gotos.cu:[[@LINE-1]]:3: access: kernel=switchGoto op=store base=out elem=4 expr='out[k + 256]' sectors=10 ideal=4 class=strided
}
