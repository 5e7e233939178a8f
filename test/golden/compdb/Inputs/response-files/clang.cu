// Compiled by clang++ with an @file holding its include directory.
#include "clang_only.h"
__global__ void pitched(float *out) {
  out[(blockIdx.x * blockDim.x + threadIdx.x) * PITCH] = 0.0f;
}
