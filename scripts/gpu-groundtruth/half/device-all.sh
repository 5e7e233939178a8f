#!/usr/bin/env bash
# On the GPU machine, from the repository root, with .gt-carry-half carried
# (prepare-half.sh): one call for the programs whose names match NAME_REGEX.
#   1. builds them (half/device-build.sh: one nvcc per file, at once);
#   2. runs each once without a profiler and keeps its output
#      ($OUT/checks.log): the suite's own check (FastGEMV's
#      check_*correctness kernels print the rows that differ), or the
#      driver's CPU reference (llama-awq: "check" appended to its arguments;
#      hgemv/hgemm's drivers always check);
#   3. profiles them (device-run.sh with the binaries of step 1) into
#      $OUT/$GT_TAR.
#
#   GT_FILTER='--launch-count 100' GT_PAR=3 GT_TAR=groundtruth-half-2.tar.gz \
#   OUT=/some/dir bash scripts/gpu-groundtruth/half/device-all.sh 'fastgemv|awq'
#
# Environment: as device-run.sh (GT_FILTER, GT_PAR, GT_TIMEOUT, GT_DEADLINE,
# GT_TAR), plus GT_CHECK_TIMEOUT (seconds per unprofiled run, default 120).
set -u
ROOT=$(pwd)
SEL=${1:-.}
OUT=${OUT:?set OUT}
C=$ROOT/.gt-carry-half
P=${GT_PREBUILT:-/tmp/gt-prebuilt}
mkdir -p "$OUT"
t0=$(date +%s)
GT_CARRY=.gt-carry-half GT_PREBUILT=$P bash "$ROOT/scripts/gpu-groundtruth/half/device-build.sh" "$SEL" \
  >"$OUT/build.log" 2>&1
echo "build rc=$? $(( $(date +%s) - t0 )) s"; cat "$OUT/build.log"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.used --format=csv,noheader
  while IFS=$'\t' read -r suite name dir args run lint rest; do
    [[ $suite == \#* || -z $suite ]] && continue
    [[ $name =~ $SEL ]] || continue
    bin=$name; [[ $args == =* ]] && bin=${args#=}
    extra=""; [[ $suite == llama-awq ]] && extra=check
    echo "== $name: $bin $run $extra"
    t1=$(date +%s)
    (cd "$C/$dir" && eval timeout "${GT_CHECK_TIMEOUT:-120}" "\"$P/$bin\"" $run $extra) </dev/null 2>&1 |
      awk '/^!!!/ { bad++; if (bad <= 5) print; next } { print } END { if (bad) print bad " rows reported wrong (!!!)" }'
    echo "rc=${PIPESTATUS[0]} $(( $(date +%s) - t1 )) s"
  done <"$C/programs.tsv"
} >"$OUT/checks.log" 2>&1
cat "$OUT/checks.log"
GT_CARRY=.gt-carry-half GT_PREBUILT=$P bash "$ROOT/scripts/gpu-groundtruth/device-run.sh" "$SEL"
