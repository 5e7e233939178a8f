// Warp reductions (issue 27, TransformerEngine's router top-k; issue 29,
// what a lane exchange gives): after `v op= __shfl_xor_sync(~0u, v, o)` for
// o = 16, 8, 4, 2, 1, in any order, as a loop or written out, through a
// wrapper or min/max, with any commutative operations mixed, every lane
// holds the same value, so an index computed from it is uniform across the
// warp. Fewer steps (lanes paired by 16 and 8 only), a mask of fewer lanes,
// a width below 32 or a shuffle of another value leave a value per lane.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=shared:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=NAME
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// NAME: "assuming the warp's sum of cnt[threadIdx.x] = 1024"
// NAME: "reason": "index loaded from memory: sum of cnt[threadIdx.x] over lanes lane ^ {8, 16}"
template <typename T>
__device__ __forceinline__ T shuffle_xor(T x, int o) {
  return __shfl_xor_sync(0xffffffff, x, o);
}
template <typename T> __device__ __forceinline__ T allreduce(T x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) x += shuffle_xor(x, offset);
  return x;
}

__global__ void loop_reduce(const unsigned *cnt, float *out) {
  unsigned s = allreduce(cnt[threadIdx.x]);
// CHECK: [[@LINE-1]]:26: access: kernel=loop_reduce op=load base=cnt elem=4 expr='cnt[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  out[s * 32 + threadIdx.x % 32] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=loop_reduce op=store base=out elem=4 expr='out[s * 32 + threadIdx.x % 32]' sectors=4 ideal=4 class=coalesced {{.*}}
}

__global__ void written_out(const int *cnt, float *out) {
  int v = cnt[threadIdx.x];
// CHECK: [[@LINE-1]]:11: access: kernel=written_out op=load base=cnt elem=4 expr='cnt[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  v += __shfl_xor_sync(0xffffffff, v, 1);
  v += __shfl_xor_sync(0xffffffff, v, 4);
  v += __shfl_xor_sync(0xffffffff, v, 16);
  v += __shfl_xor_sync(0xffffffff, v, 2);
  v = v + __shfl_xor_sync(0xffffffff, v, 8);
  out[v] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=written_out op=store base=out elem=4 expr='out[v]' sectors=1 ideal=4 class=uniform {{.*}}
}

__global__ void maximum(const int *cnt, float *out) {
  int v = cnt[threadIdx.x];
// CHECK: [[@LINE-1]]:11: access: kernel=maximum op=load base=cnt elem=4 expr='cnt[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  for (int o = 1; o < 32; o *= 2) v = max(v, __shfl_xor_sync(0xffffffff, v, o));
  out[v * 32 + threadIdx.x % 32] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=maximum op=store base=out elem=4 expr='out[v * 32 + threadIdx.x % 32]' sectors=4 ideal=4 class=coalesced {{.*}}
}

__global__ void mixed(const int *cnt, float *out) {
  int m = cnt[threadIdx.x];
// CHECK: [[@LINE-1]]:11: access: kernel=mixed op=load base=cnt elem=4 expr='cnt[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  for (int o = 16; o > 0; o >>= 1)
    m = (o & 2) ? m * __shfl_xor_sync(0xffffffff, m, o)
                : m + __shfl_xor_sync(0xffffffff, m, o);
  out[m * 32 + threadIdx.x % 32] = 4.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=mixed op=store base=out elem=4 expr='out[m * 32 + threadIdx.x % 32]' sectors=4 ideal=4 class=coalesced {{.*}}
}

// Nested two loops deep (the router's radix passes, then buckets, then the
// butterfly), with a counter read in a branch: still uniform.
__global__ void nested(const unsigned *cnt, int *out, int k) {
  int found = 0;
#pragma unroll 1
  for (int pass = 0; pass < 4; ++pass) {
    for (int b = 0; b < 4; ++b) {
      unsigned c = allreduce(cnt[threadIdx.x * 4 + b]);
// CHECK: [[@LINE-1]]:30: access: kernel=nested op=load base=cnt elem=4 expr='cnt[threadIdx.x * 4 + b]' sectors=16 ideal=4 class=strided {{.*}}
      if (c >= k) {
        found = b;
        break;
      }
    }
  }
  out[found * 32 + threadIdx.x % 32] = 1;
// CHECK: [[@LINE-1]]:3: access: kernel=nested op=store base=out elem=4 expr='out[found * 32 + threadIdx.x % 32]' sectors=4 ideal=4 class=coalesced {{.*}}
}

// Not all 32 lanes: each leaves a value per lane (data: indirect).
__global__ void partial(const int *cnt, float *out) {
  int v = cnt[threadIdx.x];
// CHECK: [[@LINE-1]]:11: access: kernel=partial op=load base=cnt elem=4 expr='cnt[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  v += __shfl_xor_sync(0xffffffff, v, 16);
  v += __shfl_xor_sync(0xffffffff, v, 8);
  out[v * 32 + threadIdx.x % 32] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=partial op=store base=out elem=4 expr='out[v * 32 + threadIdx.x % 32]' sectors=n/a ideal=n/a class=indirect {{.*}}
  int w = cnt[threadIdx.x + 32];
// CHECK: [[@LINE-1]]:11: access: kernel=partial op=load base=cnt elem=4 expr='cnt[threadIdx.x + 32]' sectors=4 ideal=4 class=coalesced {{.*}}
  for (int o = 8; o > 0; o >>= 1) w += __shfl_xor_sync(0xffffffff, w, o, 16);
  out[w * 32 + threadIdx.x % 32] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=partial op=store base=out elem=4 expr='out[w * 32 + threadIdx.x % 32]' sectors=n/a ideal=n/a class=indirect {{.*}}
  int h = cnt[threadIdx.x + 64];
// CHECK: [[@LINE-1]]:11: access: kernel=partial op=load base=cnt elem=4 expr='cnt[threadIdx.x + 64]' sectors=4 ideal=4 class=coalesced {{.*}}
  for (int o = 16; o > 0; o >>= 1) h += __shfl_xor_sync(0x0000ffff, h, o);
  out[h * 32 + threadIdx.x % 32] = 3.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=partial op=store base=out elem=4 expr='out[h * 32 + threadIdx.x % 32]' sectors=n/a ideal=n/a class=indirect {{.*}}
  int u = threadIdx.x;
  for (int o = 16; o > 0; o >>= 1) u += __shfl_xor_sync(0xffffffff, w, o);
  out[u] = 5.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=partial op=store base=out elem=4 expr='out[u]' sectors=n/a ideal=n/a class=indirect {{.*}}
}
