// half and bfloat16 accesses (issue 26): loads and stores of __half,
// __nv_bfloat16, __half2 and __nv_bfloat162 go through the class operators
// and conversions of cuda_fp16.h/cuda_bf16.h (library code): each one is an
// access where the user's code binds the element, like a float's.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 23 memory operations in the census of 3 kernels, 0 missing from the report
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <typename T> __device__ T hmax(T a, T b) { return __hmax2(a, b); }
__global__ void forms(const __half *x, __half *out, const __nv_bfloat16 *b,
                      __nv_bfloat16 *bo, const __half2 *x2, __half2 *o2,
                      const __nv_bfloat162 *b2, float y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = (float)x[i];
// CHECK: [[@LINE-1]]:20: access: kernel=forms op=load base=x elem=2 expr='x[i]' sectors=2 ideal=2 class=coalesced stride=2 {{.*}}
  float c = x[i + 1];
// CHECK: [[@LINE-1]]:13: access: kernel=forms op=load base=x elem=2 expr='x[i + 1]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
  float d = static_cast<float>(b[2 * i]);
// CHECK: [[@LINE-1]]:32: access: kernel=forms op=load base=b elem=2 expr='b[2 * i]' sectors=4 ideal=2 class=strided stride=4 {{.*}}
  __half e = x[i + 2] * __float2half(y);
// CHECK: [[@LINE-1]]:14: access: kernel=forms op=load base=x elem=2 expr='x[i + 2]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
  out[i] = y;
// CHECK: [[@LINE-1]]:3: access: kernel=forms op=store base=out elem=2 expr='out[i]' sectors=2 ideal=2 class=coalesced stride=2 {{.*}}
  out[i + 1] += e;
// CHECK: [[@LINE-1]]:3: access: kernel=forms op=load+store base=out elem=2 expr='out[i + 1]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
  bo[i] = __float2bfloat16(__half2float(x[i + 3]) + a + c + d);
// CHECK: [[@LINE-1]]:3: access: kernel=forms op=store base=bo elem=2 expr='bo[i]' sectors=2 ideal=2 class=coalesced stride=2 {{.*}}
// CHECK: [[@LINE-2]]:41: access: kernel=forms op=load base=x elem=2 expr='x[i + 3]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
  o2[i] = hmax<__half2>(x2[i], x2[i + 32]);
// CHECK: [[@LINE-1]]:3: access: kernel=forms op=store base=o2 elem=4 expr='o2[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK: [[@LINE-2]]:25: access: kernel=forms op=load base=x2 elem=4 expr='x2[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK: [[@LINE-3]]:32: access: kernel=forms op=load base=x2 elem=4 expr='x2[i + 32]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  float2 f = __bfloat1622float2(b2[i]);
// CHECK: [[@LINE-1]]:33: access: kernel=forms op=load base=b2 elem=4 expr='b2[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  bo[2 * i] = f.x + f.y;
// CHECK: [[@LINE-1]]:3: access: kernel=forms op=store base=bo elem=2 expr='bo[2 * i]' sectors=4 ideal=2 class=strided stride=4 {{.*}}
  out[i + 5] = __hadd(x[i + 4], e);
// CHECK: [[@LINE-1]]:3: access: kernel=forms op=store base=out elem=2 expr='out[i + 5]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
// CHECK: [[@LINE-2]]:23: access: kernel=forms op=load base=x elem=2 expr='x[i + 4]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
  if (__hgt(x[i + 6], e)) out[i + 7] = e;
// CHECK: [[@LINE-1]]:13: access: kernel=forms op=load base=x elem=2 expr='x[i + 6]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
// CHECK: [[@LINE-2]]:27: access: kernel=forms op=store base=out elem=2 expr='out[i + 7]' sectors=3 ideal=2 class=misaligned stride=2 {{.*}}
}
__global__ void layernorm(const __nv_bfloat16 *in, __nv_bfloat16 *out, int C) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const __nv_bfloat16 *x = in + row * C;
  float s = 0.0f;
  for (int c = 0; c < C; c++) s += (float)x[c];
// CHECK: [[@LINE-1]]:43: access: kernel=layernorm op=load base=in elem=2 expr='x[c]' sectors=32 ideal=2 class=strided stride=2048 {{.*}}
  float m = s / C;
  for (int c = 0; c < C; c++) out[row * C + c] = (float)x[c] - m;
// CHECK: [[@LINE-1]]:31: access: kernel=layernorm op=store base=out elem=2 expr='out[row * C + c]' sectors=32 ideal=2 class=strided stride=2048 {{.*}}
// CHECK: [[@LINE-2]]:57: access: kernel=layernorm op=load base=in elem=2 expr='x[c]' sectors=32 ideal=2 class=strided stride=2048 {{.*}}
}
__global__ void streaming(const __nv_bfloat16 *x, __nv_bfloat16 *o) {
  int i = threadIdx.x;
  float ev = (float)__ldcs(x + i) + (float)__ldcs(&x[2 * i]);
// CHECK: [[@LINE-1]]:28: access: kernel=streaming op=load base=x elem=2 expr='x + i' sectors=2 ideal=2 class=coalesced stride=2 {{.*}}
// CHECK: [[@LINE-2]]:52: access: kernel=streaming op=load base=x elem=2 expr='x[2 * i]' sectors=4 ideal=2 class=strided stride=4 {{.*}}
  __stcs(o + i, (__nv_bfloat16)ev);
// CHECK: [[@LINE-1]]:10: access: kernel=streaming op=store base=o elem=2 expr='o + i' sectors=2 ideal=2 class=coalesced stride=2 {{.*}}
}
