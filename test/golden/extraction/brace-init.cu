// Scalars and pointers initialized with braces, as modern C++ writes them
// (leimao/CUDA-GEMM-Optimization: `size_t const A_row_idx{blockIdx.y *
// BLOCK_TILE_SIZE_Y + ...};`, `T const *ptr{reinterpret_cast<...>(&v)}`):
// the value in the braces, `{}` zero. Before the twenty-fifth session each
// was an opaque lane value, and 366 of that suite's 378 accesses unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --self-check --fail-on=never %s | FileCheck %s --check-prefix=LOCAL
// LOCAL: "expr": "q[1]",
// LOCAL-NEXT: "reason": "local memory (a variable of the thread)"
template <typename T, unsigned BX, unsigned BY>
__global__ void tiles(T const *A, T *C, size_t m, size_t lda) {
  size_t const row{blockIdx.y * BY + threadIdx.y};
  size_t const col{blockIdx.x * BX + threadIdx.x};
  T val{static_cast<T>(0)};
  if (row < m)
    val = A[row * lda + col];
// CHECK: [[@LINE-1]]:11: access: kernel=tiles op=load base=A elem=4 expr='A[row * lda + col]' sectors=4 ideal=4 class=coalesced {{.*}}
  C[col * lda + row] = val;
// CHECK: [[@LINE-1]]:3: access: kernel=tiles op=store base=C elem=4 expr='C[col * lda + row]' sectors=32 ideal=4 class=transposed {{.*}}
  size_t zero{};
  C[zero + threadIdx.x * 4] = val;
// CHECK: [[@LINE-1]]:3: access: kernel=tiles op=store base=C elem=4 expr='C[zero + threadIdx.x * 4]' sectors=16 ideal=4 class=strided {{.*}}
  T const *p{&A[row * lda]};
  C[row * lda + col] = p[col];
// CHECK: [[@LINE-1]]:3: access: kernel=tiles op=store base=C elem=4 expr='C[row * lda + col]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:24: access: kernel=tiles op=load base=A elem=4 expr='p[col]' sectors=4 ideal=4 class=coalesced {{.*}}
  int4 v{};
  int const *q{reinterpret_cast<int const *>(&v)};
  C[col] = static_cast<T>(q[1]);
// CHECK: [[@LINE-1]]:3: access: kernel=tiles op=store base=C elem=4 expr='C[col]' sectors=4 ideal=4 class=coalesced {{.*}}
}
int main() {
  tiles<float, 32, 8><<<dim3(4, 4), dim3(32, 8)>>>(nullptr, nullptr, 1024, 1024);
}
