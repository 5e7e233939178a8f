#!/usr/bin/env bash
# Runs TOOL over every suite of docs/real-code.md checked out under SUITES
# (scripts/real-code/checkout-suites.sh) and compares each JSON report with
# the one recorded in BASE by an earlier run of this script (or of
# run-suite.sh): prints the reports that differ and exits 1 when one does.
# A suite BASE lacks is only recorded (the first run: BASE = /nonexistent).
# Issue 29's guard rail: a refactoring keeps every report byte-identical.
#
#   scripts/guard/compare-suites.sh TOOL BASE OUT [SUITES]
#
# No clang baseline is timed (CLANGXX=true); TIMEOUT 300 s per file.
set -uo pipefail
tool=$(realpath "$1"); base=$2; out=$3; suites=${4:-/work/.suites}
here=$(cd "$(dirname "$0")" && pwd)
status=0
for s in cuda-samples parboil polybench-acc rodinia shoc thrust ggml-cuda \
         llm.c cub-examples fastgemv te-common sgemm-cuda tigr csr5 \
         calm llama-awq hgemv hgemm yalm moderngpu; do
  [ -d "$suites/$s" ] || { echo "compare-suites: $s: not checked out"; status=1; continue; }
  COALESCE_LINT=$tool CLANGXX=true JOBS=${JOBS:-2} TIMEOUT=300 \
    bash "$here/../real-code/run-suite.sh" "$s" "$suites/$s" "$out/$s" >"$out.$s.log" 2>&1
  if [ ! -d "$base/$s/json" ]; then
    echo "compare-suites: $s: recorded in $out/$s (no $base/$s to compare with)"
    continue
  fi
  n=0; d=0
  for j in "$base/$s"/json/*.json; do
    n=$((n + 1))
    cmp -s "$j" "$out/$s/json/${j##*/}" || { d=$((d + 1)); echo "differs: $s/json/${j##*/}"; }
  done
  echo "compare-suites: $s: $((n - d)) of $n reports identical"
  [ "$d" = 0 ] || status=1
done
exit $status
