// A pointer tested for null (`if (ids_dst)`, ggml's MoE paths in mmq.cuh):
// a kernel's pointer argument is the same in every lane, so the condition
// is a uniform one (its parameter's value, `--param ids_dst=0` for the
// other path), not a per-lane value that makes the address unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --print-accesses --fail-on=never --param ids_dst=0 %s | FileCheck %s --check-prefix=NULL
__global__ void moe(const int *y, const int *ids_dst, float *dst, int n) {
  int col_low = 0;
  if (ids_dst) {
    col_low = blockIdx.x * 4;
  }
  dst[col_low * n + threadIdx.x * 2] = y[threadIdx.x];
// CHECK: [[@LINE-1]]:3: access: kernel=moe op=store base=dst elem=4 expr='dst[col_low * n + threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// CHECK: [[@LINE-2]]:40: access: kernel=moe op=load base=y elem=4 expr='y[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// NULL: [[@LINE-3]]:3: access: kernel=moe op=store base=dst elem=4 expr='dst[col_low * n + threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// JSON: "assuming ids_dst = 1024"
  const float *bias = ids_dst ? dst + 8 : nullptr;
  if (bias) dst[threadIdx.x] += bias[threadIdx.x];
// CHECK: [[@LINE-1]]:13: access: kernel=moe op=load+store base=dst elem=4 expr='dst[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK: [[@LINE-2]]:33: access: kernel=moe op=load base=dst elem=4 expr='bias[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
// Compared with nullptr (ggml's mmvf fusion: `use_bias = fusion.x_bias !=
// nullptr`), the same: a uniform condition. Before, `nullptr` was read as
// a per-lane value and the access under `if (use_bias)` was unknown.
struct fusion_t { const void *gate; const void *x_bias; };
__global__ void fused(float *dst, fusion_t fusion, int stride) {
  bool use_bias = false;
  const float *x_bias = nullptr;
  use_bias = fusion.x_bias != nullptr;
  if (use_bias)
    x_bias = static_cast<const float *>(fusion.x_bias);
  if (use_bias)
    x_bias += blockIdx.x * stride;
  float value = 0;
  if (use_bias)
    value += x_bias[threadIdx.x];
// CHECK: [[@LINE-1]]:14: access: kernel=fused op=load base=fusion.x_bias elem=4 expr='x_bias[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  if (NULL == fusion.gate)
    dst[threadIdx.x * 2] = value;
// CHECK: [[@LINE-1]]:5: access: kernel=fused op=store base=dst elem=4 expr='dst[threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
}
