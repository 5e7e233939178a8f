// A gather through an index loaded from one address per warp (issue 26,
// llm.c's encoder: ix = inp[b * T + t] with b and t the same in the 32
// lanes of a warp when C is a multiple of 32): the value is the same in
// every lane, so wte[ix * C + c] is contiguous in c, not a gather (measured
// 2 sectors per request for 2 ideal on the H200, docs/validation.md). An
// index that differs between the lanes stays a gather.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --fail-on=never %s | FileCheck %s --check-prefix=NOTE
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// JSON: "expr": "wte[ix * C + c]",
// JSON: "classification": "coalesced",
// JSON: "'inp[b * T + t]' is read from one address per warp: the same value in all its lanes",
__global__ void encoder(float *out, const int *inp, const float *wte, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int bt = idx / C;
  int b = bt / T;
  int t = bt % T;
  int c = idx % C;
  int ix = inp[b * T + t];
// CHECK: [[@LINE-1]]:12: access: kernel=encoder op=load base=inp elem=4 expr='inp[b * T + t]' sectors=1 ideal=4 class=uniform
  out[idx] = wte[ix * C + c];
// CHECK: [[@LINE-1]]:3: access: kernel=encoder op=store base=out elem=4 expr='out[idx]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:14: access: kernel=encoder op=load base=wte elem=4 expr='wte[ix * C + c]' sectors=4 ideal=4 class=coalesced
}
// C = 100 is not a multiple of 32: some warps read two values of inp.
__global__ void straddles(float *out, const int *inp, const float *wte) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int ix = inp[idx / 100];
// CHECK: [[@LINE-1]]:12: access: kernel=straddles op=load base=inp {{.*}}class=coalesced
  out[idx] = wte[ix * 100 + idx % 100];
// CHECK: [[@LINE-1]]:3: access: kernel=straddles op=store base=out {{.*}}class=coalesced
// CHECK: [[@LINE-2]]:14: access: kernel=straddles op=load base=wte {{.*}}class=indirect
// NOTE: warning: load of 'wte[ix * 100 + idx % 100]' uses an index loaded from memory (inp[idx / 100])
}
// Each lane its own index: a gather.
__global__ void gather(float *out, const int *inp, const float *wte) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int ix = inp[idx];
// CHECK: [[@LINE-1]]:12: access: kernel=gather op=load base=inp {{.*}}class=coalesced
  out[idx] = wte[ix * 64];
// CHECK: [[@LINE-1]]:3: access: kernel=gather op=store base=out {{.*}}class=coalesced
// CHECK: [[@LINE-2]]:14: access: kernel=gather op=load base=wte {{.*}}class=indirect
}
// Read through an accessor that asserts before returning (gardenia's
// `emb_list.get_idx(1, tid)` in a loop over warps): the value is named after
// the call and is still known to be read from one address per warp.
#include <cassert>
struct Lists {
  const int *idx;
  __device__ int get(int i) const {
    assert(i >= 0);
    return idx[i];
// CHECK: [[@LINE-1]]:12: access: kernel=perWarp op=load base=l.idx {{.*}}class=uniform
  }
};
__global__ void perWarp(float *out, Lists l, const float *rowptr) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int src = l.get(idx / 32);
  out[idx] = rowptr[src + 1];
// CHECK: [[@LINE-1]]:3: access: kernel=perWarp op=store base=out {{.*}}class=coalesced
// CHECK: [[@LINE-2]]:14: access: kernel=perWarp op=load base=rowptr {{.*}}class=uniform
}
// JSON: "'l.get(idx / 32)' is read from one address per warp: the same value in all its lanes",
int main() {
  float *out, *wte;
  int *inp;
  encoder<<<96, 256>>>(out, inp, wte, 32, 768);
  straddles<<<100, 256>>>(out, inp, wte);
  gather<<<100, 256>>>(out, inp, wte);
  perWarp<<<100, 256>>>(out, Lists{inp}, wte);
}
