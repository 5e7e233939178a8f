// Conditions that contradict each other (issue 26, TransformerEngine's
// Vec::load_from_elts called for the tail, `else if (c < K)` after `if (c +
// 16 <= K)`: its vector path needs K - c >= 16): no value runs the vector
// load, so it is code that cannot run, not an unknown "no lane executes".
// `!(a || b)` reads as `!a && !b`, and X < 0 with Y < 0 where X + Y is a
// constant >= -1 is false.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 6 memory operations in the census of 1 kernels, 0 missing from the report
#include <cstdint>
template <int N> struct Vec {
  float d[N];
  __device__ void load_from(const float *p) { for (int i = 0; i < N; i++) d[i] = p[i]; }
// CHECK: [[@LINE-1]]:82: access: kernel=tail op=load base=in elem=4 expr='p[i]' sectors=24 ideal=3 class=strided {{.*}}
  __device__ void load_from_elts(const float *p, size_t count) {
    if (count < N || reinterpret_cast<uint64_t>(p) % (4 * N) != 0) {
      for (int i = 0; i < N; i++) d[i] = i < count ? p[i] : 0.f;
// CHECK: [[@LINE-1]]:54: access: kernel=tail op=load base=in elem=4 expr='p[i]' sectors=1 ideal=1 class=coalesced {{.*}}
    } else {
      load_from(p);
    }
  }
};
__global__ void tail(const float *in, float *out, size_t K) {
  const size_t c = blockIdx.x * 128 + threadIdx.x * 16;
  Vec<16> v;
  if (c + 16 <= K) {
    v.load_from(in + c);
  } else if (c < K) {
    v.load_from_elts(in + c, K - c);
  }
  out[threadIdx.x] = v.d[0];
// CHECK: [[@LINE-1]]:3: access: kernel=tail op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
