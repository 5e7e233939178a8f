// More than 20 errors outside kernels (issue 26: TransformerEngine's host-side
// `alignas(64) CUtensorMap`, which CUDA 13 rejects, repeated) do not end the
// parse before the kernels after them (clang stops at 20 unless told not to,
// and then instantiates no template).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// JSON: "kernels": [
// JSON-NEXT: {
// JSON-NEXT: "name": "after_errors",
void host_0() { int *p = 1.5; }
void host_1() { int *p = 1.5; }
void host_2() { int *p = 1.5; }
void host_3() { int *p = 1.5; }
void host_4() { int *p = 1.5; }
void host_5() { int *p = 1.5; }
void host_6() { int *p = 1.5; }
void host_7() { int *p = 1.5; }
void host_8() { int *p = 1.5; }
void host_9() { int *p = 1.5; }
void host_10() { int *p = 1.5; }
void host_11() { int *p = 1.5; }
void host_12() { int *p = 1.5; }
void host_13() { int *p = 1.5; }
void host_14() { int *p = 1.5; }
void host_15() { int *p = 1.5; }
void host_16() { int *p = 1.5; }
void host_17() { int *p = 1.5; }
void host_18() { int *p = 1.5; }
void host_19() { int *p = 1.5; }
void host_20() { int *p = 1.5; }
void host_21() { int *p = 1.5; }
void host_22() { int *p = 1.5; }
void host_23() { int *p = 1.5; }
void host_24() { int *p = 1.5; }
// A template kernel: clang instantiates it at the end of the file, which it
// skips once the error limit is reached.
template <int S> __global__ void after_errors(float *a) {
  a[threadIdx.x * S] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=after_errors op=store base=a elem=4 expr='a[threadIdx.x * S]' sectors=8 ideal=4 class=strided {{.*}}
}
void launch(float *a) { after_errors<2><<<1, 256>>>(a); }
