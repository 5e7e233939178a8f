// A defaulted assignment of a struct whose members have assignment operators
// of their own (ggml's tile<half2>: __half2 has one) copies member by member:
// a store to the element and a load from the source, as a trivial one
// (issue 26; ggml's fattn-mma-f16.cuh:931 was the census's last miss).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
#include <cuda_fp16.h>
template <int I_, int J_, typename T> struct tile {
  static constexpr int I = I_, J = J_, ne = I * J / 32;
  T x[ne];
};
template <int I, int J> __device__ tile<I, J / 2, half2> get_half2(const tile<I, J, float> &t) {
  tile<I, J / 2, half2> ret;
  for (int l0 = 0; l0 < tile<I, J, float>::ne; l0 += 2) ret.x[l0 / 2] = make_half2(t.x[l0 + 0], t.x[l0 + 1]);
  return ret;
}
template <int cols_per_warp, int nbatch_fa>
__global__ void k(float *out) {
  using T_B = tile<8, 8, half2>;
  tile<8, 16, float> KQ_C[nbatch_fa / 16];
  T_B B[nbatch_fa / 16];
  if constexpr (cols_per_warp == 8) {
    B[0] = get_half2(KQ_C[0]);
  } else {
    for (int k = 0; k < nbatch_fa / 16; ++k) {
      B[k] = get_half2(KQ_C[k]);
    }
  }
  out[threadIdx.x] = __low2float(B[0].x[0]);
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
template __global__ void k<16, 64>(float *);
__global__ void to_global(tile<8, 8, half2> *dst, const tile<8, 8, half2> *src) {
  dst[threadIdx.x] = src[threadIdx.x * 2];
// CHECK: [[@LINE-1]]:3: access: kernel=to_global op=store base=dst elem=8 expr='dst[threadIdx.x]' sectors=8 ideal=4 class=aos stride=8 {{.*}}
// CHECK: [[@LINE-2]]:22: access: kernel=to_global op=load base=src elem=8 expr='src[threadIdx.x * 2]' sectors=16 ideal=4 class=strided stride=16 {{.*}}
}
