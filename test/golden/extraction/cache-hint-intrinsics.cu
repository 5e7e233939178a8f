// Cache-hint stores and loads clang 22 lacks (__stcs(float *, float),
// __stcs(float4 *, float4), __stcg, __ldlu) and the host min/max nvcc
// declares: the compatibility header (docs/cuda-compat.md) makes the file
// compile, and each is an access at its call (issue 26).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --no-header-cache --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
__global__ void k(float *out, float4 *o4, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcs(out + 2 * i, in[i]);
// CHECK: [[@LINE-1]]:10: access: kernel=k op=store base=out elem=4 expr='out + 2 * i' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// CHECK: [[@LINE-2]]:23: access: kernel=k op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  __stcs(o4 + i, make_float4(1, 2, 3, 4));
// CHECK: [[@LINE-1]]:10: access: kernel=k op=store base=o4 elem=16 expr='o4 + i' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
  __stcg(&out[i], 1.0f);
// CHECK: [[@LINE-1]]:11: access: kernel=k op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  float v = __ldlu(in + i);
// CHECK: [[@LINE-1]]:20: access: kernel=k op=load base=in elem=4 expr='in + i' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  out[i] = max(v, 0.0f);
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
int host(int a, int b) { return max(a, b); }
