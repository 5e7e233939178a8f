// An access one lane of each warp executes is one request for one element,
// whatever its address: an index loaded from memory or a value the engine
// cannot model does not make it `indirect` or `unknown` there (lmdeploy's
// top-k sampling: `if (tid == 0) logits[total.p] = -MAX_T_VAL;` with
// `total` a block reduction's result). Where two lanes or more execute it,
// the address still decides, and the access stays a gather.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --format=json --fail-on=never --block=256 %s | FileCheck %s --check-prefix=NOTE
#include <cuda_runtime.h>

struct best {
  int p;
  float u;
};
__device__ best reduceBest(best partial); // not seen: a value per lane

__global__ void firstLane(float *out, const int *idx) {
  if (threadIdx.x == 0)
    out[idx[blockIdx.x * blockDim.x + threadIdx.x]] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=firstLane op=store base=out elem=4 expr='out[idx[blockIdx.x * blockDim.x + threadIdx.x]]' sectors=1 ideal=1 class=uniform {{.*}}
// CHECK-DAG: [[@LINE-2]]:9: access: kernel=firstLane op=load base=idx elem=4 expr='idx[blockIdx.x * blockDim.x + threadIdx.x]' sectors=1 ideal=1 class=coalesced {{.*}}
// NOTE: "one lane of each warp executes the access: its address (through idx[blockIdx.x * blockDim.x + threadIdx.x], not modelled per lane) is one element"
}

__global__ void laneZeroOfEachWarp(float *out, const int *idx) {
  if (threadIdx.x % 32 == 0)
    out[idx[threadIdx.x]] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=laneZeroOfEachWarp op=store base=out elem=4 expr='out[idx[threadIdx.x]]' sectors=1 ideal=1 class=uniform {{.*}}
// CHECK-DAG: [[@LINE-2]]:9: access: kernel=laneZeroOfEachWarp op=load base=idx elem=4 expr='idx[threadIdx.x]' sectors=1 ideal=1 class=coalesced {{.*}}
}

__global__ void reducedBest(float *logits, best mine) {
  best total = reduceBest(mine);
  if (threadIdx.x == 0)
    logits[total.p] = -1.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=reducedBest op=store base=logits elem=4 expr='logits[total.p]' sectors=1 ideal=1 class=uniform {{.*}}
}

__global__ void twoLanes(float *out, const int *idx) {
  if (threadIdx.x < 2)
    out[idx[threadIdx.x]] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=twoLanes op=store base=out elem=4 expr='out[idx[threadIdx.x]]' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK-DAG: [[@LINE-2]]:9: access: kernel=twoLanes op=load base=idx elem=4 expr='idx[threadIdx.x]' sectors=1 ideal=1 class=coalesced {{.*}}
}
