// A loop whose every pass ends in a break (`while (true) { ...; break; }`,
// a block with early exits: cuBQL's builder in NVIDIA Warp) is left by all
// lanes after one pass, whatever the breaks' conditions fold to: the values
// after it are those the lanes had at their breaks. A pointer set in it to
// a field of the node (`t = (int *)&open.offset`) or left null is followed
// where it is not null (issue 26, thirty-seventh session; before, the
// pointer after the loop was unknown, and so was the store through it).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 4 memory operations in the census of 2 kernels, 0 missing from the report
struct Open {
  float pos;
  int dim, offset;
};
__global__ void close(Open *nodes, const int *states, int *out, unsigned n) {
  int *t = 0;
  while (true) {
    const int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id >= n)
      break;
    if (states[id] == 1)
// CHECK-DAG: [[@LINE-1]]:9: access: kernel=close op=load base=states elem=4 expr='states[id]' sectors=4 ideal=4 class=coalesced {{.*}}
      break;
    Open &open = nodes[id];
    open.dim = -1;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=close op=store base=nodes elem=4 expr='open.dim' sectors=12 ideal=4 class=aos {{.*}}
    t = &open.offset;
    break;
  }
  if (t)
    *t = 2;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=close op=store base=nodes elem=4 expr='*t' sectors=12 ideal=4 class=strided {{.*}}
}
// A pass that may continue is not one pass: the loop is followed pass by
// pass as any other (here the third pass sets the pointer).
__global__ void notOnePass(Open *nodes, unsigned n) {
  int *t = 0;
  int k = 0;
  while (true) {
    const int id = threadIdx.x + blockIdx.x * blockDim.x + k;
    if (id >= n)
      break;
    ++k;
    if (k < 3)
      continue;
    t = &nodes[id].offset;
    break;
  }
  if (t)
    *t = 2;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=notOnePass op=store base=nodes elem=4 expr='*t' sectors=11.98 ideal=4 class=strided {{.*}}
}
