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
