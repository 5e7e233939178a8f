#!/bin/sh
# Renders coalesce-lint's --format=html page in headless Chromium and checks
# what the browser made of it (its DOM after parsing, and a screenshot):
# every finding is there, with its warp picture, the source text stayed text,
# and the suppressed finding is marked.
#
#   html-in-browser.sh COALESCE_LINT INPUT.cu
#
# Exit 0: passed, 1: failed, 77: skipped (no chromium or chromium-browser on
# PATH; ctest's SKIP_RETURN_CODE). CHROMIUM=/path/to/browser overrides.
set -u
LINT=$1
INPUT=$2
case $LINT in /*) ;; *) LINT=$(pwd)/$LINT ;; esac

BROWSER=${CHROMIUM:-}
if [ -z "$BROWSER" ]; then
  for name in chromium chromium-browser; do
    if command -v "$name" >/dev/null 2>&1; then
      BROWSER=$(command -v "$name")
      break
    fi
  done
fi
if [ -z "$BROWSER" ]; then
  echo "SKIP: chromium not found on PATH (Debian: apt-get install chromium)"
  exit 77
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

cp "$INPUT" "$TMP/input.cu" || fail "cannot copy $INPUT"
(cd "$TMP" && "$LINT" --format=html -o report.html input.cu)
status=$?
[ "$status" -eq 1 ] || fail "coalesce-lint exited $status, expected 1 (findings)"

# Chromium as root needs --no-sandbox; its own profile keeps it off $HOME.
run_browser() {
  timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
    --no-first-run --user-data-dir="$TMP/profile" "$@" \
    "file://$TMP/report.html" 2>>"$TMP/browser.log"
}
run_browser --dump-dom >"$TMP/dom.html" ||
  fail "$BROWSER --dump-dom failed: $(tail -5 "$TMP/browser.log")"
run_browser --window-size=1200,2400 --screenshot="$TMP/page.png" >/dev/null ||
  fail "$BROWSER --screenshot failed: $(tail -5 "$TMP/browser.log")"

dom="$TMP/dom.html"
count() { grep -o "$1" "$dom" | wc -l | tr -d ' '; }
expect_count() { # PATTERN N WHAT
  n=$(count "$1")
  [ "$n" -eq "$2" ] || fail "$3: found $n, expected $2"
}

grep -q '<title>coalesce-lint report</title>' "$dom" || fail "no page title"
grep -q 'id="totals">2 findings, 1 suppressed in 3 kernels' "$dom" ||
  fail "totals missing"
expect_count '<div class="finding ' 3 "findings"
grep -q "uncoalesced load of 'in\[2 \* i\]'" "$dom" || fail "strided finding"
grep -q "misaligned store to 'a\[i + 1\]'" "$dom" || fail "misaligned finding"
expect_count 'class="finding sev-warning suppressed"' 1 "suppressed findings"
grep -q 'suppressed by <code>NOLINT(coalesce-stride)</code>' "$dom" ||
  fail "suppression not named"
# The source's '<' and '&' are text, not markup.
grep -q 'twice&lt;float&gt;(<mark>in\[2 \* i\]</mark>)' "$dom" ||
  fail "source line not escaped or not highlighted"
[ "$(count '<float>')" -eq 0 ] || fail "source text became an element"
# One SVG picture per finding, 32 lanes each, sectors with waste shaded.
expect_count '<svg class="warp"' 3 "warp pictures"
expect_count '<g class="lane"' 96 "lane rows"
expect_count '<g class="sector"' 45 "sector columns (8 + 32 + 5)"
[ "$(count '<rect class="waste"')" -gt 0 ] || fail "no wasted bytes shaded"

# The screenshot is a PNG of some substance.
[ -s "$TMP/page.png" ] || fail "no screenshot"
magic=$(od -An -c -N4 "$TMP/page.png" | tr -d ' ')
[ "$magic" = "211PNG" ] || fail "screenshot is not a PNG ($magic)"
[ "$(wc -c <"$TMP/page.png")" -gt 20000 ] || fail "screenshot is nearly empty"

echo "PASS: $BROWSER rendered the report: 3 findings, 3 warp pictures"
