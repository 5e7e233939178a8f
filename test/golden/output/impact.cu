// What a finding costs (issue 28): the bytes its sectors above the ideal
// move per launch (requests: blocks x warps that run it x passes of the
// loops around it, from the launch's values), its share of the kernel's
// predicted traffic, and the report ordered by it, costliest first. A count
// without a grid is per block, one without a trip count per pass; the two
// are never ranked as a launch's.
// RUN: %not %coalesce-lint %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// --min-impact drops what wastes less per launch (figures per block or per
// pass are kept: they cannot be compared); --summary tables the findings
// per kernel and per file; the configuration key; a bad value is an error.
// RUN: %not %coalesce-lint --min-impact=1MiB %s 2>&1 | FileCheck %s --check-prefix=MIN --implicit-check-not=warning:
// RUN: %not %coalesce-lint --summary %s 2>&1 | FileCheck %s --check-prefix=SUMMARY --implicit-check-not=warning:
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/impact.cu && printf 'min-impact: 10%%%%\n' > %t/.coalesce-lint.yaml
// RUN: cd %t && %not %coalesce-lint impact.cu 2>&1 | FileCheck %s --check-prefix=CONF --implicit-check-not=warning:
// RUN: %not %coalesce-lint --min-impact=lots %s 2>&1 | FileCheck %s --check-prefix=BAD

// A GEMM-like kernel: the strided load in the K loop costs far more than
// the once-per-thread strided write-back, although both read 32 sectors
// per request.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + row];
  C[row * n] = acc;
}

// Only the first warp of each block runs the access.
__global__ void firstWarp(const float *in, float *out) {
  if (threadIdx.x < 32)
    out[blockIdx.x * 32 + threadIdx.x] = in[(blockIdx.x * 32 + threadIdx.x) * 2];
}

// A loop whose trip count depends on data: counted per pass.
__global__ void chase(const int *next, float *v, int start) {
  int i = start;
  while (next[i] >= 0) {
    v[threadIdx.x * 8] += 1;
    i = next[i];
  }
}

// No launch: per block.
__global__ void nolaunch(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 4];
}

int main() {
  float *a, *b, *c;
  int *nx;
  matmul<<<16, 256>>>(a, b, c, 4096);
  firstWarp<<<1000, 256>>>(a, b);
  chase<<<10, 128>>>(nx, a, 0);
}

// The costliest first: A in the K loop (16 blocks x 8 warps x 4096 passes
// x 28 wasted sectors of 32 bytes: 448 MiB; B beside it is coalesced).
// CHECK: impact.cu:25:12: warning: uncoalesced load of 'A[row * n + k]'
// CHECK: impact.cu:25:12: note: wastes about 448 MiB of the 512 MiB this load fetches per launch (16 blocks x 8 warps x 4096 passes of the loop at impact.cu:24); 77.8% of the kernel's predicted traffic
// CHECK: impact.cu:32:42: warning: uncoalesced load of 'in[(blockIdx.x * 32 + threadIdx.x) * 2]'
// CHECK: impact.cu:32:42: note: wastes about 125 KiB of the 250 KiB this load fetches per launch (1000 blocks x 12.5% of 8 warps); 33.3% of the kernel's predicted traffic
// CHECK: impact.cu:26:3: warning: uncoalesced store to 'C[row * n]'
// CHECK: impact.cu:26:3: note: wastes about 112 KiB of the 128 KiB this store fetches per launch (16 blocks x 8 warps); less than 0.1% of the kernel's predicted traffic
// Per block, then per pass (an update reads and writes: its load and its
// store requests both count, 2 x 10 blocks x 4 warps x 28 wasted sectors).
// CHECK: impact.cu:46:22: warning: uncoalesced load of 'in[threadIdx.x * 4]'
// CHECK: impact.cu:46:22: note: wastes about 3 KiB of the 4 KiB this load fetches per block (8 warps; no launch gives the grid)
// CHECK: impact.cu:39:5: warning: uncoalesced update of 'v[threadIdx.x * 8]'
// CHECK: impact.cu:39:5: note: wastes about 70 KiB of the 80 KiB this update fetches per launch and pass of the loop at impact.cu:38 (10 blocks x 4 warps; trip count not known)
// CHECK: 5 warnings in 4 kernels

// JSON: "requests": {
// JSON-NEXT: "per_block": 32768,
// JSON-NEXT: "blocks": 16,
// JSON-NEXT: "per_launch": 524288,
// JSON-NEXT: "per_iteration_of": [],
// JSON-NEXT: "basis": "16 blocks x 8 warps x 4096 passes of the loop at impact.cu:24"

// MIN: coalesce-lint: note: 2 findings costing less than --min-impact not reported
// MIN: impact.cu:25:12: warning: uncoalesced load of 'A[row * n + k]'
// MIN: impact.cu:46:22: warning: uncoalesced load of 'in[threadIdx.x * 4]'
// MIN: impact.cu:39:5: warning: uncoalesced update of 'v[threadIdx.x * 8]'
// MIN: 3 warnings in 4 kernels

// SUMMARY: findings per kernel (costliest first):
// SUMMARY-NEXT: kernel findings wastes/launch costliest
// SUMMARY-NEXT: matmul 2 448 MiB {{.*}}impact.cu:25:12 coalesce-stride 'A[row * n + k]'
// SUMMARY-NEXT: firstWarp 1 125 KiB {{.*}}impact.cu:32:42 coalesce-stride
// SUMMARY-NEXT: chase 1 - {{.*}}impact.cu:39:5 coalesce-stride 'v[threadIdx.x * 8]' (+1 per block or pass)
// SUMMARY-NEXT: nolaunch 1 - {{.*}}impact.cu:46:22
// SUMMARY-NEXT: findings per file (costliest first):
// SUMMARY-NEXT: file findings wastes/launch costliest
// SUMMARY-NEXT: impact.cu 5 448 MiB {{.*}}impact.cu:25:12 coalesce-stride 'A[row * n + k]' (+2 per block or pass)
// SUMMARY-NEXT: 5 warnings in 4 kernels

// 10% of the kernel's traffic: C (less than 0.1%) goes.
// CONF: 1 finding costing less than --min-impact not reported
// CONF: impact.cu:25:12: warning:
// CONF: impact.cu:32:42: warning:
// CONF: impact.cu:46:22: warning:
// CONF: impact.cu:39:5: warning:

// BAD: error: --min-impact: 'lots' is not an impact: give bytes per launch
