// Inline assembly (issue 26): its output operands are written; the PTX
// memory instructions the tool reads (ld, ldu, st, atom, red, cp.async.ca/cg,
// any width and qualifiers; frontend/PtxMemory.cpp) are accesses through the
// operand they address, of their width; memory other pointer operands reach
// is reported as unknown (global: the tool does not read that PTX) or
// excluded (shared, local), never lost; printf's arguments are text, not
// accesses.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s 2>/dev/null | FileCheck %s --check-prefix=JSON
#include <cstdio>
__global__ void k(const float4 *in, float *out, const char *msg) {
  float4 val[2];
  int i = threadIdx.x;
  asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(val[0].x), "=f"(val[0].y), "=f"(val[0].z), "=f"(val[0].w) : "l"(in + i));
// CHECK: [[@LINE-1]]:127: access: kernel=k op=load base=in elem=16 expr='in + i' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
  __shared__ float s[32];
  asm volatile("st.shared.f32 [%0], %1;" :: "l"(&s[i]), "f"(val[0].x));
  out[i] = val[0].x + s[0];
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  printf("%s %f\n", msg, out[i]);
// CHECK: [[@LINE-1]]:26: access: kernel=k op=load base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
// ggml's cp_async_cg_16 (a 16-byte asynchronous copy from global memory),
// a vector load at an offset, a predicated streaming store through a named
// operand, a reduction, and an instruction the tool does not read.
static __device__ void cp_async_cg_16(unsigned dst, const void *src) {
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" :: "r"(dst), "l"(src));
// CHECK: [[@LINE-1]]:86: access: kernel=ptx op=load base=in elem=16 expr='src' sectors=32 ideal=16 class=strided stride=32 {{.*}}
}
__global__ void ptx(const float *in, float *out, int n) {
  __shared__ float4 tile[256];
  unsigned d = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
  cp_async_cg_16(d, in + threadIdx.x * 8);
  float4 v;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4+16];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(in + threadIdx.x * 4));
// CHECK: [[@LINE-1]]:116: access: kernel=ptx op=load base=in elem=16 expr='in + threadIdx.x * 4' sectors=17 ideal=16 class=misaligned stride=16 {{.*}}
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t@p st.global.cs.v2.f32 [%[ptr]], {%0, %1};\n}" :: "f"(v.x), "f"(v.y), "r"(n), [ptr] "l"(out + 2 * threadIdx.x));
// CHECK: [[@LINE-1]]:152: access: kernel=ptx op=store base=out elem=8 expr='out + 2 * threadIdx.x' sectors=8 ideal=8 class=coalesced stride=8 {{.*}}
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" :: "l"(out), "r"(1));
// CHECK: [[@LINE-1]]:66: access: kernel=ptx op=atomic base=out elem=4 expr='out' sectors=1 ideal=4 class=uniform {{.*}}
  asm volatile("prefetch.global.L2 [%0];" :: "l"(out + threadIdx.x));
// CHECK: [[@LINE-1]]:50: access: kernel=ptx op=load base=out + threadIdx.x elem=4 expr='out + threadIdx.x' sectors=n/a ideal=n/a class=unknown {{.*}}
}
// __cvta_generic_to_shared and __isGlobal read the pointer's address, not
// the memory: excluded, also where the pointer cannot be followed.
__global__ void convert(float *const *ptrs, unsigned *out) {
  float *p = ptrs[threadIdx.x];
// CHECK: [[@LINE-1]]:14: access: kernel=convert op=load base=ptrs elem=8 expr='ptrs[threadIdx.x]' sectors=8 ideal=8 class=coalesced {{.*}}
  out[threadIdx.x] = (unsigned)__cvta_generic_to_shared(p) + __isGlobal(p);
// CHECK: [[@LINE-1]]:3: access: kernel=convert op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
// JSON: "expr": "__cvta_generic_to_shared(p)",
// JSON-NEXT: "reason": "converts or inspects its pointer's address and accesses nothing"
// JSON: "expr": "__isGlobal(p)",
// JSON-NEXT: "reason": "converts or inspects its pointer's address and accesses nothing"
void run(const float *in, float *out, float *const *ptrs, unsigned *u) {
  ptx<<<1, 256>>>(in, out, 1);
  convert<<<1, 256>>>(ptrs, u);
}
// cp.async's size as an operand, as a macro passes it (cuda_hgemm's
// CP_ASYNC_CG(dst, src, Bytes) with "n"(Bytes)): the constant is the width;
// a size that is not a constant leaves the pointer unknown. (An access
// written inside a macro is shown as the macro call.)
#define CP_ASYNC_CG(dst, src, Bytes) \
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(Bytes))
__global__ void sizeOperand(const int4 *in, int n) {
  __shared__ int4 tile[256];
  unsigned d = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
  CP_ASYNC_CG(d, in + threadIdx.x, 16);
// CHECK: [[@LINE-1]]:3: access: kernel=sizeOperand op=load base=in elem=16 expr='CP_ASYNC_CG(d, in + threadIdx.x, 16)' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
  CP_ASYNC_CG(d, in + 2 * threadIdx.x, sizeof(int4) / 2);
// CHECK: [[@LINE-1]]:3: access: kernel=sizeOperand op=load base=in elem=8 expr='CP_ASYNC_CG(d, in + 2 * threadIdx.x, sizeof(int4) / 2)' sectors=32 ideal=8 class=strided stride=32 {{.*}}
  CP_ASYNC_CG(d, in + threadIdx.x, n);
// CHECK: [[@LINE-1]]:3: access: kernel=sizeOperand op=load base=CP_ASYNC_CG(d, in + threadIdx.x, n) elem=16 expr='CP_ASYNC_CG(d, in + threadIdx.x, n)' sectors=n/a ideal=n/a class=unknown {{.*}}
}

// A vector load of a half array in PTX (bitsandbytes' 4-bit GEMM loads its
// A tile with `ld.global.ca.v4.u32 [&A[...]]`): one 16-byte load a lane,
// not eight 2-byte pieces of a __half struct. Two vectors a lane: adjacent
// lanes 32 bytes apart.
#include <cuda_fp16.h>
__global__ void halfTile(const __half *A, int K) {
  for (int v = 0; v < 2; v++) {
    const int vec = threadIdx.x * 2 + v;
    uint4 val;
    asm volatile("ld.global.ca.v4.u32 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(val.x), "=r"(val.y), "=r"(val.z), "=r"(val.w)
                 : "l"(&A[blockIdx.x * K + vec * 8]));
// CHECK: [[@LINE-1]]:25: access: kernel=halfTile op=load base=A elem=16 expr='A[blockIdx.x * K + vec * 8]' sectors=32 ideal=16 class=strided {{.*}}
    if (val.x == 7u)
      __trap();
  }
}
