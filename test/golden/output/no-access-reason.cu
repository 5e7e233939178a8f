// A kernel that reports no access although its source reads and writes
// memory says why (issue 26, bitsandbytes at first contact: 16 kernels were
// silently empty): its body compiled out for the target architecture by
// `#if __CUDA_ARCH__ == 750` (with the architecture to give instead), or
// every memory operation in code that cannot run in that instance (a tile
// shape the dispatcher never launches on this architecture traps first).
// Instances with the same reason are grouped into one note.
// RUN: %coalesce-lint --fail-on=never %s 2>&1 | FileCheck %s
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --fail-on=never %s -- --cuda-gpu-arch=sm_75 2>&1 | FileCheck %s --check-prefix=SM75

__global__ void turing_only(const float *in, float *out) {
#if __CUDA_ARCH__ == 750
  out[threadIdx.x] = in[threadIdx.x * 2];
#endif
}
// CHECK: no-access-reason.cu:[[@LINE-5]]:17: note: kernel 'turing_only' reports no access because its code is compiled out for the target architecture by '#if __CUDA_ARCH__ == 750' (line 13): analyze it for the architecture the directive names (--cuda-gpu-arch=sm_75 after --)
// JSON: "name": "turing_only",
// JSON: "no_access_reason": "its code is compiled out for the target architecture by '#if __CUDA_ARCH__ == 750' (line 13)
// SM75: no-access-reason.cu:14:22: warning: uncoalesced load of 'in[threadIdx.x * 2]'

template <int MT>
__global__ void tile(const float *in, float *out) {
  if constexpr (MT == 64) {
    __trap();
    return;
  }
  out[blockIdx.x * MT + threadIdx.x] = in[blockIdx.x * MT + threadIdx.x];
}
template __global__ void tile<32>(const float *, float *);
template __global__ void tile<64>(const float *, float *);
template __global__ void tile<128>(const float *, float *);
// CHECK-NOT: kernel 'tile' (
// CHECK: no-access-reason.cu:[[@LINE-11]]:17: note: kernel 'tile' reports no access because all its memory operations are in code that cannot run in this instance (under conditions that never hold, or after a return or a trap, for these template arguments and the target architecture)
// JSON: "instantiation": "tile<64>",
// JSON: "no_access_reason": "all its memory operations are in code that cannot run in this instance

// A kernel with no memory operation says nothing.
__global__ void nothing() {}
// CHECK-NOT: kernel 'nothing'
// CHECK: 0 warnings in 5 kernels (4 accesses analyzed, 0 unknown)
