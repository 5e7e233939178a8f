// nvcc's identity macros, which clang does not define: code written for nvcc
// tests them (cuCollections' cuco/detail/__config stops with #error "NVCC
// version not found"; cuda_hgemm's ptx.h and llm.c's cuda_common.h pick a
// branch by __CUDACC_VER_MAJOR__; ggml reads __CUDA_ARCH_LIST__). The
// compatibility header defines them for the user's code (docs/cuda-compat.md),
// with the two nvcc defines only with --extended-lambda and
// --expt-relaxed-constexpr (features clang always has). Each branch below
// leaves one access, on its own line: the wrong branch fails the closed world.
// RUN: %coalesce-lint --print-accesses --fail-on=never %s | FileCheck %s --implicit-check-not=access: --implicit-check-not=error
// RUN: %coalesce-lint --arch=sm_80 --print-accesses --fail-on=never %s | FileCheck %s --check-prefix=SM80 --implicit-check-not=access: --implicit-check-not=error
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__) || !defined(__CUDACC_VER_BUILD__)
#error "NVCC version not found"
#endif
#if defined(__NVCC__)
#error "clang's parse must not claim to be nvcc's front end"
#endif

__global__ void k(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 == CUDA_VERSION
  out[i] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
// SM80: [[@LINE-2]]:3: access: kernel=k op=store base=out elem=4 expr='out[i]' sectors=4 ideal=4 class=coalesced {{.*}}
#else
  out[2 * i] = 1.0f;
#endif
#if __CUDA_ARCH_LIST__ == 900
  out[i + 1] = 2.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i + 1]' sectors=5 ideal=4 class=misaligned {{.*}}
#elif __CUDA_ARCH_LIST__ == 800
  out[i + 2] = 2.0f;
// SM80: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[i + 2]' sectors=5 ideal=4 class=misaligned {{.*}}
#endif
#if __CUDACC_EXTENDED_LAMBDA__ && __CUDACC_RELAXED_CONSTEXPR__
  out[3 * i] = 3.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=k op=store base=out elem=4 expr='out[3 * i]' sectors=12 ideal=4 class=strided {{.*}}
// SM80: [[@LINE-2]]:3: access: kernel=k op=store base=out elem=4 expr='out[3 * i]' sectors=12 ideal=4 class=strided {{.*}}
#endif
  // clang has both features without a flag: a __device__ lambda in host
  // code, a constexpr host function called from device code.
}
constexpr int twice(int x) { return 2 * x; }
__global__ void lambdas(float *out) {
  auto at = [] __device__(int j) { return twice(j); };
  out[at(threadIdx.x)] = 1.0f;
// CHECK: [[@LINE-1]]:3: access: kernel=lambdas op=store base=out elem=4 expr='out[at(threadIdx.x)]' sectors=8 ideal=4 class=strided {{.*}}
// SM80: [[@LINE-2]]:3: access: kernel=lambdas op=store base=out elem=4 expr='out[at(threadIdx.x)]' sectors=8 ideal=4 class=strided {{.*}}
}
