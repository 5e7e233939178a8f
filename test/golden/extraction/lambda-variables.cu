// A lambda held in a variable runs where it is called (Marlin's kernels in
// fastllm: `auto matmul_a8 = [&](int k) {...}`, called only in the `else`
// of `if constexpr (!is_a_8bit)`). The census scanned such a body where the
// lambda is written, so the instantiation that never calls it had its
// local-array operations "missing from the report" (1,332 in fastllm at
// first contact, thirty-seventh session); it now reaches the body through
// the calls, as the walker does. An init-capture (`[s = scale[...]]`) is
// read where the lambda is made: the walker skipped it (a census miss in
// either census) until then.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 14 memory operations in the census of 2 kernels, 0 missing from the report
template <bool A8> __global__ void pipeline(const int *in, int *out, int *scale) {
  int frag[2][4];
  int acc[4] = {0, 0, 0, 0};
  auto fetch = [&](int k) {
    for (int i = 0; i < 4; i++)
      frag[k % 2][i] = in[threadIdx.x * 4 + i];
// CHECK-DAG: [[@LINE-1]]:24: access: kernel=pipeline op=load base=in elem=4 expr='in[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
// CHECK-DAG: [[@LINE-2]]:24: access: kernel=pipeline op=load base=in elem=4 expr='in[threadIdx.x * 4 + i]' sectors=16 ideal=4 class=strided {{.*}}
  };
  auto mm = [&](int k) {
    for (int j = 0; j < 4; j++)
      acc[j] += frag[k % 2][j];
  };
  auto mm8 = [&, s = scale[blockIdx.x]](int k) {
    for (int j = 0; j < 4; j++)
      acc[j] += s * frag[k % 2][j];
  };
// CHECK-DAG: [[@LINE-4]]:22: access: kernel=pipeline op=load base=scale elem=4 expr='scale[blockIdx.x]' sectors=1 ideal=4 class=uniform {{.*}}
// CHECK-DAG: [[@LINE-5]]:22: access: kernel=pipeline op=load base=scale elem=4 expr='scale[blockIdx.x]' sectors=1 ideal=4 class=uniform {{.*}}
  for (int k = 0; k < 2; k++) {
    fetch(k);
    if constexpr (!A8)
      mm(k);
    else
      mm8(k);
  }
  for (int j = 0; j < 4; j++)
    out[threadIdx.x * 4 + j] = acc[j];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=pipeline op=store base=out elem=4 expr='out[threadIdx.x * 4 + j]' sectors=16 ideal=4 class=strided {{.*}}
// CHECK-DAG: [[@LINE-2]]:5: access: kernel=pipeline op=store base=out elem=4 expr='out[threadIdx.x * 4 + j]' sectors=16 ideal=4 class=strided {{.*}}
}
template __global__ void pipeline<false>(const int *, int *, int *);
template __global__ void pipeline<true>(const int *, int *, int *);
