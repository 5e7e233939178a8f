#!/usr/bin/env bash
# On the GPU machine, from the repository root: builds the programs of
# .gt-carry-half/programs.tsv (prepare-half.sh) with every .cu file compiled
# on its own and at once (nvcc -c, one process per file), then linked; the
# same flags as device-run.sh's one-command build (-O3 -arch=sm_90 -lineinfo
# and column 4's). The binaries go to $GT_PREBUILT (default /tmp/gt-prebuilt),
# which device-run.sh then takes instead of building them again:
#
#   bash scripts/gpu-groundtruth/half/device-build.sh &&
#   GT_CARRY=.gt-carry-half GT_PREBUILT=/tmp/gt-prebuilt OUT=... bash scripts/gpu-groundtruth/device-run.sh
#
#   bash scripts/gpu-groundtruth/half/device-build.sh [NAME_REGEX]   # only those programs
#
# Column 4's .cu and .cpp files are the sources (FastGEMV's main.cpp), the
# rest flags; a "=NAME" row reuses NAME's binary.
set -u
ROOT=$(pwd)
C=${GT_CARRY:-.gt-carry-half}
[[ $C == /* ]] || C=$ROOT/$C
P=${GT_PREBUILT:-/tmp/gt-prebuilt}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$P"
rc=0
while IFS=$'\t' read -r suite name dir args run lint rest; do
  [[ $suite == \#* || -z $suite ]] && continue
  [[ $args == =* ]] && continue
  [[ $name =~ ${1:-.} ]] || continue
  flags=() srcs=()
  for t in $args; do
    if [[ $t == *.cu || $t == *.cpp ]]; then srcs+=("$t"); else flags+=("$t"); fi
  done
  o=$P/obj-$name; mkdir -p "$o"
  t0=$(date +%s)
  pids=()
  for s in "${srcs[@]}"; do
    (cd "$C/$dir" && "$NVCC" -O3 -arch=sm_90 -lineinfo "${flags[@]}" -c "$s" -o "$o/$(echo "$s" | tr / _).o") \
      >"$o/$(echo "$s" | tr / _).log" 2>&1 &
    pids+=($!)
  done
  brc=0
  for p in "${pids[@]}"; do wait "$p" || brc=1; done
  if [[ $brc == 0 ]]; then
    (cd "$C/$dir" && "$NVCC" -arch=sm_90 -o "$P/$name" "$o"/*.o) >"$o/link.log" 2>&1 || brc=1
  fi
  [[ $brc == 0 ]] || { cat "$o"/*.log; rc=1; }
  echo "$name: build rc=$brc $(( $(date +%s) - t0 ))s (${#srcs[@]} files)"
done <"$C/programs.tsv"
exit $rc
