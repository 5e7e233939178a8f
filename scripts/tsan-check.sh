#!/usr/bin/env bash
# tsan-check.sh - the threads of coalesce-lint under ThreadSanitizer.
#
#   bash scripts/tsan-check.sh [FILE.cu [-- COMPILER ARGS]]
#
# Configures $COALESCE_TSAN_BUILD_DIR (default build-tsan) once with
# g++ -fsanitize=thread (RelWithDebInfo, jemalloc off: TSan brings its own
# allocator), builds coalesce-lint and the unit tests, then runs:
#   1. the unit tests (the prediction scheduler, the caches, the isolation of
#      crashing work, determinism across thread counts);
#   2. the tool with -j2 on one file of several kernels, whose predictions
#      run beside the walk of the next kernel (test/golden/robustness/
#      Inputs/three-kernels.cu, or FILE with its compiler arguments);
#   3. the tool with -j2 on several files at once (examples/matrix.cu, the
#      three-kernel file and the cub/thrust file).
# Each report ThreadSanitizer prints is counted by kind. Reports of kind
# "signal-unsafe call inside of a signal" are expected: the tests that crash
# on purpose leave the signal handler through llvm::CrashRecoveryContext's
# longjmp, after which TSan still counts the thread as inside the handler.
# Every other kind (data race, lock-order inversion, use of a destroyed
# mutex, ...) fails the check.
#
# Environment: COALESCE_TSAN_BUILD_DIR, JOBS (ninja -j, default 2),
# CUDA_PATH (default /usr/local/cuda).
# Exit status: 0 no unexpected report and every run passed; 1 a report or a
# failed run (logs under $BUILD/tsan-logs); 2 usage or build error.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${COALESCE_TSAN_BUILD_DIR:-build-tsan}
JOBS=${JOBS:-2}
CUDA=${CUDA_PATH:-/usr/local/cuda}

say() { printf '==> %s\n' "$*"; }
die() { printf 'tsan-check: error: %s\n' "$1" >&2; exit "${2:-2}"; }

FILE=test/golden/robustness/Inputs/three-kernels.cu
ARGS=()
if [[ $# -ge 1 ]]; then
  FILE=$1
  shift
  [[ $# -eq 0 || $1 == -- ]] ||
    die "usage: bash scripts/tsan-check.sh [FILE.cu [-- COMPILER ARGS]]"
  [[ $# -eq 0 ]] || shift
  ARGS=("$@")
fi
[[ -f $FILE ]] || die "no such file: $FILE"

if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  say "configure: $BUILD_DIR (-fsanitize=thread)"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCOALESCE_JEMALLOC=OFF -DCOALESCE_CUDA_PATH:PATH="$CUDA" \
    -DCMAKE_CXX_FLAGS=-fsanitize=thread \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null ||
    die "cmake configure failed"
fi
say "build: coalesce-lint coalesce-unittests"
ninja -C "$BUILD_DIR" -j"$JOBS" coalesce-lint coalesce-unittests >/dev/null ||
  die "build failed (run: ninja -C $BUILD_DIR coalesce-lint coalesce-unittests)"

LOGS=$BUILD_DIR/tsan-logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
# Reports are counted from the logs below; exitcode=0 keeps them from
# changing a run's exit status (TSan's default is 66).
# ignore_noninstrumented_modules=1: an interceptor (memcmp, memcpy, ...)
# called from the uninstrumented clang and LLVM libraries is not checked.
# TSan cannot see the synchronization inside them, and reported a "race"
# between two files' parses that is none: clang's
# Sema::inferGslOwnerPointerAttribute keeps a function-local
# `static const llvm::StringSet<>`; the first thread to parse a class
# template of namespace std initializes it, and another thread's lookup
# passes the initialization guard by an atomic load inside libclang-cpp,
# which TSan does not see (found with gdb and TSAN_OPTIONS=abort_on_error=1;
# 5 of 6 many-files runs reported it without this option, 0 of 6 with it).
# Our own code's accesses, and the interceptors it calls, are still checked.
export TSAN_OPTIONS="halt_on_error=0 exitcode=0 ignore_noninstrumented_modules=1 ${TSAN_OPTIONS:-}"
TOOL=$BUILD_DIR/bin/coalesce-lint
failed=0

run() { # run NAME CMD...: runs CMD with its output in $LOGS/NAME.log
  local name=$1
  shift
  say "$name"
  local rc=0
  "$@" >"$LOGS/$name.log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    printf '   FAILED (exit %s): %s\n' "$rc" "$LOGS/$name.log"
    failed=1
  fi
}

run unit-tests "$BUILD_DIR/test/coalesce-unittests"
run one-file-j2 "$TOOL" -j2 --format=json --fail-on=never \
  --cuda-path="$CUDA" -o "$LOGS/one-file.json" "$FILE" -- "${ARGS[@]}"
run many-files-j2 "$TOOL" -j2 --format=json --fail-on=never \
  --cuda-path="$CUDA" -o "$LOGS/many-files.json" examples/matrix.cu \
  test/golden/robustness/Inputs/three-kernels.cu \
  test/golden/robustness/Inputs/cub-thrust.cu

unexpected=0
for log in "$LOGS"/*.log; do
  kinds=$(grep -o 'WARNING: ThreadSanitizer: [a-z -]*' "$log" |
    sed 's/WARNING: ThreadSanitizer: //; s/ *(pid$//; s/ *$//' |
    sort | uniq -c || true)
  [[ -n $kinds ]] || { printf '   %s: no report\n' "$(basename "$log")"; continue; }
  while read -r n kind; do
    if [[ $kind == "signal-unsafe call inside of a signal" ]]; then
      printf '   %s: %s x "%s" (expected: crash recovery)\n' \
        "$(basename "$log")" "$n" "$kind"
    else
      printf '   %s: %s x "%s"\n' "$(basename "$log")" "$n" "$kind"
      unexpected=1
    fi
  done <<<"$kinds"
done

if [[ $failed -ne 0 || $unexpected -ne 0 ]]; then
  echo "tsan-check: FAILED (logs under $LOGS)"
  exit 1
fi
echo "tsan-check: ok (no data race or other unexpected report)"
