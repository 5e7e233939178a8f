#!/usr/bin/env bash
# Run coalesce-lint over every CUDA translation unit of a third-party suite and
# time a plain clang device-side parse of the same file for comparison.
#
#   scripts/real-code/run-suite.sh SUITE_NAME SUITE_DIR OUTDIR
#
# SUITE_NAME selects built-in settings for the suites measured in
# docs/real-code.md (cuda-samples, parboil, polybench-acc, rodinia, shoc,
# thrust; since the tenth session also ggml-cuda, llm.c, cub-examples,
# fastgemv, te-common, sgemm-cuda, tigr, csr5; since the thirteenth calm,
# llama-awq, hgemv, hgemm; since the fourteenth yalm, moderngpu; since the sixteenth bitsandbytes; since the twenty-fifth gemm-opt, cuco; since the thirty-sixth gardenia, warp-native; since the thirty-seventh fastllm, ctranslate2; since the thirty-eighth mlx; since the thirty-ninth candle, mistralrs; since the fortieth lmdeploy):
# which subtree holds the CUDA sources, which of its .cu files are
# translation units (a regular expression on the path, where the suite's
# build compiles only some), and which include directories and -D flags the
# suite's own build passes. Any other name scans every *.cu under SUITE_DIR.
#
# Environment:
#   COALESCE_LINT   the tool (default: build/bin/coalesce-lint of this repo)
#   CLANGXX         clang driver for the baseline (default: clang++-22)
#   CUDA_PATH       CUDA toolkit (default: /usr/local/cuda)
#   ARCH            GPU architecture (default: sm_90)
#   JOBS            files processed in parallel (default: 2)
#   TIMEOUT         seconds per file and per command (default: 120)
#   SELF_CHECK      1: run the tool with --self-check (the census of every
#                   kernel's memory operations; scripts/real-code/census.py
#                   summarizes it per suite; the tool's exit 5 means misses)
#   SUITE_INCLUDES  extra include dirs, ':'-separated, relative to SUITE_DIR
#                   or absolute (added after the built-in ones)
#   EXTRA_ARGS      extra compiler arguments for both commands (word-split)
#   TU_ONLY         an ERE on the relative path: only the translation units
#                   it matches, of those the suite's settings keep (a quick
#                   comparison on the files a change touches)
#   CUDA_SAMPLES_COMMON  helper_cuda.h & co. for rodinia (default:
#                   SUITE_DIR/../cuda-samples/Common when it exists)
#
# OUTDIR gets:
#   results.tsv   one row per translation unit (header in the first line)
#   meta.tsv      suite name, directory, commit, tool version, date, settings
#   json/ID.json  the tool's report per file
#   logs/ID.{tool,clang}.{err,time}  stderr and /usr/bin/time output
#
# Stand-ins for headers a suite's configure step or dependencies provide are
# generated under OUTDIR/gen-include: SHOC's config.h (empty), the OpenCL
# types parboil.h names (CL/cl.h), the two cuda-samples helpers CSR5 uses
# (helper_cuda.h, helper_functions.h), TransformerEngine's build-generated
# string_code_*.h (the NVRTC sources as strings; empty strings here).
#
# Files that other .cu files #include are not analyzed on their own (they are
# analyzed inside the includer); they are listed in OUTDIR/skipped-included.txt.
# The .cu files a suite's TU filter leaves out are in OUTDIR/filtered-out.txt.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "${1:-}" = "__one" ]; then
  # Worker: __one FILE (settings in the environment).
  f=$2
  rel=${f#"$RS_SUITE_DIR"/}
  id=$(printf '%s' "$rel" | sed 's|[^A-Za-z0-9._-]|_|g')
  json="$RS_OUT/json/$id.json"
  logs="$RS_OUT/logs/$id"
  read -r -a incs <<<"$RS_INCLUDE_ARGS"
  read -r -a extra <<<"${EXTRA_ARGS:-}"
  # The file's directory: -I (nvcc searches it for "" includes only; a
  # suite whose directory holds a header named like a system one, e.g.
  # yalm's src/time.h, gets -iquote instead).
  args=("${RS_DIR_FLAG:--I}$(dirname "$f")" "${incs[@]}" "${extra[@]}")

  timed() { # timed TIMEFILE CMD... -> exit status of CMD (124 on timeout)
    local tf=$1; shift
    local t0 t1 rc
    t0=$(date +%s.%N)
    if [ -n "$RS_TIME" ]; then
      "$RS_TIME" -f '%e %M' -o "$tf" timeout "$RS_TIMEOUT" "$@"
      rc=$?
    else
      timeout "$RS_TIMEOUT" "$@"
      rc=$?
    fi
    t1=$(date +%s.%N)
    # Wall time from date (finer than time's %e); RSS from /usr/bin/time.
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
    rss=NA
    if [ -s "$tf" ]; then rss=$(tail -n1 "$tf" | awk '{print $2}'); fi
    return $rc
  }

  check=()
  [ "${SELF_CHECK:-0}" = 1 ] && check=(--self-check)
  timed "$logs.tool.time" "$RS_TOOL" --format=json --fail-on=never "${check[@]}" \
    --arch="$RS_ARCH" --cuda-path="$RS_CUDA" -o "$json" "$f" -- "${args[@]}" \
    >/dev/null 2>"$logs.tool.err"
  trc=$?; twall=$wall; trss=$rss
  # The same device-side parse as the tool's: CUDA 13 keeps CUB/Thrust/libcu++
  # in include/cccl, which nvcc (and the tool) put on the include path.
  cccl=()
  [ -d "$RS_CUDA/include/cccl" ] && cccl=(-isystem "$RS_CUDA/include/cccl")
  # -ferror-limit=0 as the tool parses: a file with clang-only errors in
  # host code (TransformerEngine's alignas(64) CUtensorMap, 1,896 of them
  # in activation/gelu.cu) is parsed to its end, not stopped at the 20th.
  # The host compiler's own headers (gcc's omp.h), as nvcc and the tool
  # find them (thirty-sixth session; before it, clang's parse stopped at
  # the first such missing header).
  hostinc=()
  [ -n "$RS_HOST_INCLUDE" ] && hostinc=(-idirafter "$RS_HOST_INCLUDE")
  timed "$logs.clang.time" "$RS_CLANG" -x cuda --cuda-device-only \
    --cuda-gpu-arch="$RS_ARCH" --cuda-path="$RS_CUDA" "${cccl[@]}" "${hostinc[@]}" \
    -fsyntax-only -w -ferror-limit=0 "${args[@]}" "$f" >/dev/null 2>"$logs.clang.err"
  crc=$?; cwall=$wall; crss=$rss
  cerr=$(grep -c 'error:' "$logs.clang.err")
  nglobal=$(grep -c '__global__' "$f")
  [ -f "$json" ] || json=""
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$RS_SUITE" "$rel" "$trc" "$twall" "$trss" "$crc" "$cwall" "$crss" \
    "$cerr" "$nglobal" "${json:+json/$id.json}" >"$RS_OUT/rows/$id.tsv"
  exit 0
fi

if [ $# -ne 3 ]; then
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi

suite=$1
suite_dir=$(cd "$2" && pwd) || { echo "run-suite: no directory $2" >&2; exit 2; }
out=$3
mkdir -p "$out" && out=$(cd "$out" && pwd)

tool=${COALESCE_LINT:-$repo/build/bin/coalesce-lint}
clang=${CLANGXX:-clang++-22}
cuda=${CUDA_PATH:-/usr/local/cuda}
arch=${ARCH:-sm_90}
jobs=${JOBS:-2}
tmo=${TIMEOUT:-120}
[ -x "$tool" ] || { echo "run-suite: $tool is not executable" >&2; exit 2; }
command -v "$clang" >/dev/null || { echo "run-suite: no $clang" >&2; exit 2; }
timebin=""
[ -x /usr/bin/time ] && timebin=/usr/bin/time

# Built-in per-suite settings: source subtree and include dirs (relative to
# the suite root), as the suites' own Makefiles/CMake pass them.
src_root=.
incs=()
defs=()      # -D flags of the suite's build (both commands get them)
tu_filter="" # ERE on the path relative to SUITE_DIR; empty: every .cu
tu_exclude="" # ERE on the same path: not a translation unit
dir_flag=-I  # how the file's own directory is passed (-I or -iquote)
case "$suite" in
  cuda-samples)  src_root=Samples; incs=(Common) ;;
  parboil)       src_root=benchmarks; incs=(common/include) ;;
  polybench-acc) src_root=CUDA; incs=(CUDA/utilities common) ;;
  rodinia)       src_root=cuda; incs=(cuda/util)
                 common=${CUDA_SAMPLES_COMMON:-$suite_dir/../cuda-samples/Common}
                 [ -d "$common" ] && incs+=("$(cd "$common" && pwd)") ;;
  shoc)          src_root=src/cuda; incs=(src/common src/cuda/common src/cuda/include) ;;
  # thrust's examples against the toolkit's thrust and cub (the
  # repository's own headers need its cub and libcu++ submodules). Its
  # tests need thrust 2 headers that CUDA 13's CCCL removed
  # (thrust/limits.h): clang parses 9 of 254.
  thrust)        src_root=examples ;;
  # Tenth session ("today's kinds", first contact in docs/real-code.md).
  # ggml's CUDA backend (ggml-org/ggml, the same src/ggml-cuda as
  # llama.cpp's ggml/src/ggml-cuda): the translation units its
  # CMakeLists.txt compiles by default, i.e. every top-level .cu, the
  # fattn-tile/fattn-mma/mmq/mmf template instances and only 4 of the 61
  # fattn-vec instances (GGML_CUDA_FA_ALL_QUANTS off); -D flags as its CMake
  # sets them by default (peer batch size 128, CUDA graphs on, 4 scheduler
  # copies).
  ggml-cuda)     src_root=src/ggml-cuda; incs=(include src)
                 defs=(-DGGML_CUDA_PEER_MAX_BATCH_SIZE=128 -DGGML_CUDA_USE_GRAPHS
                       -DGGML_SCHED_MAX_COPIES=4 -D_GNU_SOURCE)
                 tu_filter='^src/ggml-cuda/([^/]*|template-instances/(fattn-tile|fattn-mma|mmq|mmf)[^/]*|template-instances/fattn-vec-instance-(f16-f16|q4_0-q4_0|q8_0-q8_0|bf16-bf16))\.cu$' ;;
  # llm.c: train/test/profile_gpt2*.cu (which #include llmc/*.cuh) and the
  # dev/cuda kernel variants. The Makefile's default precision is bf16
  # (-DENABLE_BF16); cuDNN and MPI/NCCL are optional there and left off
  # (dev/cuda/nccl_all_reduce.cu needs mpi.h and does not compile). Its
  # -I dev is for Windows only (dev/unistd.h includes direct.h): not passed.
  llm.c)         defs=(-DENABLE_BF16) ;;
  # cub's examples (and the tests of cub/test that do not use Catch2, which
  # is not installed, nor are meant to fail) at the CCCL release CUDA 13.0
  # ships (3.0.1), parsed against the toolkit's own cub; test_util.h needs
  # c2h/include. The examples of CCCL's main branch need 3.1+ headers
  # (cuda/buffer, cuda/devices) that the toolkit lacks.
  cub-examples)  src_root=cub; incs=(c2h/include)
                 tu_filter='^cub/(examples/.*|test/test_(allocator|block_radix_rank|device_batch_copy|namespace_wrapped|nvtx_[a-z_]*))\.cu$' ;;
  # FastGEMV (fp32/fp16/int8/int4 GEMV): its Makefile compiles the three .cu
  # files with no include or -D flag.
  fastgemv)      ;;
  # TransformerEngine's framework-free core library (multi_tensor/ holds the
  # apex-style multi_tensor_apply optimizers: adam, sgd, l2norm, scale),
  # with its CMake's include directories (the library's include/ and the
  # directory above common/). rtc/ holds NVRTC sources compiled at run time,
  # not translation units. cudnn-frontend, cutlass and nvshmem are
  # submodules / external and absent: those files do not compile.
  te-common)     src_root=transformer_engine/common
                 incs=(transformer_engine/common/include transformer_engine .)
                 tu_exclude='/rtc/' ;;
  # siboehm's SGEMM tutorial: sgemm.cu/src/runner.cu include the 12 kernels
  # (src/kernels/*.cuh); CMake adds src to the include path.
  sgemm-cuda)    incs=(src) ;;
  # Tigr (graph analytics: BFS, SSSP, SSWP, CC, PR, BC), tigr/*.cu with
  # ../shared for its graph classes, as its Makefile builds them.
  tigr)          src_root=tigr; incs=(shared) ;;
  # CSR5 SpMV (CUDA variant); its Makefile's -D flags (double values, 1000
  # runs). The cuda-samples helpers it includes get stand-ins (below).
  csr5)          src_root=CSR5_cuda; defs=(-DVALUE_TYPE=double -DNUM_RUN=1000) ;;
  # Thirteenth session (first contact). calm: LLM inference (fp16/fp8/gf4
  # weights, half KV cache); its Makefile compiles src/*.cu with no -I or -D.
  calm)          src_root=src ;;
  # llama_cu_awq: one translation unit, int4 AWQ GEMV and the transformer's
  # half kernels (gpu_kernels.h); built by a bare nvcc command line.
  llama-awq)     tu_exclude='^sycl/' ;;
  # Bruce-Lee-LY's half GEMV and GEMM series: CMake compiles every src/*.cu
  # with src/common on the include path; main.cu holds no kernel and needs
  # gflags (not installed): not a translation unit here.
  hgemv|hgemm)   src_root=src; incs=(src/common); tu_exclude='^src/main\.cu$' ;;
  # Fourteenth session (first contact). yalm: LLM inference (fp16 weights
  # and KV cache), one translation unit src/infer.cu; its Makefile passes
  # nvcc -Ivendor only. nvcc looks in src/ for "" includes only, and src/
  # holds a time.h that -Isrc would put in front of <time.h> (json.hpp's
  # <ctime> then fails): -iquote for the file's directory.
  yalm)          src_root=src; incs=(vendor); dir_flag=-iquote ;;
  # moderngpu: header-only library (src/moderngpu/*.hxx, device lambdas,
  # --expt-extended-lambda); CMake builds every tutorial/, demo/ and tests/
  # .cu as an executable with -I src and -DMODERNGPUVERSION=2.13.0 (the
  # MODERNGPU interface target's; its CUDA_STANDARD 11 does not propagate
  # from an interface target, so no -std).
  moderngpu)     incs=(src); defs=(-DMODERNGPUVERSION=2.13.0) ;;
  # Sixteenth session (first contact). bitsandbytes: CMake's CUDA build of
  # csrc/*.cu (kernels, ops, the 4-bit GEMM files) with csrc on the include
  # path and the definitions of an sm_80+ build (BUILD_CUDA, both 4-bit GEMM
  # back ends), C++17.
  # Twenty-fifth session (first contact). gemm-opt: CMake builds src/*.cu
  # with include/ on the path, C++14.
  gemm-opt)      src_root=src; incs=(include); defs=(-std=c++14) ;;
  # cuco: examples/*/*.cu with include/ on the path, C++17 (its CMake's
  # CUDA_STANDARD), against the toolkit's CCCL.
  cuco)          src_root=examples; incs=(include); defs=(-std=c++17) ;;
  # Thirty-sixth session (first contact). gardenia: src/common.mk compiles
  # each algorithm's .cu with -I../../include and -I$(CUB_DIR) (a cub
  # checkout outside the repository: the toolkit's cub here), no -D or -std;
  # mining/ likewise.
  gardenia)      incs=(include) ;;
  # Warp's native runtime: build_dll.py compiles each warp/native .cu with
  # --std=c++17 -I native -DNDEBUG -DWP_ENABLE_CUDA=1 and, without libmathdx,
  # -DWP_ENABLE_MATHDX=0.
  warp-native)   src_root=warp/native; incs=(warp/native)
                 defs=(-std=c++17 -DNDEBUG -DWP_ENABLE_CUDA=1 -DWP_ENABLE_MATHDX=0) ;;
  # Thirty-seventh session (first contact). fastllm: its CMakeLists.txt
  # compiles the .cu files of FASTLLM_CUDA_SOURCES (the SM120-only and
  # sm70 AWQ files only for those targets) with include/, include/utils,
  # include/models, include/blocks, include/devices/{cpu,disk},
  # third_party/{json11,gguf,flashinfer}, include/devices/cuda and the
  # Marlin FP8 directory on the path (its include_directories order),
  # -DUSE_CUDA, C++20 where nvcc has it (13 does), --expt-relaxed-constexpr
  # and --expt-extended-lambda (clang has neither flag nor needs it);
  # without CUTLASS (absent) the CUTLASS FP8 files compile to nothing.
  fastllm)       src_root=src/devices/cuda
                 incs=(include include/utils include/models include/blocks include/devices/cpu
                       include/devices/disk third_party/json11 third_party/gguf
                       third_party/flashinfer include/devices/cuda
                       src/devices/cuda/linear/marlin_dense_fp8)
                 defs=(-DUSE_CUDA -std=c++20)
                 tu_exclude='(sm120|awq_sm70/)' ;;
  # CTranslate2: its CMake's CUDA_SOURCES (without Flash Attention, whose
  # option is off by default; conv1d_gpu.cu without cuDNN) with include/,
  # src/ and third_party/ on the path, -DCT2_WITH_CUDA -DCT2_X86_BUILD and
  # nvcc's -std=c++17.
  ctranslate2)   src_root=src; incs=(include src third_party)
                 defs=(-DCT2_WITH_CUDA -DCT2_X86_BUILD -std=c++17)
                 tu_exclude='(flash-attention/|conv1d_cudnn_gpu)' ;;
  # Thirty-eighth session (first contact). MLX's CUDA back end: its CMake
  # lists every .cu under mlx/backend/cuda (binary/ and unary/ in their own
  # lists; cublas_gemm_batched_12_9.cu for CUDA >= 12.9) with CCCL 3.1.3's
  # headers BEFORE the rest, the repository root, the toolkit and CUTLASS
  # 4.4.2 (SYSTEM) on the path, -DMLX_USE_CUDA, C++20, --extended-lambda and
  # --expt-relaxed-constexpr (clang needs neither); the native architecture
  # of an sm_90 machine is sm_90a. Its directory holds a cuda.h that clang's
  # CUDA wrapper would take for the toolkit's through -I or -iquote (nvcc
  # searches it only for the file's own "" includes): -idirafter. Its generated cuda_jit_sources.h (the
  # device/ headers as byte arrays for NVRTC) gets a stand-in below.
  mlx)           src_root=mlx/backend/cuda
                 incs=(../cccl-3.1.3/libcudacxx/include ../cccl-3.1.3/cub ../cccl-3.1.3/thrust
                       . ../cutlass-4.4.2/include)
                 defs=(-DMLX_USE_CUDA -std=c++20)
                 arch=${ARCH:-sm_90a}; dir_flag=-idirafter ;;
  # Thirty-ninth session (first contact). candle: candle-kernels/build.rs
  # compiles every src/**/*.cu (PTX for most, a static library for the
  # MoE and GGUF MMQ/MMVQ files) with -std=c++17 --expt-relaxed-constexpr;
  # on sm_80+ no -D. Kernels are launched from Rust.
  candle)        src_root=candle-kernels/src; defs=(-std=c++17) ;;
  # mistral.rs: mistralrs-quant/build.rs compiles kernels/*/*.cu (on sm_80+
  # without the dummy_*.cu/*_dummy.cu stand-ins) with CUTLASS (a pinned
  # download: CUTLASS 4.4.2's headers here) on the path, mistralrs-core's
  # build.rs src/cuda/*.cu; both with -std=c++17 and -U of the half/bf16
  # operator switches clang does not set anyway. Launched from Rust.
  mistralrs)     incs=(../cutlass-4.4.2/include); defs=(-std=c++17)
                 tu_exclude='(^|/)(dummy_[^/]*|[^/]*_dummy)\.cu$' ;;
  # Fortieth session (first contact). lmdeploy's TurboMind: its CMake
  # compiles the .cu files under src/turbomind with the repository root
  # (for "src/turbomind/..." includes), fmt (FetchContent 11.1.4: the
  # system's libfmt-dev here) and CUTLASS (FetchContent 3.9.2: CUTLASS
  # 4.4.2's headers here) on the path; the top-level add_definitions
  # (-DENABLE_BF16, -DBUILD_MULTI_GPU=1, -DUSE_NCCL=1 with NCCL found, as
  # the toolkit's nccl.h is, -DUSE_NVTX) and C++17 (--expt-relaxed-constexpr
  # and --expt-extended-lambda: clang needs neither). Two definitions that
  # CMake gives one target each are passed to every file (only those
  # targets' headers test them): CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED
  # (the SM90 GEMM kernels) and CUTLASS_ENABLE_GDC_FOR_SM90=1 (the SM90
  # gated delta-rule kernels). The default architectures of a CUDA 13
  # build include 90a (the SM90 GMMA/TMA files need it). Every .cu is a
  # translation unit: the sm70/sm75 GEMM kernels (built for CUDA < 13), the
  # sm_120 delta-rule kernels (built for sm_100+), the BUILD_TEST programs
  # (thrust, cuBLAS and cuRAND only: no gtest, Catch2 or torch) and the three
  # gemm/test/*.cu files no target lists (test harness sources) included.
  lmdeploy)      src_root=src/turbomind; incs=(. ../cutlass-4.4.2/include)
                 defs=(-DENABLE_BF16 -DBUILD_MULTI_GPU=1 -DUSE_NCCL=1 -DUSE_NVTX
                       -DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED -DCUTLASS_ENABLE_GDC_FOR_SM90=1
                       -std=c++17)
                 arch=${ARCH:-sm_90a} ;;
  bitsandbytes)  src_root=csrc; incs=(csrc)
                 defs=(-DBUILD_CUDA -DBNB_HAS_GEMM4BIT_SM75 -DBNB_HAS_GEMM4BIT_SM80 -std=c++17) ;;
