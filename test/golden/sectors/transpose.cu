// Matrix transpose (naive, through shared memory) and naive matmul, from the
// seed articles. Shared-memory accesses are not reported.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param width=1024 --param height=1024 --param N=128 %s | FileCheck %s
// RUN: %not %coalesce-lint --param width=1024 --param height=1024 --param N=128 %s | FileCheck %s --check-prefix=WARN
// GPU-ARGS: --param width=1024 --param height=1024 --param N=128
#include <cuda_runtime.h>

#define BLOCK_DIM 16
#define TILE 32
#define BLOCK_ROWS 8

// Seed transpose_naive, 16x16 blocks. A warp is rows y = 2w, 2w+1 (y even
// first) of 16 x values each.
//   idata[y*width + x]: two aligned 64-byte rows: 4 sectors, ideal 4.
//   odata[x*height + y]: 16 x values 4096 bytes apart; the two lanes with
//   the same x write y and y+1 (y even), 4 bytes apart in one sector: 16
//   sectors, ideal 4; threadIdx.y moves one element: transposed.
__global__ void transposeNaive(float *odata, float *idata, int width,
                               int height) {
  int x = blockIdx.x * BLOCK_DIM + threadIdx.x;
  int y = blockIdx.y * BLOCK_DIM + threadIdx.y;
  if (x < width && y < height) {
    odata[x * height + y] = idata[y * width + x];
    // CHECK: [[@LINE-1]]:5: access: kernel=transposeNaive op=store base=odata elem=4 expr='odata[x * height + y]' sectors=16 ideal=4 class=transposed
    // CHECK: [[@LINE-2]]:29: access: kernel=transposeNaive op=load base=idata elem=4 expr='idata[y * width + x]' sectors=4 ideal=4 class=coalesced
    // WARN: transpose.cu:[[@LINE-3]]:5: warning: {{.*}}store
    // WARN-NOT: transpose.cu:[[@LINE-4]]:29: warning
  }
}

// The same with 32x8 blocks: a warp is one row of 32 x values; the write
// puts every lane in its own sector: 32, ideal 4.
__global__ void transposeNaive32(float *odata, const float *idata, int width,
                                 int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  odata[x * height + y] = idata[y * width + x];
  // CHECK: [[@LINE-1]]:3: access: kernel=transposeNaive32 op=store base=odata elem=4 expr='odata[x * height + y]' sectors=32 ideal=4 class=transposed
  // CHECK: [[@LINE-2]]:27: access: kernel=transposeNaive32 op=load base=idata elem=4 expr='idata[y * width + x]' sectors=4 ideal=4 class=coalesced
}

// Seed transpose_shared, as printed in the article: after swapping the block
// indices it writes odata[x * width + y] with x following threadIdx.x, which
// is still the transposed pattern (16 sectors, like the naive kernel); the
// article's comment calls it a coalesced write. The read is coalesced (4).
__global__ void transposeSeedShared(float *odata, float *idata, int width,
                                    int height) {
  __shared__ float tile[BLOCK_DIM][BLOCK_DIM + 1];
  int x = blockIdx.x * BLOCK_DIM + threadIdx.x;
  int y = blockIdx.y * BLOCK_DIM + threadIdx.y;
  if (x < width && y < height) {
    tile[threadIdx.y][threadIdx.x] = idata[y * width + x];
    // CHECK: [[@LINE-1]]:38: access: kernel=transposeSeedShared op=load base=idata elem=4 expr='idata[y * width + x]' sectors=4 ideal=4 class=coalesced
  }
  __syncthreads();
  x = blockIdx.y * BLOCK_DIM + threadIdx.x;
  y = blockIdx.x * BLOCK_DIM + threadIdx.y;
  if (x < height && y < width) {
    odata[x * width + y] = tile[threadIdx.x][threadIdx.y];
    // CHECK: [[@LINE-1]]:5: access: kernel=transposeSeedShared op=store base=odata elem=4 expr='odata[x * width + y]' sectors=16 ideal=4 class=transposed
  }
}

// The tiled transpose done right (CUDA samples): 32x8 blocks, each thread
// moves 4 elements; both global accesses are rows of 32 floats: 4, and
// j only shifts by 8 rows (8*4096 bytes).
__global__ void transposeTiled(float *odata, const float *idata, int width,
                               int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  // CHECK: [[@LINE-1]]:42: access: kernel=transposeTiled op=load base=idata elem=4 expr='idata[(y + j) * width + x]' sectors=4 ideal=4 class=coalesced
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK: [[@LINE-1]]:5: access: kernel=transposeTiled op=store base=odata elem=4 expr='odata[(y + j) * height + x]' sectors=4 ideal=4 class=coalesced
  // WARN-NOT: transpose.cu:[[@LINE-2]]:{{.*}}warning
}

// Naive matmul, 16x16 blocks. A warp is rows ty = 2w, 2w+1, tx = 0..15.
//   A[row*N + k]: 16 lanes share each of 2 addresses (rows 512 bytes apart):
//     2 sectors; ideal ceil(32*4/32) = 4: below the ideal, not a finding.
//   B[k*N + col]: both half-warps read the same 16 floats (64 bytes at
//     4*(k*N + 16*blockIdx.x), aligned): 2 sectors, ideal 4.
//   C[row*N + col]: two aligned 64-byte rows: 4.
__global__ void matmulNaive(float *C, const float *A, const float *B, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < N; ++k)
    s += A[row * N + k] * B[k * N + col];
  // CHECK: [[@LINE-1]]:10: access: kernel=matmulNaive op=load base=A elem=4 expr='A[row * N + k]' sectors=2 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:27: access: kernel=matmulNaive op=load base=B elem=4 expr='B[k * N + col]' sectors=2 ideal=4 class=coalesced
  // WARN-NOT: transpose.cu:[[@LINE-3]]:{{.*}}warning
  C[row * N + col] = s;
  // CHECK: [[@LINE-1]]:3: access: kernel=matmulNaive op=store base=C elem=4 expr='C[row * N + col]' sectors=4 ideal=4 class=coalesced
}
// CHECK-NOT: access:

int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 64 << 20);
  cudaMalloc(&b, 64 << 20);
  cudaMalloc(&c, 64 << 20);
  transposeNaive<<<dim3(64, 64), dim3(16, 16)>>>(b, a, 1024, 1024);
  transposeNaive32<<<dim3(32, 128), dim3(32, 8)>>>(b, a, 1024, 1024);
  transposeSeedShared<<<dim3(64, 64), dim3(16, 16)>>>(b, a, 1024, 1024);
  transposeTiled<<<dim3(32, 32), dim3(32, 8)>>>(b, a, 1024, 1024);
  matmulNaive<<<dim3(8, 8), dim3(16, 16)>>>(c, a, b, 128);
  cudaDeviceSynchronize();
  return 0;
}
