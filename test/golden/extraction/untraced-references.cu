// A reference bound to memory the walker cannot follow (here an element
// through a pointer inline assembly produced) was read as a reference to a
// temporary: a local object, so stores through it were dropped (`r.x = 1`
// reported nothing, the census found it missing) and loads were excluded
// as local memory or as "a variable held by value" (forty-first session,
// found in CuTe's `dst = src` of lmdeploy's copy kernels). Each is now
// unknown, naming the reference.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: 0 missing from the report
// RUN: %coalesce-lint --self-check --format=json --fail-on=never --block=32 %s 2>/dev/null | FileCheck %s --check-prefix=JSON
// JSON: "reason": "cannot follow the reference 'r' to the memory it is bound to"
// JSON: "reason": "cannot follow the reference 'r' to the memory it is bound to"
// JSON: "reason": "cannot follow the reference 'at(src)' to the memory it is bound to"
// JSON: "reason": "cannot follow the reference 'r' to the memory it is bound to"
// JSON: "reason": "cannot follow the reference 'r' to the memory it is bound to"
#include <cuda_runtime.h>

struct F4 {
  float x, y, z, w;
};
__device__ float *opaque(float *p) {
  float *q;
  asm("mov.b64 %0, %1;" : "=l"(q) : "l"(p));
// CHECK-DAG: [[@LINE-1]]:41: access: kernel=u1 op=load base=p {{.*}} class=unknown {{.*}}
// CHECK-DAG: [[@LINE-2]]:41: access: kernel=u3 op=load base=p {{.*}} class=unknown {{.*}}
  return q;
}
__device__ F4 *opaque4(F4 *p) {
  F4 *q;
  asm("mov.b64 %0, %1;" : "=l"(q) : "l"(p));
// CHECK-DAG: [[@LINE-1]]:41: access: kernel=u2 op=load base=p {{.*}} class=unknown {{.*}}
// CHECK-DAG: [[@LINE-2]]:41: access: kernel=u4 op=load base=p {{.*}} class=unknown {{.*}}
// CHECK-DAG: [[@LINE-3]]:41: access: kernel=u5 op=load base=p {{.*}} class=unknown {{.*}}
  return q;
}
__device__ float &at(float *p) { return opaque(p)[threadIdx.x]; }

__global__ void u1(float *src) {
  float &r = opaque(src)[threadIdx.x];
  r = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=u1 op=store base=r elem=4 expr='r' {{.*}} class=unknown {{.*}}
}
__global__ void u2(F4 *src) {
  F4 &r = opaque4(src)[threadIdx.x];
  r.x = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=u2 op=store base=r.x elem=4 expr='r.x' {{.*}} class=unknown {{.*}}
}
__global__ void u3(float *src) {
  at(src) = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=u3 op=store base=at(src) elem=4 expr='at(src)' {{.*}} class=unknown {{.*}}
}
__device__ void put(F4 &r) { r.y = 2.0f; }
// CHECK-DAG: [[@LINE-1]]:30: access: kernel=u4 op=store base=r.y elem=4 expr='r.y' {{.*}} class=unknown {{.*}}
__global__ void u4(F4 *src) { put(opaque4(src)[threadIdx.x]); }
__device__ void put2(const F4 &r, float *o) { o[threadIdx.x] = r.z; }
// CHECK-DAG: [[@LINE-1]]:47: access: kernel=u5 op=store base=o elem=4 expr='o[threadIdx.x]' sectors=4 ideal=4 class=coalesced {{.*}}
// CHECK-DAG: [[@LINE-2]]:64: access: kernel=u5 op=load base=r.z elem=4 expr='r.z' {{.*}} class=unknown {{.*}}
__global__ void u5(F4 *src, float *o) { put2(opaque4(src)[threadIdx.x], o); }
// CHECK: 0 warnings in 5 kernels (11 accesses analyzed, 10 unknown)
