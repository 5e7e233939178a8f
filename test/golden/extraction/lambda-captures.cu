// A lambda called away from where it was made (issue 26, ggml's
// flash-attention tile loads: `auto load = [&] __device__ (const int n)
// {...}; ggml_cuda_unroll<6>{}(load);`): the closure keeps the values of
// what it captures, so the pointers it uses are followed in the functor
// that calls it, once per call (here n = 2, then n = 1).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 4 memory operations in the census of 1 kernels, 0 missing from the report
template <int n> struct unroll {
  template <typename Func, typename... Args>
  __device__ void operator()(const Func &f, Args... args) const {
    f(n, args...);
    unroll<n - 1>{}(f, args...);
  }
};
template <> struct unroll<1> {
  template <typename Func, typename... Args>
  __device__ void operator()(const Func &f, Args... args) const {
    f(1, args...);
  }
};
__device__ void load(const float *KV, float *tile, int stride) {
  auto ld = [&] __device__(const int n) {
    const int k = threadIdx.x * n;
    tile[threadIdx.x] = KV[k * stride];
// CHECK-DAG: [[@LINE-1]]:25: access: kernel=kern op=load base=KV elem=4 expr='KV[k * stride]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// CHECK-DAG: [[@LINE-2]]:25: access: kernel=kern op=load base=KV elem=4 expr='KV[k * stride]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  };
  unroll<2>{}(ld);
}
__global__ void kern(const float *KV, float *out) {
  __shared__ float tile[256];
  load(KV, tile, 1);
  out[threadIdx.x] = tile[threadIdx.x];
// CHECK: [[@LINE-1]]:3: access: kernel=kern op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
