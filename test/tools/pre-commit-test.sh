#!/usr/bin/env bash
# pre-commit-test.sh - runs this repository's .pre-commit-hooks.yaml through
# the real pre-commit tool (Debian package pre-commit), the way a user's
# repository uses it, with no network (language: system):
#   1. pre-commit validate-manifest on .pre-commit-hooks.yaml;
#   2. a hooks repository (a git repository holding a copy of the manifest,
#      committed) and a project repository with a strided kernel (bad.cu), a
#      coalesced one (good.cu) and a header (util.cuh), whose
#      .pre-commit-config.yaml names the hooks repository and hook id
#      coalesce-lint; coalesce-lint from BUILD_DIR/bin on PATH;
#   3. pre-commit run --all-files fails, naming the finding in bad.cu only;
#   4. pre-commit install, then git commit: good.cu and util.cuh alone go
#      in (the hook passes, and ran on them: identify tags .cu and .cuh as
#      cuda), bad.cu is refused with the finding.
#
# usage: pre-commit-test.sh BUILD_DIR SOURCE_DIR
# Registered as the ctest test "pre-commit-hook". Works in
# BUILD_DIR/pre-commit-test, removed and made anew on every run.
set -euo pipefail

BUILD=$(realpath "$1")
SRC=$(realpath "$2")
WORK=$BUILD/pre-commit-test

fail() { printf 'pre-commit-test: FAIL: %s\n' "$*" >&2; exit 1; }
step() { printf -- '--- %s\n' "$*"; }
for tool in pre-commit git; do
  command -v "$tool" >/dev/null 2>&1 ||
    fail "'$tool' not found (Debian package $tool); bash scripts/bootstrap.sh test installs it"
done
[[ -x $BUILD/bin/coalesce-lint ]] || fail "$BUILD/bin/coalesce-lint is not built"

rm -rf "$WORK"
mkdir -p "$WORK"
# Nothing from the user's configuration or caches; coalesce-lint on PATH.
export HOME=$WORK/home PRE_COMMIT_HOME=$WORK/cache XDG_CACHE_HOME=$WORK/cache
export GIT_CONFIG_NOSYSTEM=1 PATH=$BUILD/bin:$PATH
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME"
git config --global user.name "pre-commit test"
git config --global user.email "pre-commit-test@invalid"
git config --global init.defaultBranch main
git config --global advice.detachedHead false
echo "pre-commit $(pre-commit --version | awk '{print $2}'), $(command -v coalesce-lint)"

step "pre-commit validate-manifest .pre-commit-hooks.yaml"
pre-commit validate-manifest "$SRC/.pre-commit-hooks.yaml" ||
  fail ".pre-commit-hooks.yaml is not a valid pre-commit manifest"

step "hooks repository"
HOOKS=$WORK/hooks-repo
git init -q "$HOOKS"
cp "$SRC/.pre-commit-hooks.yaml" "$HOOKS/"
git -C "$HOOKS" add .pre-commit-hooks.yaml
git -C "$HOOKS" commit -q -m "coalesce-lint hook"
rev=$(git -C "$HOOKS" rev-parse HEAD)

step "project repository"
PROJECT=$WORK/project
git init -q "$PROJECT"
cd "$PROJECT"
cat >bad.cu <<'EOF'
// Adjacent threads read elements n apart: coalesce-stride.
__global__ void column(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * n];
}
EOF
cat >good.cu <<'EOF'
#include "util.cuh"
// Adjacent threads read adjacent elements: coalesced.
__global__ void scale(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = twice(in[i]);
}
EOF
cat >util.cuh <<'EOF'
#pragma once
__device__ inline float twice(float x) { return 2.0f * x; }
EOF
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $HOOKS
    rev: $rev
    hooks:
      - id: coalesce-lint
EOF
pre-commit validate-config .pre-commit-config.yaml || fail ".pre-commit-config.yaml is not valid"
git add .pre-commit-config.yaml bad.cu good.cu util.cuh

step "pre-commit run --all-files: fails on bad.cu"
rc=0
pre-commit run --all-files --color=never >"$WORK/all-files.log" 2>&1 || rc=$?
cat "$WORK/all-files.log"
[[ $rc -eq 1 ]] || fail "pre-commit run --all-files exited with $rc, expected 1 (a finding)"
grep -q '^coalesce-lint (CUDA global-memory coalescing).*Failed$' "$WORK/all-files.log" ||
  fail "the coalesce-lint hook did not fail"
grep -q '^bad.cu:4:12: warning: .*\[coalesce-stride\]$' "$WORK/all-files.log" ||
  fail "no coalesce-stride finding at bad.cu:4:12 in the hook's output"
if grep -Eq '^(good\.cu|util\.cuh):[0-9]+:[0-9]+: (warning|error)' "$WORK/all-files.log"; then
  fail "findings or errors in the clean files"
fi

step "git commit with only the clean files staged: passes"
pre-commit install >/dev/null
git reset -q
git add .pre-commit-config.yaml good.cu util.cuh
git commit -m "clean kernels" >"$WORK/commit-clean.log" 2>&1 || {
  cat "$WORK/commit-clean.log"
  fail "the commit of the clean files was refused"
}
cat "$WORK/commit-clean.log"
grep -q '^coalesce-lint (CUDA global-memory coalescing).*Passed$' "$WORK/commit-clean.log" ||
  fail "the hook did not run (and pass) on good.cu and util.cuh: are .cu and .cuh tagged cuda?"
git ls-files --error-unmatch good.cu util.cuh >/dev/null || fail "the clean files were not committed"
# A header alone: the hook must run on it (types_or: [cuda] takes .cuh),
# not report "(no files to check)Skipped".
pre-commit run coalesce-lint --color=never --files util.cuh >"$WORK/header.log" 2>&1 || {
  cat "$WORK/header.log"
  fail "the hook failed on util.cuh"
}
grep -q '^coalesce-lint (CUDA global-memory coalescing).*Passed$' "$WORK/header.log" || {
  cat "$WORK/header.log"
  fail "the hook did not run on util.cuh: is .cuh tagged cuda?"
}

step "git commit of bad.cu: refused"
git add bad.cu
rc=0
git commit -m "strided kernel" >"$WORK/commit-bad.log" 2>&1 || rc=$?
cat "$WORK/commit-bad.log"
[[ $rc -ne 0 ]] || fail "the commit of bad.cu was accepted"
grep -q '^bad.cu:4:12: warning: .*\[coalesce-stride\]$' "$WORK/commit-bad.log" ||
  fail "the refused commit does not show the finding in bad.cu"
if git ls-files --error-unmatch bad.cu >/dev/null 2>&1 &&
   git cat-file -e HEAD:bad.cu 2>/dev/null; then
  fail "bad.cu was committed"
fi

echo "pre-commit-test: PASS"
