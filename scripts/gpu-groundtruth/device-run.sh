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
# after which remaining programs are skipped, default 480), GT_BUILD_ONLY=1,
# GT_CARRY (the prepared directory, default .gt-carry; .gt-carry-modern for
# prepare-modern.sh), GT_TAR (the archive's name, default groundtruth.tar.gz),
# GT_PAR (programs profiled at once, default 1; each is its own ncu process,
# whose instrumented source counters do not depend on what else runs),
# GT_PREBUILT (a directory of binaries built already on this machine, named as
# the programs, e.g. by half/device-build.sh; those are copied, not built).
set -u
ROOT=$(pwd)
C=${GT_CARRY:-.gt-carry}
[[ $C == /* ]] || C=$ROOT/$C
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
  if [[ -n ${GT_PREBUILT:-} && -x $GT_PREBUILT/$name ]]; then
    # built already (half/device-build.sh: the same flags, one nvcc per file)
    cp "$GT_PREBUILT/$name" "$W/bin/$name"; rc=$?
    echo "prebuilt: $GT_PREBUILT/$name" >"$W/logs/$name.build.log"
    echo "$name	$rc	0" >"$W/logs/$name.build.rc"
    return
  fi
  (cd "$C/$dir" && eval timeout 300 "\"$NVCC\"" -O3 -arch=sm_90 -lineinfo -o "\"$W/bin/$name\"" $args) \
    >"$W/logs/$name.build.log" 2>&1
  rc=$?
  echo "$name	$rc	$(( $(date +%s) - t0 ))" >"$W/logs/$name.build.rc"
}
n=0
pids=()
# the binaries the selected programs need (a "=NAME" row runs NAME's)
declare -A NEED=()
while IFS=$'\t' read -r suite name dir args run lint; do
  [[ $suite == \#* || -z $suite ]] && continue
  [[ $name =~ $SEL ]] || continue
  if [[ $args == =* ]]; then NEED[${args#=}]=1; else NEED[$name]=1; fi
done <"$L"
while IFS=$'\t' read -r suite name dir args run lint; do
  [[ $suite == \#* || -z $suite ]] && continue
  [[ -n ${NEED[$name]:-} ]] || continue
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
PAR=${GT_PAR:-1}
mkdir -p "$W/st"
profile_program() {  # name dir bin run brc -> $W/st/name.tsv
  local name=$1 dir=$2 bin=$3 run=$4 brc=$5 t0 nrc erc nk dt filter=$FILTER
  t0=$(date +%s)
  profile() {
    (cd "$C/$dir" && eval timeout -k 5 "$TMO" "\"$NCU\"" --clock-control none --section SourceCounters \
        --import-source yes $filter -f -o "\"$W/rep/$name\"" \
        "\"$W/bin/$bin\"" $run) </dev/null >>"$W/logs/$name.ncu.log" 2>&1
  }
  : >"$W/logs/$name.ncu.log"
  profile; nrc=$?
  if [[ ! -f $W/rep/$name.ncu-rep && $filter == *kernel-id* ]] && grep -qi 'kernel-id' "$W/logs/$name.ncu.log"; then
    # this ncu does not take the per-kernel filter: first launches instead
    filter=$FALLBACK; echo "ncu refused --kernel-id; $name again with '$filter'"
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
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$brc" "$nrc" "$erc" "$nk" "$dt" >"$W/st/$name.tsv"
  echo "$name: ncu rc=$nrc export rc=$erc kernel blocks=$nk ${dt}s"
}
order=()
ppids=()
while IFS=$'\t' read -r suite name dir args run lint; do
  [[ $suite == \#* || -z $suite ]] && continue
  [[ $name =~ $SEL ]] || continue
  order+=("$name")
  bin=$name; [[ $args == =* ]] && bin=${args#=}
  brc=$(cut -f2 "$W/logs/$bin.build.rc" 2>/dev/null || echo missing)
  if [[ $brc != 0 ]]; then
    printf '%s\t%s\t-\t-\t0\t0\n' "$name" "$brc" >"$W/st/$name.tsv"; echo "SKIP $name: build rc=$brc"; continue
  fi
  if (( $(date +%s) - START > DEADLINE )); then
    printf '%s\t%s\tdeadline\t-\t0\t0\n' "$name" "$brc" >"$W/st/$name.tsv"; echo "SKIP $name: deadline"; continue
  fi
  if (( PAR > 1 )); then
    profile_program "$name" "$dir" "$bin" "$run" "$brc" </dev/null &
    ppids+=($!)
    while :; do  # at most PAR at a time
      nrun=0; for p in "${ppids[@]}"; do kill -0 "$p" 2>/dev/null && nrun=$((nrun + 1)); done
      (( nrun < PAR )) && break; sleep 0.2
    done
  else
    profile_program "$name" "$dir" "$bin" "$run" "$brc"
  fi
done <"$L"
(( ${#ppids[@]} )) && wait "${ppids[@]}"

printf 'name\tbuild_rc\tncu_rc\texport_rc\tkernels\tseconds\n' >"$S"
for n in "${order[@]}"; do cat "$W/st/$n.tsv" 2>/dev/null >>"$S" || printf '%s\t-\tmissing\t-\t0\t0\n' "$n" >>"$S"; done
echo "total $(( $(date +%s) - START )) s"
cp "$S" "$OUT/status.tsv"
tar czf "$OUT/${GT_TAR:-groundtruth.tar.gz}" -C "$W" csv logs status.tsv env.txt
ls -la "$OUT"
