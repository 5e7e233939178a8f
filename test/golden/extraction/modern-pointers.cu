// Pointers as modern code holds them (issue 26): a Packed128-style wrapper
// over int4 with load128/store128, __builtin_assume_aligned (the pointer,
// no access of its own), a pointer through a ternary with a null arm, an
// element copied into an existing variable, a pointer into a local array.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
#include <cuda_bf16.h>
template <class T> struct alignas(16) Packed128 {
  static constexpr int size = sizeof(int4) / sizeof(T);
  T payload[size];
  __device__ Packed128() {}
  __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ static Packed128 constant(T value) { Packed128 r; for (int k = 0; k < size; k++) r.payload[k] = value; return r; }
  __device__ T &operator[](int index) { return payload[index]; }
  __device__ int4 get_bits() const { int4 bits; memcpy(&bits, &payload, sizeof(bits)); return bits; }
};
template <class T> __device__ Packed128<T> load128(const T *address) { return Packed128<T>{*reinterpret_cast<const int4 *>(address)}; }
// CHECK: [[@LINE-1]]:92: access: kernel=k op=load base=inp elem=16 expr='*reinterpret_cast<const int4 *>(address)' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
template <class T> __device__ void store128(T *target, Packed128<T> value) { *reinterpret_cast<int4 *>(target) = value.get_bits(); }
// CHECK: [[@LINE-1]]:78: access: kernel=k op=store base=out elem=16 expr='*reinterpret_cast<int4 *>(target)' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
using x128 = Packed128<__nv_bfloat16>;
__global__ void k(const __nv_bfloat16 *inp, __nv_bfloat16 *out, const float *B, float *C, const float *bias, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
  x128 v = load128(inp + i);
  x128 o;
  for (int k = 0; k < x128::size; k++) o[k] = (float)v[k] * 2.0f;
  store128(out + i, o);
  const float *p = (const float *)__builtin_assume_aligned(B, 16);
  C[threadIdx.x * 4] = p[threadIdx.x * 2];
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=C elem=4 expr='C[threadIdx.x * 4]' sectors=16 ideal=4 class=strided stride=16 {{.*}}
// CHECK: [[@LINE-2]]:24: access: kernel=k op=load base=B elem=4 expr='p[threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
  const float *b = bias ? bias + blockIdx.x : nullptr;
  float bb = b ? b[threadIdx.x] : 0.0f;
// CHECK: [[@LINE-1]]:18: access: kernel=k op=load base=bias elem=4 expr='b[threadIdx.x]' sectors=4.88 ideal=4 class=misaligned stride=4 {{.*}}
  float4 tmp;
  tmp = reinterpret_cast<const float4 *>(&B[threadIdx.x * 8])[0];
// CHECK: [[@LINE-1]]:9: access: kernel=k op=load base=B elem=16 expr='reinterpret_cast<const float4 *>(&B[threadIdx.x * 8])[0]' sectors=32 ideal=16 class=strided stride=32 {{.*}}
  C[threadIdx.x + 64] = tmp.x + bb;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=C elem=4 expr='C[threadIdx.x + 64]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  float regs[8];
  float *r = &regs[threadIdx.x & 7];
  *r = 1.0f;
  C[threadIdx.x + 128] = regs[0];
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=C elem=4 expr='C[threadIdx.x + 128]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
// assert() passes text (__FILE__, __PRETTY_FUNCTION__) to __assert_fail: no
// memory of the user's, no unknown access.
#include <cassert>
__global__ void checked(float *a, int n) {
  assert(n > 0);
  a[threadIdx.x] = 1;
// CHECK: [[@LINE-1]]:3: access: kernel=checked op=store base=a elem=4 expr='a[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
// Register tiles passed by reference (ggml's mma.cuh: `const int *Axi =
// (const int *) A.x` of a `const tile<16, 8, half2> &A` bound to a local
// tile, read by inline assembly or plain code): the thread's own memory,
// excluded, not unknown. The tile's load from global memory is predicted.
template <int N> struct tile { int x[N]; };
__device__ void mma(tile<4> &D, const tile<4> &A, const tile<2> &B) {
  const int *Axi = (const int *)A.x;
  const int *Bxi = (const int *)B.x;
  int *Dxi = (int *)D.x;
  asm("add.s32 %0, %1, %2;" : "+r"(Dxi[0]) : "r"(Axi[0]), "r"(Bxi[1]));
  Dxi[1] = Axi[1] + Bxi[0];
}
__device__ void load_tile(tile<4> &t, const int *src) {
  int *xi = (int *)t.x;
  xi[0] = src[threadIdx.x * 2];
// CHECK: [[@LINE-1]]:11: access: kernel=tiles op=load base=in elem=4 expr='src[threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
}
// A tile returned by one call and bound to the const reference of the
// next (ggml's `get_transposed(get_half2(KQ_C[k]))`): the thread's too.
__device__ tile<2> half_tile(const tile<4> &t) {
  tile<2> r;
  r.x[0] = t.x[0] + t.x[1];
  r.x[1] = t.x[2];
  return r;
}
__device__ tile<2> transposed(const tile<2> &t) {
  tile<2> r;
  r.x[0] = t.x[1];
  r.x[1] = t.x[0];
  return r;
}
__global__ void tiles(int *out, const int *in) {
  tile<4> D, A;
  tile<2> Bs[2];
  load_tile(A, in);
  Bs[1] = transposed(half_tile(A));
  mma(D, A, Bs[1]);
  out[threadIdx.x] = D.x[0];
// CHECK: [[@LINE-1]]:3: access: kernel=tiles op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
// A pointer rebuilt from an integer computed from one pointer's address
// (TransformerEngine's align_smem_ptr_per_TMA_requirements: dynamic shared
// memory aligned up to 128 bytes): it points into the same memory, here
// shared, so accesses through it are excluded, not unknown. Into global
// memory the offset would matter and is not followed: unknown.
__device__ __forceinline__ unsigned char *align128(unsigned char *p) {
  size_t addr = reinterpret_cast<size_t>(p);
  addr = (addr + 127) & ~size_t(127);
  return reinterpret_cast<unsigned char *>(addr);
}
__device__ float sumRows(const float tile[][64], int r) {
  float s = 0;
  for (int e = 0; e < 4; e++)
    s += tile[r + e][threadIdx.x];
  return s;
}
__global__ void aligned(const float *in, float *out) {
  extern __shared__ unsigned char raw[];
  float(*tile)[64] = reinterpret_cast<float(*)[64]>(align128(raw));
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 64 + threadIdx.x];
// CHECK: [[@LINE-1]]:36: access: kernel=aligned op=load base=in elem=4 expr='in[threadIdx.y * 64 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  __syncthreads();
  out[threadIdx.x] = sumRows(tile, 0);
// CHECK: [[@LINE-1]]:3: access: kernel=aligned op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  float *g = reinterpret_cast<float *>(reinterpret_cast<size_t>(out) + 4);
  g[threadIdx.x] = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=aligned op=store base=g elem=4 expr='g[threadIdx.x]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
