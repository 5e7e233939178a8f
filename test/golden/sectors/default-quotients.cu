// Defaults that make nonsense (issue 26): with every parameter 1024, the
// head size C / NH is 1, the head loop has one iteration and the strided
// store reads as coalesced. The note names the quotient the defaults
// decide and the parameters to give; with real values there is no note.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// RUN: %coalesce-lint --format=json --fail-on=never --param C=768 --param NH=12 %s | FileCheck %s --check-prefix=REAL --implicit-check-not="the defaults make"
__global__ void heads(const float *inp, float *out, int C, int NH) {
  int hs = C / NH;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < hs; i++)
    out[t * hs + i] = inp[t * C + i];
// CHECK: [[@LINE-1]]:5: access: kernel=heads op=store base=out elem=4 expr='out[t * hs + i]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK: [[@LINE-2]]:23: access: kernel=heads op=load base=inp elem=4 expr='inp[t * C + i]' sectors=32 ideal=4 class=strided {{.*}}
// JSON: "the defaults make C / NH = 1, which real sizes rarely are: the verdict may change with the real values (give --param C=... --param NH=...)"
// REAL: "classification": "strided"
}
