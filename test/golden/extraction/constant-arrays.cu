// Arrays of integer constants that nothing writes (issue 26, llm.c's
// dev/cuda benchmarks): `int block_sizes[] = {32, 64, 128, 256};` read in
// the loop that launches, and a small lookup table in a kernel. A read of
// one is its element (a select over a varying index), so the launch's
// block size and scalar arguments are known instead of "no launch found"
// with every parameter at its default of 1024.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
__global__ void rows(float *out, const float *in, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    out[i] = in[i * C];
// CHECK: [[@LINE-1]]:5: access: kernel=rows op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(launch-site)
// CHECK: [[@LINE-2]]:14: access: kernel=rows op=load base=in elem=4 expr='in[i * C]' sectors=32 ideal=4 class=strided {{.*}}block=256(launch-site)
}
// A lookup table indexed by the lane: lanes 0, 1, 2, 3 read 0, 1, 32, 33.
__global__ void table(float *out) {
  const int offs[4] = {0, 1, 32, 33};
  out[offs[threadIdx.x & 3] + 64 * (threadIdx.x >> 2)] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=table op=store base=out elem=4 expr='out[offs[threadIdx.x & 3] + 64 * (threadIdx.x >> 2)]' sectors=16 ideal=4 class=strided {{.*}}
}
// Written after its initialization: not a constant, but each element is
// what the stores put there, the newest where the indices are equal (k = 3
// from the launch: {0, 7}, out[0] and out[7], one sector).
__global__ void written(float *out, int k) {
  int offs[2] = {0, 1};
  offs[k & 1] = 7;
  out[offs[threadIdx.x & 1]] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=written op=store base=out elem=4 expr='out[offs[threadIdx.x & 1]]' sectors=1 ideal=4 class=coalesced
}
void launch(float *out, const float *in, int B, int T, int C, int block_size) {
  int N = B * T;
  rows<<<(N + block_size - 1) / block_size, block_size>>>(out, in, N, C);
}
int main() {
  int B = 8, T = 1024, C = 768;
  float *out, *in;
  cudaMalloc(&out, B * T * 4);
  cudaMalloc(&in, B * T * C * 4);
  int block_sizes[] = {32, 64, 128, 256};
  for (int j = 0; j < sizeof(block_sizes) / sizeof(int); j++) {
    int block_size = block_sizes[j];
    launch(out, in, B, T, C, block_size);
  }
  table<<<1, 32>>>(out);
  written<<<1, 32>>>(out, 3);
}
