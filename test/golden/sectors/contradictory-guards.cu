// A path whose conditions contradict each other runs in no lane, whatever
// the values (issue 26, TransformerEngine's Vec::load_from_elts): the
// misaligned fallback re-tests the alignment its caller already found
// false and calls the aligned load in its else, which can never run from
// there. That call's access is code that cannot run, not an unknown "no
// lane executes" (1,296 of te-common's 1,798 unknowns); the aligned call
// from the kernel and the element loop of the fallback are predicted. When
// the caller tests a count clamped by a minimum (`valid == 4 && aligned`)
// and the fallback `count >= 4 && aligned`, the contradiction shows once the
// cases of the minimum and the disjunction are split.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 23 memory operations in the census of 9 kernels, 0 missing from the report
#include <cstdint>
struct Vec {
  float4 v;
  __device__ void load_from(const void *p) {
    v = static_cast<const float4 *>(p)[0];
// CHECK-DAG: [[@LINE-1]]:9: access: kernel=tail op=load base=in elem=16 expr='static_cast<const float4 *>(p)[0]' sectors=16 ideal=16 class=coalesced {{.*}}
  }
  __device__ void load_from_elts(const void *p) {
    const float *e = static_cast<const float *>(p);
    if (reinterpret_cast<uint64_t>(e) % 16 != 0) {
      v.x = e[0];
// CHECK-DAG: [[@LINE-1]]:13: access: kernel=tail op=load base=in elem=4 expr='e[0]' {{.*}} class=strided {{.*}}
      v.y = e[1];
// CHECK-DAG: [[@LINE-1]]:13: access: kernel=tail op=load base=in elem=4 expr='e[1]' {{.*}} class=strided {{.*}}
      v.z = e[2];
// CHECK-DAG: [[@LINE-1]]:13: access: kernel=tail op=load base=in elem=4 expr='e[2]' {{.*}} class=strided {{.*}}
      v.w = e[3];
// CHECK-DAG: [[@LINE-1]]:13: access: kernel=tail op=load base=in elem=4 expr='e[3]' {{.*}} class=strided {{.*}}
    } else {
      load_from(e);
    }
  }
};

__global__ void tail(const float *in, float *out, int cols) {
  int c = blockIdx.y * cols + (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const float *p = in + c;
  Vec x;
  if (reinterpret_cast<uint64_t>(p) % 16 == 0)
    x.load_from(p);
  else
    x.load_from_elts(p);
  out[c] = x.v.x;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=tail op=store base=out elem=4 {{.*}} class=strided {{.*}}
}

// Equal to two different constants at once: never.
__global__ void two_values(const int *mode, float *out) {
  int m = mode[blockIdx.x];
// CHECK-DAG: [[@LINE-1]]:11: access: kernel=two_values op=load base=mode elem=4 {{.*}} class=uniform {{.*}}
  if (m == 1 && m == 2)
    out[threadIdx.x] = 1.0f;
  if (m == 1)
    out[threadIdx.x] = 2.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=two_values op=store base=out elem=4 {{.*}} class=coalesced {{.*}}
}

struct Out {
  float4 v;
  __device__ void store_to(void *p) const {
    static_cast<float4 *>(p)[0] = v;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=column op=store base=out elem=16 expr='static_cast<float4 *>(p)[0]' sectors=16 ideal=16 class=coalesced {{.*}}
  }
  __device__ void store_to_elts(void *p, size_t count) const {
    float *e = static_cast<float *>(p);
    if (count < 4 || reinterpret_cast<uint64_t>(e) % 16 != 0) {
      for (int it = 0; it < 4; it++)
        if (it < count)
          e[it] = v.x;
// CHECK-DAG: [[@LINE-1]]:11: access: kernel=column op=store base=out elem=4 expr='e[it]' {{.*}} class=strided {{.*}}
    } else {
      store_to(e);
    }
  }
};

__global__ void column(float *out, size_t rows, size_t cols) {
  size_t row = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  size_t col = blockIdx.y;
  if (col < cols) {
    size_t valid = row < rows ? ((rows - row) < 4 ? (rows - row) : 4) : 0;
    if (valid > 0) {
      float *p = out + col * rows + row;
      Out x{};
      if (valid == 4 && reinterpret_cast<uint64_t>(p) % 16 == 0)
        x.store_to(p);
      else
        x.store_to_elts(p, valid);
    }
  }
}

// A loop whose bounds leave it no iteration in one instance (ggml's tile
// loader passes, `k0 < k0_stop` with k0 starting at k0_stop): iterations
// are counted from 0, so its body runs in no lane there and is not an
// unknown; the instance whose loop runs predicts it.
template <int Chunks> __global__ void tail_pass(const int4 *src, int4 *dst) {
  const int start = Chunks - Chunks % 4;
  const int stop = Chunks - Chunks % 2;
  for (int k0 = start; k0 < stop; k0 += 2) {
    int k = blockIdx.x * 64 + threadIdx.x / 2 * Chunks + k0 + threadIdx.x % 2;
    dst[k] = src[k];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=tail_pass op=store base=dst elem=16 expr='dst[k]' sectors=16 ideal=16 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:14: access: kernel=tail_pass op=load base=src elem=16 expr='src[k]' sectors=16 ideal=16 class=coalesced {{.*}}
  }
}
template __global__ void tail_pass<10>(const int4 *, int4 *);
template __global__ void tail_pass<12>(const int4 *, int4 *);

// ggml's K/V tile loader: a reversed loop over chunks of the row (the
// partial chunk first), then passes of decreasing width, each skipped when
// its range of chunks is empty. With DKQ = 80 the chunks are 2 and 8 per
// row: the 16- and 4-wide passes (n = 1, 3) run in no iteration and hold no
// access; the 8- and 2-wide passes (n = 2, 4) are predicted.
template <int DKQ, int nbatch_K2, int n>
__global__ void passes(const int4 *KV, int stride_KV) {
  __shared__ int4 tile[1024];
  for (int k0_start = (DKQ / 2 - 1) - (DKQ / 2 - 1) % nbatch_K2; k0_start >= 0;
       k0_start -= nbatch_K2) {
    const int k0_stop =
        k0_start + nbatch_K2 < DKQ / 2 ? k0_start + nbatch_K2 : DKQ / 2;
    const int chunks = (k0_stop - k0_start) / 4;
    const int stride_k = 32 >> n;
    const int ks = stride_k == 32 ? 0 : chunks - chunks % (2 * stride_k);
    const int ke = chunks - chunks % stride_k;
    if (ks == ke)
      continue;
    const int i = threadIdx.y * (32 / stride_k) + threadIdx.x / stride_k;
    for (int k0 = ks; k0 < ke; k0 += stride_k) {
      const int k = k0 + threadIdx.x % stride_k;
      tile[(i * 16 + k) % 1024] = KV[i * stride_KV + k + k0_start / 4];
// CHECK-DAG: [[@LINE-1]]:35: access: kernel=passes op=load base=KV elem=16 {{.*}} sectors=16 ideal=16 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:35: access: kernel=passes op=load base=KV elem=16 {{.*}} sectors=16 ideal=16 class=coalesced {{.*}}
    }
  }
}
template __global__ void passes<80, 32, 1>(const int4 *, int);
template __global__ void passes<80, 32, 2>(const int4 *, int);
template __global__ void passes<80, 32, 3>(const int4 *, int);
template __global__ void passes<80, 32, 4>(const int4 *, int);
