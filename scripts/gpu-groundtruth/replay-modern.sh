#!/usr/bin/env bash
# CI replay of the H200 ground truth for llm.c dev/cuda and SGEMM_CUDA: runs
# the tool on the prepared sources and compares its findings with the
# committed per-line measurements (docs/groundtruth/lines-{llmc,sgemm}.tsv,
# measured 2026-12-03), without a GPU. Fails (exit 1) when line-level
# precision or recall falls below what was measured with the tool at 630d34a,
# or when the tool fails on a program; exit 77 (a skip for ctest) when the
# suites' sources are not there.
#
#   COALESCE_LINT=build/bin/coalesce-lint bash scripts/gpu-groundtruth/replay-modern.sh [SUITES_DIR]
#
# SUITES_DIR (default $GT_SUITES, else /work/.suites) holds llm.c and
# sgemm-cuda (see prepare-modern.sh). The prepared copy and the tool's JSON go
# to a temporary directory (kept with GT_KEEP=1); the two reports to
# $GT_REPORT_DIR when set.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITES=${1:-${GT_SUITES:-/work/.suites}}
TOOL=${COALESCE_LINT:-$ROOT/build/bin/coalesce-lint}
for d in llm.c/dev/cuda sgemm-cuda/src; do
  [ -d "$SUITES/$d" ] || { echo "replay-modern: no $SUITES/$d: skipped" >&2; exit 77; }
done
[ -x "$TOOL" ] || { echo "replay-modern: $TOOL is not executable" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gt-replay.XXXXXX")
[ "${GT_KEEP:-0}" = 1 ] || trap 'rm -rf "$TMP"' EXIT
C=$TMP/.gt-carry-modern
GT_CARRY_DIR=$C bash "$HERE/prepare-modern.sh" "$SUITES" >/dev/null
# the committed tables must come from these sources (commits in suites.txt)
for s in llmc sgemm; do
  want=$(awk -v s="$s" '$1 == s {print $2}' "$C/suites.txt")
  grep -q "$want" "$ROOT/docs/groundtruth/README.md" || echo "replay-modern: warning: $s at $want, not the measured commit" >&2
done
R=${GT_REPORT_DIR:-$TMP}
mkdir -p "$R"
# the floors: precision and recall (percent) on the committed measurements
# with the tool after the fixes of 2026-12-03 (constant arrays, warp-uniform
# gathers; first contact at 630d34a: llm.c 91.4/81.5 and 95.2/64.1;
# docs/validation.md, "Modern code"); a better tool may raise them
export COALESCE_LINT=$TOOL
rc=0
python3 "$HERE/compare.py" --carry "$C" --frames all --json-dir "$TMP/json" \
  --out "$R/compare-modern.md" \
  --require llmc:significant:98.2:84.6 --require sgemm:significant:100:28.6 \
  --require llmc:significant-stmt:98.2:84.6 --require sgemm:significant-stmt:100:100 >/dev/null || rc=1
python3 "$HERE/compare.py" --carry "$C" --frames all --json-dir "$TMP/json" --reuse-json \
  --line-ratio 1.02 --ratio 1.0 --out "$R/compare-modern-any-waste.md" \
  --require llmc:all:100:85.9 --require sgemm:all:100:28.6 \
  --require llmc:all-stmt:100:85.9 --require sgemm:all-stmt:100:100 >/dev/null || rc=1
sed -n '3,8p' "$R/compare-modern.md" 2>/dev/null || true
sed -n '5,8p' "$R/compare-modern-any-waste.md" 2>/dev/null || true
exit $rc
