// probe.cu - micro-kernels whose Nsight Compute output is recorded for the
// parser tests (see record.sh). Expected sectors/request are in comments.
#include <cstdio>
#include <cuda_runtime.h>

struct P2 { float x, y; };

__global__ void k_copy(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i]; // ld 4, st 4
}
__global__ void k_offset(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1]; // ld 5, st 4
}
__global__ void k_stride(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * 32] = in[i]; // ld 4, st 32
}
__global__ void k_aos(float *out, const P2 *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x; // ld 8, st 4
}
__global__ void k_vec(float4 *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = v; // ld 16, st 16
}
__global__ void k_atomic(float *sum, int *cnt) {
  atomicAdd(&sum[0], 1.0f); // 32
  atomicAdd(&cnt[0], 1);    // 1
}
__global__ void k_two_on_line(float *out, const float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + b[2 * i]; // a: 4, b: 8, out: 4
}
__global__ void k_loop(float *out, const float *in, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int c = 0; c < n; ++c)
    s += in[row * n + c]; // 32 for n >= 8
  out[row] = s;
}
__global__ void k_matmul(float *C, const float *A, const float *B, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < N; ++k)
    s += A[row * N + k] * B[k * N + col]; // A: 2 (ideal 4), B: 4
  C[row * N + col] = s;
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
  const int N = 1 << 20;
  float *a, *b, *c; P2 *p; float4 *v4, *w4; int *cnt;
  CHECK(cudaMalloc(&a, N * 32 * sizeof(float)));
  CHECK(cudaMalloc(&b, N * 32 * sizeof(float)));
  CHECK(cudaMalloc(&c, N * 32 * sizeof(float)));
  CHECK(cudaMalloc(&p, N * sizeof(P2)));
  CHECK(cudaMalloc(&v4, N * sizeof(float4)));
  CHECK(cudaMalloc(&w4, N * sizeof(float4)));
  CHECK(cudaMalloc(&cnt, sizeof(int)));
  k_copy<<<N / 256, 256>>>(a, b);
  k_offset<<<N / 256 - 1, 256>>>(a, b);
  k_stride<<<N / 256, 256>>>(a, b);
  k_aos<<<N / 256, 256>>>(a, p);
  k_vec<<<N / 256, 256>>>(w4, v4);
  k_atomic<<<64, 256>>>(a, cnt);
  k_two_on_line<<<N / 512, 256>>>(a, b, c);
  k_loop<<<16, 256>>>(a, b, 64);
  k_matmul<<<dim3(8, 8), dim3(16, 16)>>>(c, a, b, 128);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  printf("probe done\n");
  return 0;
}
