// Pointers that paths join (issue 26): where both point outside global
// memory (cub's BlockRadixRank `raking_ptr = cached_segment` under
// `if (MEMOIZE_OUTER_SCAN)`, else the shared raking grid), an access through
// the joined pointer is excluded with the memories named, not unknown; an
// `if` on a condition fixed for the code takes its arm; two global
// allocations give the offset within whichever was chosen. A field of a base
// class written through `this` of an object held by value is not memory
// (Rodinia dwt2d's `this->end = n`: the census counted it as memory).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=shared:
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 12 memory operations in the census of 4 kernels, 0 missing from the report
struct Storage { int grid[128][4]; };
struct Ranker {
  Storage &s;
  int cached[4];
  __device__ Ranker(Storage &st) : s(st) {}
  __device__ int up(bool memoize) {
    int *sp = s.grid[threadIdx.x];
    int *rp;
    if (memoize) {
      rp = cached;
      rp[0] = sp[0];
// CHECK: [[@LINE-1]]:15: shared: kernel=joined op=load base=st elem=4 expr='sp[0]' wavefronts=4 ideal=1 class=bank-conflict stride=16 {{.*}}
    } else {
      rp = sp;
    }
    return rp[1];
  }
};
__global__ void joined(int *out, bool memoize) {
  __shared__ Storage st;
  out[threadIdx.x] = Ranker(st).up(memoize);
// CHECK: [[@LINE-1]]:3: access: kernel=joined op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  int loc[4] = {1, 2, 3, 4};
  __shared__ int sh[256];
  int *lp = memoize ? loc : sh + threadIdx.x;
  out[threadIdx.x + 128] = lp[1];
// CHECK: [[@LINE-1]]:3: access: kernel=joined op=store base=out elem=4 expr='out[threadIdx.x + 128]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
// JSON: "expr": "sp[0]",
// JSON: "space": "shared",
// JSON-NEXT: "classification": "bank-conflict",
// JSON: "expr": "rp[0]",
// JSON-NEXT: "reason": "local memory (a variable of the thread)"
// JSON: "expr": "rp[1]",
// JSON-NEXT: "reason": "shared, local or parameter memory, depending on the path (not global memory)"
// JSON: "expr": "lp[1]",
// JSON-NEXT: "reason": "shared, local or parameter memory, depending on the path (not global memory)"

// Global memory on one path, shared on the other: a global access by the
// lanes that chose global memory (here those where c is false); likewise a
// ternary with a local array of zeros for the lanes out of range (ggml's
// `ggml_cuda_memcpy_1<16>(tile + ..., i < i_sup ? KV + ... : zero)`): the
// last rows of the 32x8 block (i >= 6) copy zeros.
__global__ void mixed(const int *in, int *out, bool c) {
  __shared__ int sh[256];
  const int *p = in + threadIdx.x;
  if (c)
    p = sh + threadIdx.x;
  out[threadIdx.x] = *p;
// CHECK: [[@LINE-1]]:3: access: kernel=mixed op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK: [[@LINE-2]]:22: access: kernel=mixed op=load base=in elem=4 expr='*p' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
template <int nbytes>
__device__ void copy16(void *__restrict__ dst, const void *__restrict__ src) {
  for (int i = 0; i < nbytes / 16; ++i)
    ((int4 *)dst)[i] = ((const int4 *)src)[i];
// CHECK: [[@LINE-1]]:5: shared: kernel=zeros op=store base=tile elem=16 expr='((int4 *)dst)[i]' wavefronts=4 ideal=4 class=conflict-free stride=16 {{.*}}
// CHECK: [[@LINE-2]]:24: access: kernel=zeros op=load base=KV elem=16 expr='((const int4 *)src)[i]' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
}
__global__ void zeros(const float2 *KV, int stride) {
  __shared__ float2 tile[8 * 64];
  const float2 zero[2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
  const int i = threadIdx.y;
  copy16<16>(tile + i * 64 + threadIdx.x * 2,
             i < 6 ? KV + i * stride + threadIdx.x * 2 : zero);
}
// JSON: "expr": "((int4 *)dst)[i]",
// JSON: "space": "shared",
// JSON-NEXT: "classification": "conflict-free",

template <class T> struct IO { int end; int *buf; };
template <class T> struct Loader : IO<T> {
  __device__ void init(int *b, int n) {
    this->buf = b;
    this->end = n;
    this->buf[threadIdx.x * 2] = n;
// CHECK: [[@LINE-1]]:5: access: kernel=base op=store base=out elem=4 expr='this->buf[threadIdx.x * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
  }
};
__global__ void base(int *out) {
  Loader<float> l;
  l.init(out, 5);
  out[threadIdx.x] += l.end;
// CHECK: [[@LINE-1]]:3: access: kernel=base op=load+store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}

void run(int *in, int *out, bool c) {
  joined<<<1, 128>>>(out, c);
  mixed<<<1, 128>>>(in, out, c);
  base<<<1, 128>>>(out);
  zeros<<<1, dim3(32, 8)>>>((const float2 *)in, 128);
}
