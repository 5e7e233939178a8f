#!/usr/bin/env bash
# bench/instructions.sh - what one analysis costs, in instructions, by phase.
#
#   bash bench/instructions.sh FILE.cu [-- COMPILER_ARGS]
#
# Wall times on a shared machine move by 15 to 30% from run to run; the
# number of instructions executed does not. This runs coalesce-lint once
# under valgrind's callgrind (about 60x slower than a plain run) and prints
# the total and the inclusive share of each phase: clang's parse (with the
# header cache), the kernel walk, the predictions, and inside them the
# default-value probes and the guard search. Compare two builds with
# COALESCE_LINT=... on the same file; the output must also stay the same
# (the JSON report is kept as $OUT.json).
#
# Environment: COALESCE_LINT (default build/bin/coalesce-lint), OUT (default
# /tmp/coalesce-instructions), CUDA_PATH. Needs valgrind (Debian package "valgrind").
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
LINT=$(realpath -m "${COALESCE_LINT:-build/bin/coalesce-lint}")
CLANG=${CLANG:-clang++-22}
ARCH=${ARCH:-sm_90}
REPS=1
source bench/lib.sh

[[ $# -ge 1 ]] || die "usage: bench/instructions.sh FILE.cu [-- COMPILER_ARGS]"
OUT=${OUT:-/tmp/coalesce-instructions}
command -v valgrind >/dev/null || die "valgrind is not installed"

valgrind --tool=callgrind --callgrind-out-file="$OUT.callgrind" \
  "$LINT" --timeout=0 --format=json --fail-on=never "$@" \
  >"$OUT.json" 2>"$OUT.log" || die "the run failed; see $OUT.log"

TOTAL=$(grep -o 'refs: *[0-9,]*' "$OUT.log" | tr -dc '0-9')
echo "| phase | instructions | share |"
echo "|---|---:|---:|"
printf '| total | %s | 100%% |\n' "$TOTAL"
callgrind_annotate --inclusive=yes --threshold=100 "$OUT.callgrind" 2>/dev/null |
  awk -v total="$TOTAL" '
    BEGIN {
      n = split("clang::ParseAST(|KernelWalker::walkEntry(|predictor::predictWith(|predictor::probeStride(|predictor::probeMisalignment(|predictor::solveGuards(", pat, "|")
      split("clang parse (header cache on; includes the walk)|kernel walk|predictions (all threads)|  stride probes|  misalignment probes|  guard search", label, "|")
    }
    {
      for (i = 1; i <= n; i++)
        if (!(i in seen) && index($0, pat[i])) {
          v = $1; gsub(",", "", v); seen[i] = v
        }
    }
    END {
      for (i = 1; i <= n; i++) {
        v = (i in seen) ? seen[i] : 0
        printf "| %s | %.0f | %.1f%% |\n", label[i], v, 100 * v / total
      }
    }'
echo
echo "report: $OUT.json; profile: $OUT.callgrind (callgrind_annotate)"