esac
IFS=: read -r -a more <<<"${SUITE_INCLUDES:-}"
incs+=("${more[@]}")
inc_args=""
abs_incs=()
for d in "${incs[@]}"; do
  [ -n "$d" ] || continue
  case "$d" in /*) a=$d ;; *) a=$suite_dir/$d ;; esac
  [ -d "$a" ] || continue
  abs_incs+=("$a")
  inc_args+=" -I$a"
done
for d in "${defs[@]}"; do inc_args+=" $d"; done

rm -rf "$out/rows" "$out/json" "$out/logs" "$out/gen-include"
mkdir -p "$out/rows" "$out/json" "$out/logs"

# Headers a suite's configure step would generate.
if [ "$suite" = shoc ]; then
  # SHOC's autoconf config.h: nothing the CUDA sources test is needed.
  mkdir -p "$out/gen-include"
  echo '/* generated by run-suite.sh: stands in for SHOC configure output */' \
    >"$out/gen-include/config.h"
  inc_args+=" -I$out/gen-include"
fi
if [ "$suite" = parboil ]; then
  # parboil.h includes <CL/cl.h> unconditionally (for a timing hook); the
  # CUDA toolkit ships no OpenCL headers. Declare the types it names.
  mkdir -p "$out/gen-include/CL"
  cat >"$out/gen-include/CL/cl.h" <<'STUB'
