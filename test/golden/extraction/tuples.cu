// Tuples of libcu++ and the standard library, element by element: what
// make_tuple(a, b) or tuple<A, B>(a, b) was given, get<I>(t) reads back, and
// `auto [x, y] = ...` binds each name to its element (a struct's: its
// field). MLX's elem_to_loc_nd returns its two offsets as
// `cuda::std::make_tuple(a_loc, b_loc)` and its binary kernels take them
// apart with a structured binding (issue 26, thirty-eighth session: 33,000
// of MLX's 40,000 unknowns after its first fixes were such offsets).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never --block=256 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// GPU-ARGS: --block=256
// CENSUS: self-check: 5 memory operations in the census of 3 kernels, 0 missing from the report
#include <cuda/std/tuple>
#include <tuple>
#include <cstdint>

__device__ cuda::std::tuple<int64_t, int64_t> locs(int64_t elem, int cols,
                                                   int64_t a_row,
                                                   int64_t b_row) {
  int64_t r = elem / cols, c = elem % cols;
  return cuda::std::make_tuple(r * a_row + c, c * b_row + r);
}

// a is read along its rows, b (transposed) along its columns: the lanes of
// a warp are 4 and 256 bytes apart.
__global__ void binary(const float *a, const float *b, float *out) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  auto [ai, bi] = locs(i, 64, 64, 64);
  out[i] = a[ai] + b[bi];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=binary op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:12: access: kernel=binary op=load base=a elem=4 expr='a[ai]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-3]]:20: access: kernel=binary op=load base=b elem=4 expr='b[bi]' sectors=32 ideal=4 class=strided {{.*}}
}

// get<I> on a tuple held in a variable.
__global__ void getters(float *out) {
  auto t = cuda::std::make_tuple(int(threadIdx.x), int(2 * threadIdx.x));
  out[cuda::std::get<1>(t)] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=getters op=store base=out elem=4 expr='out[cuda::std::get<1>(t)]' sectors=8 ideal=4 class=strided {{.*}}
}

// A structured binding of a struct: each name is its field.
struct Pair {
  int lo, hi;
};
__device__ Pair span(int t) { return {t, 2 * t}; }
__global__ void fields(float *out) {
  auto [lo, hi] = span(threadIdx.x);
  out[hi] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=fields op=store base=out elem=4 expr='out[hi]' sectors=8 ideal=4 class=strided {{.*}}
}
