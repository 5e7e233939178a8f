// A vectorized loader as TransformerEngine writes it (issue 26): the derived
// class's constructor runs the base's, which computes the aligned pointer
// from the address as a number (`reinterpret_cast<size_t>(ptr) % 16`); an
// allocation's start is aligned like cudaMalloc's, so the check folds and the
// float4 load is predicted, not unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
#include <cstddef>
template <typename DType, int nvec> struct Accessor {
  using LType = float4;
  const LType *aligned_ptr_;
  int alignment_;
  __device__ Accessor(const DType *ptr, size_t size) {
    size_t n = reinterpret_cast<size_t>(ptr);
    alignment_ = (n % sizeof(LType)) / sizeof(DType);
    aligned_ptr_ = reinterpret_cast<const LType *>(ptr - alignment_);
  }
};
template <typename DType, int nvec> struct Loader : public Accessor<DType, nvec> {
  float4 v;
  __device__ Loader(const DType *ptr, size_t n) : Accessor<DType, nvec>(ptr, n) {}
  __device__ void load(size_t id) { v = this->aligned_ptr_[id]; }
// CHECK: [[@LINE-1]]:41: access: kernel=k op=load base=in elem=16 expr='this->aligned_ptr_[id]' sectors=16 ideal=16 class=coalesced stride=16 {{.*}}
};
__global__ void k(const float *in, float *out, size_t n) {
  Loader<float, 4> L(in, n);
  L.load(blockIdx.x * blockDim.x + threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = L.v.x;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[blockIdx.x * blockDim.x + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
}
