// Per-lane coordinates as CuTe computes them (`idx2crd(threadIdx.x, shape)`
// through transform, transform_leaf and identity): tuples built from the
// results of a function object called once per element, in a pack
// expansion (`g(f(get<I>(t))...)`) or twice in one expression. Until the
// forty-second session each of the first three kernels below lost the
// coordinate and predicted its store `unknown` or, wrongly, `uniform` (one
// address for the warp): an inlined call's result was kept per call expression, not per call, so
// the last of the calls a lambda's body made answered for all of them;
// and a reference returned into a tuple (`get<0>(t)`) bound to a `T const &`
// parameter read the thread's own memory, not the element.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=128 %s -- -std=c++17 | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --format=json --fail-on=never --block=128 %s -- -std=c++17 | FileCheck %s --check-prefix=REASON
#include <cuda_runtime.h>

template <int... I> struct seq {};
template <class A, class B> struct tup {
  A a_;
  B b_;
};
template <class A, class B> __device__ tup<A, B> make_tup(A const &a, B const &b) {
  return tup<A, B>{a, b};
}
template <int I, class A, class B> __device__ auto const &get(tup<A, B> const &t) {
  if constexpr (I == 0)
    return t.a_;
  else
    return t.b_;
}
struct ident {
  template <class T> __device__ T &&operator()(T &&x) const {
    return static_cast<T &&>(x);
  }
};
// CuTe's detail::tapply: f applied to each element, g to the results.
template <class T, class F, class G, int... I>
__device__ auto tapply(T const &t, F &&f, G &&g, seq<I...>) {
  return g(f(get<I>(t))...);
}
template <class T, class F> __device__ auto transform(T const &t, F &&f) {
  return tapply(t, f, [](auto const &...a) { return make_tup(a...); },
                seq<0, 1>{});
}

// The lambda's one body is called for both elements: its call of ident
// returned x for the first and 7 for the second.
__global__ void packExpansion(float *out, int ld) {
  int x = threadIdx.x;
  auto c = transform(make_tup(x, 7), [&](auto const &v) { return ident{}(v); });
  out[get<0>(c) * ld] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=packExpansion op=store base=out elem=4 expr='out[get<0>(c) * ld]' sectors=32 ideal=4 class=strided {{.*}}
}

// The same body called twice in one expression.
__global__ void calledTwice(float *out) {
  int x = threadIdx.x;
  auto l = [&](auto const &v) { return ident{}(v); };
  auto c = make_tup(l(x), l(3));
  out[get<0>(c) + get<1>(c)] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=calledTwice op=store base=out elem=4 expr='out[get<0>(c) + get<1>(c)]' sectors=5 ideal=4 class=misaligned {{.*}}
}

// An element returned by reference, passed on by reference.
__global__ void elementByReference(float *out) {
  int x = threadIdx.x;
  auto t = make_tup(x, 1);
  auto c = make_tup(get<0>(t), 2);
  out[get<0>(c)] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=elementByReference op=store base=out elem=4 expr='out[get<0>(c)]' sectors=4 ideal=4 class=coalesced {{.*}}
}

// An object the walker cannot follow (a function whose body it does not
// see) holds what it was computed from: fields of one made from the lane
// are unknown per lane, not one address for the warp; fields of one made
// from the block alone are the same in every lane.
struct coord {
  int row, col;
};
__device__ coord opaqueCoord(int i);
__global__ void lostPerLane(float *out) {
  coord c = opaqueCoord(threadIdx.x);
  out[c.col] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=lostPerLane op=store base=out elem=4 expr='out[c.col]' sectors=n/a ideal=n/a class=unknown {{.*}}
// REASON: "reason": "address depends on a per-lane value the engine cannot model: 'c.col' is a part of 'c' that the analysis did not follow, computed from values that differ between lanes"
}
__global__ void lostUniform(float *out) {
  coord c = opaqueCoord(blockIdx.x);
  out[c.col * 128 + threadIdx.x] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=lostUniform op=store base=out elem=4 expr='out[c.col * 128 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
