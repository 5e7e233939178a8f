// Launch shapes partly known (issue 26): `dim3(32, block_y)`: the known
// leading dimensions fill whole warps, so the lanes of a warp are known and
// the launch is kept (the rest taken as 1, and said so), with the scalar
// arguments it passes, instead of "no launch found". `dim3 block(4, 8,
// block_size / 32)` with block_size from a table of constants read in a
// loop is known whole since the table's elements are (constant-arrays.cu):
// all four shapes, 4x8x2 to 4x8x16, with C = 50257.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
__global__ void k(float *out, int C) {
  int i = (blockIdx.x * blockDim.z + threadIdx.z) * 32 + threadIdx.y * 4 + threadIdx.x;
  out[i * C] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i * C]' sectors=32 ideal=4 class=strided {{.*}}block=4x8x16(launch-site)
}
__global__ void k2(float *out, int n) {
  out[threadIdx.y * n + threadIdx.x] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=k2 op=store base=out elem=4 expr='out[threadIdx.y * n + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=32(launch-site)
}
// A block whose known dimensions do not fill a warp stays unresolved.
__global__ void k3(float *out) {
  out[threadIdx.y * 64 + threadIdx.x] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=k3 op=store base=out elem=4 expr='out[threadIdx.y * 64 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=32x8(assumed)
}
void run(float *out, int block_y) {
  int sizes[] = {64, 128, 256, 512};
  for (int j = 0; j < 4; j++) {
    int block_size = sizes[j];
    dim3 block(4, 8, block_size / 32);
    k<<<100, block>>>(out, 50257);
  }
  k2<<<10, dim3(32, block_y)>>>(out, 4096);
  k3<<<10, dim3(16, block_y)>>>(out);
}
// RUN: %coalesce-lint --fail-on=never %s | FileCheck %s --check-prefix=NOTE
// NOTE: note: C = 50257 from the launch at {{.*}}launch-partly-known.cu:28
// NOTE: note: block shape 4x8x16 from the launch at {{.*}}launch-partly-known.cu:28
// NOTE: note: the same for all 4 launch shapes of this kernel
