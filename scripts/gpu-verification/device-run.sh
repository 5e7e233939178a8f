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
#   4. (VR_DIAG=1) why long host loops were slow: lu run plainly, and
#      under ncu with the old filter (no --kill) with and without the
#      SourceCounters section.
# Everything lands in $OUT/verify-run.tar.gz; summaries also as plain files.
#
#   OUT=/tmp/out bash .verify-carry/device-run.sh
#
# Environment: NVCC, NCU, SANITIZER (tools), VR_DEADLINE (seconds after which
# remaining programs are skipped, default 480), VR_JOBS (parallel builds),
# VR_CARRY_NAME (default .verify-carry), VR_APP_TIMEOUT (seconds per
# program, default 90), VR_DIAG (1: the diagnostics of step 4).
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
START=$(date +%s)
rm -rf "$W"; mkdir -p "$W/san" "$W/app" "$W/bin" "$OUT"
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

# ---- 2. harnesses under compute-sanitizer ----------------------------------------
# (a bare `wait` would also wait for the tee above: wait for these pids)
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

# ---- 3. application mode on PolyBench ----------------------------------------------
L=$GT/programs.tsv
if [[ -x $VERIFY && -f $L ]]; then
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

# ---- 4. why a long host loop was slow under ncu (lu: 2 kernels x 512) -------------
if [[ ${VR_DIAG:-0} == 1 && -x $W/bin/pb-lu ]]; then
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
rm -rf "$W"/app/*/ "$W/harness"/*/harness "$W/harness"/*/*.ncu-rep
tar czf "$OUT/verify-run.tar.gz" -C "$W" env.txt build-verify.log san app harness $( [[ -d $W/diag ]] && echo diag)
ls -la "$OUT"
