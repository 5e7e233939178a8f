// The value a counter leaves a loop with when the loop's condition differs
// between lanes: each lane runs ceil((bound - start) / step) passes (none
// where it starts past the bound), so the counter ends at start + step *
// passes in that lane. CTranslate2's ilp_reduce and apply_epilogue go on
// from there in a tail loop (issue 26, thirty-eighth session; before, the
// counter after the loop was unknown, and so was every access through it:
// 39 of CTranslate2's 78 unknowns at first contact).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 --param n=100 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 --param n=100 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 9 memory operations in the census of 4 kernels, 0 missing from the report
// GPU-ARGS: --block=32 --param n=100
#include <cuda_runtime.h>

// The unrolled body runs to the multiple of 2 * blockDim.x below n (64 of
// 100), the tail from there: lanes 0-31 at 64-95, lanes 0-3 at 96-99.
__global__ void ilpTail(const float *in, float *out, int n) {
  int offset = threadIdx.x;
  int last = n % (2 * blockDim.x);
  float v = 0.0f;
  for (; offset < n - last; offset += 2 * blockDim.x)
    v += in[offset] + in[offset + blockDim.x];
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=ilpTail op=load base=in elem=4 expr='in[offset]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:23: access: kernel=ilpTail op=load base=in elem=4 expr='in[offset + blockDim.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  for (; offset < n; offset += blockDim.x)
    v += in[offset];
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=ilpTail op=load base=in elem=4 expr='in[offset]' sectors=2.5 ideal=2.5 class=coalesced {{.*}}
  out[threadIdx.x] = v;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=ilpTail op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}

// Lanes start 3 apart and step by 32: each ends at the first value of its
// sequence at or past n, lanes at or past n at once where they started.
__global__ void spreadExit(float *out, int n) {
  int i = 3 * threadIdx.x;
  for (; i < n; i += 32)
    out[i] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=spreadExit op=store base=out elem=4 expr='out[i]' sectors=6.75 ideal=2.5 class=strided {{.*}}
  out[i] = 2.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=spreadExit op=store base=out elem=4 expr='out[i]' sectors=5 ideal=4 class=misaligned {{.*}}
}

// Lanes 13-31 start at or past n = 100 and never enter: they keep 8 * t.
__global__ void someSkip(float *out, int n) {
  int i = 8 * threadIdx.x;
  while (i < n)
    i += 64;
  out[i] = 3.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=someSkip op=store base=out elem=4 expr='out[i]' sectors=19 ideal=4 class=strided {{.*}}
}

// A counter that goes down to its bound: i ends in [-32, -1], at
// (n - 1 - t) mod 32 - 32.
__global__ void downTo(float *out, int n) {
  int i = n - 1 - threadIdx.x;
  for (; i >= 0; i -= 32)
    out[i] = 4.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=downTo op=store base=out elem=4 expr='out[i]' sectors=4 ideal=3.25 class=misaligned {{.*}}
  out[i + 32] = 5.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=downTo op=store base=out elem=4 expr='out[i + 32]' sectors=4 ideal=4 class=coalesced {{.*}}
}
