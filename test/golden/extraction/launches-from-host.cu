// Launch shapes, argument values and pointer offsets read from host code the
// way applications write it (issue 7): dim3 fields assigned after the
// declaration, reassignment, enums and #defines, host templates, shapes
// chosen by a branch, cudaLaunchCooperativeKernel, cudaLaunchKernelEx with a
// configuration struct, d_a + 1, globals nobody changes (dim3 block(512); at
// namespace scope), and launches in a host loop (its first iteration).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
#define NUMBER_THREADS 128
enum { kTile = 16 };
struct Rec { float v[91]; };
__global__ void rows(const Rec *r, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = r[i].v[0];
// CHECK: [[@LINE-1]]:14: access: kernel=rows op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}block=128(launch-site)
// CHECK: [[@LINE-2]]:23: access: kernel=rows op=load base=r elem=4 expr='r[i].v[0]' sectors=32 ideal=4 class=aos {{.*}}block=128(launch-site)
}
__global__ void tile(float *m, int w) {
  m[threadIdx.x * w + threadIdx.y] = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=tile op=store base=m elem=4 expr='m[threadIdx.x * w + threadIdx.y]' sectors=16 ideal=4 class=transposed {{.*}}block=16x16(launch-site)
}
template <int W, int H>
__global__ void tk(float *a) { a[threadIdx.y * W + threadIdx.x] = 1; }
// CHECK: [[@LINE-1]]:32: access: kernel=tk op=store base=a elem=4 expr='a[threadIdx.y * W + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=192(launch-site)
template <int W, int H>
void launch(float *a) { tk<W, H><<<1, dim3(W, H)>>>(a); }
__global__ void pick(float *a) { a[threadIdx.x * 4] = 0; }
// CHECK: [[@LINE-1]]:34: access: kernel=pick op=store base=a elem=4 expr='a[threadIdx.x * 4]' sectors=16 ideal=4 class=strided {{.*}}block=64(launch-site)
__global__ void coop(float *a, int n) { a[threadIdx.x] = n; }
// CHECK: [[@LINE-1]]:41: access: kernel=coop op=store base=a elem=4 expr='a[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=96(launch-site)
__global__ void shifted(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }
// CHECK: [[@LINE-1]]:37: access: kernel=shifted op=store base=a elem=4 expr='a[blockIdx.x * blockDim.x + threadIdx.x]' sectors=5 ideal=4 class=misaligned {{.*}}block=256(launch-site)
__global__ void unresolved(float *a) { a[threadIdx.x] = 0; }
// CHECK: [[@LINE-1]]:40: access: kernel=unresolved op=store base=a elem=4 expr='a[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
void host(Rec *r, float *o, int n, float *a, bool big, int userBlock) {
  dim3 threads;
  threads.x = NUMBER_THREADS;
  threads.y = 1;
  dim3 blocks(n / NUMBER_THREADS);
  rows<<<blocks, threads>>>(r, o, n);
  dim3 t2(8, 8);
  t2 = dim3(kTile, kTile);
  tile<<<1, t2>>>(a, 1024);
  launch<192, 1>(a);
  int bs = big ? 256 : 64;
  pick<<<4, bs>>>(a);
  void *args[] = {&a, &n};
  cudaLaunchCooperativeKernel((void *)coop, dim3(2), dim3(96), args, 0, 0);
  float *d_a;
  cudaMalloc(&d_a, 1 << 20);
  shifted<<<64, 256>>>(d_a + 1);
  unresolved<<<1, userBlock>>>(a);
}
dim3 gBlock(512);
dim3 gGrid;
int threadsPerBlock = 128;
__global__ void inc(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] += 1; }
// CHECK: [[@LINE-1]]:33: access: kernel=inc op=load+store base=a elem=4 expr='a[blockIdx.x * blockDim.x + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=512(launch-site)
__global__ void inc2(float *a) { a[threadIdx.x * 3] += 1; }
// CHECK: [[@LINE-1]]:34: access: kernel=inc2 op=load+store base=a elem=4 expr='a[threadIdx.x * 3]' sectors=12 ideal=4 class=strided {{.*}}block=128(launch-site)
void run(float *d, int n) {
  gGrid.x = n / gBlock.x;
  inc<<<gGrid, gBlock>>>(d);
  inc2<<<n / threadsPerBlock, threadsPerBlock>>>(d);
}
__global__ void kex(float *a, int s) { a[threadIdx.x * s] = 0; }
// CHECK: [[@LINE-1]]:40: access: kernel=kex op=store base=a elem=4 expr='a[threadIdx.x * s]' sectors=12 ideal=4 class=strided {{.*}}block=96x2(launch-site)
void run(float *d) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(64);
  config.blockDim = dim3(96, 2);
  cudaLaunchKernelEx(&config, kex, d, 3);
}
__global__ void plane(float *B, int i, int n) {
  int k = threadIdx.x + blockIdx.x * blockDim.x;
  if (i > 0 && i < n - 1) B[i * n + k] = 0;
// CHECK: [[@LINE-1]]:27: access: kernel=plane op=store base=B elem=4 expr='B[i * n + k]' sectors=4 ideal=4 class=coalesced {{.*}}block=32(launch-site)
}
void sweep(float *B) {
  for (int i = 1; i < 255; ++i)
    plane<<<8, 32>>>(B, i, 256);
}
// A launcher walked alone (m unknown) and from its caller (m = 512) is one
// launch: only the prediction with the caller's value is reported (PolyBench's
// correlationCuda called from main), not a second one under m's default.
__global__ void rowsOf(float *a, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) a[r * (m + 1)] = 0;
// CHECK-NOT: kernel=rowsOf
// CHECK: [[@LINE-2]]:14: access: kernel=rowsOf op=store base=a elem=4 expr='a[r * (m + 1)]' sectors=32 ideal=4 class=strided stride=2052 block=64(launch-site)
}
void launchRows(float *a, int m) { rowsOf<<<m / 64, 64>>>(a, m); }
int main() {
  float *a;
  launchRows(a, 512);
}
// CHECK-NOT: access:
