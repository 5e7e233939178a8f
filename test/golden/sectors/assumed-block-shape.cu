// No launch found, and the assumed 256-thread block switches an access off
// through a condition on blockDim (issue 26, FastGEMV's `if (blockDim.x <=
// WARP_SIZE) { if (tid == 0) res[row] = ...; return; }`, launched with a
// shape from its test program's command line): the access is predicted in
// another assumed shape that runs it (32x8 first), and the note says so. An
// access the assumed shape runs keeps it; with --block the user's shape
// decides, and an access it switches off stays unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --print-accesses --block=gemv:256 --fail-on=never %s | FileCheck %s --check-prefix=USER
// JSON: "expr": "res[row]",
// JSON: "assuming a 32x8 block so that the access executes (in the assumed 256 threads its condition on blockDim is false; no launch found: use --block)"
__global__ void gemv(const float *mat, float *res, int n) {
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = mat[row * n + threadIdx.x];
// CHECK: [[@LINE-1]]:15: access: kernel=gemv op=load base=mat elem=4 expr='mat[row * n + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=256(assumed)
// USER: [[@LINE-2]]:15: access: kernel=gemv op=load base=mat {{.*}} class=coalesced
  if (blockDim.x <= 32) {
    if (threadIdx.x == 0)
      res[row] = sum;
// CHECK: [[@LINE-1]]:7: access: kernel=gemv op=store base=res elem=4 expr='res[row]' sectors=1 ideal=1 class=coalesced {{.*}}
// USER: [[@LINE-2]]:7: access: kernel=gemv op=store base=res elem=4 expr='res[row]' sectors=n/a ideal=n/a class=unknown
    return;
  }
  res[row * 2 + threadIdx.x] = sum;
// CHECK: [[@LINE-1]]:3: access: kernel=gemv op=store base=res elem=4 expr='res[row * 2 + threadIdx.x]' {{.*}} block=256(assumed)
// USER: [[@LINE-2]]:3: access: kernel=gemv op=store base=res
}
