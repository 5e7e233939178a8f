// Loads are versioned by the stores that may change them (issue 29): the
// two reads of idx[i] around the store are different values, so b - a is
// data (6a + 3), not 0, and the store through it is a gather, not a
// coalesced access. Two reads with no store between are one value.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
__global__ void stored(int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=stored op=load base=idx {{.*}}class=coalesced
  idx[i] = a * 7 + 3;
// CHECK: [[@LINE-1]]:3: access: kernel=stored op=store base=idx {{.*}}class=coalesced
  int b = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=stored op=load base=idx {{.*}}class=coalesced
  out[(b - a) * 32 + i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=stored op=store base=out elem=4 expr='out[(b - a) * 32 + i]' sectors=n/a ideal=n/a class=indirect
}
// No store between the reads: b - a is 0 and the store is coalesced.
__global__ void unchanged(const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=unchanged op=load base=idx {{.*}}class=coalesced
  int b = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=unchanged op=load base=idx {{.*}}class=coalesced
  out[(b - a) * 32 + i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=unchanged op=store base=out elem=4 expr='out[(b - a) * 32 + i]' sectors=4 ideal=4 class=coalesced
}
// A store in one branch only: after the join, memory is a version of its own.
__global__ void branch(int *idx, float *out, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=branch op=load base=idx {{.*}}class=coalesced
  if (c)
    idx[i] = 0;
// CHECK: [[@LINE-1]]:5: access: kernel=branch op=store base=idx {{.*}}class=coalesced
  int b = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=branch op=load base=idx {{.*}}class=coalesced
  out[(b - a) * 32 + i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=branch op=store base=out {{.*}}class=indirect
}
// A store inside an inlined call changes the caller's memory too.
__device__ void clear(int *p) { *p = 0; }
// CHECK: [[@LINE-1]]:33: access: kernel=called op=store base=idx elem=4 expr='*p' {{.*}}class=coalesced
__global__ void called(int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=called op=load base=idx {{.*}}class=coalesced
  clear(&idx[i]);
  int b = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=called op=load base=idx {{.*}}class=coalesced
  out[(b - a) * 32 + i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=called op=store base=out {{.*}}class=indirect
}
// A store in one arm of a switch, and through a reference parameter.
__global__ void switched(int *idx, float *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=switched op=load base=idx {{.*}}class=coalesced
  switch (k) {
  case 0:
    idx[i] = 5;
// CHECK: [[@LINE-1]]:5: access: kernel=switched op=store base=idx {{.*}}class=coalesced
    break;
  }
  int b = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=switched op=load base=idx {{.*}}class=coalesced
  out[(b - a) * 32 + i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=switched op=store base=out {{.*}}class=indirect
}
__device__ void put(int &d, int v) { d = v; }
// CHECK: [[@LINE-1]]:38: access: kernel=referenced op=store base=idx {{.*}}class=coalesced
__global__ void referenced(int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=referenced op=load base=idx {{.*}}class=coalesced
  put(idx[i], 0);
  int b = idx[i];
// CHECK: [[@LINE-1]]:11: access: kernel=referenced op=load base=idx {{.*}}class=coalesced
  out[(b - a) * 32 + i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=referenced op=store base=out {{.*}}class=indirect
}
