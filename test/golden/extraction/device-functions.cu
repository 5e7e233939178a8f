// Accesses inside __device__ functions are attributed to the kernels that
// call them, with the call chain; the index is analyzed in the caller's context.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON

// Output is per kernel, in source order within each kernel.
__device__ float load(const float *p, int idx) { return p[idx]; }
// CHECK: [[@LINE-1]]:57: access: kernel=coalescedCaller op=load base=in elem=4 expr='p[idx]' sectors=4 ideal=4 class=coalesced

__device__ void store(float *p, int idx, float v) { p[idx] = v; }
// CHECK: [[@LINE-1]]:53: access: kernel=coalescedCaller op=store base=out elem=4 expr='p[idx]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-5]]:57: access: kernel=stridedCaller op=load base=in elem=4 expr='p[idx]' sectors=32 ideal=4 class=strided

__global__ void coalescedCaller(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  store(out, i, load(in, i));
}

__global__ void stridedCaller(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = load(in, i * 32);
}
// CHECK: [[@LINE-2]]:3: access: kernel=stridedCaller op=store base=out elem=4 expr='out[i]' sectors=4

// The load in load() reached from stridedCaller carries the call site.
// JSON: "name": "stridedCaller"
// JSON: "call_chain": [
// JSON-NEXT: {
// JSON-NEXT: "file": "{{.*}}device-functions.cu",
// JSON-NEXT: "line": 21,
// JSON-NEXT: "column": 12
// Calls nested nine deep before the access (moderngpu's transform:
// kernel, restrict_forward, transform_f, strided_iterate, iterate,
// iterate_t::eval and three lambdas) are followed: calls are inlined up to
// 16 deep. Before, the walk stopped at 8 and the census found the access
// missing from the report.
__device__ void deep8(float *p, int i) { p[i] = 0; }
__device__ void deep7(float *p, int i) { deep8(p, i); }
__device__ void deep6(float *p, int i) { deep7(p, i); }
__device__ void deep5(float *p, int i) { deep6(p, i); }
__device__ void deep4(float *p, int i) { deep5(p, i); }
__device__ void deep3(float *p, int i) { deep4(p, i); }
__device__ void deep2(float *p, int i) { deep3(p, i); }
__device__ void deep1(float *p, int i) { deep2(p, i); }
__device__ void deep0(float *p, int i) { deep1(p, i); }
__global__ void nested(float *p) { deep0(p, threadIdx.x * 2); }
// CHECK: [[@LINE-10]]:42: access: kernel=nested op=store base=p elem=4 expr='p[i]' sectors=8 ideal=4 class=strided {{.*}}
