// A naive transpose: the store is uncoalesced (threadIdx.x moves the slow
// dimension of out), which the launcher reports during the build.
#include "dims.h"

__global__ void transpose(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < width && y < height)
    out[x * height + y] = in[y * width + x];
}

void runTranspose(const float *in, float *out, int width, int height) {
  dim3 block(TILE, 8);
  dim3 grid(width / TILE, height / TILE);
  transpose<<<grid, block>>>(in, out, width, height);
}
