// Unsigned operations on values that can be negative in the exact model
// wrap, as on the GPU (issue 29: integer width and wrap-around): the lanes
// for which `threadIdx.x - 16u` is "negative" hold a value near 2^32, fail
// `< 8u` and divide to a large quotient. The model keeps index arithmetic
// exact (no value reaches 2^31) and wraps where the unsigned type decides:
// comparisons (`x < n` reads `0 <= x && x < n`), divisions and right shifts.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 7 memory operations in the census of 5 kernels, 0 missing from the report
#include <cstddef>

// Lanes 16 to 23 store, 256 bytes apart: 8 sectors, ideal 1 (lanes 0 to 23
// with a signed comparison: 24 and 3).
__global__ void laneWindow(float *out) {
  unsigned lane = threadIdx.x - 16;
  if (lane < 8)
    out[lane * 64] = 1.0f;
  // CHECK: [[@LINE-1]]:5: access: kernel=laneWindow op=store base=out elem=4 expr='out[lane * 64]' sectors=8 ideal=1 class=strided
}

// Lanes 4 to 31 load in[0..27]: from a sector boundary, 4 sectors (lanes 0
// to 31 from in[-4] read 16 bytes into a sector: 5, a false misalignment).
__global__ void shiftedWindow(float *out, const float *in) {
  unsigned j = threadIdx.x - 4u;
  out[threadIdx.x] = j < 28u ? in[j] : 0.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=shiftedWindow op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:32: access: kernel=shiftedWindow op=load base=in elem=4 expr='in[j]' sectors=4 ideal=4 class=coalesced
}

// The same in 64 bits: size_t wraps at 2^64, the comparison alike.
__global__ void wideWindow(float *out, const float *in) {
  size_t j = threadIdx.x - 4;
  if (j < 28)
    out[j] = in[j];
  // CHECK: [[@LINE-1]]:5: access: kernel=wideWindow op=store base=out elem=4 expr='out[j]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:14: access: kernel=wideWindow op=load base=in elem=4 expr='in[j]' sectors=4 ideal=4 class=coalesced
}

// A quotient of a wrapped value: lanes 0 to 15 get (2^32 - 16 + lane) / 8,
// not -1 or 0, and only lanes 16 to 31 store: 16 sectors, ideal 2.
__global__ void wrappedQuotient(float *out) {
  unsigned w = (threadIdx.x - 16u) / 8;
  if (w < 2)
    out[threadIdx.x * 8] = 1.0f;
  // CHECK: [[@LINE-1]]:5: access: kernel=wrappedQuotient op=store base=out elem=4 expr='out[threadIdx.x * 8]' sectors=16 ideal=2 class=strided
}

// Nothing can be negative here: the comparison is the exact one.
__global__ void plainBound(float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 0.0f;
  // CHECK: [[@LINE-1]]:5: access: kernel=plainBound op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
}
