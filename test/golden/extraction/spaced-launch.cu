// Kernel launches whose brackets are split by blanks (`k << <g, b>> >(..)`,
// as Visual Studio's formatter writes them): nvcc accepts them, clang does
// not. The tool reads them as launches (frontend/NvccSyntax.cpp), here and
// in an included header: the block shapes come from the launches, columns
// stay where they are, and the file is not "not compiled" (exit 3).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s -- -I %S/Inputs | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: sh -c '%coalesce-lint %s -- -I %S/Inputs 2>&1; echo exit=$?' | FileCheck %s --check-prefix=EXIT --implicit-check-not=error
// EXIT: 1 warning in 2 kernels (2 accesses analyzed, 0 unknown)
// EXIT: exit=1
#include <cuda_runtime.h>
#include "spaced-launch.h"
__global__ void k(float *out, int n) { out[blockIdx.x * blockDim.x + threadIdx.x * n] = 1.0f; }
// CHECK: [[@LINE-1]]:40: access: kernel=k op=store base=out elem=4 expr='out[blockIdx.x * blockDim.x + threadIdx.x * n]' sectors=4 ideal=4 class=coalesced stride=4 block=128(launch-site)
__global__ void fromHeader(float *out, int n) { out[threadIdx.x * n] = 0.0f; }
// CHECK: [[@LINE-1]]:49: access: kernel=fromHeader op=store base=out elem=4 expr='out[threadIdx.x * n]' sectors=8 ideal=4 class=strided stride=8 block=64(launch-site)
void run(float *out, cudaStream_t s) {
  k << <dim3(8), dim3(128), 0, s >> > (out, 1);
  launchFromHeader(out, s);
}
