// No launch found, and the assumed block switches an access off through a
// condition on blockDim (issue 26, FastGEMV's `if (blockDim.x <= WARP_SIZE)
// { if (tid == 0) res[row] = ...; return; }`, launched with a shape from its
// test program's command line): the access is predicted in another assumed
// shape that runs it, and the note says so. The kernel reads threadIdx.y,
// so the assumed 256 threads are rows of a warp (32x8): the narrow-block
// path runs in it, the wide-row path in 128x8 (FastGEMV's test launch). An
// access the assumed shape runs keeps it; with --block the user's shape
// decides, and an access it switches off stays unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --print-accesses --block=gemv:256 --fail-on=never %s | FileCheck %s --check-prefix=USER
// JSON: "expr": "res[row * 2 + threadIdx.x]",
// JSON: "assuming a 128x8 block so that the access executes (in the assumed 32x8 threads its condition on blockDim is false; no launch found: use --block)"
__global__ void gemv(const float *mat, float *res, int n) {
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = mat[row * n + threadIdx.x];
// CHECK: [[@LINE-1]]:15: access: kernel=gemv op=load base=mat elem=4 expr='mat[row * n + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32x8(assumed)
// USER: [[@LINE-2]]:15: access: kernel=gemv op=load base=mat {{.*}} class=coalesced
  if (blockDim.x <= 32) {
    if (threadIdx.x == 0)
      res[row] = sum;
// CHECK: [[@LINE-1]]:7: access: kernel=gemv op=store base=res elem=4 expr='res[row]' sectors=1 ideal=1 class=coalesced {{.*}}
// USER: [[@LINE-2]]:7: access: kernel=gemv op=store base=res elem=4 expr='res[row]' sectors=n/a ideal=n/a class=unknown
    return;
  }
  res[row * 2 + threadIdx.x] = sum;
// CHECK: [[@LINE-1]]:3: access: kernel=gemv op=store base=res elem=4 expr='res[row * 2 + threadIdx.x]' sectors=4.75 ideal=4 class=misaligned {{.*}} block=32x8(assumed)
// USER: [[@LINE-2]]:3: access: kernel=gemv op=store base=res
}
// Only __launch_bounds__ gives the size (ggml's flash-attention kernels,
// launched through a function pointer with dim3(warp_size, nwarps)): a
// kernel that reads threadIdx.y gets rows of 32; one that does not keeps a
// 1-D block. Before, 128x1x1 made threadIdx.y 0 everywhere.
// RUN: %coalesce-lint --fail-on=never %s | FileCheck %s --check-prefix=NOTE
__global__ void __launch_bounds__(128) tiles(const float *x, float *y, int n) {
  const int row = blockIdx.x * 4 + threadIdx.y;
  y[row * n + threadIdx.x] = x[threadIdx.x * n + row];
// CHECK: [[@LINE-1]]:3: access: kernel=tiles op=store base=y elem=4 expr='y[row * n + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32x4(launch-bounds)
// CHECK: [[@LINE-2]]:30: access: kernel=tiles op=load base=x elem=4 expr='x[threadIdx.x * n + row]' sectors=32 ideal=4 class=transposed stride=4096 block=32x4(launch-bounds)
// NOTE: note: assuming a 32x4 block (128 threads from __launch_bounds__, in rows of 32 since the kernel reads threadIdx.y)
}
__global__ void __launch_bounds__(128) flat(const float *x, float *y) {
  y[blockIdx.x * 128 + threadIdx.x] = x[threadIdx.x * 2];
// CHECK: [[@LINE-1]]:3: access: kernel=flat op=store base=y elem=4 expr='y[blockIdx.x * 128 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=128(launch-bounds)
// CHECK: [[@LINE-2]]:39: access: kernel=flat op=load base=x elem=4 expr='x[threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 block=128(launch-bounds)
}
