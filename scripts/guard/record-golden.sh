#!/usr/bin/env bash
# Records the JSON report (with --self-check, so exclusions and the census
# are in it) of every .cu file of the golden corpus and of examples/, one
# file per input, for comparing two builds of the tool byte by byte during a
# refactoring (issue 29's guard rail):
#
#   scripts/guard/record-golden.sh TOOL OUTDIR
#   scripts/guard/record-golden.sh build/bin/coalesce-lint /tmp/after
#   diff -r /tmp/before /tmp/after
#
# Each input is analyzed alone, with no options beyond --format=json
# --self-check (the golden tests' own RUN lines add flags; this is a wider,
# option-free net). The tool's stderr and exit status are recorded too.
set -uo pipefail
tool=$(realpath "$1"); out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
cd "$root"
find test/golden examples -name '*.cu' | sort | while read -r f; do
  id=$(printf '%s' "$f" | tr '/' '_')
  "$tool" --format=json --self-check --no-header-cache --progress=never "$f" \
    >"$out/$id.json" 2>"$out/$id.err"
  echo "$f $?" >>"$out/status.txt"
done
