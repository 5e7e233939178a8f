// CuTe's tensors (CUTLASS 3 and 4, lmdeploy's TurboMind, FlashAttention):
// a global-memory iterator is a class with an inherited constructor
// (`using iter_adaptor::iter_adaptor;`), a tensor holds its engine in a
// tuple of empty-base-optimized structs whose `get<I>` recurses through
// `if constexpr` after a `static_assert`, and every element is reached
// through calls returning references into those objects
// (`t.engine().begin()[i]`, `get<1>(rep_).storage_`). At first contact
// (forty-first session) each of these steps lost the address, and the
// access was excluded as "a variable or an object held by value": `d(1) =
// s(1)` of two global tensors reported nothing, lmdeploy's CopyKernelND
// reported its global load as local memory and dropped its store. The
// shapes below are written after CuTe's, not copied from it.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s -- -std=c++17 | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// GPU-ARGS: --block=32
#include <cuda_runtime.h>

template <class It, class Derived> struct adaptor {
  It ptr_;
  __device__ constexpr adaptor(It p = {}) : ptr_(p) {}
  template <class I> __device__ constexpr auto &operator[](I const &i) const {
    return ptr_[i];
  }
};
// The constructor is inherited: `gptr<float *>{p}` runs adaptor's.
template <class It> struct gptr : adaptor<It, gptr<It>> {
  using adaptor<It, gptr<It>>::adaptor;
};
template <class It> __device__ auto make_gptr(It it) {
  if constexpr (sizeof(It) == 0)
    return it;
  else
    return gptr<It>{it};
}

// A two-element tuple of nested structs: `get<I>` recurses with
// `if constexpr`, its body opens with a static_assert.
template <class A, class B> struct pair_t {
  A first_;
  struct rest_t {
    B first_;
  } rest_;
};
template <class R, int N, class S> __device__ R getr(S &&s) {
  if constexpr (N == 0)
    return static_cast<S &&>(s).first_;
  else
    return getr<R, N - 1>(static_cast<S &&>(s).rest_);
}
template <int I, class A, class B> __device__ auto &get(pair_t<A, B> &t) {
  static_assert(I < 2, "index out of range");
  using Tuple = pair_t<A, B>;
  if constexpr (I == 0)
    return getr<A &, 0>(t);
  else
    return getr<B &, 1>(t);
}

template <class It> struct engine_t {
  It storage_;
  __device__ It const &begin() const { return storage_; }
};
struct layout_t {
  int stride;
  __device__ int operator()(int i) const { return i * stride; }
};
template <class It> struct tensor_t {
  pair_t<layout_t, engine_t<It>> rep_;
  __device__ engine_t<It> &engine() { return get<1>(rep_); }
  __device__ layout_t &layout() { return get<0>(rep_); }
  __device__ It const &data() { return engine().begin(); }
  __device__ auto &operator()(int i) { return data()[layout()(i)]; }
};
template <class It> __device__ auto make_tensor(It const &it, int stride) {
  return tensor_t<It>{{{stride}, {engine_t<It>{it}}}};
}

// An aggregate with a base: the base's fields come first.
struct base_t {
  float *p;
};
struct derived_t : base_t {
  int n;
};

__global__ void iterator_copy(const float *src, float *dst) {
  auto s = make_gptr(src + threadIdx.x);
  auto d = make_gptr(dst + threadIdx.x * 2);
  d[0] = s[0];
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=iterator_copy op=load base=src elem=4 expr='s[0]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=iterator_copy op=store base=dst elem=4 expr='d[0]' sectors=8 ideal=4 class=strided {{.*}}
}

__global__ void tensor_copy(float *src, float *dst) {
  // The pointer is a temporary bound to `It const &`.
  auto s = make_tensor(src + threadIdx.x, 1);
  auto d = make_tensor(make_gptr(dst + threadIdx.x * 4), 1);
  d(1) = s(1);
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=tensor_copy op=load base=src elem=4 expr='s(1)' sectors=5 ideal=4 class=misaligned {{.*}}
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=tensor_copy op=store base=dst elem=4 expr='d(1)' sectors=16 ideal=4 class=strided {{.*}}
  d.engine().begin()[2] = 0.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=tensor_copy op=store base=dst elem=4 expr='d.engine().begin()[2]' sectors=16 ideal=4 class=strided {{.*}}
  get<1>(s.rep_).storage_[3] = 0.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=tensor_copy op=store base=src elem=4 expr='get<1>(s.rep_).storage_[3]' sectors=5 ideal=4 class=misaligned {{.*}}
}

__global__ void aggregate_base(float *out) {
  derived_t v{{out + threadIdx.x * 8}, 3};
  v.p[v.n] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=aggregate_base op=store base=out elem=4 expr='v.p[v.n]' sectors=32 ideal=4 class=strided {{.*}}
}
// CHECK: 6 warnings in 3 kernels (7 accesses analyzed, 0 unknown)
