#!/usr/bin/env bash
# on-gpu.sh - step 2 of the GPU validation, on a machine with an NVIDIA GPU,
# the CUDA toolkit (nvcc, ncu), CMake and a C++17 compiler; no LLVM needed.
# Builds coalesce-verify from cuda_validation/, runs every harness prepared in
# .dev/validation, and packs the profiles and results into DEST/validation.tar.gz.
#
#   bash scripts/gpu-validation/on-gpu.sh DEST [COALESCE_VERIFY_OPTIONS...]
#
# e.g. `on-gpu.sh DEST --method replay` checks the instrumented replay.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
dest=${1:?usage: on-gpu.sh DEST [COALESCE_VERIFY_OPTIONS...]}
shift
mkdir -p "$dest"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -2
  ncu --version | tail -1
} > .dev/validation/environment.txt 2>&1
cmake -S cuda_validation -B /tmp/cv-build -DCMAKE_BUILD_TYPE=Release > /tmp/cv-cmake.log 2>&1 &&
  cmake --build /tmp/cv-build -j "$(nproc)" > /tmp/cv-build.log 2>&1 ||
  { cat /tmp/cv-cmake.log /tmp/cv-build.log; exit 1; }
verify=$(find /tmp/cv-build -name coalesce-verify -type f -perm -u+x | head -1)
pack() {
  tar czf "$dest/validation.tar.gz" -C .dev \
    --exclude='*.ncu-rep' --exclude='harness' --exclude='replay' --exclude='*.o' validation
}
printf 'name\texit\tseconds\n' > .dev/validation/timings.tsv
for d in .dev/validation/*/; do
  d=${d%/}
  start=$(date +%s%N)
  "$verify" "$@" --json "$d/results.json" "$d" > "$d/verify.log" 2>&1
  rc=$?
  end=$(date +%s%N)
  printf '%s\t%s\t%d.%03d\n' "$(basename "$d")" "$rc" $(( (end - start) / 1000000000 )) \
    $(( (end - start) / 1000000 % 1000 )) >> .dev/validation/timings.tsv
  echo "== $(basename "$d"): exit $rc"
  tail -2 "$d/verify.log"
  pack # what is done so far comes back even if the run is cut short
done
cat .dev/validation/timings.tsv
