// Division by an invariant integer through a multiplier and a shift the
// host precomputed (issue 26; ggml's fastdiv/fastmodulo, PyTorch's
// IntDivider, CUTLASS's FastDivmod): `(__umulhi(n, d.mul) + n) >> d.shift`
// is n / d.divisor, the divisor these libraries keep in the same object.
// Before, every such address was unknown ("a per-lane value the engine
// cannot model"). A multiplier and a shift of two objects stay unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=warning:
#include <cstdint>
// ggml: <mp, L, d> in <x, y, z>.
static __device__ __forceinline__ uint32_t fastdiv(uint32_t n, const uint3 fd) {
  const uint32_t hi = __umulhi(n, fd.x);
  return (hi + n) >> fd.y;
}
static __device__ __forceinline__ uint32_t fastmodulo(uint32_t n, const uint3 fd) {
  return n - fastdiv(n, fd) * fd.z;
}
__global__ void rows(const float *x, float *y, const uint3 ne0) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t r = fastdiv(i, ne0);
  uint32_t c = fastmodulo(i, ne0);
  y[c * 64 + r] = x[i];
// CHECK: [[@LINE-1]]:3: access: kernel=rows op=store base=y elem=4 expr='y[c * 64 + r]' sectors=32 ideal=4 class=strided {{.*}}
// CHECK: [[@LINE-2]]:3: warning: uncoalesced store to 'y[c * 64 + r]': 32 sectors per request, ideal 4
// CHECK: note: assuming ne0.z >= 32 (ne0.z = 1024 used)
// CHECK: [[@LINE-4]]:19: access: kernel=rows op=load base=x elem=4 expr='x[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  y[fastmodulo(i, ne0)] = x[fastdiv(i, ne0)];
// CHECK: [[@LINE-1]]:3: access: kernel=rows op=store base=y elem=4 expr='y[fastmodulo(i, ne0)]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:27: access: kernel=rows op=load base=x elem=4 expr='x[fastdiv(i, ne0)]' sectors=1 ideal=4 class=uniform {{.*}}
}
// PyTorch: the divisor, the multiplier and the shift, by name.
struct IntDivider {
  unsigned divisor;
  unsigned m1;
  unsigned shift;
  __device__ unsigned div(unsigned n) const {
    unsigned t = __umulhi(n, m1);
    return (t + n) >> shift;
  }
};
__global__ void cols(const float *x, float *y, IntDivider d) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[d.div(i) * 32 + i % 32] = x[i];
// CHECK: [[@LINE-1]]:3: access: kernel=cols op=store base=y elem=4 expr='y[d.div(i) * 32 + i % 32]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:31: access: kernel=cols op=load base=x elem=4 expr='x[i]' sectors=4 ideal=4 class=coalesced {{.*}}
}
// CUTLASS: the high half shifted, without the add.
struct FastDivmod {
  int divisor;
  unsigned multiplier;
  unsigned shift_right;
};
__global__ void plain(const float *x, float *y, FastDivmod d) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned q = __umulhi(i, d.multiplier) >> d.shift_right;
  y[i - q * d.divisor] = x[i];
// CHECK: [[@LINE-1]]:3: access: kernel=plain op=store base=y elem=4 expr='y[i - q * d.divisor]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:26: access: kernel=plain op=load base=x elem=4 expr='x[i]' sectors=4 ideal=4 class=coalesced {{.*}}
}
// Not the idiom: the multiplier of one object, the shift of another.
__global__ void mixed(const float *x, float *y, uint3 a, uint3 b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[(__umulhi(i, a.x) + i) >> b.y] = x[i];
// CHECK: [[@LINE-1]]:3: access: kernel=mixed op=store base=y elem=4 expr='y[(__umulhi(i, a.x) + i) >> b.y]' sectors=n/a ideal=n/a class=unknown {{.*}}
// CHECK: [[@LINE-2]]:38: access: kernel=mixed op=load base=x elem=4 expr='x[i]' sectors=4 ideal=4 class=coalesced {{.*}}
}
