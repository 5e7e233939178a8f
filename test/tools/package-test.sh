#!/usr/bin/env bash
# package-test.sh - installs coalesce-lint the two ways docs/install.md documents
# and runs what was installed:
#   1. cmake --install into a temporary prefix;
#   2. cpack -G DEB, dpkg-deb -f (Depends: runtime packages of the linked
#      libraries, no -dev package but clang's resource headers), dpkg-deb -c,
#      dpkg -x into a temporary root;
#   3. the man pages render (man -l, else groff; a structural check without
#      either);
#   4. the installed programs run: coalesce-lint on examples/matrix.cu gives
#      the same JSON report as the build tree's binary, with findings.
#
# usage: package-test.sh BUILD_DIR SOURCE_DIR
# Registered as the ctest test "package" (test/CMakeLists.txt). Works in
# BUILD_DIR/package-test, removed and made anew on every run.
set -euo pipefail

BUILD=$(realpath "$1")
SRC=$(realpath "$2")
WORK=$BUILD/package-test
EXAMPLE=$SRC/examples/matrix.cu

fail() { printf 'package-test: FAIL: %s\n' "$*" >&2; exit 1; }
step() { printf -- '--- %s\n' "$*"; }
need() {
  command -v "$1" >/dev/null 2>&1 ||
    fail "'$1' not found ($2); bash scripts/bootstrap.sh test installs it"
}

need cmake "Debian package cmake"
need cpack "Debian package cmake"
need dpkg-deb "Debian package dpkg"
need dpkg-shlibdeps "Debian package dpkg-dev: cpack computes Depends with it"
need file "Debian package file: cpack looks for programs with it"
need readelf "Debian package binutils"

rm -rf "$WORK"
mkdir -p "$WORK"

# The build tree's report is the reference for the installed programs.
(cd "$SRC" && "$BUILD/bin/coalesce-lint" --format=json "$EXAMPLE") >"$WORK/expected.json" &&
  fail "the build tree's coalesce-lint found nothing in $EXAMPLE (expected findings)"
grep -q '"rule": "coalesce-stride"' "$WORK/expected.json" ||
  fail "the build tree's report of $EXAMPLE has no coalesce-stride finding"

# Runs an installed coalesce-lint on the example from a clean environment
# (only PATH and CUDA_PATH) and compares its report with the build tree's.
check_installed_lint() {
  local exe=$1 what=$2 rc=0
  [[ -x $exe ]] || fail "$what: $exe is missing"
  if readelf -d "$exe" | grep -E 'R(UN)?PATH' | grep -qF "$BUILD"; then
    fail "$what: $exe has an RPATH into the build tree"
  fi
  if ldd "$exe" | grep -q 'not found'; then
    ldd "$exe" >&2
    fail "$what: $exe misses shared libraries (above)"
  fi
  env -i PATH=/usr/bin:/bin ${CUDA_PATH:+CUDA_PATH=$CUDA_PATH} \
    "$exe" --version | grep -q '^coalesce-lint ' ||
    fail "$what: $exe --version does not name coalesce-lint"
  (cd "$SRC" && env -i PATH=/usr/bin:/bin ${CUDA_PATH:+CUDA_PATH=$CUDA_PATH} \
     "$exe" --format=json "$EXAMPLE") >"$WORK/$what.json" 2>"$WORK/$what.err" ||
    rc=$?
  [[ $rc -eq 1 ]] || {
    cat "$WORK/$what.err" >&2
    fail "$what: $exe on $EXAMPLE exited with $rc, expected 1 (findings)"
  }
  diff -u "$WORK/expected.json" "$WORK/$what.json" >&2 ||
    fail "$what: the installed coalesce-lint reports differently from $BUILD/bin/coalesce-lint (diff above)"
  # The text report's findings, as a user sees them.
  (cd "$SRC" && env -i PATH=/usr/bin:/bin ${CUDA_PATH:+CUDA_PATH=$CUDA_PATH} \
     "$exe" examples/matrix.cu) >"$WORK/$what.txt" 2>&1 || true
  grep -q '^examples/matrix.cu:[0-9]*:[0-9]*: warning: .*\[coalesce-stride\]$' "$WORK/$what.txt" ||
    fail "$what: no coalesce-stride warning in the text report ($WORK/$what.txt)"
  grep -Eq '^[0-9]+ warnings? in [0-9]+ kernels' "$WORK/$what.txt" ||
    fail "$what: no summary line in the text report ($WORK/$what.txt)"
  echo "$what: $exe reports $(grep -c ': warning: ' "$WORK/$what.txt") warnings, same JSON as the build tree"
}

# Man page checks: renders without warnings, has the sections users expect.
check_man_page() {
  local page=$1 out=$WORK/man.txt err=$WORK/man.err section
  [[ -f $page ]] || fail "man page $page is missing"
  gzip -t "$page" || fail "$page is not a valid gzip file"
  if command -v groff >/dev/null 2>&1; then
    # -ww: every warning; -z: no output, only the diagnostics.
    zcat "$page" | groff -man -Tutf8 -ww -z 2>"$err" ||
      fail "groff failed on $page: $(cat "$err")"
    [[ ! -s $err ]] || fail "groff warns about $page: $(cat "$err")"
    if command -v man >/dev/null 2>&1; then
      MANWIDTH=80 man -l "$page" >"$out" 2>"$err" || fail "man -l $page failed: $(cat "$err")"
    else
      zcat "$page" | groff -man -Tutf8 -P-c >"$out" 2>"$err"
    fi
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" "SEE ALSO"; do
      grep -q "^$section\$" "$out" || fail "$page renders without a $section section"
    done
    echo "man page $(basename "$page"): renders ($(wc -l <"$out") lines), sections present"
  else
    echo "NOTE: groff not found (Debian package groff-base): structural check of $page only"
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS '"EXIT STATUS"' '"SEE ALSO"'; do
      zcat "$page" | grep -q "^\.SH $section\$" || fail "$page has no .SH $section"
    done
    zcat "$page" | grep -q '^\.TH ' || fail "$page has no .TH line"
  fi
}

