// Pointers and indices held in memory and objects (issue 7): structs of
// pointers in __constant__ memory, struct parameters passed on by value and
// by reference, member functions and constructors of user classes,
// accessor operators, references to c ? a[i] : b[j], reinterpret_cast to
// vectors, cooperative groups, atomics' return values, shuffles and
// float-derived indices, pointer chasing.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Common { float *frame; int cols; };
struct Unique { float *T; int *ind; };
__constant__ Common d_common;
__constant__ Unique d_unique[16];
__global__ void cmem() {
  int tx = threadIdx.x;
  d_unique[blockIdx.x].T[tx] = d_common.frame[tx * d_common.cols];
// CHECK: [[@LINE-1]]:3: access: kernel=cmem op=store base=d_unique[blockIdx.x].T elem=4 expr='d_unique[blockIdx.x].T[tx]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:32: access: kernel=cmem op=load base=d_common.frame elem=4 expr='d_common.frame[tx * d_common.cols]' sectors=32 ideal=4 class=strided
}
struct Params { float *a; float *b; int n; struct { float *c; } inner; };
__device__ void dev(Params p, int i) { p.b[i] = p.a[2 * i]; }
// CHECK: [[@LINE-1]]:40: access: kernel=sparam op=store base=p.b elem=4 expr='p.b[i]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:49: access: kernel=sparam op=load base=p.a elem=4 expr='p.a[2 * i]' sectors=8 ideal=4 class=strided
__device__ void devRef(const Params &p, int i) { p.inner.c[i] = 0; }
// CHECK: [[@LINE-1]]:50: access: kernel=sparam op=store base=p.inner.c elem=4 expr='p.inner.c[i]' sectors=4 ideal=4 class=coalesced
__global__ void sparam(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dev(p, i);
  devRef(p, i);
  Params q = p;
  q.a = p.b;
  q.a[i + 1] = 1;
// CHECK: [[@LINE-1]]:3: access: kernel=sparam op=store base=p.b elem=4 expr='q.a[i + 1]' sectors=5 ideal=4 class=misaligned
}
class Loader {
public:
  __device__ Loader(const float *p, int stride) : ptr(p), s(stride) {}
  __device__ float operator[](int i) const { return ptr[i * s]; }
// CHECK: [[@LINE-1]]:53: access: kernel=cls op=load base=in elem=4 expr='ptr[i * s]' sectors=12 ideal=4 class=strided
  __device__ float load(int i) const { return ptr[i * s]; }
// CHECK: [[@LINE-1]]:47: access: kernel=cls op=load base=in elem=4 expr='ptr[i * s]' sectors=12 ideal=4 class=strided
private:
  const float *ptr; int s;
};
struct View {
  float *data; int pitch;
  __device__ float &operator()(int r, int c) { return data[r * pitch + c]; }
};
__global__ void cls(const float *in, float *out, View v) {
  Loader L(in, 3);
  int i = threadIdx.x;
  out[i] = L.load(i) + L[i];
// CHECK: [[@LINE-1]]:3: access: kernel=cls op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced
  v(i, 0) = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=cls op=store base=v.data elem=4 expr='v(i, 0)' sectors=32 ideal=4 class=strided
}
__global__ void refs(float *a, float *b, bool c) {
  int i = threadIdx.x;
  float &r = c ? a[i] : b[2 * i];
  r = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=refs op=store base=c ? a[i] : b[2 * i] elem=4 expr='r' sectors=4 ideal=4 class=coalesced
  reinterpret_cast<float4 *>(a)[i] = make_float4(0, 0, 0, 0);
// CHECK: [[@LINE-1]]:3: access: kernel=refs op=store base=a elem=16 expr='reinterpret_cast<float4 *>(a)[i]' sectors=16 ideal=16 class=coalesced
  *(float2 *)&b[2 * i] = make_float2(0, 0);
// CHECK: [[@LINE-1]]:3: access: kernel=refs op=store base=b elem=8 expr='*(float2 *)&b[2 * i]' sectors=8 ideal=8 class=coalesced
}
__global__ void groups(float *a, int *cnt, const float *x) {
  cg::thread_block b = cg::this_thread_block();
  a[b.thread_rank()] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=groups op=store base=a elem=4 expr='a[b.thread_rank()]' sectors=4 ideal=4 class=coalesced
  auto t = cg::tiled_partition<8>(b);
  a[t.meta_group_rank() * 64 + t.thread_rank()] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=groups op=store base=a elem=4 expr='a[t.meta_group_rank() * 64 + t.thread_rank()]' sectors=4 ideal=4 class=coalesced
  int pos = atomicAdd(cnt, 1);
// CHECK: [[@LINE-1]]:23: access: kernel=groups op=atomic base=cnt elem=4 expr='cnt' sectors=1 ideal=4 class=uniform
  a[pos] = 3.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=groups op=store base=a elem=4 expr='a[pos]' sectors=n/a ideal=n/a class=indirect
  int lane0 = __shfl_sync(0xffffffff, (int)threadIdx.x, 0);
  a[lane0 + threadIdx.x] = 4.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=groups op=store base=a elem=4 expr='a[lane0 + threadIdx.x]' sectors=4 ideal=4 worst=5 class=misaligned
  int j = (int)(x[threadIdx.x] * 100.0f);
// CHECK: [[@LINE-1]]:17: access: kernel=groups op=load base=x elem=4 expr='x[threadIdx.x]' sectors=4 ideal=4 class=coalesced
  a[j] = 5.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=groups op=store base=a elem=4 expr='a[j]' sectors=n/a ideal=n/a class=indirect
  dim3 ti = b.thread_index();
  a[ti.x] = 6.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=groups op=store base=a elem=4 expr='a[ti.x]' sectors=4 ideal=4 class=coalesced
}
struct Node { Node *next; float v; };
__global__ void chase(Node *head) {
  Node *p = head + threadIdx.x;
  p = p->next;
// CHECK: [[@LINE-1]]:7: access: kernel=chase op=load base=head elem=8 expr='p->next' sectors=16 ideal=8 class=aos
  p->v = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=chase op=store base=p->next elem=4 expr='p->v' sectors=n/a ideal=n/a class=indirect
}
// CHECK-NOT: access:
