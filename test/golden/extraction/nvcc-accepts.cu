// Code nvcc accepts and clang rejects (issue 26): clang 22 gives an error for
// a __shared__ object whose class has a constructor (cuda::barrier), which
// nvcc leaves uninitialized, as the code expects (`init(&bar, n)`). The
// kernel is analyzed, not lost, and the status is not a compile error's.
// Also: a #pragma inside a #define, gcc's omp.h, a PTX register written with
// one `%` in asm with operands (below).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: sh -c '%coalesce-lint --fail-on=never %s >/dev/null; echo exit=$?' | FileCheck %s --check-prefix=EXIT
// EXIT: exit=0
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 5 memory operations in the census of 4 kernels, 0 missing from the report
#include <cuda/barrier>
// nvcc's host compiler finds the headers of its own include directory
// (gcc's omp.h, included by gardenia's common.h); clang did not, and the
// missing header was an error.
#include <omp.h>
__global__ void k(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x * 2] = in[threadIdx.x];
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[blockIdx.x * blockDim.x + threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// CHECK: [[@LINE-2]]:52: access: kernel=k op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  bar.arrive_and_wait();
}
__global__ void k2(float *out) { out[threadIdx.x] = 1.0f; }
// CHECK: [[@LINE-1]]:34: access: kernel=k2 op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// A #pragma written inside a #define (moderngpu's meta.hxx: `#define
// PRAGMA_UNROLL #pragma unroll`): nvcc accepts it where the macro is used,
// clang gives "expected expression" and the kernel was lost. The pragma is
// read as blanks (the tool reads no loop pragma), columns kept.
#define PRAGMA_UNROLL #pragma unroll
__global__ void unrolled(float *p) {
  PRAGMA_UNROLL
  for (int i = 0; i < 4; ++i)
    p[i * 128 + threadIdx.x] = 0;
// CHECK: [[@LINE-1]]:5: access: kernel=unrolled op=store base=p elem=4 expr='p[i * 128 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
// An inline assembly statement with operands that names a PTX register with
// one `%` (gardenia's `asm("mov.u32 %0, %laneid;" : "=r"(ret))`): nvcc
// passes it on as it stands, clang rejected it as an invalid `%` escape and
// every kernel calling the function was lost. The `%` is read doubled,
// taking the place of the blank after the comma; the lane comes from the
// function's name (cub's LaneId()).
__device__ __forceinline__ unsigned LaneId() {
  unsigned ret;
  asm("mov.u32 %0, %laneid;" : "=r"(ret));
  return ret;
}
__global__ void lanes(float *out) { out[blockIdx.x * 64 + LaneId() * 2] = 1.0f; }
// CHECK: [[@LINE-1]]:37: access: kernel=lanes op=store base=out elem=4 expr='out[blockIdx.x * 64 + LaneId() * 2]' sectors=8 ideal=4 class=strided stride=n/a block=32x8(assumed)
