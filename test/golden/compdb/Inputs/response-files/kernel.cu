// Its include directories and a macro reach the parse only through the
// response files CMake writes (binary-dir/CMakeFiles/tgt.dir/includes_CUDA.rsp).
#include "config.h"
#include <sysdep.h>
#ifndef FROM_NESTED_RSP
#error "the nested options file was not read"
#endif
__global__ void strided(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * STRIDE] = SCALE;
}
