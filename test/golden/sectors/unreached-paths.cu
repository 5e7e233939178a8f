// An access that no lane runs under the assumed values through one path of
// inlined calls, and that another path predicts, is one access with a
// note, not a second record "unknown: no lane executes" (NVIDIA Warp's
// sparse.cu reaches its row sort through three calls, one behind a loop
// whose exit the defaults contradict: 91 such unknowns at first contact).
// A key whose high 32 bits are compared (`row_col >> 32 < row`) is tried
// at a value beyond 32 bits (Warp's bsr_find_row_offsets; no default below
// 2^32 lets a row past 0 through). Issue 26, thirty-seventh session.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
__device__ void copyRow(const int *in, int *out, int n) {
  for (int b = threadIdx.x; b < n; b += blockDim.x)
    out[b] = in[b];
// CHECK: [[@LINE-1]]:5: access: kernel=rows op=store base=out elem=4 expr='out[b]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:14: access: kernel=rows op=load base=in elem=4 expr='in[b]' sectors=4 ideal=4 class=coalesced {{.*}}
}
__global__ void rows(const int *in, int *out, int n, int m) {
  copyRow(in, out, n);
  if ((threadIdx.x + m) * (threadIdx.x + m) == 2)
    copyRow(in + m, out, n);
}
// JSON: "no lane runs this access through the call at unreached-paths.cu:[[# @LINE - 2]] under the assumed values: not predicted there"
// JSON: "no lane runs this access through the call at unreached-paths.cu:[[# @LINE - 3]] under the assumed values: not predicted there"
typedef unsigned long long Key;
__device__ unsigned rowOf(const Key &key) { return unsigned(key >> 32); }
// CHECK: [[@LINE-1]]:61: access: kernel=rowStarts op=load base=keys elem=8 expr='key' sectors=1 ideal=8 class=uniform {{.*}}
__global__ void rowStarts(const Key *keys, int *starts, unsigned rows) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows || row == 0)
    return;
  if (rowOf(keys[0]) < row)
    return;
  starts[row] = 0;
// CHECK: [[@LINE-1]]:3: access: kernel=rowStarts op=store base=starts elem=4 expr='starts[row]' sectors=3.67 ideal=3.67 class=coalesced {{.*}}
}
// JSON: "assuming key = 1099511627776 so that the access executes"
