#!/usr/bin/env bash
# Why did application mode on PolyBench's lu (2 kernels x 512 launches) and
# gramschmidt (3 x 512) run past 90 s under ncu when only the first launch
# of each kernel is profiled? Runs on the GPU machine from the repository
# root (the checkout of main: its cuda_validation/ is the coalesce-verify
# before --kill) with .gt-carry/ carried:
#   - lu and adi plainly;
#   - ncu with the old filter (--kernel-id ::regex:.:1 --launch-count 100,
#     no --kill) directly, with and without --import-source yes and the
#     /bin/sh -c wrapper coalesce-verify uses;
#   - the old coalesce-verify --app itself.
#   OUT=/tmp/out bash diag-launch-cost.sh
set -u
ROOT=$(pwd); GT=$ROOT/.gt-carry; OUT=${OUT:?}; W=/tmp/diag; rm -rf $W; mkdir -p $W
export PATH=$PATH:/usr/local/cuda/bin
S=$OUT/diag-launch-cost.txt
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
declare -A DIR=([lu]=linear-algebra/solvers/lu [adi]=stencils/adi)
declare -A INC=([lu]=../../../utilities [adi]=../../utilities)
for p in lu adi; do
  (cd $GT/polybench/CUDA/${DIR[$p]} && nvcc -O3 -arch=sm_90 -lineinfo -DMINI_DATASET \
     -DcudaThreadSynchronize=cudaDeviceSynchronize -I${INC[$p]} -o $W/$p $p.cu) &
done
(cmake -S cuda_validation -B $W/old-verify -DCMAKE_BUILD_TYPE=Release -DCOALESCE_VERIFY_TESTS=OFF \
   && cmake --build $W/old-verify -j16) >$W/old-verify.log 2>&1 &
wait
for p in lu adi; do
  d=$GT/polybench/CUDA/${DIR[$p]}
  t0=$(date +%s.%N); (cd $d && timeout 30 $W/$p >/dev/null 2>&1); echo "$p plain: rc=$? $(since $t0) s" | tee -a $S
  for v in direct direct+import sh sh+import; do
    imp=(); [[ $v == *import ]] && imp=(--import-source yes)
    cmd=($W/$p); [[ $v == sh* ]] && cmd=(/bin/sh -c "$W/$p")
    t0=$(date +%s.%N)
    (cd $d && timeout -k 5 25 ncu --clock-control none --section SourceCounters "${imp[@]}" \
       --kernel-id '::regex:.:1' --launch-count 100 -f -o $W/$p-$v "${cmd[@]}" >$W/$p-$v.log 2>&1)
    echo "$p ncu old filter, $v: rc=$? $(since $t0) s, $(grep -c '==PROF== Profiling' $W/$p-$v.log) profiled" | tee -a $S
  done
done
V=$(find $W/old-verify -name coalesce-verify -type f -perm -u+x | head -1)
d=$GT/polybench/CUDA/${DIR[lu]}
t0=$(date +%s.%N)
(cd $d && timeout -k 5 40 $V --app "$W/lu" --manifest $ROOT/.harness-carry/manifests/pb-lu.tsv $W/old-app >$W/old-app.txt 2>&1)
echo "lu old coalesce-verify --app: rc=$? $(since $t0) s; $(grep -c '==PROF== Profiling' $W/old-app/ncu.log) profiled" | tee -a $S
t0=$(date +%s.%N)
(cd $d && timeout -k 5 40 $V --app "$W/lu" --manifest $ROOT/.harness-carry/manifests/pb-lu.tsv $W/old-app2 </dev/null >$W/old-app2.txt 2>&1)
echo "lu old coalesce-verify --app, stdin /dev/null: rc=$? $(since $t0) s; $(grep -c '==PROF== Profiling' $W/old-app2/ncu.log) profiled" | tee -a $S
cp $W/old-app/ncu.log $OUT/old-app-ncu.log 2>/dev/null
tail -5 $W/old-verify.log >>$S
