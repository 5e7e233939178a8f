// Library idioms of moderngpu (issue 26, first contact): a load iterator
// that holds the user's lambda in a field, CRTP iterators that copy
// `*static_cast<const outer_t *>(this)`, and the distance between two
// pointers a device function receives.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 8 memory operations in the census of 3 kernels, 0 missing from the report

// The iterator is made on the host around the user's lambda and captured by
// the kernel's own closure: the lambda's captures (`values`) go with it.
template <typename load_t> struct load_iterator {
  load_t load;
  int base;
  __device__ int operator[](int i) const { return load(base + i); }
};
template <typename F>
__global__ void __launch_bounds__(128) launch_k(F f) {
  f(threadIdx.x, blockIdx.x);
}
void scan(const int *values, int *out) {
  auto sizes = [=] __device__(int v) { return values[v]; };
// CHECK-DAG: [[@LINE-1]]:47: access: kernel=launch_k op=load base=values elem=4 expr='values[v]' sectors=4 ideal=4 worst=5 class=misaligned {{.*}}
  load_iterator<decltype(sizes)> input{sizes, 0};
  auto k = [=] __device__(int tid, int cta) {
    out[cta * 128 + tid] = input[cta * 128 + tid];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=launch_k op=store base=out elem=4 expr='out[cta * 128 + tid]' sectors=4 ideal=4 class=coalesced {{.*}}
  };
  launch_k<<<64, 128>>>(k);
}

// A CRTP iterator: `*static_cast<const outer_t *>(this)` is the object the
// method was called on, held by value, not memory.
template <typename outer_t> struct iterator_base {
  int index;
  __device__ outer_t operator+(int d) const {
    outer_t next = *static_cast<const outer_t *>(this);
    next.index += d;
    return next;
  }
};
struct strided : iterator_base<strided> {
  int stride;
  __device__ int operator*() const { return index * stride; }
};
__global__ void crtp(float *out, strided it) {
  strided at = it + (int)threadIdx.x;
  out[*at] = 0.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=crtp op=store base=out elem=4 expr='out[*at]' {{.*}}class=strided {{.*}}
}

// `b - a - a_count` of two pointers a device function receives: the distance
// between the two arrays is one value for the warp, and the gather through
// an index loaded from memory is `indirect`, not unknown.
__device__ float gather_two(const float *a, int a_count, const float *b,
                            const int *indices, int i) {
  long b_offset = b - a - a_count;
  long gather = indices[i];
// CHECK-DAG: [[@LINE-1]]:17: access: kernel=two_streams op=load base=indices elem=4 expr='indices[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  if (gather >= a_count)
    gather += b_offset;
  return a[gather];
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=two_streams op=load base=a elem=4 expr='a[gather]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
__global__ void two_streams(const float *a, int a_count, const float *b,
                            const int *indices, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = a + 4 * i, *q = a + i;
  out[i] = gather_two(a, a_count, b, indices, i);
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=two_streams op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  out[(p - q) * 32 + threadIdx.x % 32] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=two_streams op=store base=out elem=4 expr='out[(p - q) * 32 + threadIdx.x % 32]' sectors=32 ideal=4 class=strided {{.*}}
}
