// Shared-memory bank conflicts (issue 27): every __shared__ access gets
// wavefronts per request against its ideal, from the bank model measured on
// the H200 (docs/bank-model.md): a transposed read of a [32][32] float tile
// is a 32-way conflict, the padded tile [32][33] is conflict-free, a
// swizzled column (c ^ r) too; 8-byte elements are served half a warp at a
// time (ideal 2); a broadcast is one wavefront; the interleaved reduction
// tree of the CUDA samples conflicts more at each step. Closed world: an
// extra warning or shared access fails the test.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --check-prefix=ACC --implicit-check-not=shared:
// RUN: %coalesce-lint --fail-on=never %s | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// RUN: %coalesce-lint --format=html --fail-on=never %s | FileCheck %s --check-prefix=HTML
// HTML: predicted <b>32</b> wavefronts per request, ideal <b>1</b>
// HTML: <figcaption>one request (warp 0) against the 32 banks of shared memory</figcaption>
// HTML-NEXT: <pre>  offsets: bytes from the start of &#39;tile&#39;
// RUN: %coalesce-lint --explain-access=%s:36:20 %s | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: predicted: 32 wavefronts per request, ideal 1 (bank-conflict;
// EXPLAIN: lane 0      #...............................  offset 0
// EXPLAIN-NEXT: lane 1      #...............................  offset 128
// EXPLAIN: lane 31     #...............................  offset 3968
// EXPLAIN-NEXT: bank 0 needs 32 different words (lanes 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31): a 32-way conflict
// EXPLAIN-NEXT: wavefronts: 32, ideal 1
#include <cuda/ptx>
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  __shared__ float padded[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
// ACC: [[@LINE-1]]:3: shared: kernel=transpose op=store base=tile elem=4 expr='tile[threadIdx.y][threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4 block=32x8(launch-site)
  padded[threadIdx.y][threadIdx.x] = in[y * n + x];
// ACC: [[@LINE-1]]:3: shared: kernel=transpose op=store base=padded elem=4 expr='padded[threadIdx.y][threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4 block=32x8(launch-site)
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
// ACC: [[@LINE-1]]:20: shared: kernel=transpose op=load base=tile elem=4 expr='tile[threadIdx.x][threadIdx.y]' wavefronts=32 ideal=1 class=bank-conflict stride=128 block=32x8(launch-site)
// DIAG: [[@LINE-2]]:20: warning: 32-way bank conflict on load of 'tile[threadIdx.x][threadIdx.y]': lanes 0, 1, 2 ... need different words of bank 0; adjacent lanes are 128 bytes apart: 32 wavefronts per request, ideal 1 [coalesce-bank-conflict]
// DIAG: note: costs about 253952 wavefronts more than the ideal, of the 262144 this load needs per launch (1024 blocks x 8 warps)
// DIAG: note: suggestion: pad each row of 'tile' by one 4-byte word so that adjacent lanes are 132 bytes apart instead of 128 (tile[32][33] instead of tile[32][32]), or swizzle the column index (tile[r][c ^ r])
  out[y * n + x + n * n] = padded[threadIdx.x][threadIdx.y];
// ACC: [[@LINE-1]]:28: shared: kernel=transpose op=load base=padded elem=4 expr='padded[threadIdx.x][threadIdx.y]' wavefronts=1 ideal=1 class=conflict-free stride=132 block=32x8(launch-site)
  out[y * n + x + 2 * n * n] = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
// ACC: [[@LINE-1]]:32: shared: kernel=transpose op=load base=tile elem=4 expr='tile[threadIdx.x][threadIdx.y ^ threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=n/a block=32x8(launch-site)
}
__global__ void wide(const double *in, double *out) {
  __shared__ double d[32][32];
  d[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
// ACC: [[@LINE-1]]:3: shared: kernel=wide op=store base=d elem=8 expr='d[threadIdx.y][threadIdx.x]' wavefronts=2 ideal=2 class=conflict-free stride=8 block=32x8(launch-site)
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = d[threadIdx.x][threadIdx.y] + d[0][0];
// ACC: [[@LINE-1]]:41: shared: kernel=wide op=load base=d elem=8 expr='d[threadIdx.x][threadIdx.y]' wavefronts=32 ideal=2 class=bank-conflict stride=256 block=32x8(launch-site)
// ACC: [[@LINE-2]]:71: shared: kernel=wide op=load base=d elem=8 expr='d[0][0]' wavefronts=1 ideal=1 class=uniform stride=0 block=32x8(launch-site)
// DIAG: [[@LINE-3]]:41: warning: 16-way bank conflict on load of 'd[threadIdx.x][threadIdx.y]': lanes 0, 1, 2 ... need different words of bank 0; adjacent lanes are 256 bytes apart: 32 wavefronts per request, ideal 2 [coalesce-bank-conflict]
}
// The lane index as CCCL reads it (cub's warp primitives): threadIdx.x % 32
// for warps formed from the linear thread index.
__global__ void lanes(int *out) {
  __shared__ int w[32 * 32];
  unsigned lane = ::cuda::ptx::get_sreg_laneid();
  w[lane * 32] = out[threadIdx.x];
// ACC: [[@LINE-1]]:3: shared: kernel=lanes op=store base=w elem=4 expr='w[lane * 32]' wavefronts=32 ideal=1 class=bank-conflict stride=n/a block=64(launch-site)
// DIAG: [[@LINE-2]]:3: warning: 32-way bank conflict on store to 'w[lane * 32]': lanes 0, 1, 2 ... need different words of bank 0; 32 wavefronts per request, ideal 1 [coalesce-bank-conflict]
}
// A block narrower than a warp: a warp holds two values of threadIdx.y, and
// in the padded 16 x 17 tile lane 31 (x 15, y 1) lands in lane 0's bank;
// the suggestion says so instead of proposing a padding the array has.
__global__ void narrow(const float *in, float *out) {
  __shared__ float t[16][17];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
// ACC: [[@LINE-1]]:3: shared: kernel=narrow op=store base=t elem=4 expr='t[threadIdx.y][threadIdx.x]' wavefronts=2 ideal=1 class=bank-conflict stride=4 block=16x16(launch-site)
// ACC: [[@LINE-2]]:33: access: kernel=narrow op=load base=in elem=4 expr='in[threadIdx.x]' sectors=2 ideal=4 class=coalesced stride=4 block=16x16(launch-site)
// DIAG: [[@LINE-3]]:3: warning: 2-way bank conflict on store to 't[threadIdx.y][threadIdx.x]': lanes 0, 31 need different words of bank 0; adjacent lanes are 4 bytes apart: 2 wavefronts per request, ideal 1 [coalesce-bank-conflict]
// DIAG: note: suggestion: the block is narrower than a warp, so one warp holds several values of threadIdx.y (68 bytes apart in 't') whose lanes land in the same banks: make the block's x dimension 32, or change the row length so that they land in different banks
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
// ACC: [[@LINE-1]]:3: access: kernel=narrow op=store base=out elem=4 expr='out[threadIdx.x]' sectors=2 ideal=4 class=coalesced stride=4 block=16x16(launch-site)
// ACC: [[@LINE-2]]:22: shared: kernel=narrow op=load base=t elem=4 expr='t[threadIdx.x][threadIdx.y]' wavefronts=2 ideal=1 class=bank-conflict stride=68 block=16x16(launch-site)
// DIAG: [[@LINE-3]]:22: warning: 2-way bank conflict on load of 't[threadIdx.x][threadIdx.y]': lanes 0, 31 need different words of bank 0; adjacent lanes are 68 bytes apart: 2 wavefronts per request, ideal 1 [coalesce-bank-conflict]
}
// An even word stride pairs the lanes in banks: 2-way.
__global__ void even(float *out) {
  __shared__ float s[64];
  out[threadIdx.x] = s[2 * threadIdx.x];
// ACC: [[@LINE-1]]:3: access: kernel=even op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=32(launch-site)
// ACC: [[@LINE-2]]:22: shared: kernel=even op=load base=s elem=4 expr='s[2 * threadIdx.x]' wavefronts=2 ideal=1 class=bank-conflict stride=8 block=32(launch-site)
// DIAG: [[@LINE-3]]:22: warning: 2-way bank conflict on load of 's[2 * threadIdx.x]': lanes 0, 16 need different words of bank 0; adjacent lanes are 8 bytes apart: 2 wavefronts per request, ideal 1 [coalesce-bank-conflict]
// DIAG: note: suggestion: adjacent lanes are 8 bytes (2 words) apart, an even number, so up to 2 lanes share a bank: make the distance an odd number of words (pad the rows or records of 's' by one word), or swizzle the index
}
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
// ACC: [[@LINE-1]]:3: shared: kernel=reduce op=store base=sdata elem=4 expr='sdata[tid]' wavefronts=1 ideal=1 class=conflict-free stride=4 block=256(launch-site)
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
// ACC: [[@LINE-1]]:7: shared: kernel=reduce op=load+store base=sdata elem=4 expr='sdata[index]' wavefronts=3.92 ideal=1 class=bank-conflict {{.*}}
// ACC: [[@LINE-2]]:23: shared: kernel=reduce op=load base=sdata elem=4 expr='sdata[index + s]' wavefronts=3.92 ideal=1 class=bank-conflict {{.*}}
// DIAG: [[@LINE-3]]:7: warning: {{[0-9]+}}-way bank conflict on update of 'sdata[index]': {{.*}} 3.92 wavefronts per request on average, ideal 1 [coalesce-bank-conflict]
// DIAG: [[@LINE-4]]:23: warning: {{[0-9]+}}-way bank conflict on load of 'sdata[index + s]': {{.*}} 3.92 wavefronts per request on average, ideal 1 [coalesce-bank-conflict]
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
// ACC: [[@LINE-1]]:23: shared: kernel=reduce op=load base=sdata elem=4 expr='sdata[0]' wavefronts=1 ideal=1 class=uniform stride=0 block=256(launch-site)
}
// Two adjacent floats, the first at an even index: the compiler issues one
// 8-byte access (LDS.64 in fastWalshTransform on the H200), conflict-free;
// as two 4-byte accesses at 8 bytes apart they would be a 2-way conflict.
__global__ void pairs(float *out) {
  __shared__ float s[1024];
  for (int pos = threadIdx.x; pos < 512; pos += blockDim.x) {
    int i0 = pos << 1;
    float d0 = s[i0];
// ACC: [[@LINE-1]]:16: shared: kernel=pairs op=load base=s elem=4 expr='s[i0]' wavefronts=2 ideal=2 class=conflict-free stride=8 block=256(launch-site)
    float d1 = s[i0 + 1];
// ACC: [[@LINE-1]]:16: shared: kernel=pairs op=load base=s elem=4 expr='s[i0 + 1]' wavefronts=2 ideal=2 class=conflict-free stride=8 block=256(launch-site)
    out[pos] = d0 + d1;
  }
}
// No launch: the assumed block is 1-D (256) because no global access reads
// threadIdx.y; a shared one does not decide it (cub indexes TempStorage by
// a linear thread index naming threadIdx.y).
__global__ void unlaunched(const float *in, float *out) {
  __shared__ float t[8][32];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.x];
// ACC: [[@LINE-1]]:3: shared: kernel=unlaunched op=store base=t elem=4 expr='t[threadIdx.y][threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4 block=256(assumed)
// ACC: [[@LINE-2]]:33: access: kernel=unlaunched op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=256(assumed)
  out[threadIdx.x] = t[0][threadIdx.x];
// ACC: [[@LINE-1]]:3: access: kernel=unlaunched op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 block=256(assumed)
// ACC: [[@LINE-2]]:22: shared: kernel=unlaunched op=load base=t elem=4 expr='t[0][threadIdx.x]' wavefronts=1 ideal=1 class=conflict-free stride=4 block=256(assumed)
}
void run(const float *in, float *out, const double *din, double *dout, int n) {
  lanes<<<1, 64>>>((int *)out);
  pairs<<<1, 256>>>(out);
  transpose<<<dim3(32, 32), dim3(32, 8)>>>(in, out, 1024);
  wide<<<1, dim3(32, 8)>>>(din, dout);
  reduce<<<n / 256, 256>>>(in, out);
  narrow<<<1, dim3(16, 16)>>>(in, out);
  even<<<1, 32>>>(out);
}
