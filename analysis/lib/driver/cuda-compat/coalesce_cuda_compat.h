/*===- coalesce_cuda_compat.h - CUDA intrinsics clang's wrappers lack -----===*
 *
 * coalesce-lint parses CUDA with clang, which does not include the toolkit's
 * sm_32_intrinsics.h: clang's own __clang_cuda_intrinsics.h defines the
 * cache-hint loads and stores instead, and clang 22's set is incomplete.
 * Code nvcc accepts, such as llm.c's
 *
 *     __stcs(out + i, value);          // float *, float
 *
 * then fails with "no matching function for call to '__stcs'". This header
 * declares, for clang's CUDA parse only, exactly the overloads that the CUDA
 * toolkit's sm_32_intrinsics.h declares and clang 22 does not define (found
 * by experiment: test/tools/check_cuda_compat.py, docs/cuda-compat.md):
 *
 *   __ldca, __ldlu            all 30 element types (scalars, vectors)
 *   __stwb, __stcg, __stcs    all 30 element types
 *   __ldcg, __ldcs, __ldcv    unsigned long (clang has the other 29)
 *   __stwt                    long, unsigned long (clang has the other 28)
 *
 * 155 functions; and the host halves of nvcc's ::min / ::max / umin / umax /
 * llmin / llmax / ullmin / ullmax (38 functions, see below). __ldg is
 * complete in clang 22, and the __half, __half2,
 * __nv_bfloat16 and __nv_bfloat162 overloads of all ten come from the
 * toolkit's cuda_fp16.hpp / cuda_bf16.hpp, which clang compiles as they are.
 *
 * The signatures are the toolkit's (same parameter and return types, static
 * __device__ inline), so overload resolution picks what nvcc picks. The
 * bodies are what a static analyzer needs: a load returns *ptr, a store does
 * *ptr = value. They are not meant for code generation (they drop the cache
 * hint), and the tool only parses.
 *
 * Guard: clang (not nvcc, not a host C++ compiler), CUDA, clang's
 * __clang_cuda_intrinsics.h already seen (the set this header completes; it
 * comes with the CUDA runtime wrapper clang -include's first, so with
 * -nocudainc, or if this file were included before the wrapper, the header
 * does nothing), C++11 or later,
 * and the same architecture condition as clang's own definitions
 * (!__CUDA_ARCH__ || __CUDA_ARCH__ >= 320, so the host side of a CUDA parse,
 * which type-checks __device__ bodies too, sees them as well), and clang
 * major <= 22: the versions checked to lack them. Re-check a newer clang with
 *
 *     python3 test/tools/check_cuda_compat.py /path/to/clang++
 *
 * after raising the bound below: it lists, in "without the header", what
 * that clang still lacks. If it lacks nothing, leave the bound where it is;
 * if it gained only some overloads, split the list below accordingly (a
 * definition clang already has would be a redefinition error).
 *
 * Meant to be passed with -include (before the user's file). Marked as a
 * system header, like clang's wrappers: no warnings from it, and the
 * analyzer treats its functions as library code (it models the ten
 * intrinsics by name at the call site).
 *===----------------------------------------------------------------------===*/
#ifndef COALESCE_CUDA_COMPAT_H
#define COALESCE_CUDA_COMPAT_H

#if defined(__clang__) && defined(__CUDA__) &&                                \
    defined(__CLANG_CUDA_INTRINSICS_H__) && defined(__cplusplus) &&           \
    __cplusplus >= 201103L && __clang_major__ <= 22 &&                        \
    (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 320)

#pragma clang system_header

/* vector_types.h (char2 ... double2) came with clang's CUDA runtime
 * wrapper (see the guard). */

#pragma push_macro("__COALESCE_LD")
#pragma push_macro("__COALESCE_ST")
#pragma push_macro("__COALESCE_ALL_TYPES")

#define __COALESCE_LD(__Name, __Type)                                         \
  static __device__ __forceinline__ __Type __Name(const __Type *__ptr) {      \
    return *__ptr;                                                            \
  }
#define __COALESCE_ST(__Name, __Type)                                         \
  static __device__ __forceinline__ void __Name(__Type *__ptr,                \
                                                __Type __value) {             \
    *__ptr = __value;                                                         \
  }

