// Ground-truth driver for Bruce-Lee-LY/cuda_hgemv (55eaca46): stands in for
// src/main.cu, which needs gflags (not on the GPU machine). Calls each of the
// twelve host wrappers of src/thread/*.cu and src/warp/*.cu once on the same
// inputs, C (1 x N) = A (1 x K) * B (K x N), B column-major (B[col * K + k]) as
// in the suite's tester.h, and checks every result against a CPU reference
// (relative L2 error; fp16 inputs, fp32 accumulation in the kernels).
//
//   hgemv-driver [N [K]]      (default N = 4096, K = 4096)
//
// N and K must be multiples of 128 (the *Smem kernels stage A in chunks of
// 128 halves without a bound check). Exit status: 0 all checked results
// within 1e-2, 1 otherwise, 2 on a CUDA error.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define HGEMV_FUNC(name) void name(half *A, half *B, half *C, size_t N, size_t K)
HGEMV_FUNC(threadNaive);
HGEMV_FUNC(threadSmem);
HGEMV_FUNC(warp1Naive);
HGEMV_FUNC(warp1Smem);
HGEMV_FUNC(warp2Naive);
HGEMV_FUNC(warp2Smem);
HGEMV_FUNC(warp4Naive);
HGEMV_FUNC(warp4Smem);
HGEMV_FUNC(warp8Naive);
HGEMV_FUNC(warp8Smem);
HGEMV_FUNC(warp16Naive);
HGEMV_FUNC(warp16Smem);

#include "driver-common.h"

int main(int argc, char **argv) {
    size_t N = argc > 1 ? strtoull(argv[1], nullptr, 10) : 4096;
    size_t K = argc > 2 ? strtoull(argv[2], nullptr, 10) : 4096;
    if (N == 0 || K == 0 || N % 128 || K % 128) {
        fprintf(stderr, "N and K must be positive multiples of 128\n");
        return 2;
    }
    std::vector<half> hA(K), hB(K * N), hC(N);
    std::vector<float> fA(K), fB(K * N);
    for (size_t i = 0; i < K; ++i) { hA[i] = __float2half(urand()); fA[i] = __half2float(hA[i]); }
    for (size_t i = 0; i < K * N; ++i) { hB[i] = __float2half(urand()); fB[i] = __half2float(hB[i]); }
    std::vector<double> ref(N);
    double refn = 0;
    for (size_t c = 0; c < N; ++c) {
        double s = 0;
        for (size_t k = 0; k < K; ++k) s += static_cast<double>(fA[k]) * fB[c * K + k];
        ref[c] = s;
        refn += s * s;
    }
    half *A, *B, *C;
    CK(cudaMalloc(&A, K * sizeof(half)));
    CK(cudaMalloc(&B, K * N * sizeof(half)));
    CK(cudaMalloc(&C, N * sizeof(half)));
    CK(cudaMemcpy(A, hA.data(), K * sizeof(half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), K * N * sizeof(half), cudaMemcpyHostToDevice));

    struct { const char *name; void (*f)(half *, half *, half *, size_t, size_t); } fs[] = {
        {"threadNaive", threadNaive}, {"threadSmem", threadSmem},   {"warp1Naive", warp1Naive},
        {"warp1Smem", warp1Smem},     {"warp2Naive", warp2Naive},   {"warp2Smem", warp2Smem},
        {"warp4Naive", warp4Naive},   {"warp4Smem", warp4Smem},     {"warp8Naive", warp8Naive},
        {"warp8Smem", warp8Smem},     {"warp16Naive", warp16Naive}, {"warp16Smem", warp16Smem},
    };
    int bad = 0;
    printf("hgemv N=%zu K=%zu\n", N, K);
    for (auto &x : fs) {
        CK(cudaMemset(C, 0xff, N * sizeof(half)));  // NaN: every element must be written
        x.f(A, B, C, N, K);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hC.data(), C, N * sizeof(half), cudaMemcpyDeviceToHost));
        double err = 0;
        for (size_t c = 0; c < N; ++c) {
            double d = __half2float(hC[c]) - ref[c];
            err += d * d;
        }
        double rel = std::sqrt(err / refn);
        bool ok = rel < 1e-2;  // NaN fails too
        bad += !ok;
        printf("%-12s rel_err %.3e %s\n", x.name, rel, ok ? "ok" : "FAIL");
    }
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    return bad ? 1 : 0;
}
