// wmma::load_matrix_sync / store_matrix_sync: the warp moves a whole tile
// whose rows (or columns) are ldm elements apart. CUDA leaves unspecified
// which lane moves which elements (the fragment layout is the
// architecture's), so no sectors per request are predicted: each call is
// reported as its own access, with the tile it moves, never lost and never
// blamed on the headers (issue 7).
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --check-prefix=ACC --implicit-check-not=access:
#include <mma.h>
using namespace nvcuda;

__global__ void gemm(const half *a, const half *b, float *c, int lda, int ldb,
                     int ldc) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
  wmma::load_matrix_sync(af, a + warpM * 16 * lda, lda);
  // ACC: [[@LINE-1]]:30: access: kernel=gemm op=load base=a elem=2 expr='a + warpM * 16 * lda' sectors=n/a ideal=n/a class=unknown
  // CHECK: "reason": "wmma::load_matrix_sync: the warp loads a 16x16 tile of half as 16 rows of 32 bytes, lda elements apart; which lane moves which part is architecture-specific, not modelled"
  wmma::load_matrix_sync(bf, b, ldb);
  // ACC: [[@LINE-1]]:30: access: kernel=gemm op=load base=b elem=2 expr='b'
  // CHECK: "reason": "wmma::load_matrix_sync: the warp loads a 16x16 tile of half as 16 columns of 32 bytes, ldb elements apart;
  wmma::load_matrix_sync(cf, c + warpM * 16 * ldc, ldc, wmma::mem_row_major);
  // ACC: [[@LINE-1]]:30: access: kernel=gemm op=load base=c elem=4
  // CHECK: "reason": "wmma::load_matrix_sync: the warp loads a 16x16 tile of float as 16 rows of 64 bytes, ldc elements apart;
  wmma::mma_sync(cf, af, bf, cf);
  wmma::store_matrix_sync(c + warpM * 16 * ldc, cf, ldc, wmma::mem_row_major);
  // ACC: [[@LINE-1]]:27: access: kernel=gemm op=store base=c elem=4
  // CHECK: "reason": "wmma::store_matrix_sync: the warp stores a 16x16 tile of float as 16 rows of 64 bytes, ldc elements apart;
}

void run(const half *a, const half *b, float *c) {
  gemm<<<16, 128>>>(a, b, c, 64, 64, 64);
}
// ACC: 0 warnings in 1 kernel (4 accesses analyzed, 4 unknown)
