// A guard that every lane fails under the default values (n = t = 1024 makes
// n - 1 - t negative) is retried with one guarding parameter at 0 or 2^20
// (eliminateAlone, never launched); a launch whose block size comes from a
// local variable initialized with a constant gives the block shape, and a
// launch in a host loop gives t at the loop's first iteration (t = 0).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON

#define THREADS 128

__global__ void eliminate(float *m, const float *a, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1 - t)
    return;
  m[n * (i + t + 1) + t] = a[n * (i + t + 1) + t] / a[n * t + t];
  // CHECK: [[@LINE-1]]:3: access: kernel=eliminate op=store base=m elem=4 expr='m[n * (i + t + 1) + t]' sectors=31.97 ideal=4 class=strided stride=4096 block=128(launch-site)
  // CHECK: [[@LINE-2]]:28: access: kernel=eliminate op=load base=a elem=4 expr='a[n * (i + t + 1) + t]' sectors=31.97 ideal=4 class=strided
  // CHECK: [[@LINE-3]]:53: access: kernel=eliminate op=load base=a elem=4 expr='a[n * t + t]' sectors=1 ideal=4 class=uniform
}

__global__ void eliminateAlone(float *m, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1 - t)
    return;
  m[n * (i + t + 1) + t] = 0;
  // The stride from the n the sectors are counted with (n = 1048576 so
  // that the guard lets a lane through), not the default 1024 (issue 28).
  // CHECK: [[@LINE-3]]:3: access: kernel=eliminateAlone op=store base=m elem=4 expr='m[n * (i + t + 1) + t]' sectors=32 ideal=4 class=strided stride=4194304 block=256(assumed)
}

void run(float *m, float *a, int n) {
  int threads = THREADS;
  dim3 block(threads), grid((n + threads - 1) / threads);
  for (int t = 0; t < n - 1; ++t)
    eliminate<<<grid, block>>>(m, a, n, t);
}
// JSON: "assuming n = 1048576 so that the access executes"
