// Inline assembly (issue 26): its output operands are written, and memory
// its pointer operands reach is reported as unknown (global: the tool does
// not read the PTX) or excluded (shared, local), never lost; printf's
// arguments are text, not accesses.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
#include <cstdio>
__global__ void k(const float4 *in, float *out, const char *msg) {
  float4 val[2];
  int i = threadIdx.x;
  asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(val[0].x), "=f"(val[0].y), "=f"(val[0].z), "=f"(val[0].w) : "l"(in + i));
// CHECK: [[@LINE-1]]:127: access: kernel=k op=load base=in + i elem=16 expr='in + i' sectors=n/a ideal=n/a class=unknown stride=n/a {{.*}}
  __shared__ float s[32];
  asm volatile("st.shared.f32 [%0], %1;" :: "l"(&s[i]), "f"(val[0].x));
  out[i] = val[0].x + s[0];
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  printf("%s %f\n", msg, out[i]);
// CHECK: [[@LINE-1]]:26: access: kernel=k op=load base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
