// The standard library's tuple (libstdc++), element by element as libcu++'s
// (tuples.cu). nvcc compiles std::get in device code only with
// --expt-relaxed-constexpr, so this file is not run on the GPU.
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=256 %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --self-check --fail-on=never --block=256 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// CENSUS: self-check: 1 memory operations in the census of 1 kernels, 0 missing from the report
#include <tuple>

// The standard library's tuple, made by its constructor.
__global__ void stdTuple(float *out) {
  std::tuple<int, int> t(int(threadIdx.x), int(3 * threadIdx.x));
  out[std::get<1>(t)] = 1.0f;
// CHECK-DAG: [[@LINE-1]]:3: access: kernel=stdTuple op=store base=out elem=4 expr='out[std::get<1>(t)]' sectors=12 ideal=4 class=strided {{.*}}
}

