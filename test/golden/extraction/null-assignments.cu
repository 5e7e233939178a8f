// A pointer assigned nullptr on one path and left pointing at memory on the
// other is the memory where the paths join, as a null initializer or a
// `nullptr` argument is: the null one is never dereferenced where the code
// runs (TransformerEngine's top-k, `if (pass == 0 || ...) out_buf =
// nullptr;` before `if (out_buf) out_buf[pos] = value;`: 88 unknowns
// "cannot follow the pointer 'out_buf'" until the thirty-seventh session's
// review put the rule in one place, the value of any null pointer
// expression).
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 2 memory operations in the census of 1 kernels, 0 missing from the report
__device__ void filter(const float *in, float *out_buf, int pass) {
  if (pass == 0)
    out_buf = nullptr;
  if (out_buf)
    out_buf[threadIdx.x] = in[threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=passes op=store base=buf elem=4 expr='out_buf[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:28: access: kernel=passes op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
__global__ void passes(const float *in, float *buf, int pass) {
  filter(in, buf, pass);
}
