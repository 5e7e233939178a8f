#!/usr/bin/env bash
# report.sh - step 3 of the GPU validation (runs where coalesce-lint is built).
# Unpacks what on-gpu.sh measured into test/data/validation/NAME (the Nsight
# Compute exports and coalesce-verify's results), then replays each recording
# through `coalesce-lint --verify-on-gpu` (COALESCE_VERIFY_FROM_RECORDING) and
# prints the predicted-vs-measured tables.
#
#   bash scripts/gpu-validation/report.sh validation.tar.gz [more.tar.gz...]
#
# Later archives (a re-run of some files) override earlier ones.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LINT=${COALESCE_LINT:-build/bin/coalesce-lint}
[[ $# -ge 1 ]] || { echo "usage: report.sh validation.tar.gz [more.tar.gz...]" >&2; exit 2; }
tmp=$(mktemp -d)
rec=test/data/validation
rm -rf "$rec"
mkdir -p "$rec"
for tarball in "$@"; do
  rm -rf "$tmp/validation"
  tar xzf "$tarball" -C "$tmp"
  cp "$tmp/validation/environment.txt" "$rec/"
  tail -n +2 "$tmp/validation/timings.tsv" >> "$rec/timings.tsv"
  cat "$tmp/validation/files.tsv" >> "$rec/files.tsv"
  for d in "$tmp"/validation/*/; do
    name=$(basename "$d")
    rm -rf "${rec:?}/$name"
    mkdir -p "$rec/$name"
    for f in source.csv metrics.csv results.json verify.log; do
      [[ -f $d/$f ]] && cp "$d/$f" "$rec/$name/"
    done
  done
done
# Keep the last line for each file.
awk -F'\t' '{last[$1] = $0; order[$1] = NR} END {for (f in last) print order[f] "\t" last[f]}' \
  "$rec/files.tsv" | sort -n | cut -f2- > "$rec/files.tsv.new" && mv "$rec/files.tsv.new" "$rec/files.tsv"
awk -F'\t' '{last[$1] = $0; order[$1] = NR} END {for (f in last) print order[f] "\t" last[f]}' \
  "$rec/timings.tsv" | sort -n | cut -f2- > "$rec/timings.tsv.new" && mv "$rec/timings.tsv.new" "$rec/timings.tsv"
echo "# $(head -1 "$rec/environment.txt")"
while IFS=$'\t' read -r file args; do
  name=$(basename "$file" .cu)
  echo
  echo "## $file $args"
  # shellcheck disable=SC2086
  COALESCE_VERIFY_FROM_RECORDING="$rec/$name" "$LINT" --verify-on-gpu --verify-all \
      --fail-on=never $args "$file" 2>/dev/null | sed -n '/^kernel  /,/^GPU verification/p'
done < "$rec/files.tsv"
rm -rf "$tmp"
