// Host code that uses a type no header declared (gardenia's tc/gpu_base.cu
// without graph.hh: `auto nv = g.num_vertices();` of an unknown `Graph`)
// holds expressions clang could not type. Walking it for the launches must
// not crash: the thirty-eighth session's tuple model asked such an
// expression's type and crashed on that file (the driver's isolation
// reported "coalesce-lint crashed while analyzing this file").
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// JSON: "fatal_error": null
__global__ void count(const int *in, int *out) {
  out[threadIdx.x] = in[threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=count op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:22: access: kernel=count op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
struct GraphGPU {
  Graph *g;
  GraphGPU(Graph &g) {}
  int init(Graph &g) { return 0; }
};
void solve(Graph &g, const int *in, int *out) {
  auto nv = g.num_vertices();
  GraphGPU gg(g);
  auto nnz = gg.init(g);
  count<<<1, 32>>>(in, out);
}
