// make_uint2(a, b) and its siblings of vector_functions.h are the vector of
// their arguments, field by field. ggml's fast_div_modulo returns
// `make_uint2(n / d, n % d)` (col2im-1d, set-rows, mmf's mul_mat_f_ids):
// until the forty-second session the vector was lost, its fields read as
// one value for the warp, and both accesses below were predicted `uniform`;
// then, with lost values that depend on the lane made unknown, `unknown`.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 --param K=64 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
#include <cstdint>

static __device__ __forceinline__ uint32_t fastdiv(uint32_t n, const uint3 fd) {
  const uint32_t hi = __umulhi(n, fd.x);
  return (hi + n) >> fd.y;
}
static __device__ __forceinline__ uint2 fast_div_modulo(uint32_t n,
                                                        const uint3 fd) {
  const uint32_t div_val = fastdiv(n, fd);
  const uint32_t mod_val = n - div_val * fd.z;
  return make_uint2(div_val, mod_val);
}
__global__ void col2im(const float *col, float *dst, uint3 T_out_fd, int K) {
  const int idx = threadIdx.x + blockIdx.x * blockDim.x;
  const uint2 qr = fast_div_modulo((uint32_t)idx, T_out_fd);
  const int oc = (int)qr.x;
  const int t_out = (int)qr.y;
  dst[t_out * K + oc] = col[oc * K + t_out];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=col2im op=store base=dst elem=4 expr='dst[t_out * K + oc]' sectors=32 ideal=4 class=strided {{.*}}
// CHECK-DAG: [[@LINE-2]]:25: access: kernel=col2im op=load base=col elem=4 expr='col[oc * K + t_out]' sectors=4 ideal=4 class=coalesced {{.*}}
}

// Floating-point fields keep where their values come from.
__global__ void fromFloats(const float *in, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = make_float4(in[i], 0.0f, 1.0f, 2.0f);
  out[i] = v;
// CHECK-DAG: [[@LINE-2]]:26: access: kernel=fromFloats op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=fromFloats op=store base=out elem=16 expr='out[i]' sectors=16 ideal=16 class=coalesced {{.*}}
}
