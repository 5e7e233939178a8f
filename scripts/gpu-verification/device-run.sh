#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, after prepare.sh filled
# .verify-carry/ (and scripts/gpu-groundtruth/prepare.sh .gt-carry/):
#   1. builds coalesce-verify from .verify-carry/cuda_validation (CMake only);
#   2. builds every harness (nvcc -lineinfo) and runs it once under
#      compute-sanitizer --tool memcheck: no out-of-bounds access allowed;
#   3. application mode on every PolyBench-ACC program: nvcc -lineinfo
#      build, then coalesce-verify --app under ncu --clock-control none
#      (the first launch of each manifest kernel, then ncu stops the
#      program: --launch-count K --kill yes); one program also built
#      without -lineinfo, to see the message;
#   3b. template instantiations and launches told apart (issue 8):
#      coalesce-verify --app on .verify-carry/own/instances (2 kernels x 2
#      instantiations x 2 launches; --launch-count 8, and once without) and
#      on cuda-samples' reduction (--kernel=6 --type=float --launch-count 5:
#      reduce6<float, 256, true> x3 and reduce6<float, 32, true> x2;
#      --kernel=0 --type=double --launch-count 3: reduce0<double> on three
#      sizes); per run also ncu's details page (result ids, names, grids)
#      and the report re-read with --print-kernel-base function (the old,
#      merged view) for comparison;
#   4. (VR_DIAG=1) why long host loops were slow: lu run plainly, and
#      under ncu with the old filter (no --kill) with and without the
#      SourceCounters section.
# Everything lands in $OUT/verify-run.tar.gz; summaries also as plain files
# ($OUT/instances-summary.txt for 3b).
#
#   OUT=/tmp/out bash .verify-carry/device-run.sh
#
# Environment: NVCC, NCU, SANITIZER (tools), VR_DEADLINE (seconds after which
# remaining programs are skipped, default 480), VR_JOBS (parallel builds),
# VR_CARRY_NAME (default .verify-carry), VR_APP_TIMEOUT (seconds per
# program, default 90), VR_DIAG (1: the diagnostics of step 4),
# VR_ONLY_INSTANCES (1: steps 1 and 3b only, about 30 s of profiling).
set -u
ROOT=$(pwd)
C=$ROOT/${VR_CARRY_NAME:-.verify-carry}
GT=$ROOT/.gt-carry
OUT=${OUT:?set OUT}
W=${VR_WORK:-/tmp/vr-work}
CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
export PATH=$PATH:$CUDA_BIN:/usr/local/cuda/bin
NVCC=${NVCC:-$(command -v nvcc)}
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
JOBS=${VR_JOBS:-$(nproc)}
DEADLINE=${VR_DEADLINE:-480}
APP_TIMEOUT=${VR_APP_TIMEOUT:-90}
ONLY_INSTANCES=${VR_ONLY_INSTANCES:-0}
START=$(date +%s)
rm -rf "$W"; mkdir -p "$W/san" "$W/app" "$W/inst" "$W/bin" "$OUT"
exec > >(tee "$OUT/device-run.log") 2>&1
elapsed() { echo $(( $(date +%s) - START )); }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  echo "nvcc: $("$NVCC" --version 2>&1 | tail -2 | tr '\n' ' ')"
  echo "ncu: $(ncu --version 2>&1 | tail -1)"
  echo "compute-sanitizer: $("$SAN" --version 2>&1 | tail -1)"
  echo "cmake: $(cmake --version 2>&1 | head -1)"
} | tee "$W/env.txt"

# ---- 1. coalesce-verify ---------------------------------------------------------
cmake -S "$C/cuda_validation" -B "$W/build-verify" -DCMAKE_BUILD_TYPE=Release \
  -DCOALESCE_VERIFY_TESTS=OFF >"$W/build-verify.log" 2>&1 &&
  cmake --build "$W/build-verify" -j"$JOBS" >>"$W/build-verify.log" 2>&1
VERIFY=$W/build-verify/bin/coalesce-verify
[[ -x $VERIFY ]] && echo "coalesce-verify built ($(elapsed) s)" || { echo "coalesce-verify build FAILED"; tail -20 "$W/build-verify.log"; }

