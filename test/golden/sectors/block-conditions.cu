// Conditions that are the same for a whole block and that the defaults make
// false for every simulated block (issue 26, ggml's stream-k fixup: `if
// (jt*ncols1 + j >= ne01 || zt_gqa*ncols2 + c >= gqa_ratio) return;` with
// jt, zt_gqa, ne01 and gqa_ratio all 1024 and all in the address, so no one
// value lets a block through): the warps of the blocks that pass make the
// requests, predicted without those conditions and said so, not "no lane
// executes". A condition on the lanes is kept (dst[1]: half of each warp).
// Since `!(a || b)` reads as `!a && !b`, the values loaded from tiles[]
// are the ones the note names (0 lets every block through), before the
// block-wide conditions are dropped; the figures are the same.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=NOTZERO --implicit-check-not="gridDim.x = 0"
// JSON: "expr": "*dst",
// JSON: "assuming tiles[blockIdx.x + 1] = 0, tiles[blockIdx.x] = 0 so that the access executes",
__global__ void fixup(float *dst, const int *tiles, int ne01, int gqa) {
  const int jt = tiles[blockIdx.x];
// CHECK: [[@LINE-1]]:18: access: kernel=fixup op=load base=tiles elem=4 expr='tiles[blockIdx.x]' sectors=1 ideal=4 class=uniform {{.*}}
  const int zt = tiles[blockIdx.x + 1];
// CHECK: [[@LINE-1]]:18: access: kernel=fixup op=load base=tiles elem=4 expr='tiles[blockIdx.x + 1]' sectors=1 ideal=4 class=uniform {{.*}}
  if (jt * 16 + blockIdx.y >= ne01 || zt * 2 + blockIdx.z >= gqa)
    return;
  dst += jt * ne01 * 64 + zt * gqa * 64 + threadIdx.x * 2;
  *dst = 1;
// CHECK: [[@LINE-1]]:3: access: kernel=fixup op=store base=dst elem=4 expr='*dst' sectors=8 ideal=4 class=strided stride=8 {{.*}}
  if (threadIdx.x >= 16 + jt * 0)
    dst[1] = 2;
// CHECK: [[@LINE-1]]:5: access: kernel=fixup op=store base=dst elem=4 expr='dst[1]' sectors=7 ideal=3.5 class=strided stride=8 {{.*}}
}
void run(float *dst, const int *tiles) {
  fixup<<<dim3(4, 2, 2), 128>>>(dst, tiles, 64, 8);
}

// The fallback instance of the fixup (sixteenth session): the lanes' own
// `if (i > i_max) return;` let none run under the defaults while the tile
// index `it` of the fast division was lost; the guards were searched and
// the note named the values found. Since the forty-second session
// `make_uint2` gives the division's result, `it` is 0 under the defaults,
// every lane runs, and only `ids_dst` is assumed. A block or grid size is
// never assumed 0 to let an access run (it was: `gridDim.x = 0`, dividing
// by it, for the load of tmp).
static __device__ __forceinline__ uint2 fast_div_modulo(uint32_t n,
                                                        const uint3 fd) {
  const uint32_t hi = __umulhi(n, fd.x);
  const uint32_t div_val = (hi + n) >> fd.y;
  return make_uint2(div_val, n - div_val * fd.z);
}
template <bool fallback>
__global__ void __launch_bounds__(128)
    fixup_tail(float *dst, const float *tmp, const int *ids_dst, int nrows_x,
               int ncols_dst, uint3 ntx, int blocks_per_tile,
               int stride_col_dst) {
  const int kbc0 = blockIdx.x * blocks_per_tile / gridDim.x;
  const int kbc0_stop = (blockIdx.x + 1) * blocks_per_tile / gridDim.x;
  if (kbc0 == kbc0_stop || kbc0 % blocks_per_tile == 0)
    return;
  const int i = threadIdx.x;
  float sum = tmp[blockIdx.x * 128 + i];
// CHECK: [[@LINE-1]]:15: access: kernel=fixup_tail op=load base=tmp elem=4 {{.*}} sectors=4 ideal=4 class=coalesced {{.*}}
// NOTZERO: "expr": "tmp[blockIdx.x * 128 + i]",
  uint2 tmp2 = fast_div_modulo(kbc0, ntx);
  const int jt = tmp2.y;
  const int it = tmp2.x;
  if (!ids_dst) {
    const int i_max = nrows_x - it * 128 - 1;
    const int j_max = ncols_dst - jt * 8 - 1;
    if (fallback && i > i_max)
      return;
    for (int j = 0; j < 8; ++j) {
      if (j > j_max)
        return;
      dst[j * stride_col_dst + it * 128 + i] += sum;
// CHECK: [[@LINE-1]]:7: access: kernel=fixup_tail op=load+store base=dst elem=4 {{.*}} class=coalesced {{.*}}
// JSON: "expr": "dst[j * stride_col_dst + it * 128 + i]",
// JSON: "assuming ids_dst = 0 so that the access executes",
    }
  }
}
template __global__ void fixup_tail<true>(float *, const float *, const int *,
                                          int, int, uint3, int, int);