/* The 30 element types of sm_32_intrinsics.h, in its order. */
#define __COALESCE_ALL_TYPES(__M, __Name)                                     \
  __M(__Name, long)                                                           \
  __M(__Name, unsigned long)                                                  \
  __M(__Name, char)                                                           \
  __M(__Name, signed char)                                                    \
  __M(__Name, short)                                                          \
  __M(__Name, int)                                                            \
  __M(__Name, long long)                                                      \
  __M(__Name, char2)                                                          \
  __M(__Name, char4)                                                          \
  __M(__Name, short2)                                                         \
  __M(__Name, short4)                                                         \
  __M(__Name, int2)                                                           \
  __M(__Name, int4)                                                           \
  __M(__Name, longlong2)                                                      \
  __M(__Name, unsigned char)                                                  \
  __M(__Name, unsigned short)                                                 \
  __M(__Name, unsigned int)                                                   \
  __M(__Name, unsigned long long)                                             \
  __M(__Name, uchar2)                                                         \
  __M(__Name, uchar4)                                                         \
  __M(__Name, ushort2)                                                        \
  __M(__Name, ushort4)                                                        \
  __M(__Name, uint2)                                                          \
  __M(__Name, uint4)                                                          \
  __M(__Name, ulonglong2)                                                     \
  __M(__Name, float)                                                          \
  __M(__Name, double)                                                         \
  __M(__Name, float2)                                                         \
  __M(__Name, float4)                                                         \
  __M(__Name, double2)

/* Families clang 22 lacks entirely. */
__COALESCE_ALL_TYPES(__COALESCE_LD, __ldca)
__COALESCE_ALL_TYPES(__COALESCE_LD, __ldlu)
__COALESCE_ALL_TYPES(__COALESCE_ST, __stwb)
__COALESCE_ALL_TYPES(__COALESCE_ST, __stcg)
__COALESCE_ALL_TYPES(__COALESCE_ST, __stcs)

/* Single overloads missing from families clang 22 has. */
__COALESCE_LD(__ldcg, unsigned long)
__COALESCE_LD(__ldcs, unsigned long)
__COALESCE_LD(__ldcv, unsigned long)
__COALESCE_ST(__stwt, long)
__COALESCE_ST(__stwt, unsigned long)

/* Host-side ::min and ::max. nvcc's crt/math_functions.hpp declares these
 * __host__ __device__, so host code (a launch configuration's
 * max(1, n / block)) calls them unqualified; clang's wrappers declare them
 * __device__ only, and host code that nvcc accepts fails with "no matching
 * function for call to 'max'" -- in the device-side parse too, which
 * type-checks host functions. These are the host halves of nvcc's set, with
 * its parameter and return types (clang overloads __host__ against
 * __device__, so the device halves clang has are untouched). The first
 * eight are crt/math_functions.hpp's __HELPER_FUNC_LINKAGE ones (inline
 * __host__ __device__), the rest its __MATH_FUNCTIONS_DECL__ ones (static
 * inline __host__ __device__). */
#pragma push_macro("__COALESCE_HMIN")
#pragma push_macro("__COALESCE_HMAX")
#define __COALESCE_HMIN(__Link, __Name, __R, __A, __B)                        \
  __Link __host__ __forceinline__ __R __Name(const __A __a, const __B __b) {  \
    return static_cast<__R>(__a) < static_cast<__R>(__b)                      \
               ? static_cast<__R>(__a)                                        \
               : static_cast<__R>(__b);                                       \
  }
#define __COALESCE_HMAX(__Link, __Name, __R, __A, __B)                        \
  __Link __host__ __forceinline__ __R __Name(const __A __a, const __B __b) {  \
    return static_cast<__R>(__a) > static_cast<__R>(__b)                      \
               ? static_cast<__R>(__a)                                        \
               : static_cast<__R>(__b);                                       \
  }

__COALESCE_HMIN(, min, int, int, int)
__COALESCE_HMIN(, umin, unsigned int, unsigned int, unsigned int)
__COALESCE_HMIN(, llmin, long long int, long long int, long long int)
__COALESCE_HMIN(, ullmin, unsigned long long int, unsigned long long int,
                unsigned long long int)
__COALESCE_HMAX(, max, int, int, int)
__COALESCE_HMAX(, umax, unsigned int, unsigned int, unsigned int)
__COALESCE_HMAX(, llmax, long long int, long long int, long long int)
__COALESCE_HMAX(, ullmax, unsigned long long int, unsigned long long int,
                unsigned long long int)