# the programs of step 3b, built now so that the builds overlap steps 2 and 3
ipids=()
if [[ -f $C/own/instances.cu ]]; then
  (cd "$C/own" && "$NVCC" -O3 -arch=sm_90 -lineinfo -o "$W/bin/instances" instances.cu \
     >"$W/inst/instances.build.log" 2>&1) &
  ipids+=($!)
fi
if [[ -f $C/own/reduction/reduction_kernel.cu ]]; then
  (cd "$C/own/reduction" && timeout 600 "$NVCC" -O3 -arch=sm_90 -lineinfo -I../Common \
     -o "$W/bin/reduction" reduction.cpp reduction_kernel.cu >"$W/inst/reduction.build.log" 2>&1) &
  ipids+=($!)
fi

# ---- 2. harnesses under compute-sanitizer ----------------------------------------
# (a bare `wait` would also wait for the tee above: wait for these pids)
if [[ $ONLY_INSTANCES != 1 ]]; then
cp -r "$C/harness" "$W/harness"
pids=()
for d in "$W"/harness/*/; do
  (cd "$d" && NVCC=$NVCC timeout 300 bash build.sh >build.log 2>&1; echo $? >build.rc) &
  pids+=($!)
  while (( $(jobs -rp | wc -l) > JOBS )); do sleep 0.3; done
done
wait "${pids[@]}"
echo "harness builds done ($(elapsed) s)"
printf 'harness\tbuild_rc\tsanitizer_rc\terrors\tkernels_ok\tkernels_other\n' >"$W/san/summary.tsv"
for d in "$W"/harness/*/; do
  n=$(basename "$d")
  brc=$(cat "$d/build.rc")
  if [[ $brc != 0 ]]; then
    printf '%s\t%s\t-\t-\t0\t0\n' "$n" "$brc" >>"$W/san/summary.tsv"; continue
  fi
  (cd "$d" && timeout -k 5 120 "$SAN" --tool memcheck --leak-check no \
     --print-limit 20 ./harness >"$W/san/$n.log" 2>&1); rc=$?
  errs=$(grep -o 'ERROR SUMMARY: [0-9]*' "$W/san/$n.log" | grep -o '[0-9]*$' || echo '?')
  ok=$(grep -c 'status=ok' "$W/san/$n.log")
  other=$(grep 'coalesce-harness: kernel=' "$W/san/$n.log" | grep -vc 'status=ok')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$brc" "$rc" "${errs:-?}" "$ok" "$other" >>"$W/san/summary.tsv"
  echo "sanitizer $n: rc=$rc errors=${errs:-?} ok=$ok other=$other"
done
echo "sanitizer done ($(elapsed) s)"
cp "$W/san/summary.tsv" "$OUT/sanitizer-summary.tsv"
fi

