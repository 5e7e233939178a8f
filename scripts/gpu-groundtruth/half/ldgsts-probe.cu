// What Nsight Compute's "L2 Theoretical Sectors Global" (and its Ideal) count
// for cp.async (SASS LDGSTS) against plain 16-byte loads, on the access
// patterns of cuda_hgemm's copies: each kernel has ONE global access, on its
// own line, executed once per warp (grid 1024 x 128 threads). The patterns
// (per warp of 32 lanes, 16 bytes a lane unless said):
//   contig   512 contiguous bytes                       (16 sectors, 4 lines)
//   rows64   8 rows of 64 bytes, rows 2048 bytes apart  (16 sectors, 8 lines: hgemm's A/B tile copy)
//   rows128  4 rows of 128 bytes, 2048 bytes apart      (16 sectors, 4 lines)
//   c4       cp.async.ca of 4 bytes a lane, contiguous  (4 sectors, 1 line)
// Variants: cp.async.cg with the .L2::128B prefetch hint (hgemm's CP_ASYNC_CG),
// cp.async.cg without it, and a plain int4 load into shared memory.
//   nvcc -O3 -arch=sm_90 -lineinfo -o probe ldgsts-probe.cu && ncu --section SourceCounters ... ./probe
#include <cuda_runtime.h>
#include <cstdio>

__device__ __forceinline__ size_t warpGlobal() { return (blockIdx.x * blockDim.x + threadIdx.x) / 32; }
__device__ __forceinline__ unsigned lane() { return threadIdx.x % 32; }
__device__ __forceinline__ unsigned smemAddr(void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ size_t offContig() { return (warpGlobal() * 32 + lane()) * 16; }
__device__ __forceinline__ size_t offRows64() { return (warpGlobal() * 8 + lane() / 4) * 2048 + (lane() % 4) * 16; }
__device__ __forceinline__ size_t offRows128() { return (warpGlobal() * 4 + lane() / 8) * 2048 + (lane() % 8) * 16; }

#define CP_HINT(dst, src) asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_PLAIN(dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_CA4(dst, src) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(src))
#define CP_WAIT() asm volatile("cp.async.wait_all;\n" ::)

__global__ void hintContig(const char *g, int *out) {
    __shared__ int4 s[128];
    CP_HINT(smemAddr(&s[threadIdx.x]), g + offContig());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}
__global__ void hintRows64(const char *g, int *out) {
    __shared__ int4 s[128];
    CP_HINT(smemAddr(&s[threadIdx.x]), g + offRows64());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}
__global__ void hintRows128(const char *g, int *out) {
    __shared__ int4 s[128];
    CP_HINT(smemAddr(&s[threadIdx.x]), g + offRows128());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}
__global__ void plainContig(const char *g, int *out) {
    __shared__ int4 s[128];
    CP_PLAIN(smemAddr(&s[threadIdx.x]), g + offContig());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}
__global__ void plainRows64(const char *g, int *out) {
    __shared__ int4 s[128];
    CP_PLAIN(smemAddr(&s[threadIdx.x]), g + offRows64());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}
__global__ void ca4Contig(const char *g, int *out) {
    __shared__ int s[128];
    CP_CA4(smemAddr(&s[threadIdx.x]), g + (warpGlobal() * 32 + lane()) * 4);
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x] == 12345) out[0] = 1;
}
__global__ void ldgContig(const char *g, int *out) {
    __shared__ int4 s[128];
    s[threadIdx.x] = *reinterpret_cast<const int4 *>(g + offContig());
    __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}
__global__ void ldgRows64(const char *g, int *out) {
    __shared__ int4 s[128];
    s[threadIdx.x] = *reinterpret_cast<const int4 *>(g + offRows64());
    __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}

// Second probe: the global pattern rows64 (hgemm's) or contig, with the
// shared-memory destination of the copy laid out as in cuda_hgemm:
//   dstPad80   rows of 64 bytes at an 80-byte pitch (wmma_async*: AB_SMEM_STRIDE 40 halves)
//   dstPerm64  rows at a 64-byte pitch, the four 16-byte chunks of a row rotated by (row % 8) / 2
//              (mma_async*: the permuted layout)
//   dstPitch128 rows at a 128-byte pitch (aligned, a gap after each)
//   contigSwap contig, the two 16-byte halves of every 32-byte sector swapped in shared memory
__global__ void dstPad80(const char *g, int *out) {
    __shared__ __align__(128) char s[8 * 80 * 4];
    char *d = s + (threadIdx.x / 32) * 8 * 80 + (lane() / 4) * 80 + (lane() % 4) * 16;
    CP_HINT(smemAddr(d), g + offRows64());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x] == 123) out[0] = 1;
}
__global__ void dstPerm64(const char *g, int *out) {
    __shared__ __align__(128) char s[8 * 64 * 4];
    unsigned row = lane() / 4;
    char *d = s + (threadIdx.x / 32) * 8 * 64 + row * 64 + ((lane() % 4 + (row % 8) / 2) % 4) * 16;
    CP_HINT(smemAddr(d), g + offRows64());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x] == 123) out[0] = 1;
}
__global__ void dstPitch128(const char *g, int *out) {
    __shared__ __align__(128) char s[8 * 128 * 4];
    char *d = s + (threadIdx.x / 32) * 8 * 128 + (lane() / 4) * 128 + (lane() % 4) * 16;
    CP_HINT(smemAddr(d), g + offRows64());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x] == 123) out[0] = 1;
}
__global__ void contigSwap(const char *g, int *out) {
    __shared__ __align__(128) int4 s[128];
    CP_HINT(smemAddr(&s[threadIdx.x ^ 1]), g + offContig());
    CP_WAIT(); __syncthreads(); if (s[threadIdx.x].x == 12345) out[0] = 1;
}

int main() {
    const int blocks = 1024, threads = 128;
    const size_t warps = size_t(blocks) * threads / 32;
    const size_t bytes = warps * 8 * 2048 + 4096;  // rows64 reaches furthest
    char *g; int *out;
    if (cudaMalloc(&g, bytes) != cudaSuccess || cudaMalloc(&out, 4) != cudaSuccess) return 2;
    cudaMemset(g, 1, bytes);
    void (*ks[])(const char *, int *) = {hintContig, hintRows64, hintRows128, plainContig, plainRows64,
                                         ca4Contig, ldgContig, ldgRows64, dstPad80, dstPerm64,
                                         dstPitch128, contigSwap};
    for (auto k : ks) k<<<blocks, threads>>>(g, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("ldgsts-probe: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
