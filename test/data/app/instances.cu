// Two template kernels, each instantiated twice and launched twice, for
// coalesce-verify --app's per-instance and per-launch reports. Profiled on a
// GPU by scripts/gpu-verification/device-run.sh; instances-source.csv next to
// this file is a SYNTHETIC export for it (see test/golden/harness/
// app-instances.test). Line numbers matter to that export: append only.
#include <cstdio>

template <typename T>
__global__ void gather(const T *in, T *out, int stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * stride];
}

template <unsigned int Block, bool Twice>
__global__ void scale(float *a, int n) {
  unsigned int i = blockIdx.x * Block + threadIdx.x;
  if (i < n)
    a[i] = Twice ? 2.0f * a[i] : a[i] + 1.0f;
}

int main() {
  const int N = 1 << 20;
  const int Stride = 2;
  float *fin, *fout;
  double *din, *dout;
  cudaMalloc(&fin, sizeof(float) * N * Stride);
  cudaMalloc(&fout, sizeof(float) * N);
  cudaMalloc(&din, sizeof(double) * N * Stride);
  cudaMalloc(&dout, sizeof(double) * N);
  cudaMemset(fin, 0, sizeof(float) * N * Stride);
  cudaMemset(din, 0, sizeof(double) * N * Stride);
  for (int Rep = 0; Rep < 2; ++Rep) {
    gather<float><<<N / 256, 256>>>(fin, fout, Stride, N);
    gather<double><<<N / 256, 256>>>(din, dout, Stride, N);
    scale<256, true><<<N / 256, 256>>>(fout, N);
    scale<128, false><<<N / 128, 128>>>(fout, N);
  }
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("instances: %s\n", cudaGetErrorString(E));
  cudaFree(fin);
  cudaFree(fout);
  cudaFree(din);
  cudaFree(dout);
  return E == cudaSuccess ? 0 : 1;
}