#define __COALESCE_HMINMAX(__R, __A, __B)                                     \
  __COALESCE_HMIN(static, min, __R, __A, __B)                                 \
  __COALESCE_HMAX(static, max, __R, __A, __B)
__COALESCE_HMINMAX(unsigned int, unsigned int, unsigned int)
__COALESCE_HMINMAX(unsigned int, int, unsigned int)
__COALESCE_HMINMAX(unsigned int, unsigned int, int)
__COALESCE_HMINMAX(long int, long int, long int)
__COALESCE_HMINMAX(unsigned long int, unsigned long int, unsigned long int)
__COALESCE_HMINMAX(unsigned long int, long int, unsigned long int)
__COALESCE_HMINMAX(unsigned long int, unsigned long int, long int)
__COALESCE_HMINMAX(long long int, long long int, long long int)
__COALESCE_HMINMAX(unsigned long long int, unsigned long long int,
                   unsigned long long int)
__COALESCE_HMINMAX(unsigned long long int, long long int,
                   unsigned long long int)
__COALESCE_HMINMAX(unsigned long long int, unsigned long long int,
                   long long int)
__COALESCE_HMINMAX(float, float, float)
__COALESCE_HMINMAX(double, double, double)
__COALESCE_HMINMAX(double, float, double)
__COALESCE_HMINMAX(double, double, float)
#undef __COALESCE_HMINMAX
#pragma pop_macro("__COALESCE_HMAX")
#pragma pop_macro("__COALESCE_HMIN")

#pragma pop_macro("__COALESCE_ALL_TYPES")
#pragma pop_macro("__COALESCE_ST")
#pragma pop_macro("__COALESCE_LD")

#endif /* clang CUDA, clang <= 22 */

/* nvcc's identity macros that clang does not define (docs/cuda-compat.md).
 * Code written for nvcc tests them and stops the parse otherwise: cuCollections'
 * cuco/detail/__config has `#error "NVCC version not found"` when
 * __CUDACC_VER_MAJOR__ is missing; cuda_hgemm's ptx.h and llm.c's
 * cuda_common.h pick their nvcc 12+ branch by it; ggml's common.cuh reads
 * the compiled architectures from __CUDA_ARCH_LIST__. Defined here, after
 * clang's runtime wrapper (so the toolkit headers it includes are parsed as
 * clang's CUDA mode parses them), for the user's code only:
 *
 *   __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__   the toolkit's version, from
 *                                                CUDA_VERSION (cuda.h, which
 *                                                the wrapper includes)
 *   __CUDACC_VER_BUILD__                         0 (not in cuda.h)
 *   __CUDA_ARCH_LIST__                           the one architecture parsed
 *                                                (device side), as nvcc
 *                                                defines it for -arch=sm_XY
 *
 *   __CUDACC_EXTENDED_LAMBDA__                  1: clang's CUDA mode always
 *                                                has __device__ lambdas in
 *                                                host code (nvcc with
 *                                                --extended-lambda; cuco
 *                                                stops with #error without)
 *   __CUDACC_RELAXED_CONSTEXPR__                1: constexpr functions are
 *                                                callable from device code
 *                                                (clang's default
 *                                                -fcuda-host-device-constexpr;
 *                                                nvcc with
 *                                                --expt-relaxed-constexpr)
 *
 * __NVCC__ stays undefined: CCCL and the toolkit's headers take it to mean
 * the nvcc front end and would then use its builtins. */
#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__) &&          \
    defined(CUDA_VERSION)
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#endif
#ifndef __CUDACC_VER_MINOR__
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#endif
#ifndef __CUDACC_VER_BUILD__
#define __CUDACC_VER_BUILD__ 0
#endif
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_LIST__)
#define __CUDA_ARCH_LIST__ __CUDA_ARCH__
#endif
#ifndef __CUDACC_EXTENDED_LAMBDA__
#define __CUDACC_EXTENDED_LAMBDA__ 1
#endif
#ifndef __CUDACC_RELAXED_CONSTEXPR__
#define __CUDACC_RELAXED_CONSTEXPR__ 1
#endif
#endif /* clang CUDA: nvcc's identity macros */
#endif /* COALESCE_CUDA_COMPAT_H */
