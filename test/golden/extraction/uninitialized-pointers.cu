// A pointer declared without an initializer and assigned on one path only
// (parboil sad's `unsigned short *bo_5; if (ty < 100) bo_5 = blk_sad + ..;`)
// is read where it was assigned: reading it elsewhere would be undefined, so
// the assigned value is its value after the branch.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
//
// p = out + 4*blockIdx.x*blockDim.x... after the `if`: p[threadIdx.x] stores
// 4-byte words of consecutive lanes, 4 sectors per request.
__global__ void assignedInBranch(float *out, int n) {
  float *p;
  if (threadIdx.y < 100)
    p = out + blockIdx.x * blockDim.x;
  p[threadIdx.x] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=assignedInBranch op=store base=out elem=4 expr='p[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=128(launch-site)
}

// Assigned on both paths, to different allocations: the offset within
// whichever allocation the path chose, as for `(n > 4 ? a : b)[threadIdx.x]`
// (allocations are taken to be aligned alike).
__global__ void twoAllocations(float *a, float *b, int n) {
  float *p;
  if (n > 4)
    p = a;
  else
    p = b;
  p[threadIdx.x] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=twoAllocations op=store base=a or b elem=4 expr='p[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=128(launch-site)
}

void run(float *a, float *b, int n) {
  assignedInBranch<<<100, 128>>>(a, n);
  twoAllocations<<<100, 128>>>(a, b, n);
}
