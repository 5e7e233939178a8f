// Launch shapes chosen by a switch or an if on the block size (the reduction
// samples' idiom): each case's launch gets the value its case fixes, and an
// access a launched instance never runs (blockSize = 1) is not reported for
// that instance (issue 7).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
template <unsigned int blockSize>
__global__ void reduce(const float *in, float *out, unsigned n) {
  __shared__ float s[blockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + blockSize];
// CHECK-DAG: [[@LINE-1]]:12: access: kernel=reduce op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=128(launch-site)
// CHECK-DAG: [[@LINE-2]]:20: access: kernel=reduce op=load base=in elem=4 expr='in[i + blockSize]' sectors=4 ideal=4 class=coalesced {{.*}}block=128(launch-site)
// CHECK-DAG: [[@LINE-3]]:12: access: kernel=reduce op=load base=in elem=4 expr='in[i]' sectors=1 ideal=1 class=coalesced {{.*}}block=1(launch-site)
// CHECK-DAG: [[@LINE-4]]:20: access: kernel=reduce op=load base=in elem=4 expr='in[i + blockSize]' sectors=1 ideal=1 class=coalesced {{.*}}block=1(launch-site)
// CHECK-DAG: [[@LINE-5]]:12: access: kernel=reduce op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=512(launch-site)
// CHECK-DAG: [[@LINE-6]]:20: access: kernel=reduce op=load base=in elem=4 expr='in[i + blockSize]' sectors=4 ideal=4 class=coalesced {{.*}}block=512(launch-site)
// CHECK-DAG: [[@LINE-7]]:12: access: kernel=reduce op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=64(launch-site)
// CHECK-DAG: [[@LINE-8]]:20: access: kernel=reduce op=load base=in elem=4 expr='in[i + blockSize]' sectors=4 ideal=4 class=coalesced {{.*}}block=64(launch-site)
  __syncthreads();
  if (blockSize >= 64 && tid < 32) out[blockIdx.x * 32 + tid] = s[tid];
// CHECK-DAG: [[@LINE-1]]:36: access: kernel=reduce op=store base=out elem=4 expr='out[blockIdx.x * 32 + tid]' sectors=4 ideal=4 class=coalesced {{.*}}block=128(launch-site)
// CHECK-DAG: [[@LINE-2]]:36: access: kernel=reduce op=store base=out elem=4 expr='out[blockIdx.x * 32 + tid]' sectors=4 ideal=4 class=coalesced {{.*}}block=512(launch-site)
// CHECK-DAG: [[@LINE-3]]:36: access: kernel=reduce op=store base=out elem=4 expr='out[blockIdx.x * 32 + tid]' sectors=4 ideal=4 class=coalesced {{.*}}block=64(launch-site)
}
void run(int threads, int blocks, const float *in, float *out, unsigned n) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  switch (threads) {
  case 512: reduce<512><<<dimGrid, dimBlock>>>(in, out, n); break;
  case 64: reduce<64><<<dimGrid, dimBlock>>>(in, out, n); break;
  case 1: reduce<1><<<dimGrid, dimBlock>>>(in, out, n); break;
  }
  if (threads == 128)
    reduce<128><<<dimGrid, dimBlock>>>(in, out, n);
}
// CHECK: 0 warnings in 4 kernels (18 accesses analyzed, 0 unknown)
