// A pointer stepped where it is read: `*--sp` pops a stack kept in a local
// array (cuBQL's BVH builders in NVIDIA Warp, `int nodeStack[5], *stackPtr =
// nodeStack; ... int nodeID = *--stackPtr;`), `*++q` writes the element
// after q. The pointer read is the one the variable holds once stepped:
// the pop is a read of local memory (excluded), the nodes it indexes are
// gathers (indirect), and `*++q` is one element on (issue 26, thirty-seventh
// session; before, each was unknown: "cannot follow the pointer '--sp'").
// The walk is bounded (a full stack, or any step from the sixteenth on, takes the node
// as a leaf), so that the synthesized launch, whose nodes are zeros, ends.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 17 memory operations in the census of 2 kernels, 0 missing from the report
struct Node {
  int count, offset;
};
__global__ void walk(const Node *nodes, const int *roots, int *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  int stack[8], *sp = stack;
  *sp++ = roots[tid];
// CHECK-DAG: [[@LINE-1]]:11: access: kernel=walk op=load base=roots elem=4 expr='roots[tid]' sectors=4 ideal=4 class=coalesced {{.*}}
  int sum = 0, steps = 0;
  while (sp > stack) {
    int id = *--sp;
    const Node &node = nodes[id];
    if (node.count > 0 || sp == stack + 6 || ++steps >= 16) {
// CHECK-DAG: [[@LINE-1]]:9: access: kernel=walk op=load base=nodes elem=4 expr='node.count' sectors=n/a ideal=n/a class=indirect {{.*}}
      sum += node.count;
// CHECK-DAG: [[@LINE-1]]:14: access: kernel=walk op=load base=nodes elem=4 expr='node.count' sectors=n/a ideal=n/a class=indirect {{.*}}
    } else {
      *sp++ = node.offset;
// CHECK-DAG: [[@LINE-1]]:15: access: kernel=walk op=load base=nodes elem=4 expr='node.offset' sectors=n/a ideal=n/a class=indirect {{.*}}
      *sp++ = node.offset + 1;
// CHECK-DAG: [[@LINE-1]]:15: access: kernel=walk op=load base=nodes elem=4 expr='node.offset' sectors=n/a ideal=n/a class=indirect {{.*}}
    }
  }
  out[tid] = sum;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=walk op=store base=out elem=4 expr='out[tid]' sectors=4 ideal=4 class=coalesced {{.*}}
}
__global__ void stepped(const int *in, float *out) {
  int stack[2], *sp = stack;
  *sp++ = in[threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:11: access: kernel=stepped op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  *sp++ = in[threadIdx.x + 1];
// CHECK-DAG: [[@LINE-1]]:11: access: kernel=stepped op=load base=in elem=4 expr='in[threadIdx.x + 1]' sectors=5 ideal=4 class=misaligned {{.*}}
  int a = *--sp;
  float *q = out + threadIdx.x;
  *++q = float(a);
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=stepped op=store base=out elem=4 expr='*++q' sectors=5 ideal=4 class=misaligned {{.*}}
  *--q = 0.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=stepped op=store base=out elem=4 expr='*--q' sectors=4 ideal=4 class=coalesced {{.*}}
}
