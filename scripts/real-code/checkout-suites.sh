#!/usr/bin/env bash
# Check out the third-party CUDA suites measured in docs/real-code.md, at the
# commits recorded there, into DEST (default /work/.suites; keep it outside
# this repository: their sources are never committed here).
#
#   scripts/real-code/checkout-suites.sh [DEST]
#
# Each suite is cloned from GitHub (or taken from an existing bare git dir
# given as MIRROR_<name>=DIR, e.g. MIRROR_rodinia=/path/repo.git, or, when
# MIRROR_ROOT/OWNER+NAME/repo exists, from there: MIRROR_ROOT defaults to
# /work/.mirror, where the sessions' `fetch` tool puts a bare copy of
# github:OWNER/NAME) and its source and build files are written to
# DEST/NAME (headers without an extension named like libcu++'s
# `__config`, and any extensionless file under an include/ directory, as
# libcu++'s <cuda/std/array>, included); blobs missing from a partial mirror (large data files) are
# skipped. A suite with PATHS (fourth column, ':'-separated) gets only those
# subtrees of the repository (cccl and TransformerEngine are large).
# DEST/NAME/.suite-commit records the commit, which run-suite.sh copies into
# its meta.tsv. Names may be given after DEST to check out only those
# suites:
#
#   scripts/real-code/checkout-suites.sh /work/.suites ggml-cuda llm.c
#
# A later session re-creates the tenth session's suites by calling fetch on
# github:ggml-org/ggml, karpathy/llm.c, NVIDIA/cccl, wangsiping97/FastGEMV,
# NVIDIA/TransformerEngine, siboehm/SGEMM_CUDA, AutomataLab/Tigr and
# weifengliu-ssslab/Benchmark_SpMV_using_CSR5, then running this script (a
# fetched snapshot is newer than the pinned commit but holds its history;
# the script stops if the commit is missing).
set -euo pipefail

dest=${1:-/work/.suites}
shift || true
only=" $* "
mirror_root=${MIRROR_ROOT:-/work/.mirror}
mkdir -p "$dest"

