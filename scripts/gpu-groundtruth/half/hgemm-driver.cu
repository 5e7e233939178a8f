// Ground-truth driver for Bruce-Lee-LY/cuda_hgemm (0d26c2e4): stands in for
// src/main.cu, which needs gflags (not on the GPU machine). Calls each of the
// eighteen host wrappers of src/simt_naive.cu, src/wmma/*.cu and src/mma/*.cu
// once on the same inputs (main.cu also runs some of them; this calls the ones
// it comments out as well): C (M x N) = A (M x K) * B (K x N), A row-major, B
// column-major (B[col * K + k]), C row-major, as in the suite's tester.h. Each
// result is checked against a CPU reference on 4096 sampled elements (relative
// L2 error; fp16 inputs; simtNaive accumulates in fp16, the tensor-core
// kernels as their fragments say).
//
//   hgemm-driver [M [N [K]]]      (default M = 512, N = 2048, K = 1024: main.cu's)
//
// The tiled kernels have no bounds checks: M a multiple of 256, N of 2048 (the
// grid's BLOCK_STRIDE of 16 tiles of 128 columns), K of 32. Exit status: 0 all
// within their tolerance, 1 otherwise, 2 on a CUDA error.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define HGEMM_FUNC(name) void name(half *A, half *B, half *C, size_t M, size_t N, size_t K)
HGEMM_FUNC(simtNaive);
HGEMM_FUNC(wmmaNaive);
HGEMM_FUNC(wmmaBase);
HGEMM_FUNC(wmmaPadding);
HGEMM_FUNC(wmmaAsync);
HGEMM_FUNC(wmmaAsyncPg2s);
HGEMM_FUNC(wmmaAsyncPg2sPs2r);
HGEMM_FUNC(wmmaAsyncStage2);
HGEMM_FUNC(wmmaAsyncStage3);
HGEMM_FUNC(mmaNaive);
HGEMM_FUNC(mmaBase);
HGEMM_FUNC(mmaPermuted);
HGEMM_FUNC(mmaAsync);
HGEMM_FUNC(mmaAsyncPg2s);
HGEMM_FUNC(mmaAsyncPg2sPs2r);
HGEMM_FUNC(mmaAsyncStage2);
HGEMM_FUNC(mmaAsyncStage3);
HGEMM_FUNC(mmaAsyncStage4);

#include "driver-common.h"

int main(int argc, char **argv) {
    size_t M = argc > 1 ? strtoull(argv[1], nullptr, 10) : 512;
    size_t N = argc > 2 ? strtoull(argv[2], nullptr, 10) : 2048;
    size_t K = argc > 3 ? strtoull(argv[3], nullptr, 10) : 1024;
    if (!M || !N || !K || M % 256 || N % 2048 || K % 32) {
        fprintf(stderr, "M must be a multiple of 256, N of 2048, K of 32\n");
        return 2;
    }
    std::vector<half> hA(M * K), hB(K * N), hC(M * N);
    std::vector<float> fA(M * K), fB(K * N);
    for (size_t i = 0; i < M * K; ++i) { hA[i] = __float2half(urand()); fA[i] = __half2float(hA[i]); }
    for (size_t i = 0; i < K * N; ++i) { hB[i] = __float2half(urand()); fB[i] = __half2float(hB[i]); }
    const int S = 4096;
    std::vector<size_t> si(S), sj(S);
    std::vector<double> ref(S);
    double refn = 0;
    for (int s = 0; s < S; ++s) {
        si[s] = next_u64() % M;
        sj[s] = next_u64() % N;
        double acc = 0;
        for (size_t k = 0; k < K; ++k) acc += static_cast<double>(fA[si[s] * K + k]) * fB[sj[s] * K + k];
        ref[s] = acc;
        refn += acc * acc;
    }
    half *A, *B, *C;
    CK(cudaMalloc(&A, M * K * sizeof(half)));
    CK(cudaMalloc(&B, K * N * sizeof(half)));
    CK(cudaMalloc(&C, M * N * sizeof(half)));
    CK(cudaMemcpy(A, hA.data(), M * K * sizeof(half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), K * N * sizeof(half), cudaMemcpyHostToDevice));

    struct { const char *name; void (*f)(half *, half *, half *, size_t, size_t, size_t); double tol; } fs[] = {
        {"simtNaive", simtNaive, 5e-2},
        {"wmmaNaive", wmmaNaive, 1e-2},
        {"wmmaBase", wmmaBase, 1e-2},
        {"wmmaPadding", wmmaPadding, 1e-2},
        {"wmmaAsync", wmmaAsync, 1e-2},
        {"wmmaAsyncPg2s", wmmaAsyncPg2s, 1e-2},
        {"wmmaAsyncPg2sPs2r", wmmaAsyncPg2sPs2r, 1e-2},
        {"wmmaAsyncStage2", wmmaAsyncStage2, 1e-2},
        {"wmmaAsyncStage3", wmmaAsyncStage3, 1e-2},
        {"mmaNaive", mmaNaive, 1e-2},
        {"mmaBase", mmaBase, 1e-2},
        {"mmaPermuted", mmaPermuted, 1e-2},
        {"mmaAsync", mmaAsync, 1e-2},
        {"mmaAsyncPg2s", mmaAsyncPg2s, 1e-2},
        {"mmaAsyncPg2sPs2r", mmaAsyncPg2sPs2r, 1e-2},
        {"mmaAsyncStage2", mmaAsyncStage2, 1e-2},
        {"mmaAsyncStage3", mmaAsyncStage3, 1e-2},
        {"mmaAsyncStage4", mmaAsyncStage4, 1e-2},
    };
    int bad = 0;
    printf("hgemm M=%zu N=%zu K=%zu\n", M, N, K);
    for (auto &x : fs) {
        CK(cudaMemset(C, 0xff, M * N * sizeof(half)));  // NaN: every sampled element must be written
        x.f(A, B, C, M, N, K);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hC.data(), C, M * N * sizeof(half), cudaMemcpyDeviceToHost));
        double err = 0;
        for (int s = 0; s < S; ++s) {
            double d = __half2float(hC[si[s] * N + sj[s]]) - ref[s];
            err += d * d;
        }
        double rel = std::sqrt(err / refn);
        bool ok = rel < x.tol;  // NaN fails too
        bad += !ok;
        printf("%-18s rel_err %.3e %s\n", x.name, rel, ok ? "ok" : "FAIL");
    }
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    return bad ? 1 : 0;
}
