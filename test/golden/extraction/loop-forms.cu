// Every loop form binds its induction variable, and its condition bounds the
// sampled iterations: a[tid*4 + j] for j = 0..3 touches 16 sectors per request
// (two lanes per sector); sampling j = 4..7 too would give 16.5.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:

__global__ void forms(float *a, int n) {
  for (int j = 0; j < 4; j++)
    a[threadIdx.x * 4 + j] = 0;
  // CHECK: [[@LINE-1]]:5: access: kernel=forms op=store base=a elem=4 expr='a[threadIdx.x * 4 + j]' sectors=16 ideal=4 class=strided
  int j = 0;
  while (j < 4) {
    a[threadIdx.x * 4 + j] = 1;
    // CHECK: [[@LINE-1]]:5: access: kernel=forms op=store base=a elem=4 expr='a[threadIdx.x * 4 + j]' sectors=16 ideal=4 class=strided
    ++j;
  }
  int k = 0;
  do {
    a[threadIdx.x * 4 + k] = 2;
    // CHECK: [[@LINE-1]]:5: access: kernel=forms op=store base=a elem=4 expr='a[threadIdx.x * 4 + k]' sectors=16 ideal=4 class=strided
    k += 1;
  } while (k < 4);
  // A step that depends on something the loop changes is not an induction:
  // m is evaluated exactly over the first 8 iterations, 0, 1, 3, 7, ..., 127:
  // only iteration 0 starts on a sector, (4 + 7 * 5) / 8 = 4.88.
  int s = 1;
  for (int m = 0; m < n; m += s) {
    a[m + threadIdx.x] = 3;
    // CHECK: [[@LINE-1]]:5: access: kernel=forms op=store base=a elem=4 expr='a[m + threadIdx.x]' sectors=4.88 ideal=4 class=misaligned
    s = s * 2;
  }
}
