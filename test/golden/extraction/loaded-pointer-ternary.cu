// A ternary whose arms are pointers loaded from memory, read as a whole
// (calm's `T *w = j < q_dim ? L->wq : (j < q_dim + kv_dim ? L->wk : L->wv)`
// with L pointing into __constant__ memory): the arm chosen is loaded, each
// taken to point to a global allocation of its own, and the access through
// the result is predicted, not "cannot follow the pointer".
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
#include <cuda_fp16.h>
template <typename T> struct Layer { T *wq, *wk, *wv; };
static __constant__ Layer<void> layers[4];
__device__ inline float dot(const float *x, half *w, int row, int n) {
  float val = 0;
  for (int j = threadIdx.x % warpSize * 2; j < n; j += warpSize * 2) {
    float2 ww = __half22float2(*(half2 *)&w[row * n + j]);
// CHECK: [[@LINE-1]]:32: access: kernel=qkv op=load base=j < q_dim ? L->wq : (j < q_dim + kv_dim ? L->wk : L->wv) elem=4 expr='*(half2 *)&w[row * n + j]' sectors=4 ideal=4 class=coalesced {{.*}}
    val += ww.x * x[j] + ww.y * x[j + 1];
  }
  return val;
}
__global__ void qkv(float *out, int q_dim, int kv_dim, int dim, int l) {
  __shared__ float xs[1024];
  const Layer<half> *L = (const Layer<half> *)&layers[l];
  int j = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  half *w = j < q_dim ? L->wq : (j < q_dim + kv_dim ? L->wk : L->wv);
  out[j] = dot(xs, w, j, dim);
// CHECK: [[@LINE-1]]:3: access: kernel=qkv op=store base=out elem=4 expr='out[j]' sectors=1 ideal=4 class=uniform {{.*}}
}
}