/* generated by run-suite.sh: the OpenCL types parboil.h names */
#pragma once
#include <stdint.h>
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
typedef struct _cl_mem *cl_mem;
STUB
  inc_args+=" -I$out/gen-include"
fi

if [ "$suite" = csr5 ]; then
  # CSR5 includes cuda-samples' helper_functions.h (unused) and helper_cuda.h
  # (checkCudaErrors only).
  mkdir -p "$out/gen-include"
  echo '/* generated by run-suite.sh: stands in for cuda-samples helper_functions.h */' \
    >"$out/gen-include/helper_functions.h"
  cat >"$out/gen-include/helper_cuda.h" <<'STUB'
/* generated by run-suite.sh: the part of cuda-samples helper_cuda.h CSR5 uses */
#pragma once
#include <cuda_runtime.h>
#define checkCudaErrors(val) (val)
STUB
  inc_args+=" -I$out/gen-include"
fi
if [ "$suite" = te-common ]; then
  # CMake's make_string_header_from_file turns NVRTC sources into
  # string_code_NAME.h defining the string NAME; empty strings stand in.
  mkdir -p "$out/gen-include"
  grep -rhoE '#[[:space:]]*include[[:space:]]*"string_code_[A-Za-z0-9_]+\.h"' \
    "$suite_dir/$src_root" | sed -E 's/.*"(string_code_[A-Za-z0-9_]+)\.h"/\1/' | sort -u |
    while IFS= read -r n; do
      printf '/* generated by run-suite.sh: stands in for TransformerEngine build output */\n#pragma once\nstatic const char %s[] = "";\n' \
        "$n" >"$out/gen-include/$n.h"
    done
  inc_args+=" -I$out/gen-include"
