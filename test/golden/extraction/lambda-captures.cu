// A lambda called away from where it was made (issue 26, ggml's
// flash-attention tile loads: `auto load = [&] __device__ (const int n)
// {...}; ggml_cuda_unroll<6>{}(load);`): the closure keeps the values of
// what it captures, so the pointers it uses are followed in the functor
// that calls it, once per call (here n = 2, then n = 1).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 9 memory operations in the census of 3 kernels, 0 missing from the report
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
// A closure launched as the kernel's argument and handed on by value
// before it is called (moderngpu's cta_launch: launch_box_cta_k passes f to
// restrict_forward): the captures go with the closure, each fixed for the
// launch and named after the captured variable. Before, only a call in the
// kernel's own body found them ("cannot follow the pointer 'input'").
template <typename F> __device__ void forward(F f, int tid, int cta) { f(tid, cta); }
template <typename F>
__global__ void __launch_bounds__(128) launch_k(F f, int n) {
  int tid = threadIdx.x % 128u;
  forward(f, tid, (int)blockIdx.x);
}
template <typename F> void cta_launch(F f, int n) { launch_k<<<n, 128>>>(f, n); }
void simple(const float *input, float *output, int n, int stride) {
  auto k = [=] __device__(int tid, int cta) {
    float x = input[cta * 128 + tid];
    if (!tid) *output = x;
    output[tid * stride] = x;
  };
  cta_launch(k, n);
}
// CHECK: [[@LINE-6]]:15: access: kernel=launch_k op=load base=input elem=4 expr='input[cta * 128 + tid]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-6]]:15: access: kernel=launch_k op=store base=output elem=4 expr='*output' sectors=1 ideal=1 class=uniform {{.*}}
// CHECK: [[@LINE-6]]:5: access: kernel=launch_k op=store base=output elem=4 expr='output[tid * stride]' sectors=32 ideal=4 class=strided {{.*}}
// A closure that captured another (moderngpu's scan and transform wrap the
// user's lambda in their own before the launch): the inner closure's
// captures go with it too.
template <typename F> __device__ void pass_on(F f, int i) { f(i); }
template <typename F> __global__ void launch_flat(F f) { pass_on(f, (int)(blockIdx.x * 128 + threadIdx.x)); }
template <typename G> void scan(G g, int n) {
  auto k = [=] __device__(int index) { g(index * 2); };
  launch_flat<<<n, 128>>>(k);
}
void bfs(const int *values, int *out, int n) {
  auto f = [=] __device__(int index) { out[index] = values[index]; };
// CHECK: [[@LINE-1]]:40: access: kernel=launch_flat op=store base=out elem=4 expr='out[index]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// CHECK: [[@LINE-2]]:53: access: kernel=launch_flat op=load base=values elem=4 expr='values[index]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
  scan(f, n);
}
