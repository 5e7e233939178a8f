// Loops whose trip count differs between lanes (issue 8): PolyBench's
// correlation and covariance `for (j2 = j1 + 1; j2 < M; j2++)` with j1 per
// lane. In the last iterations of each warp fewer lanes are active and each
// request touches fewer sectors; the profile counts every such request. The
// loop is walked over its whole range, one period of each stretch where the
// warp's active lanes stay the same, so the averages are exact: enumerating
// every request (M = 512, 16 warps) gives 30.1697 sectors and 3.8229 ideal
// per request for the row-per-lane stores and 4.5978 for data[j2]; the H200
// measured 30.17 for correlation's symmat (docs/verification.md).
//
// The model has every lane at the same iteration. nvcc -O3 unrolls a small
// loop like upper's by 4 and runs each lane's remainder (trip count mod 4)
// first, so in the unrolled body four neighbouring lanes share a j2: the H200
// measured 7.68 sectors for symmat[j2 * M + j1] and 4.27 for data[j2] without
// the pragma (2026-12-01, docs/verification.md). `#pragma unroll 1` keeps the
// source's iterations, as a loop with an inner loop (correlation) does.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
#define M 512

__global__ void upper(float *symmat, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M - 1) {
#pragma unroll 1
    for (int j2 = j1 + 1; j2 < M; j2++) {
      symmat[j1 * M + j2] = 0.0f;
// CHECK: [[@LINE-1]]:7: access: kernel=upper op=store base=symmat elem=4 expr='symmat[j1 * M + j2]' sectors=30.17 ideal=3.82 class=strided
// JSON: "line": [[#@LINE-2]],
// JSON: "sectors_per_request": 30.1697,
// JSON-NEXT: "ideal_sectors_per_request": 3.8229,
      symmat[j2 * M + j1] = data[j2];
// CHECK: [[@LINE-1]]:7: access: kernel=upper op=store base=symmat elem=4 expr='symmat[j2 * M + j1]' sectors=30.17 ideal=3.82 class=strided
// CHECK: [[@LINE-2]]:29: access: kernel=upper op=load base=data elem=4 expr='data[j2]' sectors=4.6 ideal=3.82 class=misaligned
// JSON: "line": [[#@LINE-3]],
// JSON: "sectors_per_request": 30.1697,
// JSON: "line": [[#@LINE-5]],
// JSON: "sectors_per_request": 4.5978,
    }
  }
}

// PolyBench's own form: the inner counter `i` declared outside the loop. The
// body resets it before reading it, so its carried value is dead and does
// not confine j2 to its first sampled iterations.
__global__ void correlation(float *symmat, const float *data, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  int i, j2;
  if (j1 < M - 1) {
    for (j2 = j1 + 1; j2 < M; j2++) {
      symmat[j1 * M + j2] = 0.0f;
// CHECK: [[@LINE-1]]:7: access: kernel=correlation op=store base=symmat elem=4 expr='symmat[j1 * M + j2]' sectors=30.17 ideal=3.82 class=strided
      for (i = 0; i < n; i++)
        symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
// CHECK: [[@LINE-1]]:9: access: kernel=correlation op=load+store base=symmat elem=4 expr='symmat[j1 * M + j2]' sectors=30.17 ideal=3.82 class=strided
    }
  }
}

// The same loop in blocks of 32: each block's trip range differs, so every
// block of the launch's grid is walked (not the first 8), for the same exact
// averages as one 256-thread block.
__global__ void upperSmallBlocks(float *symmat) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < M - 1)
#pragma unroll 1
    for (int j2 = j1 + 1; j2 < M; j2++)
      symmat[j1 * M + j2] = 0.0f;
// CHECK: [[@LINE-1]]:7: access: kernel=upperSmallBlocks op=store base=symmat elem=4 expr='symmat[j1 * M + j2]' sectors=30.17 ideal=3.82 class=strided
}

// Lower triangle, `k <= row`: 30.1765 sectors per request by enumeration;
// the uniform in[k] is one sector per request.
__global__ void lower(float *out, const float *in) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (int k = 0; k <= row; ++k)
    out[row * M + k] = in[k];
// CHECK: [[@LINE-1]]:5: access: kernel=lower op=store base=out elem=4 expr='out[row * M + k]' sectors=30.18 ideal=3.82 class=strided
// CHECK: [[@LINE-2]]:24: access: kernel=lower op=load base=in elem=4 expr='in[k]' sectors=1 {{.*}}class=uniform
}

// A bound that is not monotone in the iteration (`k % 2`) keeps the sampled
// first iterations, as before: 32, where the H200 measured 28.36 (the late
// iterations' partial warps are not seen).
__global__ void notMonotone(float *out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < M - row; ++k)
    if (k % 2 == 0)
      out[row * M + k] = 0.0f;
// CHECK: [[@LINE-1]]:7: access: kernel=notMonotone op=store base=out elem=4 expr='out[row * M + k]' sectors=32 ideal=4 class=strided
}

int main() {
  float *s, *d;
  upper<<<2, 256>>>(s, d);
  correlation<<<2, 256>>>(s, d, 512);
  upperSmallBlocks<<<16, 32>>>(s);
  lower<<<16, 32>>>(s, d);
  notMonotone<<<16, 32>>>(s);
}
