// Functions with several returns (issue 7, from the CUDA samples' mergeSort):
// each return's value counts where it is taken, so a binary search that
// returns early for L == 0 gives the searched position, data read in a loop,
// not 0; a call in an address is walked before the access that uses it.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
__device__ unsigned search(unsigned val, const unsigned *data, unsigned L, unsigned stride) {
  if (L == 0)
    return 0;
  unsigned pos = 0;
  for (; stride > 0; stride >>= 1) {
    unsigned newPos = min(pos + stride, L);
    if (data[newPos - 1] < val)
// CHECK: [[@LINE-1]]:9: access: kernel=ranks op=load base=data elem=4 expr='data[newPos - 1]' sectors=n/a ideal=n/a class=indirect {{.*}}block=256(assumed)
      pos = newPos;
  }
  return pos;
}
__device__ int pick(int a, int b, bool c) {
  if (c)
    return a;
  return b;
}
__global__ void ranks(const unsigned *ranks, const unsigned *data, unsigned *limits, float *out) {
  unsigned i = threadIdx.x;
  unsigned dst = search(ranks[i], data, 128, 64) + i;
// CHECK: [[@LINE-1]]:25: access: kernel=ranks op=load base=ranks elem=4 expr='ranks[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  limits[dst] = ranks[i];
// CHECK: [[@LINE-1]]:3: access: kernel=ranks op=store base=limits elem=4 expr='limits[dst]' sectors=n/a ideal=n/a class=indirect {{.*}}block=256(assumed)
// CHECK: [[@LINE-2]]:17: access: kernel=ranks op=load base=ranks elem=4 expr='ranks[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  out[pick(i, 2 * i, blockIdx.x > 3)] = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=ranks op=store base=out elem=4 expr='out[pick(i, 2 * i, blockIdx.x > 3)]' sectors=6 ideal=4 class=strided {{.*}}block=256(assumed)
}
// CHECK-NOT: access:
