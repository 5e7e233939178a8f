#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, after prepare.sh has
# filled .gt-carry/ (carried with the `run` tool: carry: [".gt-carry"]).
# For every program of .gt-carry/programs.tsv: nvcc build (in parallel), one
# Nsight Compute pass with the SourceCounters section (first invocation of
# each kernel), then the source page exported as CSV. Everything lands in
# $OUT/groundtruth.tar.gz (csv/NAME.csv, logs/, status.tsv, env.txt); status.tsv
# and the log also come back as plain files.
#
#   OUT=/tmp/out bash scripts/gpu-groundtruth/device-run.sh [NAME_REGEX]
#
# Environment: NVCC, NCU (tools), GT_JOBS (parallel builds, default nproc),
# GT_FILTER (the ncu launch filter, see the profiles section),
# GT_TIMEOUT (seconds per program under ncu, default 60), GT_DEADLINE (seconds
# after which remaining programs are skipped, default 480), GT_BUILD_ONLY=1.
set -u
ROOT=$(pwd)
C=$ROOT/.gt-carry
L=$C/programs.tsv
OUT=${OUT:?set OUT}
W=${GT_WORK:-/tmp/gt-work}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
JOBS=${GT_JOBS:-$(nproc)}
TMO=${GT_TIMEOUT:-60}
DEADLINE=${GT_DEADLINE:-480}
SEL=${1:-.}
START=$(date +%s)
rm -rf "$W"; mkdir -p "$W/bin" "$W/rep" "$W/csv" "$W/logs" "$OUT"
LOG=$OUT/device-run.log
exec > >(tee "$LOG") 2>&1

{
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -a)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  echo "nvcc: $("$NVCC" --version 2>&1 | tail -2 | tr '\n' ' ')"
  echo "ncu: $("$NCU" --version 2>&1 | tail -1)"
  cat "$C/suites.txt" 2>/dev/null | sed 's/^/suite: /'
} >"$W/env.txt"
cat "$W/env.txt"

# ---- builds, in parallel ---------------------------------------------------------
build_one() {  # name dir args
  local name=$1 dir=$2 args=$3 t0=$(date +%s) rc
  (cd "$C/$dir" && eval timeout 300 "\"$NVCC\"" -O3 -arch=sm_90 -lineinfo -o "\"$W/bin/$name\"" $args) \
    >"$W/logs/$name.build.log" 2>&1
  rc=$?
  echo "$name	$rc	$(( $(date +%s) - t0 ))" >"$W/logs/$name.build.rc"
}
n=0
pids=()
while IFS=$'\t' read -r suite name dir args run lint; do
  [[ $suite == \#* || -z $suite ]] && continue
  [[ $name =~ $SEL ]] || continue
  [[ $args == =* ]] && continue
  build_one "$name" "$dir" "$args" &
  pids+=($!)
  # at most JOBS builds at a time (a bare `wait` would also wait for the tee)
  while (( $(jobs -rp | wc -l) > JOBS )); do sleep 0.5; done
done <"$L"
wait "${pids[@]}"
echo "builds done after $(( $(date +%s) - START )) s:"
cat "$W"/logs/*.build.rc | awk -F'\t' '{printf "  %s rc=%s %ss\n", $1, $2, $3}'
[[ ${GT_BUILD_ONLY:-0} == 1 ]] && { cp "$W/logs/"*.build.log "$OUT/" 2>/dev/null; exit 0; }

# ---- profiles ----------------------------------------------------------------------
S=$W/status.tsv
# first invocation of every kernel (at most 40 profiled launches a program);
# GT_FILTER overrides it (e.g. '--kernel-name-base mangled --kernel-id
# ::regex:.:1 --launch-count 40': every template instance's first launch)
FILTER=${GT_FILTER:-'--kernel-id ::regex:.:1 --launch-count 40'}
FALLBACK='--launch-count 12'
printf 'name\tbuild_rc\tncu_rc\texport_rc\tkernels\tseconds\n' >"$S"
while IFS=$'\t' read -r suite name dir args run lint; do
  [[ $suite == \#* || -z $suite ]] && continue
  [[ $name =~ $SEL ]] || continue
  bin=$name; [[ $args == =* ]] && bin=${args#=}
  brc=$(cut -f2 "$W/logs/$bin.build.rc" 2>/dev/null || echo missing)
  if [[ $brc != 0 ]]; then
    printf '%s\t%s\t-\t-\t0\t0\n' "$name" "$brc" >>"$S"; echo "SKIP $name: build rc=$brc"; continue
  fi
  if (( $(date +%s) - START > DEADLINE )); then
    printf '%s\t%s\tdeadline\t-\t0\t0\n' "$name" "$brc" >>"$S"; echo "SKIP $name: deadline"; continue
  fi
  t0=$(date +%s)
  profile() {
    (cd "$C/$dir" && eval timeout -k 5 "$TMO" "\"$NCU\"" --clock-control none --section SourceCounters \
        --import-source yes $FILTER -f -o "\"$W/rep/$name\"" \
        "\"$W/bin/$bin\"" $run) </dev/null >>"$W/logs/$name.ncu.log" 2>&1
  }
  : >"$W/logs/$name.ncu.log"
  profile; nrc=$?
  if [[ ! -f $W/rep/$name.ncu-rep && $FILTER == *kernel-id* ]] && grep -qi 'kernel-id' "$W/logs/$name.ncu.log"; then
    # this ncu does not take the per-kernel filter: first launches instead
    FILTER=$FALLBACK; echo "ncu refused --kernel-id; using '$FILTER' from now on"
    profile; nrc=$?
  fi
  erc=-
  if [[ -f $W/rep/$name.ncu-rep ]]; then
    "$NCU" -i "$W/rep/$name.ncu-rep" --page source --print-source cuda,sass --csv \
      --print-kernel-base function >"$W/csv/$name.csv" 2>"$W/logs/$name.export.log"
    erc=$?
  fi
  nk=$(grep -c '^"Function Name"' "$W/csv/$name.csv" 2>/dev/null); nk=${nk:-0}
  dt=$(( $(date +%s) - t0 ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$brc" "$nrc" "$erc" "$nk" "$dt" >>"$S"
  echo "$name: ncu rc=$nrc export rc=$erc kernel blocks=$nk ${dt}s"
done <"$L"

echo "total $(( $(date +%s) - START )) s"
cp "$S" "$OUT/status.tsv"
tar czf "$OUT/groundtruth.tar.gz" -C "$W" csv logs status.tsv env.txt
ls -la "$OUT"
