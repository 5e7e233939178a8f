// Loops: row-per-thread against column-per-thread, a sliding window, grid-
// and block-stride loops, pointers stepped through the data.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=64 --param total=1048576 %s | FileCheck %s
// RUN: %not %coalesce-lint --param n=64 --param total=1048576 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param n=64 --param total=1048576
#include <cuda_runtime.h>

// Row per thread: lane l reads data[(32w + l) * n + c]; lane stride
// 4n = 256 bytes, so every lane has its own sector: 32 per request for every
// c (c only shifts all lanes by 4c bytes). Ideal 4.
__global__ void rowPerThread(float *out, const float *data, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int c = 0; c < n; ++c)
    s += data[row * n + c];
  // CHECK: [[@LINE-1]]:10: access: kernel=rowPerThread op=load base=data elem=4 expr='data[row * n + c]' sectors=32 ideal=4 class=strided
  // WARN: loops.cu:[[@LINE-2]]:10: warning: uncoalesced load
  out[row] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=rowPerThread op=store base=out elem=4 expr='out[row]' sectors=4 ideal=4 class=coalesced
}

// Column per thread: lane l reads data[r * n + 32w + l]: 128 contiguous
// bytes; r shifts by 4n = 256 bytes (a multiple of 32): 4 per request.
__global__ void colPerThread(float *out, const float *data, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < n; ++r)
    s += data[r * n + col];
  // CHECK: [[@LINE-1]]:10: access: kernel=colPerThread op=load base=data elem=4 expr='data[r * n + col]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: loops.cu:[[@LINE-2]]:{{.*}}warning
  out[col] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=colPerThread op=store base=out elem=4 expr='out[col]' sectors=4 ideal=4 class=coalesced
}

// Sliding window: in[i + k] for k = 0..7 covers the 128 bytes starting at
// 4k: 4 sectors for k = 0, 5 for k = 1..7: (4 + 7*5) / 8 = 4.875. The loop
// runs exactly 8 times, so the average is what the hardware sees (printed
// with two decimals: 4.88).
__global__ void slidingWindow(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += in[i + k];
  // CHECK: [[@LINE-1]]:10: access: kernel=slidingWindow op=load base=in elem=4 expr='in[i + k]' sectors=4.88 ideal=4 class=misaligned
  out[i] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=slidingWindow op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
}

// Grid-stride loop: i = 256*blockIdx.x + tid + iter*blockDim.x*gridDim.x;
// the step is a multiple of 32 bytes: 4 per request.
__global__ void gridStride(float *out, const float *in, int total) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += blockDim.x * gridDim.x)
    out[i] = 2.0f * in[i];
  // CHECK: [[@LINE-1]]:5: access: kernel=gridStride op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:21: access: kernel=gridStride op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
}

// Block-stride while loop: k = tid + iter*256: 4 per request.
__global__ void blockStride(float *out, const float *in, int n) {
  int k = threadIdx.x;
  float *row = out + blockIdx.x * n * 4;
  while (k < n * 4) {
    row[k] = in[k];
    k += blockDim.x;
  }
  // CHECK: [[@LINE-3]]:5: access: kernel=blockStride op=store base=out elem=4 expr='row[k]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-4]]:14: access: kernel=blockStride op=load base=in elem=4 expr='in[k]' sectors=4 ideal=4 class=coalesced
}

// A pointer stepped along a row (row per thread again: 32), and one stepped
// down a column (lane stride 4 bytes, step 4n bytes: 4).
__global__ void pointerWalk(float *out, const float *data, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = data + t * n;
  const float *q = data + t;
  float s = 0;
  for (int c = 0; c < n; ++c) {
    s += *p;
    ++p;
  }
  // CHECK: [[@LINE-3]]:10: access: kernel=pointerWalk op=load base=data elem=4 expr='*p' sectors=32 ideal=4 class=strided
  for (int r = 0; r < n; ++r, q += n)
    s += *q;
  // CHECK: [[@LINE-1]]:10: access: kernel=pointerWalk op=load base=data elem=4 expr='*q' sectors=4 ideal=4 class=coalesced
  out[t] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=pointerWalk op=store base=out elem=4 expr='out[t]' sectors=4 ideal=4 class=coalesced
}
// CHECK-NOT: access:

int main() {
  float *a, *o;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&o, 64 << 20);
  rowPerThread<<<16, 256>>>(o, a, 64);
  colPerThread<<<16, 256>>>(o, a, 64);
  slidingWindow<<<256, 256>>>(o, a);
  gridStride<<<64, 256>>>(o, a, 1 << 20);
  blockStride<<<64, 256>>>(o, a, 64);
  pointerWalk<<<16, 256>>>(o, a, 64);
  cudaDeviceSynchronize();
  return 0;
}
