// Kernels whose buffers must cover every access of the whole launch.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The reported fault: sampled loop counters sized At at 33652736 bytes.
__global__ void matvec_t(const float *At, const float *x, float *y, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    float s = 0;
    for (int j = 0; j < N; ++j)
      s += At[(size_t)j * N + i] * x[j];
    y[i] = s;
  }
}

struct Pair { const float *a; float *b; int n; };
__global__ void fields(Pair p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.b[2 * i] = p.a[i];
}

__global__ void gridsum(float *a, float *out, int n) {
  cg::grid_group g = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2 * a[i];
  g.sync();
  if (i == 0) out[0] = a[n - 1];
}

int main() {
  float *a, *x, *y;
  cudaMalloc(&a, 4096ull * 4096 * 4);
  cudaMalloc(&x, 4096 * 4);
  cudaMalloc(&y, 4096 * 4);
  matvec_t<<<16, 256>>>(a, x, y, 4096);
  Pair p{x, y, 1024};
  fields<<<4, 256>>>(p);
  int n = 2048;
  void *args[] = {&a, &y, &n};
  cudaLaunchCooperativeKernel((void *)gridsum, dim3(8), dim3(256), args, 0, 0);
  return 0;
}
