#!/usr/bin/env bash
# Fills /work/main-style repository's .verify-carry/ (ignored by git, carried
# to the GPU machine with `carry: [".verify-carry", ".gt-carry"]`; another
# name with VR_CARRY_NAME, which device-run.sh then needs too) with what
# device-run.sh needs: the cuda_validation/ sources (coalesce-verify is built
# there with CMake), one harness directory per file (examples/matrix.cu, the
# profiler probe, test/golden/sectors/*.cu, test/golden/harness/Inputs/
# nofault.cu and structptr.cu; --verify-all) and one manifest per PolyBench-ACC program of
# .gt-carry/programs.tsv (scripts/gpu-groundtruth/prepare.sh), plus two
# programs with template kernels for application mode's per-instance and
# per-launch reports (test/data/app/instances.cu and cuda-samples'
# reduction with the Common headers it needs).
#
#   bash scripts/gpu-verification/prepare.sh [DEST_REPO]   # default: this repo
#
# Environment: LINT (default build/bin/coalesce-lint), LINT_TIMEOUT (seconds
# per harness emission, default 300; a harness not emitted is left out),
# CUDA_SAMPLES (a cuda-samples checkout, default /work/.suites/cuda-samples).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DEST=${1:-$SRC}
LINT=${LINT:-$SRC/build/bin/coalesce-lint}
NAME=${VR_CARRY_NAME:-.verify-carry}
C=$DEST/$NAME
GT=$DEST/.gt-carry
EXCLUDE=$(git -C "$DEST" rev-parse --git-path info/exclude)
[[ $EXCLUDE = /* ]] || EXCLUDE=$DEST/$EXCLUDE
grep -qx "/$NAME/" "$EXCLUDE" 2>/dev/null || echo "/$NAME/" >>"$EXCLUDE"
rm -rf "$C"; mkdir -p "$C/harness" "$C/manifests"
cp -r "$SRC/cuda_validation" "$C/cuda_validation"
cp "$SRC/scripts/gpu-verification/device-run.sh" "$C/"

# ---- harnesses ------------------------------------------------------------------
inputs=("$SRC/examples/matrix.cu" "$SRC/cuda_validation/recordings/probe.cu"
        "$SRC"/test/golden/sectors/*.cu "$SRC"/test/golden/harness/Inputs/*.cu)
for f in "${inputs[@]}"; do
  n=$(basename "$f" .cu)
  timeout "${LINT_TIMEOUT:-300}" "$LINT" --fail-on=never --verify-all --emit-harness "$C/harness/$n" "$f" \
    >"$C/harness/$n.lint.log" 2>&1 || echo "lint $n: rc=$?"
  # The include path of the original directory does not exist over there.
  if [[ -f $C/harness/$n/build.sh ]]; then
    sed -i "s| -I'[^']*'||" "$C/harness/$n/build.sh"
  else
    rm -rf "${C:?}/harness/$n"; echo "harness $n: not emitted, left out"
  fi
done

# ---- application mode on our own program (recorded for CI) -----------------------
mkdir -p "$C/own"
cp "$SRC/examples/matrix.cu" "$C/own/"
"$LINT" --fail-on=never --emit-manifest "$C/own/matrix.tsv" "$SRC/examples/matrix.cu" \
  >"$C/own/matrix.lint.log" 2>&1 || echo "lint matrix: rc=$?"

# ---- application mode: template instantiations and launches told apart -----------
# test/data/app/instances.cu (2 template kernels x 2 instantiations x 2
# launches) and cuda-samples' reduction (kernel 6 launches reduce6<float,
# 256, true> and reduce6<float, 32, true>; its manifest has all 213
# instances of reduction_kernel.cu), with the Common headers it includes.
cp "$SRC/test/data/app/instances.cu" "$C/own/"
"$LINT" --fail-on=never --emit-manifest "$C/own/instances.tsv" "$C/own/instances.cu" \
  >"$C/own/instances.lint.log" 2>&1 || echo "lint instances: rc=$?"
CUDA_SAMPLES=${CUDA_SAMPLES:-/work/.suites/cuda-samples}
RED=$CUDA_SAMPLES/Samples/2_Concepts_and_Techniques/reduction
if [[ -f $RED/reduction_kernel.cu ]]; then
  mkdir -p "$C/own/reduction" "$C/own/Common"
  cp "$RED"/reduction.cpp "$RED"/reduction.h "$RED"/reduction_kernel.cu "$C/own/reduction/"
  for h in helper_cuda.h helper_functions.h helper_string.h helper_timer.h helper_image.h exception.h; do
    cp "$CUDA_SAMPLES/Common/$h" "$C/own/Common/"
  done
  (cd "$C/own/reduction" && "$LINT" --fail-on=never --emit-manifest "$C/own/reduction.tsv" \
     reduction_kernel.cu -- -I../Common >"$C/own/reduction.lint.log" 2>&1) || echo "lint reduction: rc=$?"
else
  echo "no cuda-samples reduction under $CUDA_SAMPLES: the GPU run skips it"
fi

# ---- PolyBench manifests ---------------------------------------------------------
if [[ -f $GT/programs.tsv ]]; then
  while IFS=$'\x1f' read -r suite name dir args run lint; do
    [[ $suite == polybench ]] || continue
    flags=$(tr ' ' '\n' <<<"$args" | grep -E '^-[DI]' | tr '\n' ' ')
    (cd "$GT/$dir" && "$LINT" --fail-on=never --emit-manifest "$C/manifests/$name.tsv" \
       $lint -- $flags >"$C/manifests/$name.lint.log" 2>&1) || echo "lint $name: rc=$?"
  done < <(tr '\t' '\037' <"$GT/programs.tsv")  # tabs: empty fields kept
fi
echo "prepared $(ls -d "$C"/harness/*/ | wc -l) harnesses and $(ls "$C"/manifests/*.tsv 2>/dev/null | wc -l) manifests in $C ($(du -sh "$C" | cut -f1))"
