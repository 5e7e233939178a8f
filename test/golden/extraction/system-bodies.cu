// The parse skips the bodies of system headers' functions that the walker
// never follows (as clangd does for its preambles): they are most of the
// CUDA headers' parse. Those it follows (cub) keep their bodies, with the
// header cache and without; an error inside a skipped body is not reported.
// RUN: %coalesce-lint --no-header-cache --show-compile-errors --print-accesses --fail-on=never %s -- -isystem %S/Inputs/system-bodies 2>&1 | FileCheck %s --implicit-check-not=error
// RUN: %coalesce-lint --show-compile-errors --print-accesses --fail-on=never %s -- -isystem %S/Inputs/system-bodies 2>&1 | FileCheck %s --implicit-check-not=error
#include <bodies.h>

__global__ void viaCub(float *p) {
  cub::storeStrided(p, (int)threadIdx.x, 1.f);
  // CHECK: system-bodies.cu:[[@LINE-1]]:3: access: kernel=viaCub op=store base=p {{.*}} sectors=8 ideal=4 class=strided
}

__global__ void viaLib(float *p) {
  // A call into a library the walker does not follow leaves p unknown.
  lib::storeTwice(p, threadIdx.x);
  // CHECK: system-bodies.cu:[[@LINE-1]]:19: access: kernel=viaLib op=load+store base=p {{.*}} class=unknown
  p[threadIdx.x] = 2.f;
  // CHECK: system-bodies.cu:[[@LINE-1]]:3: access: kernel=viaLib op=store base=p {{.*}} sectors=4 ideal=4 class=coalesced
}

__global__ void viaMethod(lib::counter *c) {
  // A method of an object in global memory, in a library the walker does
  // not follow (cuda::atomic's fetch_add): the object is handed to it.
  c->add(1);
  // CHECK: system-bodies.cu:[[@LINE-1]]:3: access: kernel=viaMethod op=load+store base=c {{.*}} class=unknown
}
// CHECK: 1 warning in 3 kernels (4 accesses analyzed, 2 unknown)
