// Asynchronous copies from global to shared memory (issue 7: fewer
// unknowns; cuda-samples globalToShmemAsyncCopy, dmmaTensorCoreGemm). The
// global side of a copy is a load in chunks of min(alignment, 16) bytes, one
// LDGSTS each; the alignment is what cuda::aligned_size_t<A> states, else
// that of the pointers' element type:
//   per thread  cuda::memcpy_async(dst, src, size, pipe), and
//               __pipeline_memcpy_async(dst, src, size): the lane's own
//               bytes at src;
//   collective  cooperative_groups::memcpy_async(group, dst, src, size):
//               lane r of the group copies chunks r, r + G, r + 2G, ...
//               (cooperative_groups' accelerated_async_copy): the load is at
//               src + chunk * (r + G * k) over the passes k that stay in the
//               range.
// A void * copy without a stated alignment is split by the library at run
// time: unknown, with the reason. Every load below was measured on the H200
// (docs/validation.md, "Asynchronous copies"): LDGSTS sectors per request
// equal to the prediction, 2 LDGSTS per lane for warpCopy's 2 passes.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// GPU-ARGS: --param n=1048576
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

// A float4 per lane, consecutive: 16 bytes x 32 lanes = 16 sectors.
__global__ void perThread(const float4 *in, float *out) {
  __shared__ float4 tile[256];
  auto pipe = cuda::make_pipeline();
  const auto shape = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[i], shape, pipe);
  // CHECK: [[@LINE-1]]:43: access: kernel=perThread op=load base=in elem=16 expr='in[i]' sectors=16 ideal=16 class=coalesced {{.*}}block=256(launch-site)
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  out[i] = tile[threadIdx.x].x;
  // CHECK: [[@LINE-1]]:3: access: kernel=perThread op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}

// The first 16 bytes of each 64-byte row: each lane alone in its sector.
__global__ void perThreadRows(const float *in, float *out) {
  __shared__ float4 tile[256];
  auto pipe = cuda::make_pipeline();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[16 * i],
                     cuda::aligned_size_t<16>(16), pipe);
  // CHECK: [[@LINE-2]]:43: access: kernel=perThreadRows op=load base=in elem=16 expr='in[16 * i]' sectors=32 ideal=16 class=strided {{.*}}block=256(launch-site)
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  out[i] = tile[threadIdx.x].y;
  // CHECK: [[@LINE-1]]:3: access: kernel=perThreadRows op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}

// The primitive API: 8 bytes per lane, consecutive.
__global__ void primitive(const float2 *in, float *out) {
  __shared__ float2 tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float2));
  // CHECK: [[@LINE-1]]:48: access: kernel=primitive op=load base=in elem=8 expr='in[i]' sectors=8 ideal=8 class=coalesced {{.*}}block=256(launch-site)
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = tile[threadIdx.x].x;
  // CHECK: [[@LINE-1]]:3: access: kernel=primitive op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}

// A warp copies 1 KiB together: lane r takes bytes 16r..16r+15 of each
// 512-byte half, in 2 passes.
__global__ void warpCopy(const double *in, double *out) {
  __shared__ double tile[8][128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int w = threadIdx.x / 32;
  const double *src = in + (blockIdx.x * 8 + w) * 128;
  cg::memcpy_async(warp, tile[w], src,
                   cuda::aligned_size_t<16>(128 * sizeof(double)));
  // CHECK: [[@LINE-2]]:35: access: kernel=warpCopy op=load base=in elem=16 expr='src' sectors=16 ideal=16 class=coalesced {{.*}}block=256(launch-site)
  cg::wait(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[w][threadIdx.x % 32];
  // CHECK: [[@LINE-1]]:3: access: kernel=warpCopy op=store base=out elem=8 expr='out[blockIdx.x * blockDim.x + threadIdx.x]' sectors=8 ideal=8 class=coalesced {{.*}}block=256(launch-site)
}

// The whole block copies 8 KiB: 256 lanes x 16 bytes per pass, 2 passes.
__global__ void blockCopy(const float *in, float *out) {
  __shared__ float tile[2048];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 2048,
                   cuda::aligned_size_t<16>(2048 * sizeof(float)));
  // CHECK: [[@LINE-2]]:33: access: kernel=blockCopy op=load base=in elem=16 expr='in + blockIdx.x * 2048' sectors=16 ideal=16 class=coalesced {{.*}}block=256(launch-site)
  cg::wait(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x * 8];
  // CHECK: [[@LINE-1]]:3: access: kernel=blockCopy op=store base=out elem=4 expr='out[blockIdx.x * blockDim.x + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}

// A typed copy of sizeof(float) with no stated alignment: the element's
// alignment, 4-byte chunks (LDGSTS.E on the H200).
__global__ void typed(const float *in, float *out) {
  __shared__ float tile[256];
  auto pipe = cuda::make_pipeline();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.x], &in[i], sizeof(float), pipe);
  // CHECK: [[@LINE-1]]:43: access: kernel=typed op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  out[i] = tile[threadIdx.x];
  // CHECK: [[@LINE-1]]:3: access: kernel=typed op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}

// Through void * without a stated alignment: not modelled.
__global__ void untyped(const float *in, float *out) {
  __shared__ float tile[256];
  auto pipe = cuda::make_pipeline();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async((void *)&tile[threadIdx.x], (const void *)&in[i],
                     sizeof(float), pipe);
  // CHECK: [[@LINE-2]]:65: access: kernel=untyped op=load base=in elem=1 expr='in[i]' sectors=n/a ideal=n/a class=unknown {{.*}}block=256(launch-site)
  // JSON: "reason": "cuda::memcpy_async: its alignment is not known (pass cuda::aligned_size_t<16>(n)), so the library chooses its pieces at run time"
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  __syncthreads();
  out[i] = tile[threadIdx.x];
  // CHECK: [[@LINE-1]]:3: access: kernel=untyped op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
}

int main() {
  float *f = nullptr;
  float4 *f4 = nullptr;
  float2 *f2 = nullptr;
  double *d = nullptr;
  perThread<<<4096, 256>>>(f4, f);
  perThreadRows<<<4096, 256>>>(f, f);
  primitive<<<4096, 256>>>(f2, f);
  warpCopy<<<512, 256>>>(d, d);
  blockCopy<<<512, 256>>>(f, f);
  typed<<<4096, 256>>>(f, f);
  untyped<<<4096, 256>>>(f, f);
}
// CHECK-NOT: access:
