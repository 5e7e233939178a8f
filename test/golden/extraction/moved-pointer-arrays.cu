// Local arrays of pointers moved element by element (`B_ptr[i] += d`):
// Marlin's quantized GEMM (vLLM, mistral.rs, fastllm) keeps one pointer
// per B tile in `const int4 *B_ptr[b_sh_wr_iters]`, set in a loop, read
// and moved in a loop over the array inside the fetch lambda, and moved
// again by the main loop. Issue 26, thirty-ninth session: 640 of
// mistral.rs's 849 unknowns at first contact were `cp_async4(...,
// B_ptr[i] + j)` ("cannot follow the pointer"). A loop whose passes use
// only their own element reads what the stores before it left; a loop
// that only moves the pointers by amounts the same in every lane moves
// them by a uniform count of each of its stores (`B_ptr_moves@LINE`).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// GPU-ARGS: --block=32 --param iters=2 --param k_tiles=1 --param stride=1
// CENSUS: self-check: 16 memory operations in the census of 3 kernels, 0 missing from the report
#include <cuda_runtime.h>

constexpr int N = 4;

// Read and moved in one loop over the array, then read again: each lane's
// own int4, the lanes 16 bytes apart.
__global__ void moved_in_place(const int4 *B, int4 *out, int stride) {
  const int4 *B_ptr[N];
  for (int i = 0; i < N; i++)
    B_ptr[i] = B + 64 * stride * i + threadIdx.x;
  for (int i = 0; i < N; i++) {
    out[threadIdx.x + 32 * i] = B_ptr[i][0];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=moved_in_place op=store base=out elem=16 expr='out[threadIdx.x + 32 * i]' sectors=16 ideal=16 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:33: access: kernel=moved_in_place op=load base=B elem=16 expr='B_ptr[i][0]' sectors=16 ideal=16 class=coalesced {{.*}}
    B_ptr[i] += 64;
  }
  for (int i = 0; i < N; i++)
    out[threadIdx.x] = B_ptr[i][1];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=moved_in_place op=store base=out elem=16 expr='out[threadIdx.x]' sectors=16 ideal=16 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:24: access: kernel=moved_in_place op=load base=B elem=16 expr='B_ptr[i][1]' sectors=17 ideal=16 class=misaligned {{.*}}
}

// Marlin's shape: the fetch lambda reads and moves the pointers, a
// pipeline loop calls it, and the loop itself moves them by a lane-uniform
// amount. The pointers were set 2 int4s apart per lane: 32 bytes.
__global__ void marlin_like(const int4 *B, int4 *out, int k_tiles, int iters) {
  const int4 *B_ptr[N];
#pragma unroll
  for (int i = 0; i < N; i++)
    B_ptr[i] = B + 128 * i + 2 * threadIdx.x;
  auto fetch = [&]() {
#pragma unroll
    for (int i = 0; i < N; i++) {
      out[threadIdx.x + 32 * i] = B_ptr[i][1];
// CHECK-DAG: [[@LINE-1]]:7: access: kernel=marlin_like op=store base=out elem=16 expr='out[threadIdx.x + 32 * i]' sectors=16 ideal=16 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:35: access: kernel=marlin_like op=load base=B elem=16 expr='B_ptr[i][1]' sectors=32 ideal=16 class=strided {{.*}}
      B_ptr[i] += 256;
    }
  };
  for (int p = 0; p < iters; p++) {
    fetch();
    for (int i = 0; i < N; i++)
      B_ptr[i] += 64 - 256 * k_tiles;
  }
}

// A pointer moved by a lane's own amount inside a loop is no longer known
// where the loop reads it.
__global__ void moved_per_lane(const float *B, float *out, int iters) {
  const float *P[2];
  for (int i = 0; i < 2; i++)
    P[i] = B + 32 * i + threadIdx.x;
  for (int p = 0; p < iters; p++) {
    out[threadIdx.x] = *P[0];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=moved_per_lane op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:24: access: kernel=moved_per_lane op=load base=P[0] elem=4 expr='*P[0]' sectors=n/a ideal=n/a class=unknown {{.*}}
    P[0] += threadIdx.x;
  }
}
