// Coalesced: no finding, so the launcher prints nothing for this file.
#include "dims.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void runSaxpy(int n, float a, const float *x, float *y) {
  saxpy<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, a, x, y);
}
