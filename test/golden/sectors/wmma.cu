// wmma::load_matrix_sync / store_matrix_sync: the warp moves a whole tile
// whose rows (or columns) are ldm elements apart. CUDA leaves unspecified
// which lane moves which elements (the fragment layout is the
// architecture's). For 16x16x16 tiles of 16-bit elements in the layouts
// mma.sync uses (matrix_a row_major, matrix_b col_major, an accumulator in
// mem_row_major) the tool predicts sm_80 and later's mapping, measured on the
// H200 (cuda_hgemm's wmma_naive, docs/validation.md): 4 requests of 4 bytes a
// lane, 8 rows of 16 bytes each, so 8 sectors for an ideal of 4 (issue 26).
// Other tiles are reported as their own access, unknown, with the tile they
// move, never lost and never blamed on the headers (issue 7).
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --check-prefix=ACC --implicit-check-not=access:
// RUN: %coalesce-lint --fail-on=never %s 2>&1 | FileCheck %s --check-prefix=DIAG
// sm_70 and sm_75 lay fragments out otherwise: every tile stays unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s -- --cuda-gpu-arch=sm_75 | FileCheck %s --check-prefix=SM75
// SM75: 0 warnings in 2 kernels (6 accesses analyzed, 6 unknown)
#include <mma.h>
using namespace nvcuda;

__global__ void gemm(const half *a, const half *b, float *c, int lda, int ldb,
                     int ldc) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
  wmma::load_matrix_sync(af, a + warpM * 16 * lda, lda);
  // ACC: [[@LINE-1]]:30: access: kernel=gemm op=load base=a elem=4 expr='a + warpM * 16 * lda' sectors=8 ideal=4 class=strided
  // DIAG: [[@LINE-2]]:30: warning: uncoalesced load of 'a + warpM * 16 * lda': 8 sectors per request, ideal 4 (50% of fetched bytes used) [coalesce-stride]
  // DIAG: [[@LINE-3]]:30: note: wmma::load_matrix_sync: each request moves 8 rows of 16 bytes, 4 lanes of 4 bytes to a row (the fragment layout of sm_80 and later); the warp makes 4 such requests, each twice
  // DIAG: note: suggestion: copy the tile to shared memory with 16-byte vector loads (or cp.async) and call wmma::load_matrix_sync on the shared copy
  wmma::load_matrix_sync(bf, b, ldb);
  // ACC: [[@LINE-1]]:30: access: kernel=gemm op=load base=b elem=4 expr='b' sectors=8 ideal=4 class=strided
  // DIAG: [[@LINE-2]]:30: note: wmma::load_matrix_sync: each request moves 8 columns of 16 bytes
  wmma::load_matrix_sync(cf, c + warpM * 16 * ldc, ldc, wmma::mem_row_major);
  // ACC: [[@LINE-1]]:30: access: kernel=gemm op=load base=c elem=4 {{.*}} class=unknown
  // CHECK: "reason": "wmma::load_matrix_sync: the warp loads a 16x16 tile of float as 16 rows of 64 bytes, ldc elements apart; which lane moves which part is architecture-specific, modelled only for 16x16x16 tiles of 16-bit elements in the layouts mma.sync uses (matrix_a row_major, matrix_b col_major, accumulator mem_row_major) on sm_80 and later"
  wmma::mma_sync(cf, af, bf, cf);
  wmma::store_matrix_sync(c + warpM * 16 * ldc, cf, ldc, wmma::mem_row_major);
  // ACC: [[@LINE-1]]:27: access: kernel=gemm op=store base=c elem=4 {{.*}} class=unknown
  // CHECK: "reason": "wmma::store_matrix_sync: the warp stores a 16x16 tile of float as 16 rows of 64 bytes, ldc elements apart;
}

// A matrix_a tile in col_major: not the layout mma.sync reads, so the
// compiler's mapping is not known. A half accumulator stored row by row is.
__global__ void other_layouts(const half *a, half *c, int ld) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> af;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> cf;
  wmma::load_matrix_sync(af, a + blockIdx.x * 256, ld);
  // ACC: [[@LINE-1]]:30: access: kernel=other_layouts op=load base=a elem=2 {{.*}} class=unknown
  // CHECK: "reason": "wmma::load_matrix_sync: the warp loads a 16x16 tile of half as 16 columns of 32 bytes, ld elements apart;
  wmma::fill_fragment(cf, 0.0f);
  wmma::store_matrix_sync(c + blockIdx.x * 16, cf, ld, wmma::mem_row_major);
  // ACC: [[@LINE-1]]:27: access: kernel=other_layouts op=store base=c elem=4 {{.*}} sectors=8 ideal=4 class=strided
  // DIAG: [[@LINE-2]]:27: note: wmma::store_matrix_sync: each request moves 8 rows of 16 bytes, 4 lanes of 4 bytes to a row (the fragment layout of sm_80 and later); the warp makes 4 such requests{{$}}
  // DIAG: note: suggestion: store the fragment to shared memory with wmma::store_matrix_sync and copy the tile out with 16-byte vector stores
}

void run(const half *a, const half *b, float *c, half *h) {
  gemm<<<16, 128>>>(a, b, c, 64, 64, 64);
  other_layouts<<<16, 32>>>(a, h, 1024);
}
// ACC: 3 warnings in 2 kernels (6 accesses analyzed, 3 unknown)
