// Fields the compiler loads together (issue 7, measured on the H200 in
// BlackScholes and shfl_scan): .x and .y of a naturally aligned float2
// element read by one kernel are one 8-byte load (8 sectors per request,
// ideal 8), the four fields of a uint4 one 16-byte load; a lone .x stays a
// strided 4-byte load (aos).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
__global__ void bs(float2 *S, float2 *X, float *out, uint4 *d, int n) {
  int opt = blockIdx.x * blockDim.x + threadIdx.x;
  if (opt < n) out[opt] = S[opt].x * X[opt].x;
// CHECK: [[@LINE-1]]:16: access: kernel=bs op=store base=out elem=4 expr='out[opt]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-2]]:27: access: kernel=bs op=load base=S elem=4 expr='S[opt].x' sectors=8 ideal=8 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-3]]:38: access: kernel=bs op=load base=X elem=4 expr='X[opt].x' sectors=8 ideal=4 class=aos {{.*}}block=256(assumed)
  if (opt < n / 2) out[opt] += S[opt].y;
// CHECK: [[@LINE-1]]:20: access: kernel=bs op=load+store base=out elem=4 expr='out[opt]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-2]]:32: access: kernel=bs op=load base=S elem=4 expr='S[opt].y' sectors=8 ideal=8 class=coalesced {{.*}}block=256(assumed)
  uint4 &data = d[opt];
  out[opt] += data.x + data.y + data.z + data.w;
// CHECK: [[@LINE-1]]:3: access: kernel=bs op=load+store base=out elem=4 expr='out[opt]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-2]]:15: access: kernel=bs op=load base=d elem=4 expr='data.x' sectors=16 ideal=16 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-3]]:24: access: kernel=bs op=load base=d elem=4 expr='data.y' sectors=16 ideal=16 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-4]]:33: access: kernel=bs op=load base=d elem=4 expr='data.z' sectors=16 ideal=16 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-5]]:42: access: kernel=bs op=load base=d elem=4 expr='data.w' sectors=16 ideal=16 class=coalesced {{.*}}block=256(assumed)
}
// CHECK-NOT: access:
