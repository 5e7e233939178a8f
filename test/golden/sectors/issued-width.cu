// Accesses as the compiler issues them (issue 7, measured on the H200): a
// struct copied with less alignment than its size moves field by field
// (Particle: ten 4-byte loads at a 40-byte lane stride, 32 sectors per
// request each; an unaligned 8-byte half4: four 2-byte loads), while
// naturally aligned structs up to 16 bytes are one access.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
#include <cuda_fp16.h>
struct Particle { float x, y, z, vx, vy, vz, m, q, r, s; };
struct __align__(8) half4 { __half a, b, c, d; };
struct h4 { __half a, b, c, d; };
struct __align__(16) F4 { float a, b, c, d; };
__global__ void part(Particle *ps, float *o, h4 *h, half4 *ha, F4 *f, h4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle p = ps[i];
// CHECK: [[@LINE-1]]:16: access: kernel=part op=load base=ps elem=40 expr='ps[i]' sectors=32 ideal=4 class=aos {{.*}}block=256(assumed)
  o[i] = p.x + p.m;
// CHECK: [[@LINE-1]]:3: access: kernel=part op=store base=o elem=4 expr='o[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  h4 v = h[i];
// CHECK: [[@LINE-1]]:10: access: kernel=part op=load base=h elem=8 expr='h[i]' sectors=8 ideal=2 class=aos {{.*}}block=256(assumed)
  half4 w = ha[i];
// CHECK: [[@LINE-1]]:13: access: kernel=part op=load base=ha elem=8 expr='ha[i]' sectors=8 ideal=8 class=coalesced {{.*}}block=256(assumed)
  F4 q = f[i];
// CHECK: [[@LINE-1]]:10: access: kernel=part op=load base=f elem=16 expr='f[i]' sectors=16 ideal=16 class=coalesced {{.*}}block=256(assumed)
  out[i] = v;
// CHECK: [[@LINE-1]]:3: access: kernel=part op=store base=out elem=8 expr='out[i]' sectors=8 ideal=2 class=aos {{.*}}block=256(assumed)
}
// CHECK-NOT: access:
// RUN: %coalesce-lint --fail-on=never %s | FileCheck %s --check-prefix=NOTE
// NOTE: note: the 40-byte struct is 4-byte aligned, so it is accessed as 10 instructions of 4 bytes, each with these sectors per request