# name  github repo  commit  [paths]
suites=(
  "cuda-samples  NVIDIA/cuda-samples        c94ff366aed18c797b8a85dfaac7817b0228b420"
  "parboil       abduld/Parboil             a4c63da28f45699e9a274cbc49af3e067162aa2b"
  "polybench-acc cavazos-lab/PolyBench-ACC  70ea4ca9047dc4ec9c3ca79b4c91b3b2cc1510e7"
  "rodinia       yuhc/gpu-rodinia           9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4"
  "shoc          vetter/shoc                0aea03beba2f09fcb5935cc11737372fe4de9ec0"
  "thrust        NVIDIA/thrust              756c5afc0750f1413da05bd2b6505180e84c53d4"
  # Tenth session, "today's kinds" (docs/real-code.md, first contact).
  # ggml's own repository carries the same src/ggml-cuda as llama.cpp's
  # ggml/src/ggml-cuda (llama.cpp's snapshot is too large to fetch).
  "ggml-cuda     ggml-org/ggml              d99724f2b141fed9e1a9f402213506c081433465  include:src"
  "llm.c         karpathy/llm.c             f1e2ace651495b74ae22d45d1723443fd00ecd3a"
  "cub-examples  NVIDIA/cccl                f19d875da0d8bfb2e38c109b2b40522b8abbbbc3  cub/examples:cub/test:c2h"
  "fastgemv      wangsiping97/FastGEMV      1fdff6f74aade033c02727a419afd6a4b4bfbc3f"
  "te-common     NVIDIA/TransformerEngine   d0067d0da6cb01811b8072a7d304f0e00344ce2b  transformer_engine/common"
  "sgemm-cuda    siboehm/SGEMM_CUDA         60cba6f9b20a198116c76f18de8047f44df8c8b8"
  "tigr          AutomataLab/Tigr           a9b7c08bdbf84c14c42f9daabf99b94aa01834d3"
  "csr5          weifengliu-ssslab/Benchmark_SpMV_using_CSR5  4b06ce35e45c3c61a51e249e12e1c4954af443fa"
  # Thirteenth session, first contact: LLM inference in half/fp8 (calm),
  # int4 AWQ GEMV (llama_cu_awq), half GEMV and tensor-core half GEMM
  # tutorial series (cuda_hgemv, cuda_hgemm).
  "calm          zeux/calm                  cab0b7b44965e7deeb12a6a188b7d64ce224498e"
  "llama-awq     ankan-ban/llama_cu_awq     d0453fd0803cac9107ee5f1857e1c5654ac598cd"
  "hgemv         Bruce-Lee-LY/cuda_hgemv    55eaca46c25234c9dce3daa00a8a9884a63cee22"
  "hgemm         Bruce-Lee-LY/cuda_hgemm    0d26c2e4415ab0d0af5a6bfae301275c608d46b4"
  # Fourteenth session, first contact: a small LLM inference engine (half
  # KV cache and weights, yalm) and sparse/graph primitives written with
  # device lambdas (moderngpu: tutorials, demos and tests as TUs).
  "yalm          andrewkchan/yalm           6cd1ef6e7d6b9f724b6d98a63b273f903928ad2f"
  "moderngpu     moderngpu/moderngpu        267cc8d02c03f00f1656f1205c61c946a1e530b0"
  # Sixteenth session, first contact: 8-bit optimizers, blockwise
  # quantization and 4-bit GEMV/GEMM kernels of bitsandbytes (cub block
  # primitives, half/bf16, packed 4-bit weights).
  "bitsandbytes  bitsandbytes-foundation/bitsandbytes  95f9af309d4d5793847169c39288dcd3fcbdf564  csrc"
  # Twenty-fifth session, first contact: a GEMM optimization series in
  # templated C++14 (fp32 and half, vectorized loads through int4/float4
  # casts, warp tiling, WMMA, double buffering).
  "gemm-opt      leimao/CUDA-GEMM-Optimization  747e49b418bca18557581969c78333443055fd43"
  # Twenty-fifth session, first contact: CCCL-style GPU hash tables, sets,
  # Bloom filters and HyperLogLog (cuco: header-only C++17, device refs,
  # cooperative groups, cuda::atomic_ref), its examples as TUs.
  "cuco          NVIDIA/cuCollections       dc0f9fc20c2a544e53099e640a681b347532391a  include:examples"
  # Thirty-sixth session, first contact: graph analytics and sparse kernels
  # (gardenia: BFS, SSSP, PageRank, CC, BC, SCC, triangle counting, SpMV,
  # SymGS, vertex coloring, graph mining; CSR graphs, worklists, warp- and
  # CTA-per-vertex variants, cub block scans).
  "gardenia      chenxuhao/gardenia         5894df11cf47f8839945edadff43dc79e260216d  include:src:mining"
  # Thirty-sixth session, first contact: NVIDIA Warp's native runtime
  # (sparse BSR matrices, BVH and mesh queries, hash grids, NanoVDB volumes,
  # marching cubes, cub-based sort/scan/reduce; C++17, built by nvcc or clang).
  "warp-native   NVIDIA/warp                9934a4eb2c503399140daab09d256ccc7236d1d8  warp/native"
  # Thirty-seventh session, first contact: fastllm's CUDA backend (LLM
  # inference for today's models: Qwen3.5, DeepSeek-V4; fp16/bf16, FP8,
  # int4/int8 GEMV and Marlin GEMM, MoE, paged and FlashInfer-style
  # attention, cub block scans).
  "fastllm       ztxz16/fastllm             d3aea32f809b8b89b152643a202068c35acffbf9  include:src/devices/cuda:third_party/flashinfer:third_party/json11:third_party/gguf"
  # Thirty-seventh session, first contact: CTranslate2's CUDA ops (a
  # Transformer inference engine: layer and RMS norms, softmax, top-k and
  # top-p sampling, rotary embeddings, gathers, int8/AWQ quantization and
  # GEMV, thrust and cub), its C++ headers.
  "ctranslate2   OpenNMT/CTranslate2        0d8bcd362ac75ef860ef161d6f0efad0ae439ff0  include:src"
  # Thirty-eighth session, first contact: MLX's CUDA back end (Apple's
  # array framework, 2025-26: cooperative groups, cub, cuda::std, bf16/half
  # element-wise, reductions, norms, quantized GEMV/GEMM, attention), with
  # the two header sets its CMake fetches at pinned versions: CCCL 3.1.3
  # (put before the toolkit's) and CUTLASS 4.4.2 (header-only).
  "mlx           ml-explore/mlx             846d176227a0ac13d2667e58d2bb68b322109ab0  mlx"
  # Thirty-ninth session, first contact: the CUDA kernels of two Rust ML
  # frameworks, launched from Rust (no host launch in C++): candle's
  # element-wise, reduction, indexing, sort, GGUF-quantized and MoE kernels
  # (bf16/half/fp8 through macros), mistral.rs's quantized GEMV/GEMM
  # (Marlin, GPTQ, HQQ, AFQ, MXFP4, blockwise fp8), MoE and core kernels.
  "candle        huggingface/candle         2a13b0f3ff62f7e67013597f2996f764c5735e21  candle-kernels"
  "mistralrs     EricLBuehler/mistral.rs    9e922623f24b32d41f3892b74f0eed18707f4e6c  mistralrs-quant/kernels:mistralrs-core/src/cuda"
  # Fortieth session, first contact: lmdeploy's TurboMind engine
  # (src/turbomind: attention and decoding kernels per head size and
  # architecture, tensor-core GEMM with int4/int8/fp8/MXFP4 weights and the
  # SM90 GMMA/TMA kernels, gated delta-rule linear attention, MoE, sampling,
  # norms, custom all-reduce over CUDA IPC; cute/CUTLASS headers).
  "lmdeploy      InternLM/lmdeploy          1263d5cd889b7ad500e85b8eb20401327a4516ab  src/turbomind"
  "cccl-3.1.3    NVIDIA/cccl                d69eb55e0a0f6d55ca2af4c4edb2c7055c003993  libcudacxx/include:cub/cub:thrust/thrust"
  "cutlass-4.4.2 NVIDIA/cutlass             da5e086dab31d63815acafdac9a9c5893b1c69e2  include"
)