fi

if [ "$suite" = mlx ]; then
  # bin2h.cmake writes cuda_jit_sources.h: one `constexpr char
  # jit_source_NAME[]` per device/*.h and device/*.cuh in mlx::core; empty
  # arrays stand in (only NVRTC reads them).
  mkdir -p "$out/gen-include"
  {
    printf '/* generated by run-suite.sh: stands in for MLX build output */\n#pragma once\nnamespace mlx::core {\n'
    find "$suite_dir/$src_root/device" -maxdepth 1 \( -name '*.h' -o -name '*.cuh' \) |
      sed -E 's|.*/||; s/\.[^.]*$//; s/[^A-Za-z0-9_]/_/g' | sort -u |
      while IFS= read -r n; do printf 'constexpr char jit_source_%s[] = {0};\n' "$n"; done
    printf '} // namespace mlx::core\n'
  } >"$out/gen-include/cuda_jit_sources.h"
  inc_args+=" -I$out/gen-include"
fi

# Code written for CUDA 12 that CUDA 13's CCCL (3.x) no longer compiles, nvcc
# 13 included: the CUDA 12 definitions stand in.
if [ "$suite" = calm ]; then
  # libcu++ 2.x defined _ALIGNAS(x) (CCCL 3 renamed it _CCCL_ALIGNAS).
  inc_args+=" -D_ALIGNAS(x)=alignas(x)"
fi
if [ "$suite" = llama-awq ]; then
  # cub::Max and cub::Min were removed in CCCL 3 (cuda::maximum<> and
  # cuda::minimum<> replace them).
  mkdir -p "$out/gen-include"
  cat >"$out/gen-include/cub_max_compat.h" <<'STUB'
/* generated by run-suite.sh: cub::Max and cub::Min of CUDA 12's cub, removed in CCCL 3 */
#pragma once
#include <cub/cub.cuh>
namespace cub {
struct Max {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
  template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
}
STUB
  inc_args+=" -include $out/gen-include/cub_max_compat.h"
fi
if [ "$suite" = yalm ]; then
  # CUDA 13 removed cudaStreamGetCaptureInfo_v2 and gave
  # cudaStreamUpdateCaptureDependencies an edge-data parameter (nvcc 13
  # fails on infer.cu too): CUDA 12's two calls over CUDA 13's.
  mkdir -p "$out/gen-include"
  cat >"$out/gen-include/cuda12_graph_compat.h" <<'STUB'
/* generated by run-suite.sh: CUDA 12's stream-capture calls yalm uses, over CUDA 13's */
#pragma once
#include <cuda_runtime.h>
static inline cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
    unsigned long long *id, cudaGraph_t *graph, const cudaGraphNode_t **deps, size_t *count) {
  return cudaStreamGetCaptureInfo(stream, status, id, graph, deps, nullptr, count);
}
static inline cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *deps,
    size_t count, unsigned int flags) {
  return cudaStreamUpdateCaptureDependencies(stream, deps, nullptr, count, flags);
}
STUB
  inc_args+=" -include $out/gen-include/cuda12_graph_compat.h"
