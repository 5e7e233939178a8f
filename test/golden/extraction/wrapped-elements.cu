// Objects of the thread's own memory handed around as modern CUDA code does
// (issue 26: moderngpu's tuples in array_t, cached per thread): a getter
// called on a temporary (`get(load(...))`, its rvalue overload returning
// `std::forward<T &&>(get(b))`), elements stored through a wrapper's
// operator[] from a forwarding `make`, a const operator[] returning the
// element by value, a reference parameter bound to memory (`wrap(keys[i])`).
// An element read back from the thread's own array is that lane's: data
// where the stores put data there (indirect), else unknown with its reason,
// never a value uniform across the warp (`scrambled`: the stores are in a
// function the analysis cannot see). What a variable's arrays hold goes with
// its copies field by field: `r.seg` of a `result_t{seg, rank}` holds data,
// `r.rank` lane values. A value an accessor's return reads is named after
// the call (`get(v[1])`, `r.seg[1]`, in its reason too since the 38th
// session; `b.x` and `data[i]`, the accessors' own text, before the 37th).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=shared:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=REASON
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// REASON: "reason": "index loaded from memory: p[i]"
// REASON: "reason": "index loaded from memory: get(v[1])"
// REASON: "reason": "index loaded from memory: data[i].x"
// REASON: "reason": "index loaded from memory: w[3].a"
// REASON: "reason": "address depends on a per-lane value the engine cannot model: data[i].x"
// REASON: "reason": "index loaded from memory: r.seg[1]"
// REASON: "reason": "address depends on a per-lane value the engine cannot model: 'r.rank[1]' is read back from the thread's local memory ('data'), whose stores the analysis does not follow there"
#include <utility>
template <class T, int N> struct arr {
  T data[N];
  __device__ T operator[](int i) const { return data[i]; }
  __device__ T &operator[](int i) { return data[i]; }
};
template <class T> struct box { T x; };
template <class T> __device__ T &get(box<T> &b) { return b.x; }
template <class T> __device__ const T &get(const box<T> &b) { return b.x; }
template <class T> __device__ T &&get(box<T> &&b) {
  return std::forward<T &&>(get(b));
}
template <class T> __device__ box<typename std::decay<T>::type> make(T &&x) {
  return box<typename std::decay<T>::type>{std::forward<T>(x)};
}
__device__ box<int> load(const int *p, int i) { return box<int>{p[i]}; }
struct pair_t { int a; };
__device__ pair_t wrap(const int &x) { return pair_t{x}; }
__device__ void scramble(arr<box<int>, 4> &a);

__global__ void temporaries(const int *keys, float *out) {
// CHECK: wrapped-elements.cu:41:65: access: kernel=temporaries op=load base=keys elem=4 expr='p[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  out[get(load(keys, threadIdx.x)) + threadIdx.x] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=temporaries op=store base=out elem=4 expr='out[get(load(keys, threadIdx.x)) + threadIdx.x]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
__global__ void wrapped(const int *keys, float *out) {
  arr<box<int>, 4> v;
  for (int i = 0; i < 4; ++i)
    v[i] = make(keys[threadIdx.x + 256 * i]);
// CHECK: wrapped-elements.cu:39:60: access: kernel=wrapped op=load base=keys elem=4 expr='x' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: wrapped-elements.cu:43:54: access: kernel=wrapped op=load base=keys elem=4 expr='x' sectors=4 ideal=4 class=coalesced {{.*}}
  out[get(v[1]) + threadIdx.x] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=wrapped op=store base=out elem=4 expr='out[get(v[1]) + threadIdx.x]' sectors=n/a ideal=n/a class=indirect {{.*}}
  const arr<box<int>, 4> c = v;
  out[get(c[2]) + threadIdx.x] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=wrapped op=store base=out elem=4 expr='out[get(c[2]) + threadIdx.x]' sectors=n/a ideal=n/a class=indirect {{.*}}
  arr<pair_t, 4> w;
  for (int i = 0; i < 4; ++i)
    w[i] = wrap(keys[threadIdx.x + 256 * i]);
  out[w[3].a + threadIdx.x] = 3.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=wrapped op=store base=out elem=4 expr='out[w[3].a + threadIdx.x]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
__global__ void scrambled(float *out) {
  arr<box<int>, 4> v;
  scramble(v);
  const arr<box<int>, 4> c = v;
  out[get(c[2]) * 32 + threadIdx.x] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=scrambled op=store base=out elem=4 expr='out[get(c[2]) * 32 + threadIdx.x]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
struct result_t { arr<int, 4> seg; arr<int, 4> rank; };
__device__ result_t split(const int *keys) {
  arr<int, 4> seg, rank;
  for (int i = 0; i < 4; ++i) {
    seg[i] = keys[threadIdx.x * 4 + i];
// CHECK: [[@LINE-1]]:14: access: kernel=fields op=load base=keys elem=4 expr='keys[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
    rank[i] = threadIdx.x ^ i;
  }
  return result_t{seg, rank};
}
__global__ void fields(const int *keys, float *out) {
  result_t r = split(keys);
  out[r.seg[1]] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=fields op=store base=out elem=4 expr='out[r.seg[1]]' sectors=n/a ideal=n/a class=indirect {{.*}}
  out[r.rank[1]] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=fields op=store base=out elem=4 expr='out[r.rank[1]]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
int main() {
  temporaries<<<1, 256>>>(nullptr, nullptr);
  wrapped<<<1, 256>>>(nullptr, nullptr);
  scrambled<<<1, 256>>>(nullptr);
  fields<<<1, 256>>>(nullptr, nullptr);
}
