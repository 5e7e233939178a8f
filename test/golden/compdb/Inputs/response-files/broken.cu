// Its compile command names a response file that was never written.
#include "clang_only.h"
__global__ void pitched(float *out) {
  out[(blockIdx.x * blockDim.x + threadIdx.x) * PITCH] = 0.0f;
}
