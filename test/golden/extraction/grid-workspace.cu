// A grid-wide barrier written by hand on cooperative groups' grid workspace
// (calm's syncgrid(), copied from grid.sync()): get_grid_workspace() returns
// one global address for the whole grid, so the PTX atomic and the polling
// load of one lane are uniform, not "cannot follow the pointer".
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
#include <cooperative_groups.h>
__device__ static void syncgrid() {
  volatile unsigned int *barrier = &cooperative_groups::details::get_grid_workspace()->barrier;
  if (threadIdx.x == 0) {
    unsigned int nb = blockIdx.x == 0 ? 0x80000000 - (gridDim.x - 1) : 1, old_arrive, current;
    asm volatile("atom.add.release.gpu.u32 %0,[%1],%2;" : "=r"(old_arrive) : "l"(barrier), "r"(nb) : "memory");
// CHECK: [[@LINE-1]]:82: access: kernel=k op=atomic base=grid workspace elem=4 expr='barrier' sectors=1 ideal=1 class=uniform stride=0 {{.*}}
    do {
      asm volatile("ld.acquire.gpu.u32 %0,[%1];" : "=r"(current) : "l"(barrier) : "memory");
// CHECK: [[@LINE-1]]:72: access: kernel=k op=load base=grid workspace elem=4 expr='barrier' sectors=1 ideal=1 class=uniform stride=0 {{.*}}
    } while (((old_arrive ^ current) & 0x80000000) == 0);
  }
  __syncthreads();
}
__global__ void k(float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[blockIdx.x * blockDim.x + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  syncgrid();
}
