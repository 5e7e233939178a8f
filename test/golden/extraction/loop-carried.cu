// Loop-carried values (issue 7): one pass of the body is probed with every
// changed slot replaced by a fresh symbol; a slot whose change is a
// loop-invariant step becomes start + step * iteration, also fields of an
// object advanced by its methods (the loader classes of Rodinia dwt2d). A
// recurrence without a closed form, s = (s + c) & (size - 1) (SHOC
// DeviceMemory), is evaluated exactly over the first 8 iterations, sampled
// from the entry state; one that loads the next value from memory
// (p = next[p]) is indirect.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
template <bool CHECKED> struct Loader {
  int last, stride, end;
  __device__ void init(int start, int s) { last = start - s; stride = s; end = 1 << 20; }
  __device__ float loadFrom(const float *input) {
    last += this->stride;
    if (CHECKED && last == end) { last -= 2 * stride; stride = -stride; }
    return input[last];
// CHECK: [[@LINE-1]]:12: access: kernel=dwt op=load base=in elem=4 expr='input[last]' sectors=32 ideal=4 class=strided {{.*}}block=256(assumed)
  }
};
__global__ void dwt(const float *in, float *out, int n, int w) {
  Loader<false> L;
  L.init(threadIdx.x * w, w);
  float s = 0;
  for (int k = 0; k < 8; ++k)
    s += L.loadFrom(in);
  out[threadIdx.x] = s;
// CHECK: [[@LINE-1]]:3: access: kernel=dwt op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
}
__global__ void mem(const float *data, float *out, int size, int repeat) {
  int gid = threadIdx.x + blockDim.x * blockIdx.x;
  int s = gid;
  float sum = 0;
  for (int j = 0; j < repeat; ++j) {
    sum += data[(s + 32768) & (size - 1)];
// CHECK: [[@LINE-1]]:12: access: kernel=mem op=load base=data elem=4 expr='data[(s + 32768) & (size - 1)]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
    s = (s + 65536) & (size - 1);
  }
  out[gid] = sum;
// CHECK: [[@LINE-1]]:3: access: kernel=mem op=store base=out elem=4 expr='out[gid]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
}
__global__ void walk(const int *next, float *val, int steps) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int s = 0; s < steps; ++s) {
    val[p] += 1.0f;
// CHECK: [[@LINE-1]]:5: access: kernel=walk op=load+store base=val elem=4 expr='val[p]' sectors=n/a ideal=n/a class=indirect {{.*}}block=256(assumed)
    p = next[p];
// CHECK: [[@LINE-1]]:9: access: kernel=walk op=load base=next elem=4 expr='next[p]' sectors=n/a ideal=n/a class=indirect {{.*}}block=256(assumed)
  }
}
// CHECK-NOT: access:
