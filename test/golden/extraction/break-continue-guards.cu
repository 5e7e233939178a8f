// `if (c) break;` and `if (c) continue;` guard the rest of their block with
// !c in that pass of the loop, as `if (c) return;` guards the rest of the
// function: the lanes that leave do not take part in the accesses after it.
// Before, only return did: `cont` was predicted coalesced (4 sectors, ideal
// 4) with half of its lanes skipping the store.
// RUN: %coalesce-lint --print-accesses --fail-on=never --param n=100 --param K=100 %s | FileCheck %s --implicit-check-not=access:
// RUN: %coalesce-lint --fail-on=never --param K=100 --param gridDim.x=1 %s 2>&1 | FileCheck %s --check-prefix=COST

// Odd lanes skip the store: 16 lanes, 4 sectors for an ideal of 2.
__global__ void cont(float *out) {
  for (int j = 0; j < 8; ++j) {
    if (threadIdx.x % 2)
      continue;
    out[j * 32 + threadIdx.x] = 1.0f;
    // CHECK: [[@LINE-1]]:5: access: kernel=cont op=store base=out elem=4 expr='out[j * 32 + threadIdx.x]' sectors=4 ideal=2 class=strided stride=4 {{.*}}
  }
}

// Lanes whose index passes n leave the loop: with n = 100 only lanes 0 to
// 49 of the first warps store (the average over the warps that run it).
__global__ void brk(float *out, const float *in, int n) {
  for (int j = 0;; ++j) {
    int idx = j * 256 + threadIdx.x * 2;
    if (idx >= n)
      break;
    out[idx] = in[idx];
    // CHECK: [[@LINE-1]]:5: access: kernel=brk op=store base=out elem=4 expr='out[idx]' sectors=6.5 ideal=3.5 class=strided stride=8 {{.*}}
    // CHECK: [[@LINE-2]]:16: access: kernel=brk op=load base=in elem=4 expr='in[idx]' sectors=6.5 ideal=3.5 class=strided stride=8 {{.*}}
  }
}

// A break of a nested loop leaves that loop only: the store after it runs
// in every lane.
__global__ void nested(float *out) {
  for (int j = 0; j < 4; ++j) {
    if (threadIdx.x % 2) {
      for (int k = 0; k < 2; ++k)
        break;
    }
    out[j * 32 + threadIdx.x] = 1.0f;
    // CHECK: [[@LINE-1]]:5: access: kernel=nested op=store base=out elem=4 expr='out[j * 32 + threadIdx.x]' sectors=4 ideal=4 class=coalesced stride=4 {{.*}}
  }
}

// A break that ends its then-block (after other statements) counts too: the
// first store runs in lanes 16 to 31 of warp 0 and in every lane of the 7
// others (3.75 sectors on average), the second in lanes 0 to 15 of warp 0.
__global__ void tail(float *out, const int *flags) {
  for (int j = 0; j < 4; ++j) {
    if (threadIdx.x >= 16) {
      out[threadIdx.x] = 0.0f;
      // CHECK: [[@LINE-1]]:7: access: kernel=tail op=store base=out elem=4 expr='out[threadIdx.x]' sectors=3.75 ideal=3.75 class=coalesced stride=4 {{.*}}
      break;
    }
    out[64 + j * 32 + threadIdx.x] = 1.0f;
    // CHECK: [[@LINE-1]]:5: access: kernel=tail op=store base=out elem=4 expr='out[64 + j * 32 + threadIdx.x]' sectors=2 ideal=2 class=coalesced stride=4 {{.*}}
  }
}

// A break every pass reaches ends the loop: with K = 100 the loop runs 4
// passes (start = 0, 32, 64, 96), and the store's cost counts them (before,
// "per pass of the loop": its trip count was not known).
__global__ void trips(float *out, int K) {
  for (int e = 0;; ++e) {
    int start = e * 32;
    if (start >= K)
      break;
    out[(start + threadIdx.x) * 2] = 1.0f;
    // CHECK: [[@LINE-1]]:5: access: kernel=trips op=store base=out elem=4 expr='out[(start + threadIdx.x) * 2]' sectors=8 ideal=4 class=strided stride=8 {{.*}}
    // COST: [[@LINE-2]]:5: note: wastes about 4 KiB of the 8 KiB this store fetches per launch (1 block x 8 warps x 4 passes of the loop at break-continue-guards.cu:[[#@LINE-6]])
  }
}