for s in "${suites[@]}"; do
  read -r name gh commit paths <<<"$s"
  [ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || continue
  var="MIRROR_${name//[-.]/_}"
  gitdir=${!var:-}
  if [ -z "$gitdir" ] && [ -d "$mirror_root/${gh/\//+}/repo" ]; then
    gitdir="$mirror_root/${gh/\//+}/repo"
  fi
  if [ -z "$gitdir" ]; then
    gitdir="$dest/.git-$name"
    if [ ! -d "$gitdir" ]; then
      git clone --bare --filter=blob:limit=1m "https://github.com/$gh.git" "$gitdir"
    fi
  fi
  git --git-dir="$gitdir" cat-file -e "$commit^{commit}" ||
    { echo "checkout-suites: $gh: commit $commit not in $gitdir" >&2; exit 1; }
  rm -rf "${dest:?}/$name"
  mkdir -p "$dest/$name"
  IFS=: read -r -a subtrees <<<"${paths:-}"
  git --git-dir="$gitdir" ls-tree -r "$commit" -- "${subtrees[@]}" |
    grep -E $'\t''((.*/)?([^/]*\.(cu|cuh|h|hpp|hxx|c|cc|cpp|inl|inc|def|cmake|mk|txt|md)|Makefile[^/]*|__[A-Za-z0-9_]+)|(.*/)?include/(.*/)?[A-Za-z_][A-Za-z0-9_]*)$' |
    while IFS=$'\t' read -r meta path; do
      read -r _ type sha <<<"$meta"
      [ "$type" = blob ] || continue
      git --git-dir="$gitdir" cat-file -e "$sha" 2>/dev/null || continue
      mkdir -p "$dest/$name/$(dirname "$path")"
      git --git-dir="$gitdir" cat-file blob "$sha" >"$dest/$name/$path"
    done
  echo "$commit $gh" >"$dest/$name/.suite-commit"
  echo "checkout-suites: $name ($gh@${commit:0:12}): $(find "$dest/$name" -name '*.cu' | wc -l) .cu files" >&2
done
