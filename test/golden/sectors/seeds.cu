// The seed articles' examples, as printed (modulo formatting).
// RUN: %coalesce-lint --print-accesses --fail-on=never --param N=65536 %s | FileCheck %s
// RUN: %not %coalesce-lint --param N=65536 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param N=65536
#include <cuda_runtime.h>

// coalesced_copy: 4 and 4.
__global__ void coalesced_copy(float *in, float *out, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) {
    out[idx] = in[idx];
    // CHECK: [[@LINE-1]]:5: access: kernel=coalesced_copy op=store base=out elem=4 expr='out[idx]' sectors=4 ideal=4 class=coalesced
    // CHECK: [[@LINE-2]]:16: access: kernel=coalesced_copy op=load base=in elem=4 expr='in[idx]' sectors=4 ideal=4 class=coalesced
    // WARN-NOT: seeds.cu:[[@LINE-3]]:{{.*}}warning
  }
}

// strided_copy: in[idx * 32]: lanes 128 bytes apart: 32 sectors, ideal 4.
__global__ void strided_copy(float *in, float *out, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) {
    out[idx] = in[idx * 32];
    // CHECK: [[@LINE-1]]:5: access: kernel=strided_copy op=store base=out elem=4 expr='out[idx]' sectors=4 ideal=4 class=coalesced
    // CHECK: [[@LINE-2]]:16: access: kernel=strided_copy op=load base=in elem=4 expr='in[idx * 32]' sectors=32 ideal=4 class=strided
    // WARN-DAG: seeds.cu:[[@LINE-3]]:16: warning: uncoalesced load of 'in[idx * 32]'{{.*}}32 sectors per request, ideal 4{{.*}}[coalesce-stride]
  }
}

// The read-only path: __ldg and const __restrict__ are ordinary global
// loads for the sector count: 4.
__global__ void readOnly(const float *__restrict__ input, float *output) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float val = __ldg(&input[idx]);
  // CHECK: [[@LINE-1]]:22: access: kernel=readOnly op=load base=input elem=4 expr='input[idx]' sectors=4 ideal=4 class=coalesced
  output[idx] = val * 2.0f + input[idx + 1];
  // CHECK: [[@LINE-1]]:3: access: kernel=readOnly op=store base=output elem=4 expr='output[idx]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:30: access: kernel=readOnly op=load base=input elem=4 expr='input[idx + 1]' sectors=5 ideal=4 class=misaligned
}

// "kernel(data + 1, ...)": an offset pointer made inside the kernel; the
// warp's 128 bytes start 4 bytes into a sector: 5.
__global__ void offsetPointer(float *data, float *out) {
  float *p = data + 1;
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = p[idx];
  // CHECK: [[@LINE-1]]:3: access: kernel=offsetPointer op=store base=out elem=4 expr='out[idx]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:14: access: kernel=offsetPointer op=load base=data elem=4 expr='p[idx]' sectors=5 ideal=4 class=misaligned
}

// The Particle AoS of the transpose article: 6 floats (24 bytes); .x
// of 32 lanes spans bytes 0..747 with gaps of 24 < 32: 24 sectors, ideal 4.
// The SoA layout reads x[i]: 4.
struct Particle { float x, y, z; float vx, vy, vz; };
__global__ void particlesAoS(Particle *particles, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  particles[i].x += dt;
  // CHECK: [[@LINE-1]]:3: access: kernel=particlesAoS op=load+store base=particles elem=4 expr='particles[i].x' sectors=24 ideal=4 class=aos
  // WARN-DAG: seeds.cu:[[@LINE-2]]:3: warning: update of field 'x' of 'particles[i]' (an array of 24-byte structs){{.*}}24 sectors per request, ideal 4{{.*}}[coalesce-aos]
}
__global__ void particlesSoA(float *x, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] += dt;
  // CHECK: [[@LINE-1]]:3: access: kernel=particlesSoA op=load+store base=x elem=4 expr='x[i]' sectors=4 ideal=4 class=coalesced
}
// CHECK-NOT: access:

int main() {
  float *a, *b;
  Particle *p;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&p, 64 << 20);
  coalesced_copy<<<256, 256>>>(a, b, 65536);
  strided_copy<<<256, 256>>>(a, b, 65536);
  readOnly<<<256, 256>>>(a, b);
  offsetPointer<<<256, 256>>>(a, b);
  particlesAoS<<<256, 256>>>(p, 0.1f);
  particlesSoA<<<256, 256>>>(a, 0.1f);
  cudaDeviceSynchronize();
  return 0;
}
