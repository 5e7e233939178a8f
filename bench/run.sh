#!/usr/bin/env bash
# bench/run.sh - time coalesce-lint against a bare clang parse of one file.
#
#   bash bench/run.sh [FILE.cu]        (default: examples/matrix.cu)
#
# Runs, REPS times each after one unmeasured warm-up run:
#   coalesce-lint --format=json FILE
#   clang++-22 -fsyntax-only <the device-only flags coalesce-lint uses> FILE
# and prints the median wall time and the median peak resident memory of
# each, as a Markdown table. The clang line is the floor: the cost of parsing
# the file and the CUDA headers, which every device-side tool pays.
#
# Environment: COALESCE_LINT (default build/bin/coalesce-lint), CLANG
# (default clang++-22), ARCH (default sm_90, the tool's default), REPS
# (default 5), CUDA_PATH (default: found like the tool finds it), GNU_TIME
# (default /usr/bin/time). Peak memory needs GNU time (Debian package "time");
# without it only wall times are printed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

FILE=${1:-examples/matrix.cu}
LINT=${COALESCE_LINT:-build/bin/coalesce-lint}
CLANG=${CLANG:-clang++-22}
ARCH=${ARCH:-sm_90}
REPS=${REPS:-5}

source bench/lib.sh
[[ -f $FILE ]] || die "no such file: $FILE"

echo "file: $FILE, arch: $ARCH, CUDA: $CUDA, median of $REPS runs"
echo
echo "| command | wall time (s) | peak RSS (MiB) | CPU time (s) |"
echo "|---|---:|---:|---:|"
# coalesce-lint exits 1 when it reports findings: still a good run. The
# header cache is warm after the warm-up run.
bench "coalesce-lint --format=json" '0|1' "$LINT" --format=json "$FILE"
bench "coalesce-lint --format=json --no-header-cache" '0|1' "$LINT" --format=json --no-header-cache "$FILE"
bench "$CLANG -fsyntax-only (device only)" '0' "$CLANG" "${CLANG_ARGS[@]}" "$FILE"
