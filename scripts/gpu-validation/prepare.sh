#!/usr/bin/env bash
# prepare.sh - step 1 of the GPU validation (runs where coalesce-lint is built).
# Emits one verification harness per validation file into .dev/validation/NAME,
# with the options of the file's "// GPU-ARGS:" line.
#
#   bash scripts/gpu-validation/prepare.sh [FILE.cu...]
#
# Default files: examples/matrix.cu, cuda_validation/recordings/probe.cu and
# test/golden/sectors/*.cu. Step 2 (on a GPU machine) is on-gpu.sh; step 3
# (back here) is report.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LINT=${COALESCE_LINT:-build/bin/coalesce-lint}
OUT=.dev/validation
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  files=(examples/matrix.cu cuda_validation/recordings/probe.cu test/golden/sectors/*.cu)
fi
rm -rf "$OUT"
mkdir -p "$OUT"
for f in "${files[@]}"; do
  name=$(basename "$f" .cu)
  args=$(sed -n 's|^// GPU-ARGS:||p' "$f" | head -1)
  # shellcheck disable=SC2086
  "$LINT" --verify-all --fail-on=never --emit-harness "$OUT/$name" $args "$f" \
      > /dev/null 2> "$OUT/$name.emit.log" || { cat "$OUT/$name.emit.log"; exit 1; }
  printf '%s\t%s\n' "$f" "$args" >> "$OUT/files.tsv"
  echo "prepared $OUT/$name ($f $args)"
done
