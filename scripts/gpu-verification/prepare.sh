#!/usr/bin/env bash
# Fills /work/main-style repository's .verify-carry/ (ignored by git, carried
# to the GPU machine with `carry: [".verify-carry", ".gt-carry"]`; another
# name with VR_CARRY_NAME, which device-run.sh then needs too) with what
# device-run.sh needs: the cuda_validation/ sources (coalesce-verify is built
# there with CMake), one harness directory per file (examples/matrix.cu, the
# profiler probe, test/golden/sectors/*.cu, test/golden/harness/Inputs/
# nofault.cu and structptr.cu; --verify-all) and one manifest per PolyBench-ACC program of
# .gt-carry/programs.tsv (scripts/gpu-groundtruth/prepare.sh).
#
#   bash scripts/gpu-verification/prepare.sh [DEST_REPO]   # default: this repo
#
# Environment: LINT (default build/bin/coalesce-lint).
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
  "$LINT" --fail-on=never --verify-all --emit-harness "$C/harness/$n" "$f" \
    >"$C/harness/$n.lint.log" 2>&1 || echo "lint $n: rc=$?"
  # The include path of the original directory does not exist over there.
  sed -i "s| -I'[^']*'||" "$C/harness/$n/build.sh"
done

# ---- application mode on our own program (recorded for CI) -----------------------
mkdir -p "$C/own"
cp "$SRC/examples/matrix.cu" "$C/own/"
"$LINT" --fail-on=never --emit-manifest "$C/own/matrix.tsv" "$SRC/examples/matrix.cu" \
  >"$C/own/matrix.lint.log" 2>&1 || echo "lint matrix: rc=$?"

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