# ---- 3. application mode on PolyBench ----------------------------------------------
L=$GT/programs.tsv
if [[ $ONLY_INSTANCES != 1 && -x $VERIFY && -f $L ]]; then
  pids=()
  while IFS=$'\x1f' read -r suite name dir args run lint; do
    [[ $suite == polybench ]] || continue
    (cd "$GT/$dir" && eval timeout 300 "\"$NVCC\"" -O3 -arch=sm_90 -lineinfo -o "\"$W/bin/$name\"" $args \
       >"$W/app/$name.build.log" 2>&1) &
    pids+=($!)
    while (( $(jobs -rp | wc -l) > JOBS )); do sleep 0.3; done
  done < <(tr '\t' '\037' <"$L")
  # one without -lineinfo: the message instead of a comparison
  (cd "$GT/polybench/CUDA/linear-algebra/kernels/atax" && "$NVCC" -O3 -arch=sm_90 \
     -DMINI_DATASET -DcudaThreadSynchronize=cudaDeviceSynchronize -I../../../utilities \
     -o "$W/bin/nolineinfo-atax" atax.cu >"$W/app/nolineinfo.build.log" 2>&1) &
  pids+=($!)
  wait "${pids[@]}"
  echo "app builds done ($(elapsed) s)"
  printf 'name\tverify_rc\tseconds\n' >"$W/app/summary.tsv"
  while IFS=$'\x1f' read -r suite name dir args run lint; do
    [[ $suite == polybench ]] || continue
    if (( $(elapsed) > DEADLINE )); then echo "SKIP $name: deadline"; printf '%s\tdeadline\t0\n' "$name" >>"$W/app/summary.tsv"; continue; fi
    t0=$(date +%s)
    (cd "$GT/$dir" && timeout -k 5 "$APP_TIMEOUT" "$VERIFY" --app "$W/bin/$name $run" \
       --manifest "$C/manifests/$name.tsv" --json "$W/app/$name.json" "$W/app/$name" \
       >"$W/app/$name.txt" 2>&1); rc=$?
    cp "$W/app/$name/source.csv" "$W/app/$name.source.csv" 2>/dev/null
    cp "$W/app/$name/ncu.log" "$W/app/$name.ncu.log" 2>/dev/null
    printf '%s\t%s\t%s\n' "$name" "$rc" $(( $(date +%s) - t0 )) >>"$W/app/summary.tsv"
    echo "app $name: rc=$rc $(grep '^lines:' "$W/app/$name.txt")"
  done < <(tr '\t' '\037' <"$L")
  (cd "$GT/polybench/CUDA/linear-algebra/kernels/atax" && timeout -k 5 90 "$VERIFY" \
     --app "$W/bin/nolineinfo-atax" --manifest "$C/manifests/pb-atax.tsv" "$W/app/nolineinfo" \
     >"$W/app/nolineinfo.txt" 2>&1; echo "rc=$?" >>"$W/app/nolineinfo.txt")
  echo "without -lineinfo: $(tail -2 "$W/app/nolineinfo.txt" | tr '\n' ' ')"
  # our own example, with and without -lineinfo (CI replays these)
  (cd "$C/own" && "$NVCC" -O3 -arch=sm_90 -lineinfo -o "$W/bin/matrix" matrix.cu &&
     "$NVCC" -O3 -arch=sm_90 -o "$W/bin/matrix-nolineinfo" matrix.cu) >"$W/app/own.build.log" 2>&1
  for v in matrix matrix-nolineinfo; do
    (cd "$C/own" && timeout -k 5 90 "$VERIFY" --app "$W/bin/$v" --manifest matrix.tsv \
       --json "$W/app/own-$v.json" "$W/app/own-$v" >"$W/app/own-$v.txt" 2>&1; echo "rc=$?" >>"$W/app/own-$v.txt")
    cp "$W/app/own-$v/source.csv" "$W/app/own-$v.source.csv" 2>/dev/null
    echo "own $v: $(tail -2 "$W/app/own-$v.txt" | tr '\n' ' ')"
  done
  cp "$W/app/summary.tsv" "$OUT/app-summary.tsv"
fi

