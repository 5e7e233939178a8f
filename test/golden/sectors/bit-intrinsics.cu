// __ffs, __clz and __popc are evaluated exactly (selects over the bits), not
// taken as unknown values: cuda-samples convolutionFFT2D divides by a power
// of two as `i >> (__ffs(divisor) - 1)`, which with __ffs defaulted to 1024
// shifted by 1023 and left every access `unknown`.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 %s | FileCheck %s --implicit-check-not=access:
#include <cuda_runtime.h>

// DX = 1024 (default): divisor 512, x = i & 511, y = i >> 9: y * DX + x is
// i's row and column, contiguous in a warp: 4 sectors.
__global__ void udivmod(float *out, const float *in, unsigned DX) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned divisor = DX / 2;
  unsigned x = i & (divisor - 1);
  unsigned y = i >> (__ffs(divisor) - 1);
  out[y * DX + x] = in[i];
// CHECK: [[@LINE-1]]:3: access: kernel=udivmod op=store base=out elem=4 expr='out[y * DX + x]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:21: access: kernel=udivmod op=load base=in elem=4 expr='in[i]' sectors=4 ideal=4 class=coalesced
}

// Warp w's lanes have popc(32w + l) = popc(w) + popc(l), six distinct
// values 128 bytes apart: 6 sectors. tid + 1 = 1..32 in warp 0 has clz 31
// down to 26, floats 26..31 (bytes 104..127): 1 sector; warps 1 to 6 stay
// within bytes 96..107 (1 sector) and warp 7 reaches clz(256) = 23, bytes
// 92..99 across sectors 2 and 3: (7 + 2) / 8 = 1.125.
__global__ void counts(float *out, const float *in) {
  out[__popc(threadIdx.x) * 32] = in[__clz(threadIdx.x + 1)];
// CHECK: [[@LINE-1]]:3: access: kernel=counts op=store base=out elem=4 expr='out[__popc(threadIdx.x) * 32]' sectors=6 ideal=4
// CHECK: [[@LINE-2]]:35: access: kernel=counts op=load base=in elem=4 expr='in[__clz(threadIdx.x + 1)]' sectors=1.13 ideal=4
}
