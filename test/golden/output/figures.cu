// Figures that are right and read right (issue 28): the stride a warning
// states comes from the same values as its sectors (here n = 1048576, which
// the guard needs, not the default 1024 that made the stride read "0 bytes
// apart"), its formula keeps the source's parentheses, and a mean over
// requests of different sizes says it is one.
// RUN: %not %coalesce-lint %s 2>&1 | FileCheck %s --implicit-check-not=warning:

__global__ void chunk(float *a, int n) {
  int per = n / (blockDim.x * gridDim.x);
  if (n > 100000)
    a[threadIdx.x * per] = 1;
}
// CHECK-DAG: figures.cu:[[@LINE-2]]:5: warning: uncoalesced store to 'a[threadIdx.x * per]': adjacent lanes are 16 bytes apart (4*(n / (blockDim.x*gridDim.x)) with gridDim.x=1024, n=1048576): 16 sectors per request, ideal 4

// 40 lanes at a stride of 8 bytes: a full warp of 8 sectors (ideal 4) and
// one of 8 lanes of 2 (ideal 1): 5 sectors for an ideal of 2.5 on average.
__global__ void partial(float *a) {
  if (threadIdx.x < 40)
    a[threadIdx.x * 2] = 1;
}
// CHECK-DAG: figures.cu:[[@LINE-2]]:5: warning: uncoalesced store to 'a[threadIdx.x * 2]': adjacent lanes are 8 bytes apart: 5 sectors per request, ideal 2.5 on average

// A misaligned access whose requests differ in width (the last block's
// tail) gives the lanes' mean, not "the warp's 250 bytes" of a mean.
__global__ void tailMisaligned(double *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000)
    a[i + 1] = 1;
}
// CHECK-DAG: figures.cu:[[@LINE-2]]:5: warning: misaligned store to 'a[i + 1]': 8.81 sectors per request on average, ideal 7.81 on average; the warp's bytes (31.25 lanes of 8 bytes on average) start 8 bytes into a sector
