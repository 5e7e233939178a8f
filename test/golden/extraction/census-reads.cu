// Memory operations the walk used to skip while the census saw them
// (issue 26, moderngpu at first contact): each is in the report now.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 18 memory operations in the census of 4 kernels, 0 missing from the report

// A local array initialized from global memory (moderngpu's segmented
// sort: `int p[2] = { mp_data[cta], mp_data[cta + 1] };`): the
// initializer's loads run.
__global__ void init_list(const int *mp, int *out) {
  int cta = blockIdx.x;
  int p[2] = {mp[cta], mp[cta + 1]};
// CHECK-DAG: [[@LINE-1]]:15: access: kernel=init_list op=load base=mp elem=4 expr='mp[cta]' sectors=1 ideal=4 class=uniform {{.*}}
// CHECK-DAG: [[@LINE-2]]:24: access: kernel=init_list op=load base=mp elem=4 expr='mp[cta + 1]' sectors=1 ideal=4 class=uniform {{.*}}
  out[cta * 256 + threadIdx.x] = p[0] + p[1];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=init_list op=store base=out elem=4 expr='out[cta * 256 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}

// A struct copied from a conditional lvalue (moderngpu's segmented
// reduction: `carry_out_values[cta] = (segments[0] != -1) ?
// x_shared[segments[0]] : init;`): each arm is read where it is chosen,
// and the condition's and the index's loads are walked.
struct best {
  float a[6];
};
__global__ void struct_select(best *out, const int *seg, best init) {
  __shared__ best sh[256];
  int segments[2];
  segments[0] = seg[threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:17: access: kernel=struct_select op=load base=seg elem=4 expr='seg[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
  __syncthreads();
  if (!threadIdx.x)
    out[blockIdx.x] = (segments[0] != -1) ? sh[segments[0]] : init;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=struct_select op=store base=out elem=24 {{.*}}
}

// A struct's assignment in an arm of a conditional (moderngpu's
// cta_scan: `x[i] = i ? ... : (x[i] = (index < count) ? x[i] : init);`):
// the inner assignment and its source are walked.
struct pair2 {
  int a, b;
};
template <int vt>
__global__ void assign_in_arm(pair2 *out, const pair2 *in, int count,
                              pair2 init) {
  pair2 x[vt];
  int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < vt; i++) {
    int index = vt * tid + i;
    x[i] = i ? x[i - 1] : (x[i] = (index < count) ? in[index] : init);
// CHECK-DAG: [[@LINE-1]]:53: access: kernel=assign_in_arm op=load base=in elem=8 expr='in[index]' sectors=16 ideal=4 class=strided {{.*}}
  }
  out[tid] = x[vt - 1];
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=assign_in_arm op=store base=out elem=8 {{.*}}
}
template __global__ void assign_in_arm<2>(pair2 *, const pair2 *, int, pair2);

// Compile-time loops written as recursive templates nest one call per
// iteration (moderngpu's iterate_t<i, n>::eval): an access 20 calls deep
// is walked (the limit was 16).
template <int n> struct deep {
  __device__ static void at(float *p, int i) { deep<n - 1>::at(p, i); }
};
template <> struct deep<0> {
  __device__ static void at(float *p, int i) { p[i] = 0.0f; }
// CHECK-DAG: [[@LINE-1]]:48: access: kernel=nested op=store base=p elem=4 expr='p[i]' sectors=4 ideal=4 class=coalesced {{.*}}
};
__global__ void nested(float *p) { deep<20>::at(p, blockIdx.x * 256 + threadIdx.x); }
