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
