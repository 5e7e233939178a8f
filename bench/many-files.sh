#!/usr/bin/env bash
# bench/many-files.sh - files per second on a generated project of N files
# analyzed through -p compile_commands.json.
#
#   bash bench/many-files.sh [N]          (default 50 files)
#
# Rows (each the median of REPS runs after a warm-up):
#   clang++-22 -fsyntax-only on every file, one after the other: the floor a
#     tool that parses each file from scratch cannot go below;
#   coalesce-lint -p DIR -j1 --no-header-cache: every file parses the CUDA
#     headers again;
#   coalesce-lint -p DIR -j1 with a header cache built in this run (cold);
#   coalesce-lint -p DIR -j1 with the cache already there (warm);
#   coalesce-lint -p DIR (all cores, warm cache).
# CPU time (user + system) is shown beside wall time: on a loaded machine it
# is the steadier measure.
# Environment: COALESCE_LINT, CLANG, ARCH, REPS (default 3), as bench/run.sh.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

N=${1:-50}
LINT=$(realpath -m "${COALESCE_LINT:-build/bin/coalesce-lint}")
CLANG=${CLANG:-clang++-22}
ARCH=${ARCH:-sm_90}
REPS=${REPS:-3}
source bench/lib.sh
[[ $N =~ ^[1-9][0-9]*$ ]] || die "N must be a positive integer"

PROJ=$TMP/project
python3 bench/gen.py project "$PROJ" "$N"
CACHE=$TMP/cache

# Scripts, so that GNU time can run them.
{
  echo 'for f in "$1"/*.cu; do "$2" "${@:3}" -O2 -DUNIT=0 "$f" || exit 1; done'
} >"$TMP/clang-all.sh"
{
  echo 'rm -rf "$3"; exec "$1" -p "$2" -j1 --cache-dir="$3" --format=json --fail-on=never'
} >"$TMP/cold.sh"

row() {  # row NAME CMD...: "| NAME | wall s | files/s | CPU s | files per CPU s | MiB |"
  local name=$1; shift
  bench "$name" '0|1' "$@" | awk -F'|' -v n="$N" '{
    s = $3 + 0; c = $5 + 0
    printf "| %s | %.2f | %.1f | %.2f | %.1f | %s |\n", $2, s, n / s, c, (c > 0 ? n / c : 0), $4 }'
}

echo "project: $N generated files (2 kernels, 6 accesses, 1 host launch each), arch: $ARCH, $(nproc) cores, median of $REPS runs"
echo
echo "| command | wall time (s) | files/s | CPU time (s) | files per CPU second | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|---:|"
row "clang -fsyntax-only, each file " bash "$TMP/clang-all.sh" "$PROJ" "$CLANG" "${CLANG_ARGS[@]}"
row "coalesce-lint -p -j1 --no-header-cache " "$LINT" -p "$PROJ" -j1 --no-header-cache --format=json --fail-on=never
row "coalesce-lint -p -j1, cold header cache " bash "$TMP/cold.sh" "$LINT" "$PROJ" "$CACHE"
"$LINT" -p "$PROJ" -j1 --cache-dir="$CACHE" --format=json --fail-on=never >/dev/null
row "coalesce-lint -p -j1, warm header cache " "$LINT" -p "$PROJ" -j1 --cache-dir="$CACHE" --format=json --fail-on=never
row "coalesce-lint -p -j$(nproc), warm header cache " "$LINT" -p "$PROJ" --cache-dir="$CACHE" --format=json --fail-on=never
