#!/usr/bin/env bash
# man-options.sh - every option that `coalesce-lint --help` and
# `coalesce-verify --help` list is documented in its man page
# (docs/man/*.1), and the pages carry the project's version.
#
# usage: man-options.sh COALESCE_LINT COALESCE_VERIFY MAN_DIR VERSION
# Registered as the ctest test "man-options". A new option fails this test
# until docs/man/coalesce-lint.1 (or coalesce-verify.1) describes it.
set -euo pipefail

lint=$1 verify=$2 man_dir=$3 version=$4
status=0

# check PAGE OPTION...: each option appears in the roff source, written the
# way roff needs it ("--foo-bar" as "\-\-foo\-bar") and not as the start of
# a longer name ("-p" is not found in "--param").
check() {
  local page=$1 opt ere missing=()
  shift
  for opt in "$@"; do
    ere=${opt//-/\\\\-}
    grep -qE -- "${ere}([^A-Za-z\\\\]|\$)" "$page" || missing+=("$opt")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "FAIL: $(basename "$page") does not document: ${missing[*]}"
    status=1
  else
    echo "ok: $(basename "$page") documents all $# options of --help"
  fi
}

# LLVM's --help: "  --name=<value>  - text"; the generic --help-list is left out.
mapfile -t lint_opts < <("$lint" --help |
  sed -nE 's/^  +(-{1,2}[A-Za-z][-A-Za-z]*).*/\1/p' | grep -v '^--help-list' | sort -u)
[[ ${#lint_opts[@]} -gt 20 ]] || { echo "FAIL: cannot read the options of $lint --help"; exit 1; }
check "$man_dir/coalesce-lint.1" "${lint_opts[@]}" -o

# coalesce-verify's usage: "  --name ARG   text".
mapfile -t verify_opts < <("$verify" --help | sed -nE 's/^  +(--[a-z][-a-z]*).*/\1/p' | sort -u)
[[ ${#verify_opts[@]} -gt 5 ]] || { echo "FAIL: cannot read the options of $verify --help"; exit 1; }
check "$man_dir/coalesce-verify.1" "${verify_opts[@]}" --help

for page in "$man_dir"/coalesce-lint.1 "$man_dir"/coalesce-verify.1; do
  if grep -q "^\.TH .*\"coalesce-lint $version\"" "$page"; then
    echo "ok: $(basename "$page") is for version $version"
  else
    echo "FAIL: the .TH line of $(basename "$page") does not say \"coalesce-lint $version\""
    status=1
  fi
done
exit $status
