// Code that cannot run is not an access, and a default value that switches
// every lane off is not the end (issue 7): the else of if (nIsPow2) in the
// nIsPow2 = true instance holds nothing; the else of if (!(n & (n - 1)))
// runs for an n that is not a power of two, which the note states.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
template <unsigned blockSize, bool nIsPow2>
__global__ void reduce(const float *g_idata, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockSize * 2 + threadIdx.x;
  float s = 0;
  if (nIsPow2) {
    s = g_idata[i] + g_idata[i + blockSize];
// CHECK-DAG: [[@LINE-1]]:9: access: kernel=reduce op=load base=g_idata elem=4 expr='g_idata[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
// CHECK-DAG: [[@LINE-2]]:22: access: kernel=reduce op=load base=g_idata elem=4 expr='g_idata[i + blockSize]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
  } else {
    s = g_idata[i];
// CHECK-DAG: [[@LINE-1]]:9: access: kernel=reduce op=load base=g_idata elem=4 expr='g_idata[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
  }
  out[blockIdx.x * blockSize + threadIdx.x] = s;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=reduce op=store base=out elem=4 expr='out[blockIdx.x * blockSize + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=reduce op=store base=out elem=4 expr='out[blockIdx.x * blockSize + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}
__global__ void pow2(const float *g_idata, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int isPow2 = !(n & (n - 1));
  if (isPow2) out[i] = g_idata[i];
// CHECK-DAG: [[@LINE-1]]:15: access: kernel=pow2 op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
// CHECK-DAG: [[@LINE-2]]:24: access: kernel=pow2 op=load base=g_idata elem=4 expr='g_idata[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  else out[i] = g_idata[2 * i];
// CHECK-DAG: [[@LINE-1]]:8: access: kernel=pow2 op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
// CHECK-DAG: [[@LINE-2]]:17: access: kernel=pow2 op=load base=g_idata elem=4 expr='g_idata[2 * i]' sectors=8 ideal=4 class=strided {{.*}}block=256(assumed)
}
void run(const float *in, float *out, unsigned n) {
  reduce<256, true><<<64, 256>>>(in, out, n);
  reduce<256, false><<<64, 256>>>(in, out, n);
}
// CHECK: 1 warning in 3 kernels (9 accesses analyzed, 0 unknown)
// RUN: %coalesce-lint --fail-on=never %s | FileCheck %s --check-prefix=NOTE
// NOTE: dead-code.cu:[[#]]:17: note: assuming n = 1000 so that the access executes
