// curand's device API on states kept in global memory (issue 7: never
// silent, fewer unknowns). curand_init(seed, subsequence, offset, &s[id])
// is modelled as a store of the whole state element; the generators
// (curand, curand_uniform, curand_normal, ...) are walked in the CUDA
// headers and their field accesses reported at the user's call.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access:
//
// curandState (XORWOW) is { unsigned d, v[5]; int boxmuller_flag,
// boxmuller_flag_double; float boxmuller_extra; double
// boxmuller_extra_double; }: 48 bytes, 8-byte aligned (the double). Lane l's
// element starts at 48*l; 48 > 32, so every lane's piece of any width <= 16
// lies in sectors no other lane touches: 32 sectors per request, whatever
// the piece. The tool moves a 48-byte, 8-aligned struct as 6 pieces of 8
// bytes: ideal 32*8/32 = 8. (The skip-ahead's own traffic inside
// curand_init, to the state and to curand's precomputed matrices, is not
// modelled.)
#include <curand_kernel.h>

__global__ void initStates(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
  // CHECK: [[@LINE-1]]:29: access: kernel=initStates op=store base=states elem=48 expr='states[id]' sectors=32 ideal=8 class=aos stride=48 block=256(launch-site)
}

// curand_uniform(&states[id]) walks into curand(), which reads and writes
// the 4-byte words d and v[0..4] one by one: each a field of a 48-byte
// struct at stride 48, 32 sectors per request, ideal 4.
__global__ void drawGlobal(curandState *states, float *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  out[id] = curand_uniform(&states[id]);
  // CHECK: [[@LINE-1]]:3: access: kernel=drawGlobal op=store base=out elem=4 expr='out[id]' sectors=4 ideal=4 class=coalesced
  // CHECK: [[@LINE-2]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos stride=48
  // CHECK: [[@LINE-3]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-4]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-5]]:13: access: kernel=drawGlobal op=store base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos stride=48
  // CHECK: [[@LINE-6]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-7]]:13: access: kernel=drawGlobal op=store base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-8]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-9]]:13: access: kernel=drawGlobal op=store base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-10]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-11]]:13: access: kernel=drawGlobal op=store base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-12]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-13]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-14]]:13: access: kernel=drawGlobal op=store base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-15]]:13: access: kernel=drawGlobal op=load+store base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-16]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
  // CHECK: [[@LINE-17]]:13: access: kernel=drawGlobal op=load base=states elem=4 expr='curand_uniform(&states[id])' sectors=32 ideal=4 class=aos
}

// The samples' idiom: a local copy drawn from, written back. Only the two
// copies touch global memory (6 pieces of 8 bytes each, as above).
__global__ void drawLocal(curandState *states, float *out) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  // CHECK: [[@LINE-1]]:23: access: kernel=drawLocal op=load base=states elem=48 expr='states[id]' sectors=32 ideal=8 class=aos stride=48
  out[id] = curand_normal(&local);
  // CHECK: [[@LINE-1]]:3: access: kernel=drawLocal op=store base=out elem=4 expr='out[id]' sectors=4 ideal=4 class=coalesced
  states[id] = local;
  // CHECK: [[@LINE-1]]:3: access: kernel=drawLocal op=store base=states elem=48 expr='states[id]' sectors=32 ideal=8 class=aos stride=48
}

// Sobol: curand_init(directions, offset, &s[id]) reads the 32 direction
// words (every lane the same address: 1 sector) and stores the 140-byte,
// 4-aligned curandStateSobol32 in 4-byte pieces at stride 140: 32 sectors,
// ideal 4.
__global__ void initSobol(curandStateSobol32 *states,
                          curandDirectionVectors32_t *dirs) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(dirs[0], id, &states[id]);
  // CHECK: [[@LINE-1]]:15: access: kernel=initSobol op=load base=dirs elem=4 expr='dirs[0]' sectors=1 {{.*}} class=uniform
  // CHECK: [[@LINE-2]]:29: access: kernel=initSobol op=store base=states elem=140 expr='states[id]' sectors=32 ideal=4 class=aos stride=140
}

void run(curandState *s, float *o, curandStateSobol32 *q,
         curandDirectionVectors32_t *d) {
  initStates<<<100, 256>>>(s, 1234);
  drawGlobal<<<100, 256>>>(s, o);
  drawLocal<<<100, 256>>>(s, o);
  initSobol<<<100, 256>>>(q, d);
}
// CHECK: accesses analyzed, 0 unknown)
