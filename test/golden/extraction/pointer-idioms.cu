// Pointer idioms of real applications (issue 7): the SharedMemory<T>
// conversion operator of the CUDA samples (a pointer to __shared__ memory,
// not reported), pointers declared without a value and assigned per branch,
// byte pointers carved out of a row (pixel[3]).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};
template <class T> __global__ void reduce0(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
// CHECK: [[@LINE-1]]:26: access: kernel=reduce0 op=load base=g_idata elem=4 expr='g_idata[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  cg::sync(cta);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
// CHECK: [[@LINE-1]]:17: access: kernel=reduce0 op=store base=g_odata elem=4 expr='g_odata[blockIdx.x]' sectors=1 ideal=1 class=uniform {{.*}}block=256(assumed)
}
template __global__ void reduce0<float>(float *, float *, unsigned);
__global__ void slots(unsigned short *blk, float *surface, int w, bool big) {
  unsigned short *bi, *bo;
  unsigned char *pixel;
  if (big) { bi = blk + 64 * blockIdx.x; bo = blk; }
  else { bi = blk + 32 * blockIdx.x; bo = blk + 8; }
  unsigned v = ((unsigned *)bi)[threadIdx.x];
// CHECK: [[@LINE-1]]:16: access: kernel=slots op=load base=blk elem=4 expr='((unsigned *)bi)[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  bo[threadIdx.x] = v;
// CHECK: [[@LINE-1]]:3: access: kernel=slots op=store base=blk elem=2 expr='bo[threadIdx.x]' sectors=2 ideal=2 class=coalesced {{.*}}block=256(assumed)
  pixel = (unsigned char *)(surface + blockIdx.y * w) + 4 * threadIdx.x;
  pixel[3] = 255;
// CHECK: [[@LINE-1]]:3: access: kernel=slots op=store base=surface elem=1 expr='pixel[3]' sectors=4 ideal=1 class=strided {{.*}}block=256(assumed)
}
// CHECK-NOT: access:
