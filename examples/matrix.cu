// matrix.cu - the bundled example: common access patterns of matrix kernels,
// good and bad. Run: coalesce-lint examples/matrix.cu
#include <cstdio>
#include <cuda_runtime.h>

#define TILE 16

struct Particle { float x, y, z, w; };

// Naive transpose: the read is coalesced, the write is transposed.
__global__ void transposeNaive(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}

// Tiled transpose through shared memory: both global accesses coalesced.
__global__ void transposeTiled(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < height && y < width)
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}

// One thread per row: adjacent lanes are a whole row apart.
__global__ void rowSum(float *sums, const float *m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int c = 0; c < n; ++c)
    s += m[row * n + c];
  sums[row] = s;
}

// One thread per column: coalesced.
__global__ void colSum(float *sums, const float *m, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int r = 0; r < n; ++r)
    s += m[r * n + col];
  sums[col] = s;
}

// Array of structures: reading one field wastes three quarters of each sector.
__global__ void scaleX(Particle *p, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i].x *= a;
}

// An offset of one element: every warp straddles one more sector.
__global__ void shiftCopy(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
}

int main() {
  const int n = 1024;
  float *a, *b;
  Particle *p;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&p, n * sizeof(Particle));
  dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
  transposeNaive<<<grid, block>>>(a, b, n, n);
  transposeTiled<<<grid, block>>>(a, b, n, n);
  rowSum<<<n / 256, 256>>>(a, b, n);
  colSum<<<n / 256, 256>>>(a, b, n);
  scaleX<<<n / 256, 256>>>(p, 2.0f);
  shiftCopy<<<n / 256 - 1, 256>>>(a, b);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
