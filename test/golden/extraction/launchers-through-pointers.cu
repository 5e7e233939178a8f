// Launches reached through function pointers and forwarding wrappers, as
// benchmark programs write them (llm.c's dev/cuda: `attention_backward1(...,
// launch_softmax_1, block_size)` calls its launcher through a pointer
// parameter; `benchmark_kernel(repeats, attention_forward, args...)` calls
// it with std::forward'ed arguments). The launch's block, grid and argument
// values come from the caller's constants; the store's stride is NH.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --fail-on=never %s 2>&1 | FileCheck %s --check-prefix=NOTE
#include <utility>
__global__ void k1(float *out, int T, int NH) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < T)
    out[t * NH] = 1.0f;
// CHECK: [[@LINE-1]]:5: access: kernel=k1 op=store base=out elem=4 expr='out[t * NH]' sectors=32 ideal=4 class=strided stride=48 block=128(launch-site)
}
__global__ void k2(float *out, int T) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < T)
    out[t] = 1.0f;
// CHECK: [[@LINE-1]]:5: access: kernel=k2 op=store base=out elem=4 expr='out[t]' sectors=4 ideal=4 class=coalesced {{.*}}block=64(launch-site)
}

void launch1(float *out, int T, int NH, int block_size) {
  int blocks = (T + block_size - 1) / block_size;
  k1<<<dim3(blocks, NH), block_size>>>(out, T, NH);
}
void backward(float *out, int T, int NH,
              void (*launcher)(float *, int, int, int), int block_size) {
  launcher(out, T, NH, block_size);
}

void forward(float *out, int T, int block_size) {
  k2<<<(T + block_size - 1) / block_size, block_size>>>(out, T);
}
template <class Kernel, class... Args>
float benchmark(int repeats, Kernel kernel, Args &&...args) {
  for (int i = 0; i < repeats; i++)
    kernel(std::forward<Args>(args)...);
  return 0.f;
}

int main() {
  float *out;
  backward(out, 256, 12, launch1, 128);
  benchmark(3, forward, out, 4096, 64);
}

// NOTE: note: NH = 12, T = 256 from the launch at {{.*}}launchers-through-pointers.cu:25
// NOTE: note: wastes about 84 KiB of the 96 KiB this store fetches per launch (24 blocks x 4 warps)
