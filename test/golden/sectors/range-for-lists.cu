// A range-for over a braced list or a constant array (issue 26; ggml's
// `for (int stride_k : {warp_size, warp_size/2, ...})` passes of the
// flash-attention tile loaders): iteration k holds the list's element k.
// Before, the variable was a per-lane value the engine could not model and
// every access through it was unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=warning:
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=100 --block 32,4 %s | FileCheck %s --check-prefix=RAGGED --implicit-check-not=access:
__global__ void passes(const int *x, int *y, int n) {
  for (int stride_k : {32, 16, 8, 4}) {
    // Each pass takes the columns the wider ones left: with n = 1024 only
    // the first pass runs; with n = 100 the last 4 columns are read by
    // passes of 8 lanes per row.
    const int k0_start = stride_k == 32 ? 0 : n - n % (2 * stride_k);
    const int k0_stop = n - n % stride_k;
    const int i = threadIdx.y * (32 / stride_k) + (stride_k == 32 ? 0 : threadIdx.x / stride_k);
    for (int k0 = k0_start; k0 < k0_stop; k0 += stride_k) {
      const int k = k0 + (stride_k == 32 ? threadIdx.x : threadIdx.x % stride_k);
      y[i * n + k] = x[i * n + k];
// CHECK: [[@LINE-1]]:7: access: kernel=passes op=store base=y elem=4 expr='y[i * n + k]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:22: access: kernel=passes op=load base=x elem=4 expr='x[i * n + k]' sectors=4 ideal=4 class=coalesced {{.*}}
// RAGGED: [[@LINE-3]]:7: access: kernel=passes op=store base=y elem=4 expr='y[i * n + k]' sectors=5.38 ideal=4 class=strided {{.*}}
// RAGGED: [[@LINE-4]]:22: access: kernel=passes op=load base=x elem=4 expr='x[i * n + k]' sectors=5.38 ideal=4 class=strided {{.*}}
    }
  }
  constexpr int widths[] = {1, 2};
  for (int w : widths)
    y[threadIdx.x * w] = 0;
// CHECK: [[@LINE-1]]:5: access: kernel=passes op=store base=y elem=4 expr='y[threadIdx.x * w]' sectors=6 ideal=4 class=strided {{.*}}
// CHECK: [[@LINE-2]]:5: warning: uncoalesced store to 'y[threadIdx.x * w]': 6 sectors per request, ideal 4
// RAGGED: [[@LINE-3]]:5: access: kernel=passes op=store base=y elem=4 expr='y[threadIdx.x * w]' sectors=6 ideal=4 class=strided {{.*}}
}
