// Reference parameters (issue 7, from Rodinia dwt2d): an int & bound to a
// caller's variable is written back (mirror(int &d, n)); a const int & bound
// to a field of *this or to a temporary (divRndUp(w, 2)) is that value, in
// longer functions and in single-return ones alike.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
__device__ void mirror(int &d, const int n) { if (d >= n) d = 2 * n - 2 - d; }
struct Loader {
  int last, hl, lh;
  __device__ float upd(const float *in, const int &stride) { last += stride; return in[last]; }
// CHECK: [[@LINE-1]]:85: access: kernel=dwt op=load base=in elem=4 expr='in[last]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
// CHECK: [[@LINE-2]]:85: access: kernel=dwt op=load base=in elem=4 expr='in[last]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
  __device__ float low(const float *in) { return upd(in, this->hl); }
  __device__ float high(const float *in) { return upd(in, this->lh); }
};
__global__ void dwt(const float *in, float *out, int w) {
  int x = threadIdx.x;
  mirror(x, 1 << 20);
  Loader L;
  L.last = x; L.hl = w; L.lh = 2 * w;
  float s = 0;
  for (int k = 0; k < 4; ++k) { s += L.low(in); s += L.high(in); }
  out[x] = s;
// CHECK: [[@LINE-1]]:3: access: kernel=dwt op=store base=out elem=4 expr='out[x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
}
template <typename T> __device__ T divRndUp(const T &n, const T &d) { return (n / d) + ((n % d) ? 1 : 0); }
__global__ void rows(float *a, int w) {
  int half = divRndUp(w, 2);
  a[threadIdx.x * divRndUp(64, 2)] = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=rows op=store base=a elem=4 expr='a[threadIdx.x * divRndUp(64, 2)]' sectors=32 ideal=4 class=strided {{.*}}block=256(assumed)
  a[blockIdx.x * half + threadIdx.x] = 1;
// CHECK: [[@LINE-1]]:3: access: kernel=rows op=store base=a elem=4 expr='a[blockIdx.x * half + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}block=256(assumed)
}
// CHECK-NOT: access:
// A const reference bound to a constexpr (TransformerEngine's
// `DIVUP_TO_MULTIPLE(const T1 &N, const T2 &M)` called with kScaleColAlign;
// the static_assert makes the body two statements, so it is walked, not
// substituted): the constant. Before, M was a per-lane value the engine
// could not model and the access was unknown.
constexpr unsigned long kAlign = 4;
template <typename T1, typename T2>
__device__ unsigned long roundUp(const T1 &N, const T2 &M) {
  static_assert(sizeof(T1) > 0, "complete");
  return (N + M - 1) / M * M;
}
__global__ void rounded(float *out, unsigned long rows) {
  out[blockIdx.y * roundUp(rows, kAlign) + threadIdx.x] = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=rounded op=store base=out elem=4 expr='out[blockIdx.y * roundUp(rows, kAlign) + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
