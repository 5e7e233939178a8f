// memcpy in device code is a copy by the lane itself, in the pieces both
// pointers allow (issue 26: te-common's unaligned row copy and ggml's
// dequantizers were 184 unknowns "memory passed to 'memcpy', which the tool
// does not walk"). The alignment is the pointers' as written before the
// conversion to void *: a char * copies byte by byte (16 loads of 1 byte a
// lane, 16 bytes apart: 16 sectors for an ideal of 1), a float4 * in one
// 16-byte piece, a field of a struct as its offset and the struct's
// alignment allow (`qh` at offset 4 of a 4-aligned struct: 4 bytes). A
// void * states no alignment: byte by byte, as nvcc 13 compiles it (four
// ld.global.u8 for `memcpy(&v, in, 4)`; it was an unknown until the
// thirty-seventh session, 36 of them in NVIDIA Warp's copy kernels).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 10 memory operations in the census of 5 kernels, 0 missing from the report
// RUN: %coalesce-lint --fail-on=never %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %coalesce-lint --fail-on=never %s 2>&1 | FileCheck %s --check-prefix=SUGGEST
// A copy in small pieces says so, and the fix is the pointers' types:
// DIAG: memcpy.cu:[[# @LINE + 10]]:16: warning: uncoalesced load of 's': adjacent lanes are 16 bytes apart: 16 sectors per request, ideal 1
// DIAG-NEXT: {{^}}  memcpy(&tmp, s, 16);
// DIAG-NEXT: {{^ +\^}}
// DIAG-NEXT: memcpy.cu:[[# @LINE + 7]]:16: note: memcpy: the pointers' types allow pieces of 1 byte only, so the compiler copies the 16 bytes in 16 pieces
// SUGGEST: note: suggestion: copy through pointers whose types state the alignment the data has
#include <cstdint>
#include <cstring>
__global__ void rows(const char *src, char *dst, int D) {
  const char *s = src + blockIdx.x * D + threadIdx.x * 16;
  uint4 tmp;
  memcpy(&tmp, s, 16);
// CHECK: [[@LINE-1]]:16: access: kernel=rows op=load base=src elem=1 expr='s' sectors=16 ideal=1 class=strided {{.*}}
  memcpy(dst + blockIdx.x * D + threadIdx.x * 16, &tmp, 16);
// CHECK: [[@LINE-1]]:10: access: kernel=rows op=store base=dst elem=1 {{.*}} sectors=16 ideal=1 class=strided {{.*}}
}
struct block_q {
  float d;
  uint8_t qh[4];
  uint8_t qs[16];
};
__global__ void q5(const block_q *x, float *y) {
  uint32_t qh;
  memcpy(&qh, x[blockIdx.x * 32 + threadIdx.x].qh, sizeof(qh));
// CHECK: [[@LINE-1]]:15: access: kernel=q5 op=load base=x elem=4 expr='x[blockIdx.x * 32 + threadIdx.x].qh' sectors=24 ideal=4 class=strided {{.*}}
  y[threadIdx.x] = qh;
// CHECK: [[@LINE-1]]:3: access: kernel=q5 op=store base=y elem=4 {{.*}} class=coalesced {{.*}}
}
__global__ void typed(const float4 *in, float4 *out) {
  float4 v;
  memcpy(&v, in + threadIdx.x, sizeof(v));
// CHECK: [[@LINE-1]]:14: access: kernel=typed op=load base=in elem=16 {{.*}} sectors=16 ideal=16 class=coalesced {{.*}}
  out[threadIdx.x] = v;
// CHECK: [[@LINE-1]]:3: access: kernel=typed op=store base=out elem=16 {{.*}} class=coalesced {{.*}}
}
__global__ void untyped(const void *in, float *out) {
  float v;
  memcpy(&v, (const char *)in + threadIdx.x * 4, 4);
// CHECK: [[@LINE-1]]:14: access: kernel=untyped op=load base=in elem=1 {{.*}} sectors=4 ideal=1 class=strided {{.*}}
  memcpy(&v, in, 4);
// CHECK: [[@LINE-1]]:14: access: kernel=untyped op=load base=in elem=1 expr='in' sectors=1 ideal=1 class=uniform {{.*}}
// JSON: "memcpy: a void * states no alignment, so the compiler copies the 4 bytes in 4 pieces"
  out[threadIdx.x] = v;
// CHECK: [[@LINE-1]]:3: access: kernel=untyped op=store base=out elem=4 {{.*}} class=coalesced {{.*}}
}
// Warp's fill and copy kernels: elements of a runtime size through void *,
// one byte a pass of the copy loop.
__global__ void elements(void *dst, const void *value, size_t n, size_t size) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    void *d = (char *)dst + i * size;
    memcpy(d, value, size);
// CHECK: [[@LINE-1]]:12: access: kernel=elements op=store base=dst elem=1 expr='d' sectors=32 ideal=1 class=strided stride=1024 {{.*}}
// CHECK: [[@LINE-2]]:15: access: kernel=elements op=load base=value elem=1 expr='value' sectors=1 ideal=1 class=uniform {{.*}}
// JSON: "memcpy: a void * states no alignment, so the compiler copies the bytes one at a time"
  }
}
