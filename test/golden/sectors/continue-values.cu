// The values a lane leaves at its `continue` are the ones it starts the
// next pass with (issue 29): a change after the continue belongs to the
// other lanes only. Each number below is the exact average over every
// pass, enumerated lane by lane (a 32-lane block, no data involved); the
// tool before gave 20, 25.75, 7.25 and 28 (it applied `q += 1` to the
// lanes that had continued). Measured on an H100 too (replay.test).
// RUN: %coalesce-lint --print-accesses --fail-on=never --block=32 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --self-check --fail-on=never --block=32 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CENSUS
// RUN: %coalesce-lint --fail-on=never --block=32 --format=json %s | FileCheck %s --check-prefix=WHY
// CENSUS: self-check: 6 memory operations in the census of 5 kernels, 0 missing from the report
// GPU-ARGS: --block=32
#include <cuda_runtime.h>

// Lanes 4-7 (mod 8, shifting with l) add m and continue; the others add 1.
__global__ void keepsAtContinue(float *out) {
  int t = threadIdx.x;
  int q = 0, m = 2 * t;
  for (int l = 0; l < 4; ++l) {
    if ((t + l) & 4) {
      q += m;
      continue;
    }
    q += 1;
  }
  out[q] = 0;
// CHECK: continue-values.cu:[[@LINE-1]]:3: access: kernel=keepsAtContinue op=store base=out elem=4 expr='out[q]' sectors=18 ideal=4 class=strided
}

// The same inner loop, in every pass of an outer one.
__global__ void innerContinues(float *out) {
  int t = threadIdx.x;
  int q = 0, m = 2 * t;
  for (int j = 0; j < 8; ++j) {
    for (int l = 0; l < 4; ++l) {
      if ((t + l) & 4) {
        q += m;
        continue;
      }
      q += 1;
    }
    out[q] = 0;
// CHECK: continue-values.cu:[[@LINE-1]]:5: access: kernel=innerContinues op=store base=out elem=4 expr='out[q]' sectors=25.88 ideal=4 class=strided
  }
}

// Continues at two levels; the outer ones change k and m for the lanes
// that take them.
__global__ void twoLevels(float *out) {
  int t = threadIdx.x;
  int k = t, m = 2 * t, q = 0;
  for (int j = 0; j < 8; ++j) {
    if ((t ^ j) & 1) {
      k += 3;
      continue;
    }
    if ((t + j) & 2) {
      m += k;
      continue;
    }
    for (int l = 0; l < 4; ++l) {
      if ((t + l) & 4) {
        q += m;
        continue;
      }
      q += 1;
    }
    out[q] = 0;
// CHECK: continue-values.cu:[[@LINE-1]]:5: access: kernel=twoLevels op=store base=out elem=4 expr='out[q]' sectors=7 ideal=1 class=strided
    k += 1;
    m += 2;
  }
  out[q] = 0;
// CHECK: continue-values.cu:[[@LINE-1]]:3: access: kernel=twoLevels op=store base=out elem=4 expr='out[q]' sectors=24 ideal=4 class=strided
}

// A loop of known trips inside two other loops' passes is not followed:
// its value afterwards is unknown, and the reason says why (not that the
// trip count is unknown). The tool before named q a value the same in
// every lane and predicted 1 sector.
__global__ void tooDeep(float *out) {
  int t = threadIdx.x;
  int q = 0;
  for (int i = 0; i < 4; ++i) {
    if (t & 1)
      continue;
    for (int j = 0; j < 4; ++j) {
      if ((t + j) & 2)
        continue;
      for (int l = 0; l < 4; ++l) {
        if ((t + l) & 4)
          continue;
        q += 1;
      }
    }
  }
  out[q] = 0;
// CHECK: continue-values.cu:[[@LINE-1]]:3: access: kernel=tooDeep op=store base=out elem=4 expr='out[q]' sectors=n/a ideal=n/a class=unknown
// WHY: "reason": "address depends on a per-lane value the engine cannot model: q, its value after the loop at continue-values.cu:{{[0-9]+}} (its passes are not followed inside the passes of 2 enclosing loops)"
}

// Lanes that break keep the values they had at their break (odd lanes
// k = t + 64, the others t + 2: 9 sectors): the sampled passes join each
// pass's breaks into the values its lanes leave with.
__global__ void breakKeeps(float *out) {
  int t = threadIdx.x;
  int k = t;
  for (int i = 0; i < 2; ++i) {
    if (t & 1) {
      k += 64;
      break;
    }
    k += 1;
  }
  out[k] = 1.0f;
// CHECK: continue-values.cu:[[@LINE-1]]:3: access: kernel=breakKeeps op=store base=out elem=4 expr='out[k]' sectors=9 ideal=4 class=strided stride=n/a block=32(command-line)
}