check_layout() {
  local root=$1 what=$2 f
  for f in bin/coalesce-lint bin/coalesce-verify \
           share/man/man1/coalesce-lint.1.gz share/man/man1/coalesce-verify.1.gz \
           share/doc/coalesce-lint/README.md share/doc/coalesce-lint/docs/rules.md \
           share/doc/coalesce-lint/docs/ci.md share/doc/coalesce-lint/docs/ci/coalesce-lint.yml \
           share/doc/coalesce-lint/examples/coalesce-lint.example.yaml \
           share/doc/coalesce-lint/examples/matrix.cu; do
    [[ -e $root/$f ]] || fail "$what: $f is not installed"
  done
  local src
  for src in "$SRC"/docs/*.md; do
    [[ -f $root/share/doc/coalesce-lint/docs/$(basename "$src") ]] ||
      fail "$what: docs/$(basename "$src") is not installed"
  done
}

step "cmake --install $BUILD --prefix $WORK/prefix"
cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log" ||
  { cat "$WORK/install.log" >&2; fail "cmake --install failed"; }
check_layout "$WORK/prefix" "cmake --install"
check_installed_lint "$WORK/prefix/bin/coalesce-lint" prefix
"$WORK/prefix/bin/coalesce-verify" --help >/dev/null ||
  fail "the installed coalesce-verify --help failed"

step "cpack -G DEB"
(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/cpack") \
  >"$WORK/cpack.log" 2>&1 || { cat "$WORK/cpack.log" >&2; fail "cpack -G DEB failed"; }
shopt -s nullglob
debs=("$WORK"/cpack/*.deb)
shopt -u nullglob
[[ ${#debs[@]} -eq 1 ]] || fail "expected one .deb in $WORK/cpack, found ${#debs[@]}"
deb=${debs[0]}
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

step "dpkg-deb -f $(basename "$deb")"
[[ $(dpkg-deb -f "$deb" Package) == coalesce-lint ]] || fail "Package is not coalesce-lint"
[[ $(dpkg-deb -f "$deb" Architecture) == "$(dpkg --print-architecture)" ]] ||
  fail "Architecture is not $(dpkg --print-architecture)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
# Package names alone, one a line.
dep_names=$(tr ',|' '\n\n' <<<"$depends" | sed -E 's/\(.*\)//; s/:any//; s/[[:space:]]//g' | grep -v '^$')
# No -dev package, but libclang-common-22-dev: clang's resource headers
# (stddef.h, the CUDA wrapper headers) live only there (cmake/Packaging.cmake).
bad_dev=$(grep -E -- '-dev$' <<<"$dep_names" | grep -vx 'libclang-common-22-dev' || true)
[[ -z $bad_dev ]] || fail "Depends names -dev packages: $bad_dev"
grep -qx libclang-common-22-dev <<<"$dep_names" ||
  fail "Depends lacks libclang-common-22-dev (clang's resource headers)"

step "dpkg -x $(basename "$deb") $WORK/root"
dpkg-deb -c "$deb" >"$WORK/contents.txt"
if awk '{print $2}' "$WORK/contents.txt" | grep -qv '^root/root$'; then
  fail "files in the package are not owned by root/root"
fi
dpkg -x "$deb" "$WORK/root"
check_layout "$WORK/root/usr" "dpkg -x"
# Every shared library the programs link directly must come from a package
# that Depends names: its runtime package, found with dpkg -S.
for exe in "$WORK"/root/usr/bin/*; do
  while read -r lib; do
    path=$(ldd "$exe" | awk -v l="$lib" '$1 == l {print $3}')
    [[ -n $path ]] || fail "$(basename "$exe"): $lib not found by ldd"
    pkg=
    for p in "$path" "$(realpath "$path")" "/usr$path" "${path#/usr}"; do
      pkg=$(dpkg -S "$p" 2>/dev/null | head -n1 | cut -d: -f1) && [[ -n $pkg ]] && break
    done
    [[ -n $pkg ]] || fail "$(basename "$exe"): no Debian package owns $path ($lib)"
    grep -qx "$pkg" <<<"$dep_names" ||
      fail "$(basename "$exe") links $lib from $pkg, which Depends does not name"
    printf '  %-16s %-24s %s\n' "$(basename "$exe")" "$lib" "$pkg"
  done < <(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done
for pkg in libclang-cpp22 libllvm22 libfmt9 libyaml-cpp0.7; do
  grep -qx "$pkg" <<<"$dep_names" || fail "Depends lacks $pkg"
done

step "man pages"
check_man_page "$WORK/root/usr/share/man/man1/coalesce-lint.1.gz"
check_man_page "$WORK/root/usr/share/man/man1/coalesce-verify.1.gz"

step "the extracted programs"
check_installed_lint "$WORK/root/usr/bin/coalesce-lint" deb
"$WORK/root/usr/bin/coalesce-verify" --help | grep -q '^usage: coalesce-verify' ||
  fail "the extracted coalesce-verify --help does not print its usage"

echo "package-test: PASS"