fi

# Translation units: every *.cu under the source root, minus those another
# file #includes (resolved against the includer's directory, then the include
# dirs).
# Without "/./" in the names (src_root=.): file ids must not start with ".".
src_dir=$(cd "$suite_dir/$src_root" && pwd) || { echo "run-suite: no $src_root in $suite_dir" >&2; exit 2; }
find "$src_dir" -name '*.cu' -type f | sort >"$out/all-cu.txt"
: >"$out/filtered-out.txt"
if [ -n "${TU_ONLY:-}" ]; then
  # A subset for a quick comparison: TU_ONLY is an ERE on the relative path,
  # applied on top of the suite's own filter.
  tu_filter="${tu_filter:-.}"
  tu_only=$TU_ONLY
fi
if [ -n "$tu_filter$tu_exclude" ]; then
  # Only the .cu files the suite's build compiles (the rest: filtered-out.txt).
  while IFS= read -r f; do
    r=${f#"$suite_dir"/}
    if { [ -z "$tu_filter" ] || printf '%s\n' "$r" | grep -qE "$tu_filter"; } &&
       { [ -z "$tu_exclude" ] || ! printf '%s\n' "$r" | grep -qE "$tu_exclude"; } &&
       { [ -z "${tu_only:-}" ] || printf '%s\n' "$r" | grep -qE "$tu_only"; }; then
      printf '%s\n' "$f"
    else
      printf '%s\n' "$r" >>"$out/filtered-out.txt"
    fi
  done <"$out/all-cu.txt" >"$out/all-cu.kept" && mv "$out/all-cu.kept" "$out/all-cu.txt"
fi
: >"$out/skipped-included.txt"
find "$src_dir" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' \
  -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.c' \) -print0 |
  xargs -0 grep -HE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*\.cu[">]' 2>/dev/null |
  while IFS= read -r line; do
    includer=${line%%:*}
    inc=$(printf '%s' "${line#*:}" | sed -E 's/.*include[[:space:]]*["<]([^">]*)[">].*/\1/')
    for base in "$(dirname "$includer")" "${abs_incs[@]}"; do
      if [ -f "$base/$inc" ]; then realpath "$base/$inc"; break; fi
    done
  done | sort -u >"$out/included.txt"
tus=$out/tus.txt
: >"$tus"
while IFS= read -r f; do
  if grep -qxF "$(realpath "$f")" "$out/included.txt"; then
    printf '%s\n' "${f#"$suite_dir"/}" >>"$out/skipped-included.txt"
  else
    printf '%s\n' "$f" >>"$tus"
  fi
done <"$out/all-cu.txt"

commit=NA
if [ -f "$suite_dir/.suite-commit" ]; then commit=$(head -n1 "$suite_dir/.suite-commit")
elif git -C "$suite_dir" rev-parse HEAD >/dev/null 2>&1; then commit=$(git -C "$suite_dir" rev-parse HEAD)
fi
{
  printf 'suite\t%s\n' "$suite"
  printf 'suite_dir\t%s\n' "$suite_dir"
  printf 'commit\t%s\n' "$commit"
  printf 'tool\t%s\n' "$tool"
  printf 'tool_version\t%s\n' "$("$tool" --version 2>&1 | head -n1)"
  printf 'tool_repo_commit\t%s\n' "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo NA)"
  printf 'clang\t%s\n' "$("$clang" --version | head -n1)"
  printf 'arch\t%s\n' "$arch"
  printf 'cuda\t%s\n' "$cuda"
  printf 'include_args\t%s\n' "${inc_args# }"
  [ "$dir_flag" = -I ] || printf 'dir_flag\t%s\n' "$dir_flag"
  printf 'extra_args\t%s\n' "${EXTRA_ARGS:-}"
  printf 'jobs\t%s\n' "$jobs"
  printf 'timeout\t%s\n' "$tmo"
  printf 'date\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf 'translation_units\t%s\n' "$(wc -l <"$tus")"
  printf 'skipped_included\t%s\n' "$(wc -l <"$out/skipped-included.txt")"
  printf 'tu_filter\t%s\n' "$tu_filter"
  printf 'tu_exclude\t%s\n' "$tu_exclude"
  printf 'filtered_out\t%s\n' "$(wc -l <"$out/filtered-out.txt")"
} >"$out/meta.tsv"

export RS_SUITE="$suite" RS_SUITE_DIR="$suite_dir" RS_OUT="$out" RS_TOOL="$tool" \
  RS_CLANG="$clang" RS_CUDA="$cuda" RS_ARCH="$arch" RS_TIMEOUT="$tmo" \
  RS_TIME="$timebin" RS_INCLUDE_ARGS="${inc_args# }" RS_DIR_FLAG="$dir_flag" \
  RS_HOST_INCLUDE="$(gcc -print-file-name=include 2>/dev/null | grep '^/' || true)"
echo "run-suite: $suite: $(wc -l <"$tus") translation units, $jobs jobs" >&2
tr '\n' '\0' <"$tus" | xargs -0 -P "$jobs" -n 1 bash "$0" __one

{
  printf 'suite\tfile\ttool_rc\ttool_wall_s\ttool_maxrss_kb\tclang_rc\tclang_wall_s\tclang_maxrss_kb\tclang_errors\tglobal_decls\tjson\n'
  cat "$out"/rows/*.tsv 2>/dev/null | sort -t$'\t' -k2,2
} >"$out/results.tsv"
rm -rf "$out/rows"
echo "run-suite: wrote $out/results.tsv" >&2
