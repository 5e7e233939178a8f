#!/usr/bin/env bash
# CI replay of an H200 ground-truth set without a GPU: runs the tool on the
# prepared sources and compares its findings with the committed per-line
# measurements (docs/groundtruth/lines-SUITE.tsv). Fails (exit 1) when
# line-level precision or recall falls below the set's floors (the numbers
# measured, docs/validation.md; a better tool may raise them), or when the
# tool fails on a program; exit 77 (a skip for ctest) when the suites'
# sources are not there.
#
#   COALESCE_LINT=build/bin/coalesce-lint bash scripts/gpu-groundtruth/replay.sh SET [SUITES_DIR]
#
# SET: modern (llm.c dev/cuda and SGEMM_CUDA, measured 2026-12-03; floors
# from the tool after that session's fixes, first contact at 630d34a: llm.c
# 91.4/81.5 and 95.2/64.1) or half (cuda_hgemv and cuda_hgemm, measured and
# first contact 2026-12-04). SUITES_DIR (default $GT_SUITES, else
# /work/.suites) holds the set's suites (see prepare-SET.sh). The prepared
# copy and the tool's JSON go to a temporary directory (kept with
# GT_KEEP=1); the two reports to $GT_REPORT_DIR when set.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SET=${1:?usage: replay.sh modern|half [SUITES_DIR]}
SUITES=${2:-${GT_SUITES:-/work/.suites}}
TOOL=${COALESCE_LINT:-$ROOT/build/bin/coalesce-lint}
case "$SET" in
  modern)
    dirs=(llm.c/dev/cuda sgemm-cuda/src); names=(llmc sgemm)
    measured=$ROOT/docs/groundtruth/README.md
    significant=(--require llmc:significant:98.2:84.6 --require sgemm:significant:100:28.6
                 --require llmc:significant-stmt:98.2:84.6 --require sgemm:significant-stmt:100:100)
    any=(--require llmc:all:100:85.9 --require sgemm:all:100:28.6
         --require llmc:all-stmt:100:85.9 --require sgemm:all-stmt:100:100) ;;
  half)
    dirs=(hgemv/src/warp hgemm/src/mma); names=(hgemv hgemm)
    measured=$ROOT/docs/groundtruth/device-run-half.log
    significant=(--require hgemv:significant:100:100 --require hgemm:significant:100:50
                 --require hgemv:significant-stmt:100:100 --require hgemm:significant-stmt:100:50)
    any=(--require hgemv:all:100:100 --require hgemm:all:100:50
         --require hgemv:all-stmt:100:100 --require hgemm:all-stmt:100:50) ;;
  *) echo "replay: unknown set '$SET' (modern or half)" >&2; exit 2 ;;
esac
for d in "${dirs[@]}"; do
  [ -d "$SUITES/$d" ] || { echo "replay-$SET: no $SUITES/$d: skipped" >&2; exit 77; }
done
[ -x "$TOOL" ] || { echo "replay-$SET: $TOOL is not executable" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gt-replay-$SET.XXXXXX")
[ "${GT_KEEP:-0}" = 1 ] || trap 'rm -rf "$TMP"' EXIT
C=$TMP/.gt-carry-$SET
GT_CARRY_DIR=$C bash "$HERE/prepare-$SET.sh" "$SUITES" >/dev/null
# the committed tables must come from these sources (commits in suites.txt)
for s in "${names[@]}"; do
  want=$(awk -v s="$s" '$1 == s {print $2}' "$C/suites.txt")
  grep -q "$want" "$measured" || echo "replay-$SET: warning: $s at $want, not the measured commit" >&2
done
R=${GT_REPORT_DIR:-$TMP}
mkdir -p "$R"
export COALESCE_LINT=$TOOL
rc=0
python3 "$HERE/compare.py" --carry "$C" --frames all --json-dir "$TMP/json" \
  --out "$R/compare-$SET.md" "${significant[@]}" >/dev/null || rc=1
python3 "$HERE/compare.py" --carry "$C" --frames all --json-dir "$TMP/json" --reuse-json \
  --line-ratio 1.02 --ratio 1.0 --out "$R/compare-$SET-any-waste.md" "${any[@]}" >/dev/null || rc=1
sed -n '3,8p' "$R/compare-$SET.md" 2>/dev/null || true
sed -n '5,8p' "$R/compare-$SET-any-waste.md" 2>/dev/null || true
exit $rc
