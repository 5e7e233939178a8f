// A pointer array field that only the constructor writes, picked by a field
// that flips (issue 26, TransformerEngine's double-buffered RawAsyncLoader
// in fused_router: `buf_[phase_]`, 1,566 unknowns "cannot follow the
// pointer"): the elements the constructor stored are followed, into shared
// memory here, so the reads are excluded like any shared access and the
// global loads that fill the buffers are predicted.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 20 memory operations in the census of 3 kernels, 0 missing from the report
template <typename T> class Loader {
public:
  __device__ Loader(T *base, int warp, int count, int buffers)
      : phase_(0), double_(buffers == 2) {
    buf_[0] = base + warp * count;
    buf_[1] = buffers == 2 ? base + 4 * count + warp * count : buf_[0];
  }
  __device__ T *current() { return buf_[phase_]; }
  __device__ T *next() { return buf_[phase_ ^ 1]; }
  __device__ void flip() {
    if (double_)
      phase_ ^= 1;
  }
  __device__ void load(const T *src, int count, int lane) {
    T *dst = next();
    for (int i = lane; i < count; i += 32)
      dst[i] = src[i];
// CHECK-DAG: [[@LINE-1]]:16: access: kernel=route op=load base=logits elem=4 expr='src[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  }

private:
  T *buf_[2];
  int phase_;
  bool double_;
};

__global__ void __launch_bounds__(128) route(const float *logits, float *out,
                                             int experts, int tokens) {
  extern __shared__ float smem[];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  Loader<float> loader(smem, warp, experts, 2);
  for (int t = blockIdx.x * 4 + warp; t < tokens; t += gridDim.x * 4) {
    loader.load(logits + t * experts, experts, lane);
    float *raw = loader.current();
    float best = raw[lane];
    out[t * 32 + lane] = best;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=route op=store base=out elem=4 expr='out[t * 32 + lane]' sectors=4 ideal=4 class=coalesced {{.*}}
    loader.flip();
  }
}

// A public array, or one another method writes, is not followed: the
// elements could change where the walk does not see it.
struct Pair {
  float *p[2];
  __device__ Pair(float *a, float *b) { p[0] = a; p[1] = b; }
};
__global__ void public_array(float *a, float *b, int k) {
  Pair s(a, b);
  s.p[k & 1][threadIdx.x] = 0.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=public_array op=store base=s.p[k & 1] elem=4 expr='s.p[k & 1][threadIdx.x]' sectors=n/a ideal=n/a class=unknown {{.*}}
}

// The kernel's by-value tensor list handed to a functor by reference
// (TransformerEngine's multi_tensor_apply: `(T *)tl.addresses[1][tensor_loc]`
// in adam, sgd, scale, l2norm; 1,100 unknowns "cannot follow the pointer"):
// an array field of an object fixed for the launch holds pointers fixed for
// the launch, each its own allocation.
template <int n> struct TensorList {
  void *addresses[n][36];
  long sizes[36];
  unsigned char block_to_tensor[320];
  int block_to_chunk[320];
};
struct Sgd {
  __device__ void operator()(int chunk_size, TensorList<2> &tl, float lr) {
    int tensor_loc = tl.block_to_tensor[blockIdx.x];
    int chunk_idx = tl.block_to_chunk[blockIdx.x];
    long n = tl.sizes[tensor_loc];
    float *g = reinterpret_cast<float *>(tl.addresses[0][tensor_loc]);
    g += chunk_idx * chunk_size;
    float *p = reinterpret_cast<float *>(tl.addresses[1][tensor_loc]);
    p += chunk_idx * chunk_size;
    for (int i = threadIdx.x; i < n && i < chunk_size; i += blockDim.x)
      p[i] -= lr * g[i];
// CHECK-DAG: [[@LINE-1]]:7: access: kernel=multi_tensor_apply op=load+store base=tl.addresses[1][tensor_loc] elem=4 expr='p[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:20: access: kernel=multi_tensor_apply op=load base=tl.addresses[0][tensor_loc] elem=4 expr='g[i]' sectors=4 ideal=4 class=coalesced {{.*}}
  }
};
template <typename T, typename U, typename... A>
__global__ void multi_tensor_apply(int chunk_size, T tl, U callable, A... args) {
  callable(chunk_size, tl, args...);
}
template __global__ void
multi_tensor_apply<TensorList<2>, Sgd, float>(int, TensorList<2>, Sgd, float);
