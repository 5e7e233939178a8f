// Bit-fields in memory (issue 26; NVIDIA Warp's BVH nodes, first contact in
// the thirty-sixth session): `node_lowers[i].b` and `lower.i` of
// `struct { float x, y, z; unsigned i : 31; unsigned b : 1; }` were
// "cannot follow the pointer" and the indices loaded from them "a per-lane
// value the engine cannot model". A bit-field is read and written as the
// unit of its declared type that holds it (here bytes 12 to 15 of each
// 16-byte node); what it gives is data loaded from memory.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 5 memory operations in the census of 1 kernels, 0 missing from the report
struct Node {
  float x, y, z;
  unsigned int i : 31;
  unsigned int b : 1;
};
__global__ void refit(Node *lowers, const int *prims, float *out, int n) {
  int index = blockDim.x * blockIdx.x + threadIdx.x;
  if (index < n) {
    bool leaf = lowers[index].b;
// CHECK: [[@LINE-1]]:17: access: kernel=refit op=load base=lowers elem=4 expr='lowers[index].b' sectors=16 ideal=4 class=aos stride=16 {{.*}}
    Node &lower = lowers[index];
    if (leaf) {
      int start = lower.i;
// CHECK: [[@LINE-1]]:19: access: kernel=refit op=load base=lowers elem=4 expr='lower.i' sectors=16 ideal=4 class=aos stride=16 {{.*}}
      out[index] = lower.x + prims[start];
// CHECK: [[@LINE-1]]:7: access: kernel=refit op=store base=out elem=4 expr='out[index]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK: [[@LINE-2]]:20: access: kernel=refit op=load base=lowers elem=4 expr='lower.x' sectors=16 ideal=4 class=aos stride=16 {{.*}}
// CHECK: [[@LINE-3]]:30: access: kernel=refit op=load base=prims elem=4 expr='prims[start]' sectors=n/a ideal=n/a class=indirect {{.*}}
    }
  }
}
