#!/usr/bin/env bash
# On the GPU machine, from the repository root, with .gt-carry-half carried
# (prepare-half.sh): llama_cu_awq's two programs built, checked and profiled
# with device-run.sh's default filter (the first launch of each kernel, so
# that each measured line is one launch per kernel, as each finding's
# per-launch figure counts), then the line table of the objects (nvdisasm
# -gi). Everything under $OUT: groundtruth-half-3.tar.gz,
# line-table-half-3.tar.gz, the logs.
#
#   OUT=/some/dir bash scripts/gpu-groundtruth/half/device-awq-first-launches.sh
set -u
export OUT=${OUT:?set OUT}
GT_PAR=2 GT_TIMEOUT=300 GT_DEADLINE=450 GT_TAR=groundtruth-half-3.tar.gz \
  bash scripts/gpu-groundtruth/half/device-all.sh 'awq' 2>&1 | tail -60
P=${GT_PREBUILT:-/tmp/gt-prebuilt}
L=$(mktemp -d)
cd "$L" || exit 1
for o in "$P"/obj-awq-7b/*.o; do
  d=x-$(basename "$o"); mkdir -p "$d"
  (cd "$d" && cuobjdump -xelf all "$o" >/dev/null 2>&1 &&
     for c in *.cubin; do nvdisasm -c -g -gi "$c" >"$c.sass" 2>"$c.err"; done)
done
rm -f x-*/*.cubin
tar czf "$OUT/line-table-half-3.tar.gz" x-*
ls -la "$OUT"