# ---- 3b. template instantiations and launches told apart --------------------------
# run_inst NAME DIR MANIFEST 'CMD ARGS' [coalesce-verify options]
run_inst() {
  local name=$1 dir=$2 manifest=$3 cmd=$4 t0 rep; shift 4
  if [[ ! -x ${cmd%% *} ]]; then echo "inst $name: not built" | tee -a "$W/inst/summary.txt"; return; fi
  t0=$(date +%s.%N)
  (cd "$dir" && timeout -k 5 120 "$VERIFY" --app "$cmd" --manifest "$manifest" "$@" \
     --json "$W/inst/$name.json" "$W/inst/$name" >"$W/inst/$name.txt" 2>&1; echo "rc=$?" >>"$W/inst/$name.txt")
  rep=$W/inst/$name/app.ncu-rep
  cp "$W/inst/$name/source.csv" "$W/inst/$name.source.csv" 2>/dev/null
  cp "$W/inst/$name/ncu.log" "$W/inst/$name.ncu.log" 2>/dev/null
  if [[ -f $rep ]]; then
    # result ids, demangled names and grids, to check the launch numbering
    ncu -i "$rep" --page details --csv --print-kernel-base demangled >"$W/inst/$name.details.csv" 2>&1
    # the old export (function names: instantiations merged), compared the same way
    ncu -i "$rep" --page source --print-source cuda,sass --csv --print-kernel-base function \
      >"$W/inst/$name.function-base.csv" 2>&1
    (cd "$dir" && "$VERIFY" --manifest "$manifest" --from-recording "$W/inst/$name.function-base.csv" \
       "$W/inst/$name-fb" >"$W/inst/$name.function-base.txt" 2>&1)
  fi
  local profiled
  profiled=$(cat "$W/inst/$name.ncu.log" 2>/dev/null | grep -c '^==PROF== Profiling')
  {
    echo "inst $name: $(tail -1 "$W/inst/$name.txt"), $(since "$t0") s, $profiled launches profiled"
    grep -E '^[0-9]+ (results|accesses)' "$W/inst/$name.txt"
    sed -n '/^instances (analyzed/,/^$/p' "$W/inst/$name.txt"
    grep -E '^lines:' "$W/inst/$name.txt"
    echo "  function-base view: $(grep -E '^[0-9]+ (results|accesses)' "$W/inst/$name.function-base.txt" 2>/dev/null)"
  } | tee -a "$W/inst/summary.txt"
}
if [[ -x $VERIFY ]] && (( ${#ipids[@]} )); then
  wait "${ipids[@]}"
  echo "instance builds done ($(elapsed) s): $(ls "$W/bin" | grep -E '^(instances|reduction)$' | tr '\n' ' ')"
  run_inst instances-8 "$C/own" instances.tsv "$W/bin/instances" --launch-count 8
  run_inst instances-default "$C/own" instances.tsv "$W/bin/instances"
  if [[ -f $C/own/reduction.tsv ]]; then
    run_inst reduction-k6-float "$C/own/reduction" ../reduction.tsv "$W/bin/reduction --kernel=6 --type=float" --launch-count 5
    run_inst reduction-k0-double "$C/own/reduction" ../reduction.tsv "$W/bin/reduction --kernel=0 --type=double" --launch-count 3
  fi
  cp "$W/inst/summary.txt" "$OUT/instances-summary.txt"
fi

# ---- 4. why a long host loop was slow under ncu (lu: 2 kernels x 512) -------------
if [[ $ONLY_INSTANCES != 1 && ${VR_DIAG:-0} == 1 && -x $W/bin/pb-lu ]]; then
  mkdir -p "$W/diag"
  d=$GT/polybench/CUDA/linear-algebra/solvers/lu
  t0=$(date +%s.%N); (cd "$d" && timeout 60 "$W/bin/pb-lu" >"$W/diag/plain.log" 2>&1); rc=$?
  echo "diag lu plain: rc=$rc $(since "$t0") s" | tee -a "$W/diag/summary.txt"
  for sec in LaunchStats SourceCounters; do
    t0=$(date +%s.%N)
    (cd "$d" && timeout -k 5 40 ncu --clock-control none --section $sec \
       --kernel-id '::regex:.:1' --launch-count 100 -f -o "$W/diag/old-$sec" \
       "$W/bin/pb-lu" >"$W/diag/old-$sec.log" 2>&1); rc=$?
    echo "diag lu ncu old filter (no --kill) --section $sec: rc=$rc $(since "$t0") s, $(grep -c '==PROF== Profiling' "$W/diag/old-$sec.log") profiled" | tee -a "$W/diag/summary.txt"
  done
  rm -f "$W"/diag/*.ncu-rep
  cp "$W/diag/summary.txt" "$OUT/diag-summary.txt"
fi
echo "total $(elapsed) s"
rm -rf "$W"/app/*/ "$W"/inst/*/ "$W/harness"/*/harness "$W/harness"/*/*.ncu-rep
tar czf "$OUT/verify-run.tar.gz" -C "$W" env.txt build-verify.log san app inst \
  $( [[ -d $W/harness ]] && echo harness) $( [[ -d $W/diag ]] && echo diag)
ls -la "$OUT"
