#!/usr/bin/env bash
# bootstrap.sh - install what coalesce-lint needs on Debian 12, build it, and
# run the bundled example or the test suite.
#
#   bash scripts/bootstrap.sh example   # build, then lint examples/matrix.cu
#   bash scripts/bootstrap.sh test      # build, then run ctest
#
# Steps, each skipped when already done:
#   1. Debian packages (apt-get only when one is missing; sudo when not root);
#   2. the CUDA toolkit: $CUDA_PATH, else nvcc on $PATH, else /usr/local/cuda
#      (it is not installed here: point to it when it lives elsewhere);
#   3. cmake -G Ninja (Release) into ./build, once; ninja builds incrementally;
#   4. (test) the validators from npm (SARIF, GitHub workflows) into
#      ./build/npm, once.
# "test" also installs what the packaging, CI and pre-commit tests use
# (TEST_PACKAGES), with the same rule: apt-get only when one is missing.
#
# Environment: CUDA_PATH (toolkit), COALESCE_BUILD_DIR (default: build).
# Exit status: "example" returns 0 when the tool ran (exit 0 = clean, 1 =
# findings), else the tool's status; "test" returns ctest's status; 2 is a
# usage or setup error (no CUDA toolkit, no way to install packages).
set -euo pipefail

readonly PACKAGES=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools
                   libfmt-dev libgtest-dev cmake ninja-build g++ python3
                   libyaml-cpp-dev libjemalloc-dev nodejs npm)
# Only for "test": cpack -G DEB computes Depends with dpkg-shlibdeps
# (dpkg-dev) and finds programs with file; groff renders the man pages;
# pre-commit (with python3-yaml) runs the hook; git makes its repositories;
# libclang-rt-22-dev is clang 22's libFuzzer and sanitizer runtime (the
# fuzz-expr test, scripts/fuzz.sh); chromium renders the HTML report in the
# html-in-browser test (about 20 s to install; without it the test skips).
readonly TEST_PACKAGES=(dpkg-dev file groff-base pre-commit python3-yaml git
                        libclang-rt-22-dev chromium)
# Packages that count as present when their command is on PATH (a Node.js
# from another source ships npm itself and conflicts with Debian's npm).
declare -A PROVIDED_BY_COMMAND=([nodejs]=node [npm]=npm)
# The validators the tests run, from npm: SARIF
# (test/golden/output/sarif-validate.test) and GitHub workflows
# (test/tools/check-ci-workflow.py). Each is "package@version".
readonly NPM_TOOLS=(@microsoft/sarif-multitool@5.7.0 @action-validator/cli@0.6.0)
readonly EXAMPLE=examples/matrix.cu

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${COALESCE_BUILD_DIR:-build}

say() { printf '==> %s\n' "$*"; }
die() { printf 'bootstrap: error: %s\n' "$1" >&2; exit "${2:-2}"; }

usage() {
  cat >&2 <<'EOF'
usage: bash scripts/bootstrap.sh example|test
  example  install, build, then run build/bin/coalesce-lint examples/matrix.cu
  test     install, build, then run ctest --test-dir build --output-on-failure
EOF
  exit 2
}

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "not root and sudo is missing: run this script as root"
  fi
}

# install_packages PKG...: installs those of PKG... that are missing.
install_packages() {
  local missing=() pkg status
  for pkg in "$@"; do
    if [[ -n ${PROVIDED_BY_COMMAND[$pkg]:-} ]] &&
       command -v "${PROVIDED_BY_COMMAND[$pkg]}" >/dev/null 2>&1; then
      continue
    fi
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [[ $status == "install ok installed" ]] || missing+=("$pkg")
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    say "packages: all $# present"
    return
  fi
  command -v apt-get >/dev/null 2>&1 ||
    die "apt-get not found: this script supports Debian 12; install ${missing[*]} by hand"
  say "packages: installing ${missing[*]} (this can take a few minutes)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  local cuda=$1 target=${2:-}
  local cache=$BUILD_DIR/CMakeCache.txt
  if [[ ! -f $BUILD_DIR/build.ninja ]] ||
     ! grep -qxF "COALESCE_CUDA_PATH:PATH=$cuda" "$cache" 2>/dev/null; then
    say "configure: cmake -G Ninja -DCMAKE_BUILD_TYPE=Release ($BUILD_DIR)"
    mkdir -p "$BUILD_DIR"
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCOALESCE_CUDA_PATH:PATH="$cuda" >"$BUILD_DIR/configure.log" 2>&1 || {
      cat "$BUILD_DIR/configure.log" >&2
      die "cmake configure failed (output above)" 1
    }
  fi
  say "build: ninja -C $BUILD_DIR -j$(nproc) ${target}"
  # shellcheck disable=SC2086 # an empty target means "all"
  ninja -C "$BUILD_DIR" -j"$(nproc)" $target
}

# Installs the npm validators into $BUILD_DIR/npm for the tests, once.
install_npm_tools() {
  local prefix=$BUILD_DIR/npm missing=() tool name
  for tool in "${NPM_TOOLS[@]}"; do
    name=${tool%@*}
    [[ -f $prefix/node_modules/$name/package.json ]] || missing+=("$tool")
  done
  if [[ ${#missing[@]} -eq 0 ]]; then
    say "npm validators: present in $prefix"
    return
  fi
  if ! command -v npm >/dev/null 2>&1; then
    say "npm validators: npm not found; the SARIF and workflow schema checks will be skipped"
    return
  fi
  say "npm validators: npm install --prefix $prefix ${missing[*]}"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
    "${missing[@]}" >&2 || die "npm install ${missing[*]} failed" 1
}

main() {
  [[ $# -eq 1 ]] || usage
  local mode=$1
  [[ $mode == example || $mode == test ]] || usage

  if [[ $mode == test ]]; then
    install_packages "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  else
    install_packages "${PACKAGES[@]}"
  fi
  local cuda
  cuda=$(bash scripts/find-cuda.sh) || exit 2
  export CUDA_PATH=$cuda
  say "CUDA toolkit: $cuda"

  if [[ $mode == example ]]; then
    [[ -f $EXAMPLE ]] || die "$EXAMPLE is missing from this checkout"
    configure_and_build "$cuda" coalesce-lint
    say "run: $BUILD_DIR/bin/coalesce-lint $EXAMPLE"
    local rc=0
    "$BUILD_DIR/bin/coalesce-lint" "$EXAMPLE" || rc=$?
    case $rc in
      0) say "coalesce-lint exited with 0: no findings" ;;
      1) say "coalesce-lint exited with 1: findings reported (expected here)" ;;
      *) say "coalesce-lint exited with $rc: the tool failed"; exit "$rc" ;;
    esac
  else
    configure_and_build "$cuda"
    install_npm_tools
    say "test: ctest --test-dir $BUILD_DIR --output-on-failure"
    local rc=0
    ctest --test-dir "$BUILD_DIR" --output-on-failure || rc=$?
    exit "$rc"
  fi
}

main "$@"
