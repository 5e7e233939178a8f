// A grid computed from the values the launch passes as arguments
// (`dim3 grid(CEIL_DIV(M, 32))` and `k<<<grid, b>>>(M, ...)`, as GEMM
// tutorials and most host wrappers write it): --param gives the grid, and
// with it the cost per launch; without a value the figure stays per block
// and a note says which --param gives it. Defaults never make up a grid.
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

__global__ void colsum(int M, int N, const float *A, float *out) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M)
    out[row * N] = A[row * N];
}

__global__ void tile2d(int M, int N, const float *A, float *out) {
  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;
  if (r < M && c < N)
    out[c * M + r] = A[r * N + c];
}

// The argument is not the value the grid is computed from (2 * n):
// no formula, the figure stays per block and no note names a --param.
__global__ void scaled(int n, float *out) {
  out[threadIdx.x * 8] = 1.0f;
}

void run(int M, int N, const float *A, float *out, int n, int g) {
  dim3 grid(CEIL_DIV(M, 256));
  colsum<<<grid, 256>>>(M, N, A, out);
  dim3 grid2(CEIL_DIV(N, 16), CEIL_DIV(M, 16)), block2(16, 16);
  tile2d<<<grid2, block2>>>(M, N, A, out);
  scaled<<<CEIL_DIV(n, 128), 128>>>(2 * n, out);
}

// Two parameters given one value (`square<<<g, b>>>(n, n, out)`): the grid
// is computed from either, and a value given for either gives it (the note
// names both; llama_cu_awq's matmul passes `dim, dim`).
__global__ void square(int rows, int cols, float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    out[r * cols] = 0.0f;
}
void run_square(int n, float *out) {
  square<<<CEIL_DIV(n, 256), 256>>>(n, n, out);
}

// RUN: %not %coalesce-lint %s 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not="computed from"
// RUN: %not %coalesce-lint --param M=4096 --param N=2048 --param square:rows=1024 %s 2>&1 | FileCheck %s --check-prefix=PARAM --implicit-check-not=warning: --implicit-check-not="computes the grid"
// The report's launch_grid is the computed grid too (colsum: 16 x 1 x 1).
// RUN: %coalesce-lint --format=json --fail-on=never --param M=4096 --param N=2048 %s | FileCheck %s --check-prefix=JSON
// RUN: %not %coalesce-lint --param square:cols=4096 %s 2>&1 | FileCheck %s --check-prefix=SAME
// JSON: "name": "colsum",
// JSON: "launch_grid": {
// JSON-NEXT: "x": 16,
// JSON-NEXT: "y": 1,
// JSON-NEXT: "z": 1

// CHECK: impact-grid-params.cu:11:5: warning: uncoalesced store to 'out[row * N]'
// CHECK: impact-grid-params.cu:11:5: note: the launch at {{.*}}impact-grid-params.cu:28 computes the grid from M: --param M=... gives the cost per launch
// CHECK: impact-grid-params.cu:11:5: note: wastes about 7 KiB of the 8 KiB this store fetches per block (8 warps; no launch gives the grid)
// CHECK: impact-grid-params.cu:11:20: warning: uncoalesced load of 'A[row * N]'
// CHECK: impact-grid-params.cu:11:20: note: the launch at {{.*}}impact-grid-params.cu:28 computes the grid from M: --param M=... gives the cost per launch
// CHECK: impact-grid-params.cu:40:5: warning: uncoalesced store to 'out[r * cols]'
// CHECK: impact-grid-params.cu:40:5: note: the launch at {{.*}}impact-grid-params.cu:43 computes the grid from rows (or cols: the same value there): --param rows=... gives the cost per launch
// CHECK: impact-grid-params.cu:23:3: warning: uncoalesced store to 'out[threadIdx.x * 8]'
// CHECK: impact-grid-params.cu:23:3: note: wastes about 3.5 KiB of the 4 KiB this store fetches per block (4 warps; no launch gives the grid)
// CHECK: impact-grid-params.cu:17:5: warning: transposed store to 'out[c * M + r]'
// CHECK: impact-grid-params.cu:17:5: note: the launch at {{.*}}impact-grid-params.cu:30 computes the grid from N and M: --param N=... --param M=... give the cost per launch
// CHECK: 5 warnings in 4 kernels

// The costliest first once the grids are known: 128 x 256 blocks of the
// transposed store, then the 16 blocks of colsum; scaled stays per block.
// PARAM: impact-grid-params.cu:17:5: warning: transposed store to 'out[c * M + r]'
// PARAM: impact-grid-params.cu:17:5: note: grid 128 x 256 x 1 (computed from N, M) from the launch at {{.*}}impact-grid-params.cu:30
// PARAM: impact-grid-params.cu:17:5: note: wastes about 96 MiB of the 128 MiB this store fetches per launch (32768 blocks x 8 warps); 60% of the kernel's predicted traffic
// PARAM: impact-grid-params.cu:11:5: warning: uncoalesced store to 'out[row * N]'
// PARAM: impact-grid-params.cu:11:5: note: grid 16 x 1 x 1 (computed from M) from the launch at {{.*}}impact-grid-params.cu:28
// PARAM: impact-grid-params.cu:11:5: note: wastes about 112 KiB of the 128 KiB this store fetches per launch (16 blocks x 8 warps); 43.8% of the kernel's predicted traffic
// PARAM: impact-grid-params.cu:11:20: warning: uncoalesced load of 'A[row * N]'
// PARAM: impact-grid-params.cu:11:20: note: wastes about 112 KiB of the 128 KiB this load fetches per launch (16 blocks x 8 warps)
// PARAM: impact-grid-params.cu:40:5: warning: uncoalesced store to 'out[r * cols]'
// PARAM: impact-grid-params.cu:40:5: note: grid 4 x 1 x 1 (computed from rows), cols = 1024 (the value it passes as rows) from the launch at {{.*}}impact-grid-params.cu:43
// PARAM: impact-grid-params.cu:40:5: note: wastes about 28 KiB of the 32 KiB this store fetches per launch (4 blocks x 8 warps)
// PARAM: impact-grid-params.cu:23:3: warning: uncoalesced store to 'out[threadIdx.x * 8]'
// PARAM: impact-grid-params.cu:23:3: note: wastes about 3.5 KiB of the 4 KiB this store fetches per block (4 warps; no launch gives the grid)
// PARAM: 5 warnings in 4 kernels

// The value given for the later parameter gives the grid and the earlier
// parameter's value at this launch.
// SAME: impact-grid-params.cu:40:5: warning: uncoalesced store to 'out[r * cols]'
// SAME: impact-grid-params.cu:40:5: note: grid 16 x 1 x 1 (computed from cols), rows = 4096 (the value it passes as cols) from the launch at {{.*}}impact-grid-params.cu:43
// SAME: impact-grid-params.cu:40:5: note: wastes about 112 KiB of the 128 KiB this store fetches per launch (16 blocks x 8 warps)
