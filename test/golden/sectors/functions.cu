// Device functions with indices passed as arguments, a template kernel
// instantiated for float and double, early returns inside callees.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=65536 --param W=1024 %s | FileCheck %s
// RUN: %not %coalesce-lint --param n=65536 --param W=1024 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param n=65536 --param W=1024
#include <cuda_runtime.h>

// Accesses in callees are attributed to each calling kernel, analyzed with
// the caller's index: loadAt(in, 2 * i) reads with a stride of 2: 8.
__device__ float loadAt(const float *p, int idx) { return p[idx]; }
// CHECK-DAG: [[@LINE-1]]:59: access: kernel=viaDeviceFunctions op=load base=in elem=4 expr='p[idx]' sectors=8 ideal=4 class=strided
// WARN: functions.cu:[[@LINE-2]]:59: warning: uncoalesced load

// A guard inside the callee: lanes i >= n return early (none here).
__device__ void storeAt(float *p, int idx, int n, float v) {
  if (idx >= n)
    return;
  p[idx] = v;
}
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=viaDeviceFunctions op=store base=out elem=4 expr='p[idx]' sectors=4 ideal=4 class=coalesced

// A one-line index helper is substituted: row y, column x of a W-wide
// matrix under 32x8 blocks: 4.
__device__ int at2d(int y, int x, int w) { return y * w + x; }

__global__ void viaDeviceFunctions(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  storeAt(out, i, n, loadAt(in, 2 * i));
}

__global__ void viaIndexHelper(float *m, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  m[at2d(y, x, W)] += 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=viaIndexHelper op=load+store base=m elem=4 expr='m[at2d(y, x, W)]' sectors=4 ideal=4 class=coalesced
  // The transposed use: x moves a whole row: 32.
  m[at2d(x, y, W)] *= 0.5f;
  // CHECK: [[@LINE-1]]:3: access: kernel=viaIndexHelper op=load+store base=m elem=4 expr='m[at2d(x, y, W)]' sectors=32 ideal=4 class=transposed
}

// One template, two instantiations through their launches: T = float
// (4 bytes: unit stride 4 sectors, stride 4 elements 16 sectors) and
// T = double (8 bytes: 8 and 32).
template <typename T>
__global__ void scaleStrided(T *out, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = in[4 * i] * T(2);
}
// Both instantiations print as kernel=scaleStrided, each with its own
// element size (the order of instantiations is not fixed: CHECK-DAG).
// CHECK-DAG: [[@LINE-4]]:3: access: kernel=scaleStrided op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
// CHECK-DAG: [[@LINE-5]]:12: access: kernel=scaleStrided op=load base=in elem=4 expr='in[4 * i]' sectors=16 ideal=4 class=strided
// CHECK-DAG: [[@LINE-6]]:3: access: kernel=scaleStrided op=store base=out elem=8 expr='out[i]' sectors=8 ideal=8 class=coalesced
// CHECK-DAG: [[@LINE-7]]:12: access: kernel=scaleStrided op=load base=in elem=8 expr='in[4 * i]' sectors=32 ideal=8 class=strided

int main() {
  float *a, *b;
  double *c, *d;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&c, 64 << 20);
  cudaMalloc(&d, 64 << 20);
  viaDeviceFunctions<<<256, 256>>>(a, b, 65536);
  viaIndexHelper<<<dim3(32, 32), dim3(32, 8)>>>(a, 1024);
  scaleStrided<float><<<256, 256>>>(a, b, 65536);
  scaleStrided<double><<<256, 256>>>(c, d, 65536);
  cudaDeviceSynchronize();
  return 0;
}
