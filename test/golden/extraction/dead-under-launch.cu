// Code that a launch's known values switch off (llama_cu_awq's `if (loff !=
// -1)` launched with loff = -1) is dead for that launch even where other
// values are defaulted (n below): that launch makes no request there, so the
// access is not "unknown: no lane executes" for it; the launch that runs it
// gives the prediction, with a note on the one that does not.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
__global__ void matvec(float *out, const int *pos, int loff, int n) {
  int index = blockIdx.x * blockDim.y + threadIdx.y;
  if (index >= n)
    return;
  if (threadIdx.x == 0) {
    if (loff != -1)
      out += loff + (*pos * n);
// CHECK: [[@LINE-1]]:22: access: kernel=matvec op=load base=pos elem=4 expr='*pos' sectors=1 ideal=1 class=uniform stride=0 block=32x4(launch-site)
    out[index] = 1.0f;
// CHECK: [[@LINE-1]]:5: access: kernel=matvec op=store base=out elem=4 expr='out[index]' sectors=1 ideal=1 class=coalesced {{.*}}
  }
}
// JSON: "not executed by 1 of the 2 launch shapes"
void run(float *out, const int *pos, int n) {
  matvec<<<64, dim3(32, 4)>>>(out, pos, -1, n);
  matvec<<<64, dim3(32, 4)>>>(out, pos, 0, n);
}
