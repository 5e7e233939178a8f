// How variables are followed: parameters changed in the kernel, increments,
// switches, loops with two counters or shadowed counters, arrays of pointers.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:

// Parameters are variables: p += tid * n makes each lane's row its own.
__global__ void movedParams(float *p, float *q, int n, int i) {
  p += threadIdx.x * n;
  p[0] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=movedParams op=store base=p elem=4 expr='p[0]' sectors=32 ideal=4 class=strided
  q += 1;
  q[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=movedParams op=store base=q elem=4 expr='q[blockIdx.x * blockDim.x + threadIdx.x]' sectors=5 ideal=4 class=misaligned
  i += threadIdx.x * 8;
  q[i] = 3.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=movedParams op=store base=q elem=4 expr='q[i]' sectors=32 ideal=4 class=strided
}

// ++i is the new value, i++ the old one.
__global__ void increments(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x - 1;
  a[++i] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=increments op=store base=a elem=4 expr='a[++i]' sectors=4 ideal=4 class=coalesced
  int j = i++;
  a[j] = 2.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=increments op=store base=a elem=4 expr='a[j]' sectors=4 ideal=4 class=coalesced
}

// A variable changed in a switch holds the value of the arm whose label
// holds, else what it held (issue 29: it was opaque): with k = 1024, the
// default, i - j is 0; with k = 0 it is -5 * threadIdx.x, 20 bytes apart.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param switched:k=0 %s | FileCheck %s --check-prefix=K0
__global__ void switched(float *a, int k) {
  int i = threadIdx.x, j = threadIdx.x;
  switch (k) {
  case 0: i = 2 * threadIdx.x; j = 7 * threadIdx.x; break;
  default: break;
  }
  a[i - j] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=switched op=store base=a elem=4 expr='a[i - j]' sectors=1 ideal=4 class=uniform
  // K0: [[@LINE-2]]:3: access: kernel=switched op=store base=a elem=4 expr='a[i - j]' sectors=21 ideal=4 class=strided
}

// An arm that falls into the next label goes on with its values there, as
// the CFG has it (issue 29: what the switch changed was unknown): k = 0
// runs both arms (i - j = -5 * threadIdx.x, 20 bytes apart), k = 1 the
// second (-6 * threadIdx.x), k = 1024 neither (0). `default:` first holds
// where no label after it does: with k = 1 its store runs in no lane (it
// ran in every lane before).
// RUN: %coalesce-lint --print-accesses --fail-on=never --param fallthrough:k=0 --param defaultFirst:k=3 %s | FileCheck %s --check-prefix=F0
// RUN: %coalesce-lint --print-accesses --fail-on=never --param fallthrough:k=1 --param defaultFirst:k=1 %s | FileCheck %s --check-prefix=F1
__global__ void fallthrough(float *a, int k) {
  int i = threadIdx.x, j = threadIdx.x;
  switch (k) {
  case 0: i = 2 * threadIdx.x;
  case 1: j = 7 * threadIdx.x; break;
  default: break;
  }
  a[i - j] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=fallthrough op=store base=a elem=4 expr='a[i - j]' sectors=1 ideal=4 class=uniform
  // F0: [[@LINE-2]]:3: access: kernel=fallthrough op=store base=a elem=4 expr='a[i - j]' sectors=21 ideal=4 class=strided
  // F1: [[@LINE-3]]:3: access: kernel=fallthrough op=store base=a elem=4 expr='a[i - j]' sectors=25 ideal=4 class=strided
}
__global__ void defaultFirst(float *a, int k) {
  int s = 32;
  switch (k) {
  default: s = 8; a[threadIdx.x * 2] = 0.0f; break;
  // CHECK: [[@LINE-1]]:19: access: kernel=defaultFirst op=store base=a elem=4 expr='a[threadIdx.x * 2]' sectors=8 ideal=4 class=strided
  // F0: [[@LINE-2]]:19: access: kernel=defaultFirst op=store base=a elem=4 expr='a[threadIdx.x * 2]' sectors=8 ideal=4 class=strided
  // F1: [[@LINE-3]]:19: access: kernel=defaultFirst op=store base=a elem=4 expr='a[threadIdx.x * 2]' sectors=n/a ideal=n/a class=unknown
  case 1: s = 1; break;
  }
  a[threadIdx.x * s] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=defaultFirst op=store base=a elem=4 expr='a[threadIdx.x * s]' sectors=32 ideal=4 class=strided
  // F0: [[@LINE-2]]:3: access: kernel=defaultFirst op=store base=a elem=4 expr='a[threadIdx.x * s]' sectors=32 ideal=4 class=strided
  // F1: [[@LINE-3]]:3: access: kernel=defaultFirst op=store base=a elem=4 expr='a[threadIdx.x * s]' sectors=4 ideal=4 class=coalesced
}

// Two counters of one loop share its iteration; a shadowed counter is its own.
__global__ void counters(float *a) {
  for (int k = 0, j = threadIdx.x; k < 8; ++k, j += 33)
    a[j - 33 * k] = 1.0f;
  // CHECK: [[@LINE-1]]:5: access: kernel=counters op=store base=a elem=4 expr='a[j - 33 * k]' sectors=4 ideal=4 class=coalesced
  for (int i = 0; i < 4; ++i)
    for (int i = 0; i < 4; ++i)
      a[threadIdx.x * 32 + i] = 2.0f;
  // CHECK: [[@LINE-1]]:7: access: kernel=counters op=store base=a elem=4 expr='a[threadIdx.x * 32 + i]' sectors=32 ideal=4 class=strided
}

// Each lane reading its own pointer reaches its own allocation: a gather.
__global__ void pointerRows(float **rows) {
  rows[threadIdx.x][0] = 1.0f;
  // CHECK: [[@LINE-1]]:3: access: kernel=pointerRows op=load base=rows elem=8 expr='rows[threadIdx.x]' sectors=8 ideal=8 class=coalesced
  // CHECK: [[@LINE-2]]:3: access: kernel=pointerRows op=store base=rows[threadIdx.x] elem=4 expr='rows[threadIdx.x][0]' sectors=n/a ideal=n/a class=indirect
}

// A conditional read as a whole: each arm is read where it is chosen.
__global__ void chosen(float *a, float *b, float *o, int c) {
  o[threadIdx.x] = (threadIdx.x & 1) ? a[threadIdx.x * 2] : b[threadIdx.x];
  // CHECK: [[@LINE-1]]:3: access: kernel=chosen op=store base=o
  // CHECK: [[@LINE-2]]:40: access: kernel=chosen op=load base=a elem=4 expr='a[threadIdx.x * 2]' sectors=8 ideal=2 class=strided
  // CHECK: [[@LINE-3]]:61: access: kernel=chosen op=load base=b elem=4 expr='b[threadIdx.x]' sectors=4 ideal=2 class=strided
}

// A flag parameter without a value: the arm it guards is predicted with the
// flag that reaches it (c = 0 for the else arm), and the note says so.
__global__ void flagged(float *a, float *b, float *o, int c) {
  o[threadIdx.x] = c ? a[threadIdx.x] : b[threadIdx.x * 2];
  // CHECK: [[@LINE-1]]:3: access: kernel=flagged op=store base=o
  // CHECK: [[@LINE-2]]:24: access: kernel=flagged op=load base=a elem=4 expr='a[threadIdx.x]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-3]]:41: access: kernel=flagged op=load base=b elem=4 expr='b[threadIdx.x * 2]' sectors=8 ideal=4 class=strided
}
// RUN: %coalesce-lint --format=json --fail-on=never %s | FileCheck %s --check-prefix=JSON
// JSON: "expr": "b[threadIdx.x * 2]"
// JSON: "assuming c = 0 so that the access executes"
