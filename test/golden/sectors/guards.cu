// Guards that switch every lane off under the default values (issue 7): the
// guards are searched for values that let a lane run, and each value is
// stated. The idioms are those of SHOC and Rodinia: a flag bit (QTC), a
// switch on a parameter (cuda-samples interval), the last block
// (srad_v2), the last thread of the last block (srad_v1 reduce), the tail
// of a vectorized load (SHOC scan), the right edge of an image (dwt2d); code
// that no value runs (cdpBitonicSort) is code that cannot run, excluded with
// that reason (it was an unknown "no lane executes" until the sixteenth
// session proved it: iterations and thread indices are never negative).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s 2>/dev/null | FileCheck %s --check-prefix=DEAD

// matrix_type_mask = 1024 has bit 4 clear; the constant of the guard, 16,
// sets it. Lanes 0..31 store a[256*iter + lane]: 128 aligned bytes, 4
// sectors, ideal 4.
__global__ void qtcFlag(int *a, int n, int matrix_type_mask) {
  if (matrix_type_mask & 16)
    for (int i = 0; i + threadIdx.x < n; i += blockDim.x)
      a[i + threadIdx.x] = 0;
// CHECK: [[@LINE-1]]:7: access: kernel=qtcFlag op=store base=a elem=4 expr='a[i + threadIdx.x]' sectors=4 ideal=4 class=coalesced
}
// JSON: "assuming matrix_type_mask = 16 so that the access executes"

// The root of implementation_choice == 2. One float of a 16-byte struct
// per lane: 32 structs, 512 bytes, 16 sectors; ideal 4.
__global__ void interval(float4 *buf, int implementation_choice) {
  if (implementation_choice == 2)
    buf[blockIdx.x * 64 + threadIdx.x].x = 0;
// CHECK: [[@LINE-1]]:5: access: kernel=interval op=store base=buf elem=4 expr='buf[blockIdx.x * 64 + threadIdx.x].x' sectors=16 ideal=4 class=aos
}
// JSON: "assuming implementation_choice = 2 so that the access executes"

// Blocks 0..7 are sampled, none of them the last of gridDim.x = 1024; block
// 1023 is taken instead, and the defaults stay. 4 bytes per lane from
// 4 * 16384 * 1023 (a multiple of 32): 4 sectors, ideal 4.
__global__ void lastBlock(float *J, int cols) {
  if (blockIdx.x == gridDim.x - 1 && blockIdx.x != 0)
    J[cols * 16 * blockIdx.x + threadIdx.x] = 0;
// CHECK: [[@LINE-1]]:5: access: kernel=lastBlock op=store base=J elem=4 expr='J[cols * 16 * blockIdx.x + threadIdx.x]' sectors=4 ideal=4 class=coalesced
}
// JSON: "assuming blockIdx.x = 1023 so that the access executes"

// threadIdx.x == df - 1 holds for no lane of 256 with df = 1024; df = 2
// picks lane 1, the last block as above. One lane: 1 sector, ideal 1. The
// loop's in[i] uses df in its address, so a multiple of 32 is preferred
// (df = 256, lane 255: the alignment of the default stays); one address per
// request: 1 sector.
__global__ void lastThread(float *sums, const float *in, int df, int nf) {
  if (threadIdx.x == df - 1 && blockIdx.x == gridDim.x - 1)
    for (int i = blockIdx.x * 512 + df; i < blockIdx.x * 512 + nf; i++)
      sums[threadIdx.x] += in[i];
// CHECK: [[@LINE-1]]:7: access: kernel=lastThread op=load+store base=sums elem=4 expr='sums[threadIdx.x]' sectors=1 ideal=1 class=coalesced
// CHECK: [[@LINE-2]]:28: access: kernel=lastThread op=load base=in elem=4 expr='in[i]' sectors=1 ideal=1 class=uniform
}
// JSON: "assuming df = 2, blockIdx.x = 1023 so that the access executes"
// JSON: "assuming df = 256, nf = 1048576, blockIdx.x = 1023 so that the access executes"

// The scalar tail runs where fullBlock is false and i + 3 >= n > i: two
// values at once, which no single change finds. With n = 1022 only lane
// 255 of block 0 (i = 1020) takes it: 1 sector per request, ideal 1.
__global__ void scanTail(const float4 *in4, float *in, float *out, int n,
                         bool fullBlock) {
  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  float a = 0, b = 0;
  if (fullBlock || i + 3 < n) {
    a = in4[i / 4].x;
// CHECK: [[@LINE-1]]:9: access: kernel=scanTail op=load base=in4 elem=4 expr='in4[i / 4].x' sectors=16 ideal=4 class=aos
  } else {
    a = (i < n) ? in[i] : 0;
// CHECK: [[@LINE-1]]:19: access: kernel=scanTail op=load base=in elem=4 expr='in[i]' sectors=1 ideal=1 class=coalesced
    b = (i + 1 < n) ? in[i + 1] : 0;
// CHECK: [[@LINE-1]]:23: access: kernel=scanTail op=load base=in elem=4 expr='in[i + 1]' sectors=1 ideal=1 class=coalesced
  }
  out[i / 4] = a + b;
// CHECK: [[@LINE-1]]:3: access: kernel=scanTail op=store base=out elem=4 expr='out[i / 4]' sectors=4 ideal=4 class=coalesced
}
// JSON: "assuming fullBlock = 0, n = 1022 so that the access executes"
// JSON: "assuming fullBlock = 0, n = 1022 so that the access executes"

// The right edge: sizeX <= 64 * blockIdx.x + 65 holds from block 15 on with
// sizeX = 1024, which the address also uses (a row pitch): block 15 is
// taken (the blocks after it would be past the image), sizeX stays. Warp w
// reads x = 960 + 32 * w + lane: 128 bytes from a multiple of 128, 4
// sectors; the row 4096 * blockIdx.y keeps that.
__global__ void rightEdge(const float *input, float *out, int sizeX) {
  int x = blockIdx.x * 64 + threadIdx.x;
  if (sizeX <= blockIdx.x * 64 + 65)
    out[blockIdx.y * sizeX + x] = input[x];
// CHECK: [[@LINE-1]]:5: access: kernel=rightEdge op=store base=out elem=4 expr='out[blockIdx.y * sizeX + x]' sectors=4 ideal=4 class=coalesced
// CHECK: [[@LINE-2]]:35: access: kernel=rightEdge op=load base=input elem=4 expr='input[x]' sectors=4 ideal=4 class=coalesced
}
// JSON: "assuming blockIdx.x = 15 so that the access executes"
// JSON: "assuming blockIdx.x = 15 so that the access executes"

// index = len + k*blockDim.x + lane >= len: no value runs the store.
__global__ void deadStore(unsigned *data, unsigned len) {
  for (unsigned i = len; i < 2 * len; i += blockDim.x) {
    unsigned index = i + threadIdx.x;
    if (index < len)
      data[index] = 0;
  }
}
// DEAD: "expr": "data[index]",
// DEAD-NEXT: "reason": "code that cannot run (its conditions contradict each other for every value)"
