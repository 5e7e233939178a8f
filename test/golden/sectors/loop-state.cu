// Loop-carried state without a closed form (issue 7): the idioms of Rodinia
// dwt2d. A value a loop changes under a per-lane condition is evaluated
// exactly over the sampled iterations (the body applied to the entry state
// once per iteration) and the access at iteration k uses its value there, so
// lanes that take the condition differently get their own addresses.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// GPU-ARGS: --param n=1024 --param steps=1024
#include <cuda_runtime.h>

// A column loader (dwt2d's VerticalDWTPixelLoader): `last` advances by
// `stride` per call and mirrors at `end`, reversing the direction.
template <bool CHECKED> struct Loader {
  int last, stride, end;
  __device__ void init(int first, int s, int e) {
    last = first - s;
    stride = s;
    end = e;
  }
  __device__ float loadFrom(const float *input) {
    last += this->stride;
    if (CHECKED && last == this->end) {
      last -= 2 * this->stride;
      this->stride = -this->stride;
    }
    return input[last];
  }
};

// Lane t reads column t, rows 0, 1, 2 (n floats a row, n = 1024 assumed).
// Odd lanes end at row 2 and mirror back to row 0 there; even lanes end at
// row 100. Iterations 0 and 1: 32 consecutive floats, 4 sectors. Iteration
// 2: odd lanes at row 0, even lanes at row 2, 16 floats 8 bytes apart in
// each of two 128-byte rows: 4 + 4 = 8 sectors. (4 + 4 + 8) / 3 = 5.33.
__global__ void mirror(const float *in, float *out, int n) {
  int t = threadIdx.x;
  Loader<true> L;
  L.init(t, n, (t & 1) ? t + 2 * n : t + 100 * n);
  float s = 0;
  for (int k = 0; k < 3; ++k)
    s += L.loadFrom(in);
  out[t] = s;
}
// CHECK: loop-state.cu:[[@LINE-18]]:12: access: kernel=mirror op=load base=in elem=4 expr='input[last]' sectors=5.33 ideal=4 class=strided
// CHECK: loop-state.cu:[[@LINE-3]]:3: access: kernel=mirror op=store base=out elem=4 expr='out[t]' sectors=4 ideal=4 class=coalesced

// dwt2d's band loader: `next` alternates two strides (low band to high, high
// to low) and the lanes that reach `end` swap and reverse them. Lane t
// starts at row 0; lo = 2n, hi = -n. Iteration 0 reads row 0 (4 sectors);
// next = t + 2n, which is `end` for odd lanes: they swap to lo = n, hi =
// -2n. Iteration 1 reads row 2 (4 sectors); next += hi: odd lanes row 0,
// even lanes row 1. Iteration 2 reads rows 0 and 1, 16 floats of each (8
// sectors); next += lo: odd lanes row 1, even lanes row 3. Iteration 3
// reads rows 1 and 3 (8 sectors). (4 + 4 + 8 + 8) / 4 = 6.
__global__ void band(const float *in, float *out, int n) {
  int t = threadIdx.x;
  int lo = 2 * n, hi = -n;
  int end = (t & 1) ? t + 2 * n : -1;
  int next = t;
  float s = 0;
  for (int k = 0; k < 4; ++k) {
    s += in[next];
    next += (k & 1) ? hi : lo;
    if (next == end) {
      int tmp = lo;
      lo = -hi;
      hi = -tmp;
    }
  }
  out[t] = s;
}
// CHECK: loop-state.cu:[[@LINE-10]]:10: access: kernel=band op=load base=in elem=4 expr='in[next]' sectors=6 ideal=4 class=strided
// CHECK: loop-state.cu:[[@LINE-3]]:3: access: kernel=band op=store base=out elem=4 expr='out[t]' sectors=4 ideal=4 class=coalesced

// An accumulator without a closed form: `off += k` depends on the iteration
// (off = t + k(k-1)/2), so it is no step; it is evaluated over the first 8
// iterations, which the loop is sampled over. Offsets 0, 0, 1, 3, 6, 10, 15,
// 21 floats: 4*m mod 32 = 0, 0, 4, 12, 24, 8, 28, 20 bytes; a misaligned
// 128-byte warp touches 5 sectors: (4 + 4 + 6 * 5) / 8 = 4.75. After the
// loop its value is not known (the trip count `steps` is not): unknown,
// and the report says why.
__global__ void triangle(const float *in, float *out, int steps) {
  int t = threadIdx.x;
  int off = t;
  float s = 0;
  for (int k = 0; k < steps; ++k) {
    s += in[off];
    off += k;
  }
  out[off] = s;
}
// CHECK: loop-state.cu:[[@LINE-5]]:10: access: kernel=triangle op=load base=in elem=4 expr='in[off]' sectors=4.75 ideal=4 class=misaligned
// CHECK: loop-state.cu:[[@LINE-3]]:3: access: kernel=triangle op=store base=out elem=4 expr='out[off]' sectors=n/a ideal=n/a class=unknown
// JSON: "reason": "address depends on a per-lane value the engine cannot model: off, its value after the loop at loop-state.cu:[[#]] (the trip count is not known)"

// A loop of known trip count leaves its exit values: after 4 passes the
// loader of `mirror` stands at row 3 for every lane (no lane reaches its
// end), so the read after the loop is row 4: coalesced, 4 sectors.
__global__ void afterLoop(const float *in, float *out, int n) {
  int t = threadIdx.x;
  Loader<true> L;
  L.init(t, n, t + 100 * n);
  float s = 0;
  for (int k = 0; k < 4; ++k)
    s += L.loadFrom(in);
  out[t] = s + L.loadFrom(in);
}
// CHECK: loop-state.cu:[[@LINE-82]]:12: access: kernel=afterLoop op=load base=in elem=4 expr='input[last]' sectors=4 ideal=4 class=coalesced
// CHECK: loop-state.cu:[[@LINE-83]]:12: access: kernel=afterLoop op=load base=in elem=4 expr='input[last]' sectors=4 ideal=4 class=coalesced
// CHECK: loop-state.cu:[[@LINE-4]]:3: access: kernel=afterLoop op=store base=out elem=4 expr='out[t]' sectors=4 ideal=4 class=coalesced

// A slot the body assigns before reading it (SHOC QTC's prefetch) is not
// read inside, but a pass may leave before the assignment: after the loop it
// is still the loaded index or its value before the loop. The use stays
// indirect (not the opaque value the body never reads).
__global__ void resetAfterBreak(const int *idx, const char *mask, float *out,
                                int n) {
  int t = threadIdx.x;
  int cand = -1;
  do {
    if (t >= n)
      break;
    cand = idx[t];
  } while (0);
  if (cand >= 0)
    out[t] = mask[cand];
}
// CHECK: loop-state.cu:[[@LINE-5]]:12: access: kernel=resetAfterBreak op=load base=idx elem=4 expr='idx[t]' sectors=4 ideal=4 class=coalesced
// CHECK: loop-state.cu:[[@LINE-3]]:5: access: kernel=resetAfterBreak op=store base=out elem=4 expr='out[t]' sectors=4 ideal=4 class=coalesced
// CHECK: loop-state.cu:[[@LINE-4]]:14: access: kernel=resetAfterBreak op=load base=mask elem=1 expr='mask[cand]' sectors=n/a ideal=n/a class=indirect
// CHECK-NOT: access:
