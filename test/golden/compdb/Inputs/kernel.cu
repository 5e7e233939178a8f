#ifdef USE_CONFIG
#include "config.h"
#endif
__global__ void strided(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * STRIDE] = 1.0f;
}
