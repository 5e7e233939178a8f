// wmma fragments are the thread's own registers: an element of a fragment
// array handed to load_matrix_sync or store_matrix_sync (cuda_hgemm's
// `A_frag[i]`, `C_frag[i][j]`) is local memory, excluded with that reason,
// never missing from the report (the census counts it).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// RUN: %coalesce-lint --self-check --format=json --fail-on=never %s 2>/dev/null | FileCheck %s --check-prefix=JSON
#include <mma.h>
using namespace nvcuda;
__global__ void frags(const half *B, half *C, int K) {
  __shared__ half As[2][16 * 16];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> A_frag[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> B_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, half> C_frag[2][2];
  for (int i = 0; i < 2; ++i)
    wmma::load_matrix_sync(A_frag[i], As[i], 16);
  wmma::load_matrix_sync(B_frag, B, K);
// CHECK: [[@LINE-1]]:34: access: kernel=frags op=load base=B elem=4 expr='B' sectors=8 ideal=4 class=strided {{.*}}
  wmma::fill_fragment(C_frag[0][0], 0.0f);
  wmma::mma_sync(C_frag[0][1], A_frag[0], B_frag, C_frag[1][1]);
  wmma::store_matrix_sync(C, C_frag[1][0], K, wmma::mem_row_major);
// CHECK: [[@LINE-1]]:27: access: kernel=frags op=store base=C elem=4 expr='C' sectors=8 ideal=4 class=strided {{.*}}
}
// JSON: "expr": "A_frag[i]",
// JSON-NEXT: "reason": "local memory (a variable of the thread)"
// JSON: "expr": "C_frag[1][0]",
// JSON-NEXT: "reason": "local memory (a variable of the thread)"
