// --self-check (issue 26): the census of every memory operation the kernel
// reaches, matched against the report. Operations that are neither global
// nor shared memory are in the JSON report as excluded, each with its
// reason (shared accesses are predicted in wavefronts); the text
// report ends with the census's summary, and nothing is missing.
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 | FileCheck %s --check-prefix=TEXT --implicit-check-not=self-check
// TEXT: self-check: 11 memory operations in the census of 1 kernels, 0 missing from the report
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s 2>/dev/null | FileCheck %s --check-prefix=JSON
// JSON: "expr": "tile[threadIdx.y][threadIdx.x]",
// JSON: "space": "shared",
// JSON-NEXT: "classification": "conflict-free",
// JSON-NEXT: "wavefronts_per_request": 1,
// JSON: "excluded": [
// JSON: "expr": "m.ptrs[1]",
// JSON-NEXT: "reason": "parameter space (a kernel argument passed by value)"
// JSON: "expr": "coef[threadIdx.x & 15]",
// JSON-NEXT: "reason": "constant memory"
// JSON: "expr": "regs[i & 3]",
// JSON-NEXT: "reason": "local memory (a variable of the thread)"
// JSON: "expr": "out[i]",
// JSON-NEXT: "reason": "code that cannot run here (its condition is false for these values)"
// JSON: "expr": "m.sizes[2]",
// JSON-NEXT: "reason": "parameter space (a kernel argument passed by value)"
// JSON: "census_entries": 11,
// JSON-NEXT: "census_missing": []
// JSON: "census": {
// JSON-NEXT: "entries": 11,
// JSON-NEXT: "missing": 0
// The census is not in the JSON report without --self-check.
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: census
// PLAIN-NOT: excluded
struct Meta { float *ptrs[4]; int sizes[4]; };
__constant__ float coef[16];
__device__ int counter;
template <bool Flag>
__global__ void k(Meta m, float *out, int n) {
  __shared__ float tile[32][33];
  float regs[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = m.ptrs[1][i];
  regs[i & 3] = coef[threadIdx.x & 15];
  float s, c;
  sincosf(regs[0], &s, &c);
  if (Flag)
    out[i] = s;
  out[i + n] = tile[threadIdx.x][threadIdx.y] + c + m.sizes[2];
  atomicAdd(&counter, 1);
}
template __global__ void k<false>(Meta, float *, int);
