// A call that returns a reference into memory, bound to a reference
// parameter (issue 26; NVIDIA Warp's `hash_grid_index(grid,
// wp::index(points, tid))`, first contact in the thirty-sixth session): the
// call's body was not walked before the binding, so the parameter was taken
// for a value of the thread and the load through it vanished (the census
// matched it as excluded: nothing was reported missing). The call now runs
// first, as in an access's address, and reads through the parameter are
// loads of the memory it returns. An enumerator or a static member named
// through an object (`elh.numBins` of cuBQL's builders) reads no memory. A
// pointer read through an accessor that returns it by reference (kernel
// `accessor`) is the element its return names.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --print-accesses --fail-on=never %s -- -DNDEBUG | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 26 memory operations in the census of 7 kernels, 0 missing from the report
#include <cassert>
#include <utility>
template <typename T> __device__ inline T &at(T *a, int i) {
  if (i < 0)
    i += 4;
  T &r = a[i];
  return r;
}
template <typename T> __device__ int cellOf(const T &v) { return int(v * 2); }
// CHECK-DAG: [[@LINE-1]]:70: access: kernel=byReference op=load base=p elem=4 expr='v' sectors=8 ideal=4 class=strided {{.*}}
template <typename T> __device__ int cellOfCopy(T v) { return int(v * 2); }
__global__ void byReference(float *p, int *out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = cellOf(at(p, tid * 2));
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=byReference op=store base=out elem=4 expr='out[tid]' sectors=4 ideal=4 class=coalesced {{.*}}
}
__global__ void byValue(float *p, int *out) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = cellOfCopy(at(p, tid * 2));
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=byValue op=store base=out elem=4 expr='out[tid]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:25: access: kernel=byValue op=load base=p elem=4 expr='at(p, tid * 2)' sectors=8 ideal=4 class=strided {{.*}}
}
struct Bins {
  enum { numBins = 4 };
  static constexpr int numDims = 2;
  float bins[numBins];
};
__device__ float total(const Bins &b) {
  float s = 0;
  for (int i = 0; i < b.numBins * b.numDims; ++i)
    s += b.bins[i % 4];
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=staticMembers op=load base=bins elem=4 expr='b.bins[i % 4]' sectors=16 ideal=4 class=strided stride=16 {{.*}}
  // Their values are known too (cuBQL's `for (b = sah.numBins - 1; b >= 0;
  // --b)` was an unknown until the thirty-seventh session).
  for (int i = b.numBins - 1; i >= 0; --i)
    s += b.bins[i];
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=staticMembers op=load base=bins elem=4 expr='b.bins[i]' sectors=16 ideal=4 class=strided stride=16 {{.*}}
  return s;
}
__global__ void staticMembers(const Bins *bins, float *out) {
  out[threadIdx.x] = total(bins[threadIdx.x]);
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=staticMembers op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
// A pointer held in a vector wrapper passed by value and read through its
// accessor (Warp's `wp::vec_t<2, const int *> indices`, `indices[0][i]`):
// the accessor's one return names the element, a pointer the launch fixes.
// An `assert` before the return (`(void)0` under NDEBUG: the second RUN)
// does not change what it returns (Warp's accessors assert their index;
// until the thirty-seventh session that made the pointer unknown).
template <unsigned N, typename T> struct vec_t {
  T c[N];
  __device__ T operator[](int index) const { return c[index]; }
  __device__ T &operator[](int index) {
    assert(index < int(N));
    ;
    return c[index];
  }
};
__global__ void accessor(int *data, vec_t<2, const int *> indices) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int idx = indices[1] ? indices[1][i] : i;
// CHECK-DAG: [[@LINE-1]]:26: access: kernel=accessor op=load base=indices[1] elem=4 expr='indices[1][i]' sectors=4 ideal=4 class=coalesced {{.*}}
  data[idx] = 1;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=accessor op=store base=data elem=4 expr='data[idx]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// std::forward<T>(x) and std::move(x) name x and access nothing (moderngpu's
// forward_as_tuple): an access through them is the one the caller makes
// (`std::forward<A>(x) += 1`, a load and a store of the element bound to
// x), never one at the call itself.
template <typename P> struct Holder {
  P p;
};
template <typename P> __device__ P &pointerOf(Holder<P> &h) { return h.p; }
template <typename A> __device__ int twice(A &&x) { return 2 * std::forward<A>(x); }
// CHECK-DAG: [[@LINE-1]]:80: access: kernel=forwarded op=load base=pointerOf(h) elem=4 expr='x' sectors=4 ideal=4 class=coalesced {{.*}}
template <typename A> __device__ void bump(A &&x) { std::forward<A>(x) += 1; }
// CHECK-DAG: [[@LINE-1]]:53: access: kernel=forwarded op=load+store base=pointerOf(h) elem=4 expr='std::forward<A>(x)' sectors=8 ideal=4 class=strided {{.*}}
__global__ void forwarded(Holder<int *> h, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = twice(pointerOf(h)[i]);
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=forwarded op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  bump(pointerOf(h)[2 * i]);
}
// A search that returns a pointer into memory, or nullptr when it finds
// nothing (Warp's fabricarray_find_bucket, a binary search returning from
// inside its loop): no access goes through the null pointer where the code
// runs, so the call's pointer is the found one, at an offset loaded from
// memory (before: "cannot follow the pointer 'b'").
struct Bucket {
  int index_start, index_end;
  float *ptr;
};
__device__ const Bucket *findBucket(const Bucket *buckets, int n, int i) {
  int lo = 0, hi = n - 1;
  while (hi >= lo) {
    int mid = (lo + hi) >> 1;
    const Bucket *b = buckets + mid;
    if (i >= b->index_end)
// CHECK-DAG: [[@LINE-1]]:14: access: kernel=searched op=load base=buckets elem=4 expr='b->index_end' sectors=n/a ideal=n/a class=indirect {{.*}}
      lo = mid + 1;
    else if (i < b->index_start)
// CHECK-DAG: [[@LINE-1]]:18: access: kernel=searched op=load base=buckets elem=4 expr='b->index_start' sectors=n/a ideal=n/a class=indirect {{.*}}
      hi = mid - 1;
    else
      return b;
  }
  return nullptr;
}
__global__ void searched(const Bucket *buckets, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Bucket *b = findBucket(buckets, n, i);
  out[i] = b->ptr[i - b->index_start];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=searched op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:12: access: kernel=searched op=load base=buckets elem=8 expr='b->ptr' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK-DAG: [[@LINE-3]]:12: access: kernel=searched op=load base=b->ptr elem=4 expr='b->ptr[i - b->index_start]' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK-DAG: [[@LINE-4]]:23: access: kernel=searched op=load base=buckets elem=4 expr='b->index_start' sectors=n/a ideal=n/a class=indirect {{.*}}
}
// A compound assignment whose operator returns its left side (Warp's
// generic `T &operator+=(T &a, const T &b)`) with a temporary on the right
// (`my.diag += twiceOf(n)`): the statement ends in the full expression that
// destroys the temporary, and the reference it returns is discarded there,
// not read (the census took it for an access at the call: two false misses
// in Warp's solid_angle.h, thirty-seventh session).
struct vec3 {
  float c[3];
};
__device__ vec3 twiceOf(const vec3 &a) {
  vec3 r;
  for (int k = 0; k < 3; ++k)
    r.c[k] = 2 * a.c[k];
  return r;
}
template <typename T> __device__ T &operator+=(T &a, const T &b) {
  for (int k = 0; k < 3; ++k)
    a.c[k] += b.c[k];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=compound op=load+store base=props elem=4 expr='a.c[k]' sectors=n/a ideal=n/a class=indirect {{.*}}
  return a;
}
struct Props {
  vec3 diag;
  float area;
};
__global__ void compound(Props *props, const int *parents) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  vec3 n = props[i].diag;
// CHECK-DAG: [[@LINE-1]]:12: access: kernel=compound op=load base=props elem=12 expr='props[i].diag' sectors=16 ideal=4 class=aos {{.*}}
  props[parents[i]].diag += twiceOf(n);
// CHECK-DAG: [[@LINE-1]]:9: access: kernel=compound op=load base=parents elem=4 expr='parents[i]' sectors=4 ideal=4 class=coalesced {{.*}}
}
