#!/usr/bin/env bash
# bench/growth.sh - the cost of the analysis as the number of accesses grows.
#
#   bash bench/growth.sh [MAX_KERNELS]     (default 256)
#
# Generates files of K kernels with 10 accesses each, K = 8, 16, ... up to
# MAX_KERNELS, and times coalesce-lint (--no-header-cache, so both rows pay
# the same parse) against clang++-22 -fsyntax-only on each, in CPU time
# (user + system). The analysis time is the difference; its cost per access must stay flat (linear
# growth): the last column divides it by the smallest file's.
# Environment: COALESCE_LINT, CLANG, ARCH, REPS (default 3).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

MAX=${1:-256}
LINT=${COALESCE_LINT:-build/bin/coalesce-lint}
CLANG=${CLANG:-clang++-22}
ARCH=${ARCH:-sm_90}
REPS=${REPS:-3}
source bench/lib.sh
[[ $MAX =~ ^[1-9][0-9]*$ ]] || die "MAX_KERNELS must be a positive integer"

echo "files of K kernels x 10 accesses, arch: $ARCH, median of $REPS runs"
echo
echo "| kernels | accesses | coalesce-lint CPU (s) | clang parse CPU (s) | analysis (s) | ms per access | relative |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
first=
for ((k = 8; k <= MAX; k *= 2)); do
  f=$TMP/k$k.cu
  python3 bench/gen.py kernels "$f" "$k" 10
  # CPU time (user + system): steadier than wall time on a loaded machine.
  tool=$(bench x '0|1' "$LINT" --no-header-cache --format=json --fail-on=never "$f" | awk -F'|' '{print $5+0}')
  parse=$(bench x '0' "$CLANG" "${CLANG_ARGS[@]}" "$f" | awk -F'|' '{print $5+0}')
  n=$((k * 10))
  per=$(awk -v t="$tool" -v p="$parse" -v n="$n" 'BEGIN { d = t - p; if (d < 0) d = 0; printf "%.3f", d * 1000 / n }')
  [[ -z $first ]] && first=$per
  awk -v k="$k" -v n="$n" -v t="$tool" -v p="$parse" -v per="$per" -v f="$first" 'BEGIN {
    printf "| %d | %d | %.2f | %.2f | %.2f | %s | %.2f |\n", k, n, t, p, t - p, per, (f > 0 ? per / f : 0) }'
done
