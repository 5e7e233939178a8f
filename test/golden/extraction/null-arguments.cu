// A pointer parameter bound to nullptr at the call is null in the callee,
// as `T *p = nullptr;` is: `if (maxp != nullptr)` is false there, so the
// store under it is code that cannot run for that call (fastllm's softmax,
// called with `nullptr, nullptr` by the kernels that keep no running max:
// "cannot follow the pointer 'maxp'" at first contact, thirty-seventh
// session). The kernel that passes a real pointer predicts the store.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 6 memory operations in the census of 2 kernels, 0 missing from the report
__device__ void softmax(const float *in, float *out, float *maxp) {
  float m = in[threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:13: access: kernel=plain op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:13: access: kernel=withMax op=load base=in elem=4 expr='in[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  if (maxp != nullptr)
    maxp[threadIdx.x] = m;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=withMax op=store base=maxp elem=4 expr='maxp[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  out[threadIdx.x] = m;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=plain op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:3: access: kernel=withMax op=store base=out elem=4 expr='out[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
__global__ void plain(const float *in, float *out, int n) {
  softmax(in + blockIdx.x * n, out + blockIdx.x * n, nullptr);
}
__global__ void withMax(const float *in, float *out, int n, float *maxp) {
  softmax(in + blockIdx.x * n, out + blockIdx.x * n, maxp + blockIdx.x * n);
}
