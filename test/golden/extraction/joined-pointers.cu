// Pointers that paths join (issue 26): where both point outside global
// memory (cub's BlockRadixRank `raking_ptr = cached_segment` under
// `if (MEMOIZE_OUTER_SCAN)`, else the shared raking grid), an access through
// the joined pointer is excluded with the memories named, not unknown; an
// `if` on a condition fixed for the code takes its arm; two global
// allocations give the offset within whichever was chosen. A field of a base
// class written through `this` of an object held by value is not memory
// (Rodinia dwt2d's `this->end = n`: the census counted it as memory).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 10 memory operations in the census of 3 kernels, 0 missing from the report
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
// JSON-NEXT: "reason": "shared memory"
// JSON: "expr": "rp[0]",
// JSON-NEXT: "reason": "local memory (a variable of the thread)"
// JSON: "expr": "rp[1]",
// JSON-NEXT: "reason": "shared, local or parameter memory, depending on the path (not global memory)"
// JSON: "expr": "lp[1]",
// JSON-NEXT: "reason": "shared, local or parameter memory, depending on the path (not global memory)"

// Global memory on one path, shared on the other: not followed.
__global__ void mixed(const int *in, int *out, bool c) {
  __shared__ int sh[256];
  const int *p = in + threadIdx.x;
  if (c)
    p = sh + threadIdx.x;
  out[threadIdx.x] = *p;
// CHECK: [[@LINE-1]]:3: access: kernel=mixed op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
// CHECK: [[@LINE-2]]:22: access: kernel=mixed op=load base=p elem=4 expr='*p' sectors=n/a ideal=n/a class=unknown {{.*}}
}

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
}
