// Every construct that is a global-memory access, and every one that is not.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:

struct Pair { float x, y; };
__device__ float gArray[1024];
__device__ int gScalar;
__constant__ float cTable[64];

__global__ void constructs(float *a, Pair *p, const float *__restrict__ r,
                           int *counts, float4 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float tile[256];
  float local[4];
  float t = 0;

  // Loads and stores through a pointer parameter.
  a[i] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=a elem=4 expr='a[i]'
  t = a[i];
  // CHECK: [[@LINE-1]]:7: access: kernel=constructs op=load base=a elem=4 expr='a[i]'
  // Compound assignment and increments are a load and a store.
  a[i] += 2.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=load+store base=a elem=4 expr='a[i]'
  counts[i]++;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=load+store base=counts elem=4 expr='counts[i]'
  --counts[i];
  // CHECK: [[@LINE-1]]:5: access: kernel=constructs op=load+store base=counts elem=4 expr='counts[i]'
  // Dereferences and pointer arithmetic.
  *(a + i) = t;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=a elem=4 expr='*(a + i)'
  // Members through pointers.
  t += p[i].x;
  // CHECK: [[@LINE-1]]:8: access: kernel=constructs op=load base=p elem=4 expr='p[i].x'
  (p + i)->y = t;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=p elem=4 expr='(p + i)->y'
  // __ldg and __restrict__ pointers.
  t += __ldg(&r[i]);
  // CHECK: [[@LINE-1]]:15: access: kernel=constructs op=load base=r elem=4 expr='r[i]'
  // A local pointer derived from a parameter.
  float *row = a + n * blockIdx.y;
  row[threadIdx.x] = t;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=a elem=4 expr='row[threadIdx.x]'
  // __device__ globals.
  gArray[i % 1024] = t;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=gArray elem=4 expr='gArray[i % 1024]'
  t += gScalar;
  // CHECK: [[@LINE-1]]:8: access: kernel=constructs op=load base=gScalar elem=4 expr='gScalar'
  // Vector types: one 16-byte access.
  float4 q = v[i];
  // CHECK: [[@LINE-1]]:14: access: kernel=constructs op=load base=v elem=16 expr='v[i]'
  v[i] = q;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=v elem=16 expr='v[i]'
  // Atomics.
  atomicAdd(&counts[0], 1);
  // CHECK: [[@LINE-1]]:14: access: kernel=constructs op=atomic base=counts elem=4 expr='counts[0]'

  // Not global memory: shared, local, constant, by-value parameters.
  tile[threadIdx.x] = t;
  local[threadIdx.x % 4] = t;
  t += cTable[threadIdx.x % 64] + local[0] + tile[0] + n;
  a[i] = t;
  // CHECK: [[@LINE-1]]:3: access: kernel=constructs op=store base=a elem=4 expr='a[i]'
  // CHECK-NOT: access:
}
