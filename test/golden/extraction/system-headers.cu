// Declarations of system headers are not searched for kernels or launches
// (the frontend skips them whole: 30% of a thrust program's instructions),
// but a namespace their macro opens in the user's file is.
// RUN: %coalesce-lint --no-header-cache --print-accesses --fail-on=never %s -- -isystem %S/Inputs/system-headers/sys -I %S/Inputs/system-headers/user | FileCheck %s --implicit-check-not=Kernel
// RUN: %coalesce-lint --print-accesses --fail-on=never %s -- -isystem %S/Inputs/system-headers/sys -I %S/Inputs/system-headers/user | FileCheck %s --implicit-check-not=Kernel
#include <lib.h>

__global__ void userKernel(float *p, int s) {
  p[threadIdx.x * s] = 2.f;
  // CHECK: system-headers.cu:[[@LINE-1]]:3: access: kernel=userKernel op=store base=p {{.*}} sectors=32 ideal=4 class=strided {{.*}} block=32(launch-site)
}

LIB_NAMESPACE_BEGIN
__global__ void macroNamespaceKernel(float *p) {
  p[threadIdx.x * 2] = 1.f;
  // CHECK: system-headers.cu:[[@LINE-1]]:3: access: kernel=macroNamespaceKernel op=store base=p {{.*}} sectors=8 ideal=4 class=strided
}
LIB_NAMESPACE_END

void run(float *p) {
  lib::innerKernel<<<1, 32>>>(p, 2);
  userKernel<<<1, 32>>>(p, 8);
  lib::macroNamespaceKernel<<<1, 32>>>(p);
  lib::launchWith64(userKernel, p);
}
// The launch inside the library (64 threads, s = 1) is not one of the
// user's: userKernel has one launch, 32 threads with s = 8.
// CHECK: 2 warnings in 2 kernels (2 accesses analyzed, 0 unknown)
