// A counter after a loop whose trip count is not known but is the same in
// every lane (issue 26, yalm's att_mix: an unrolled loop over `ctr` steps
// `t` by blockDim.y, then a tail loop goes on from where it stopped): `t`
// is its start plus the step times one unknown count, uniform for the warp,
// so the tail's accesses are predicted. A loop whose condition differs
// between lanes leaves its counter unknown.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 8 memory operations in the census of 2 kernels, 0 missing from the report
#define UNROLL 4
__global__ void att_mix(const float *vh, float *out, int seq_len) {
  int t_stride = blockDim.y;
  int t = threadIdx.y;
  for (int ctr = 0; ctr < seq_len / t_stride - UNROLL + 1; ctr += UNROLL) {
    for (int u = 0; u < UNROLL; u++) {
      out[t * 32 + threadIdx.x] += vh[t * 32 + threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:7: access: kernel=att_mix op=load+store base=out elem=4 expr='out[t * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:36: access: kernel=att_mix op=load base=vh elem=4 expr='vh[t * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
      t += t_stride;
    }
    // A `break` that ends a switch (yalm picks a prefetched value per
    // iteration this way) does not leave the loop.
    switch (ctr % 2) {
    case 0:
      out[ctr] += 1.0f;
// CHECK-DAG: [[@LINE-1]]:7: access: kernel=att_mix op=load+store base=out elem=4 expr='out[ctr]' sectors=1 ideal=4 class=uniform {{.*}}
      break;
    default:
      break;
    }
  }
  for (; t < seq_len; t += t_stride)
    out[t * 32 + threadIdx.x] += vh[t * 32 + threadIdx.x];
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=att_mix op=load+store base=out elem=4 expr='out[t * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:34: access: kernel=att_mix op=load base=vh elem=4 expr='vh[t * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
}
void launch(const float *vh, float *out, int n) {
  att_mix<<<1, dim3(32, 4)>>>(vh, out, n);
}

// Each lane leaves when its own counter passes its own bound: after the
// loop the counter is a per-lane value the engine cannot model.
__global__ void lane_exit(const int *len, float *out) {
  int i = threadIdx.x;
  for (; i < len[threadIdx.x]; i += 32)
// CHECK-DAG: [[@LINE-1]]:14: access: kernel=lane_exit op=load base=len elem=4 expr='len[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
    out[i] = 0.0f;
// CHECK-DAG: [[@LINE-1]]:5: access: kernel=lane_exit op=store base=out elem=4 expr='out[i]' {{.*}}
  out[i * 2] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=lane_exit op=store base=out elem=4 expr='out[i * 2]' sectors=n/a ideal=n/a class=unknown {{.*}}
}
