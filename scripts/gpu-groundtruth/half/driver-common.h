// What the half-precision ground-truth drivers share: a CUDA call check and
// the xorshift64 generator their inputs come from (the same sequence in
// every driver, so a recorded run can be reproduced).
#pragma once
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

static unsigned long long g_state = 0x2545F4914F6CDD1DULL;
static inline unsigned long long next_u64() {
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return g_state;
}
static inline float urand() {  // uniform in [-1, 1)
    return static_cast<float>((next_u64() >> 11) * (1.0 / 9007199254740992.0)) * 2.0f - 1.0f;
}
