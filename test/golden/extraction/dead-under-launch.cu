// Code that a launch's known values switch off (llama_cu_awq's `if (loff !=
// -1)` launched with loff = -1) is dead for that launch even where other
// values are defaulted (n below): that launch makes no request there, so the
// access is not "unknown: no lane executes" for it; the launch that runs it
// gives the prediction, with a note on the one that does not.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=shared:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
__global__ void matvec(float *out, const int *pos, int loff, int n) {
  int index = blockIdx.x * blockDim.y + threadIdx.y;
  if (index >= n)
    return;
  if (threadIdx.x == 0) {
    if (loff != -1)
      out += loff + (*pos * n);
// CHECK: [[@LINE-1]]:22: access: kernel=matvec op=load base=pos elem=4 expr='*pos' sectors=1 ideal=1 class=uniform stride=0 block=32x4(launch-site)
    out[index] = 1.0f;
// CHECK: [[@LINE-1]]:5: access: kernel=matvec op=store base=out elem=4 expr='out[index]' sectors=1 ideal=1 class=coalesced {{.*}}
  }
}
// JSON: "not executed by 1 of the 2 launch shapes"
void run(float *out, const int *pos, int n) {
  matvec<<<64, dim3(32, 4)>>>(out, pos, -1, n);
  matvec<<<64, dim3(32, 4)>>>(out, pos, 0, n);
}
// A block of one row from the launch makes threadIdx.y 0: `if (n > 0 &&
// threadIdx.y > 0)` is dead in the nwarps = 1 instance whatever n is (ggml's
// mul_mat_vec_q as fastllm launches it: 288 unknowns "no lane executes" at
// first contact, thirty-seventh session); the 32x4 instance predicts it.
template <int nwarps> __global__ void rows(const float *x, float *dst, int n) {
  __shared__ float tmp[nwarps > 1 ? nwarps - 1 : 1][32];
  float t = x[blockIdx.x * 32 + threadIdx.x];
// CHECK: [[@LINE-1]]:13: access: kernel=rows op=load base=x elem=4 expr='x[blockIdx.x * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32(launch-site)
  if (n > 0 && threadIdx.y > 0)
    tmp[threadIdx.y - 1][threadIdx.x] = t;
  __syncthreads();
  if (threadIdx.y > 0)
    return;
  dst[blockIdx.x * 32 + threadIdx.x] = t;
// CHECK: [[@LINE-1]]:3: access: kernel=rows op=store base=dst elem=4 expr='dst[blockIdx.x * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32(launch-site)
// CHECK: [[@LINE-9]]:13: access: kernel=rows op=load base=x elem=4 expr='x[blockIdx.x * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32x4(launch-site)
// CHECK: [[@LINE-7]]:5: shared: kernel=rows op=store base=tmp elem=4 expr='tmp[threadIdx.y - 1][threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4 block=32x4(launch-site)
// CHECK: [[@LINE-4]]:3: access: kernel=rows op=store base=dst elem=4 expr='dst[blockIdx.x * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32x4(launch-site)
}
void launchRows(const float *x, float *d, int n, int r) {
  rows<1><<<r, dim3(32, 1)>>>(x, d, n);
  rows<4><<<r, dim3(32, 4)>>>(x, d, n);
}
