// Worklists as graph code holds them (issue 26; gardenia's Worklist2, first
// contact in the thirty-sixth session): a class whose fields its base class
// declares, passed by value, reached through a pointer (`in->d_index` is
// `((Worklist *)in)->d_index`: the pointer seen as one to the base was not
// followed), and two of them swapped through pointers at the end of each
// pass of a persistent loop (the pointer moves from one parameter to the
// other: it was unknown after the first pass). Loads of the fields read
// parameter space; the pointers loaded are the lists' own allocations.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 17 memory operations in the census of 3 kernels, 0 missing from the report
struct Worklist {
  int *d_queue, *d_index;
};
struct Padded {
  double pad;
};
struct Worklist2 : public Padded, public Worklist {
  __device__ void push(int item) {
    int at = atomicAdd(d_index, 1);
// CHECK-DAG: [[@LINE-1]]:24: access: kernel=throughBase op=atomic base=d_index elem=4 expr='d_index' sectors=1 ideal=4 class=uniform {{.*}}
// CHECK-DAG: [[@LINE-2]]:24: access: kernel=swapped op=atomic base=d_index elem=4 expr='d_index' sectors=1 ideal=4 class=uniform {{.*}}
    d_queue[at] = item;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=throughBase op=store base=d_queue elem=4 expr='d_queue[at]' sectors=n/a ideal=n/a class=indirect {{.*}}
// CHECK-DAG: [[@LINE-2]]:5: access: kernel=swapped op=store base=d_queue elem=4 expr='d_queue[at]' sectors=n/a ideal=n/a class=indirect {{.*}}
  }
};
__device__ void expand(Worklist2 &out, const int *edges) {
  out.push(edges[blockIdx.x * blockDim.x + threadIdx.x]);
// CHECK-DAG: [[@LINE-1]]:12: access: kernel=swapped op=load base=edges elem=4 expr='edges[blockIdx.x * blockDim.x + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
__global__ void throughBase(Worklist2 q) {
  Worklist2 *in = &q;
  *in->d_index = 0;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=throughBase op=store base=in->d_index elem=4 expr='*in->d_index' sectors=1 ideal=4 class=uniform {{.*}}
  in->push(threadIdx.x);
}
__global__ void swapped(Worklist2 a, Worklist2 b, const int *edges) {
  Worklist2 *in = &a, *out = &b, *tmp;
  while (*in->d_index > 0) {
// CHECK-DAG: [[@LINE-1]]:10: access: kernel=swapped op=load base=in->d_index elem=4 expr='*in->d_index' sectors=1 ideal=4 class=uniform {{.*}}
    expand(*out, edges);
    tmp = in;
    in = out;
    out = tmp;
    *out->d_index = 0;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=swapped op=store base=out->d_index elem=4 expr='*out->d_index' sectors=1 ideal=4 class=uniform {{.*}}
  }
}
__global__ void swappedCounted(Worklist2 a, Worklist2 b, int n) {
  Worklist2 *in = &a, *out = &b, *tmp;
  for (int it = 0; it < n; ++it) {
    out->d_queue[blockIdx.x * blockDim.x + threadIdx.x * 2] = in->d_queue[it];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=swappedCounted op=store base=out->d_queue elem=4 expr='out->d_queue[blockIdx.x * blockDim.x + threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
// CHECK-DAG: [[@LINE-2]]:63: access: kernel=swappedCounted op=load base=in->d_queue elem=4 expr='in->d_queue[it]' sectors=1 ideal=4 class=uniform {{.*}}
    tmp = in;
    in = out;
    out = tmp;
  }
}
