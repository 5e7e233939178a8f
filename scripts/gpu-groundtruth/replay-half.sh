#!/usr/bin/env bash
# CI replay of the H200 ground truth for cuda_hgemv and cuda_hgemm: runs the
# tool on the prepared sources (prepare-half.sh: the suites' src/ unmodified,
# the tool given the drivers' sizes with --param) and compares its findings
# with the committed per-line measurements (docs/groundtruth/lines-{hgemv,
# hgemm}.tsv, measured 2026-12-04), without a GPU. Fails (exit 1) when
# line-level precision or recall falls below the first contact's numbers, or
# when the tool fails on a program; exit 77 (a skip for ctest) when the
# suites' sources are not there.
#
#   COALESCE_LINT=build/bin/coalesce-lint bash scripts/gpu-groundtruth/replay-half.sh [SUITES_DIR]
#
# SUITES_DIR (default $GT_SUITES, else /work/.suites) holds hgemv and hgemm
# (see prepare-half.sh). The prepared copy and the tool's JSON go to a
# temporary directory (kept with GT_KEEP=1); the two reports to
# $GT_REPORT_DIR when set.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITES=${1:-${GT_SUITES:-/work/.suites}}
TOOL=${COALESCE_LINT:-$ROOT/build/bin/coalesce-lint}
for d in hgemv/src/warp hgemm/src/mma; do
  [ -d "$SUITES/$d" ] || { echo "replay-half: no $SUITES/$d: skipped" >&2; exit 77; }
done
[ -x "$TOOL" ] || { echo "replay-half: $TOOL is not executable" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gt-replay-half.XXXXXX")
[ "${GT_KEEP:-0}" = 1 ] || trap 'rm -rf "$TMP"' EXIT
C=$TMP/.gt-carry-half
GT_CARRY_DIR=$C bash "$HERE/prepare-half.sh" "$SUITES" >/dev/null
# the committed tables must come from these sources (commits in suites.txt)
for s in hgemv hgemm; do
  want=$(awk -v s="$s" '$1 == s {print $2}' "$C/suites.txt")
  grep -q "$want" "$ROOT/docs/groundtruth/device-run-half.log" || echo "replay-half: warning: $s at $want, not the measured commit" >&2
done
R=${GT_REPORT_DIR:-$TMP}
mkdir -p "$R"
# the floors: precision and recall (percent) at first contact (2026-12-04,
# docs/validation.md, "Half precision: cuda_hgemv and cuda_hgemm"); a better
# tool may raise them
export COALESCE_LINT=$TOOL
rc=0
python3 "$HERE/compare.py" --carry "$C" --frames all --json-dir "$TMP/json" \
  --out "$R/compare-half.md" \
  --require hgemv:significant:100:100 --require hgemm:significant:100:50 \
  --require hgemv:significant-stmt:100:100 --require hgemm:significant-stmt:100:50 >/dev/null || rc=1
python3 "$HERE/compare.py" --carry "$C" --frames all --json-dir "$TMP/json" --reuse-json \
  --line-ratio 1.02 --ratio 1.0 --out "$R/compare-half-any-waste.md" \
  --require hgemv:all:100:100 --require hgemm:all:100:50 \
  --require hgemv:all-stmt:100:100 --require hgemm:all-stmt:100:50 >/dev/null || rc=1
sed -n '3,8p' "$R/compare-half.md" 2>/dev/null || true
sed -n '5,8p' "$R/compare-half-any-waste.md" 2>/dev/null || true
exit $rc
