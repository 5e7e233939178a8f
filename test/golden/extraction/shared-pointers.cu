// Pointers into shared memory kept where cub keeps them (issue 26): in a
// local array of pointers (BlockRadixRank's `digit_counters[ITEM]`, every
// store into it an address in __shared__ memory), and chosen by a condition
// fixed for the instantiation (`MEMOIZE ? cached_segment : smem_raking_ptr`):
// known to be shared or local memory; likewise pointers declared null and
// assigned under a condition.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// Shared accesses, closed world; the pointers read back from the local
// array are what the stores put there (the loop stores element k at pass k),
// and unknown with a reason that says so where a store's index cannot be
// told apart from the read's.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --check-prefix=SHARED --implicit-check-not=shared:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=REASON
// REASON: "reason": "address depends on a per-lane value the engine cannot model: 'slots[1]' is a pointer read back from a local array of pointers, which the analysis does not follow element by element"
__global__ void k(const int *in, int *out) {
  __shared__ int counters[4][256];
  int *digit_counters[4];
  int prefixes[4];
#pragma unroll
  for (int item = 0; item < 4; item++) {
    digit_counters[item] = &counters[item][threadIdx.x];
    prefixes[item] = *digit_counters[item];
// SHARED: [[@LINE-1]]:22: shared: kernel=k op=load base=counters elem=4 expr='*digit_counters[item]' wavefronts=1 ideal=1 class=conflict-free stride=4
    *digit_counters[item] = prefixes[item] + in[threadIdx.x * 4 + item];
// CHECK: [[@LINE-1]]:46: access: kernel=k op=load base=in elem=4 expr='in[threadIdx.x * 4 + item]' sectors=16 ideal=4 class=strided stride=16 {{.*}}
// SHARED: [[@LINE-2]]:5: shared: kernel=k op=store base=counters elem=4 expr='*digit_counters[item]' wavefronts=1 ideal=1 class=conflict-free stride=4
  }
  out[threadIdx.x] = prefixes[0];
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
// Stored at an index each lane picks: element 1 may be any lane's store.
__global__ void scattered(int *out) {
  __shared__ int counters[4][256];
  int *slots[4];
  slots[threadIdx.x & 3] = &counters[threadIdx.x & 3][threadIdx.x];
  *slots[1] = 1;
// SHARED: [[@LINE-1]]:3: shared: kernel=scattered op=store base=slots[1] elem=4 expr='*slots[1]' wavefronts=n/a ideal=n/a class=unknown
}
template <bool Memoize>
__global__ void pick(const int *in, int *out) {
  __shared__ int grid[256 * 4];
  int cached[4];
  int *raking = Memoize ? cached : &grid[threadIdx.x * 4];
  for (int i = 0; i < 4; i++) raking[i] = in[threadIdx.x + 256 * i];
// CHECK-DAG: [[@LINE-1]]:43: access: kernel=pick op=load base=in elem=4 expr='in[threadIdx.x + 256 * i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK-DAG: [[@LINE-2]]:43: access: kernel=pick op=load base=in elem=4 expr='in[threadIdx.x + 256 * i]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// SHARED: [[@LINE-3]]:31: shared: kernel=pick op=store base=grid elem=4 expr='raking[i]' wavefronts=4 ideal=1 class=bank-conflict stride=16
  out[threadIdx.x] = raking[0] + raking[3];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=pick op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=pick op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// SHARED: [[@LINE-3]]:22: shared: kernel=pick op=load base=grid elem=4 expr='raking[0]' wavefronts=4 ideal=1 class=bank-conflict stride=16
// SHARED: [[@LINE-4]]:34: shared: kernel=pick op=load base=grid elem=4 expr='raking[3]' wavefronts=4 ideal=1 class=bank-conflict stride=16
}
template __global__ void pick<true>(const int *, int *);
template __global__ void pick<false>(const int *, int *);
// Buffers declared null and carved out of dynamic shared memory under a
// condition (TransformerEngine's fused router): shared, not unknown.
__global__ void carve(const float *in, float *out, int g, int n) {
  extern __shared__ float shmem[];
  float *a = shmem;
  float *b = nullptr, *c = nullptr;
  if (g > 0) { b = a + n; c = out + blockIdx.x * 32; }
  b[threadIdx.x] = in[threadIdx.x];
// CHECK: [[@LINE-1]]:20: access: kernel=carve op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// SHARED: [[@LINE-2]]:3: shared: kernel=carve op=store base=shmem elem=4 expr='b[threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4
  c[threadIdx.x * 2] = b[0];
// CHECK: [[@LINE-1]]:3: access: kernel=carve op=store base=out elem=4 expr='c[threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// SHARED: [[@LINE-2]]:24: shared: kernel=carve op=load base=shmem elem=4 expr='b[0]' wavefronts=1 ideal=1 class=uniform stride=0
}
