#!/usr/bin/env bash
# report.sh - step 3 of the GPU validation (runs where coalesce-lint is built).
# Unpacks what on-gpu.sh measured into test/data/validation/NAME (the Nsight
# Compute exports and coalesce-verify's results), then replays each recording
# through `coalesce-lint --verify-on-gpu` (COALESCE_VERIFY_FROM_RECORDING) and
# prints the predicted-vs-measured tables.
#
#   bash scripts/gpu-validation/report.sh validation.tar.gz > docs/validation-run.txt
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LINT=${COALESCE_LINT:-build/bin/coalesce-lint}
tarball=${1:?usage: report.sh validation.tar.gz}
tmp=$(mktemp -d)
tar xzf "$tarball" -C "$tmp"
rec=test/data/validation
mkdir -p "$rec"
cp "$tmp/validation/environment.txt" "$tmp/validation/timings.tsv" \
   "$tmp/validation/files.tsv" "$rec/"
echo "# $(head -1 "$rec/environment.txt")"
while IFS=$'\t' read -r file args; do
  name=$(basename "$file" .cu)
  mkdir -p "$rec/$name"
  for f in source.csv metrics.csv results.json verify.log; do
    [[ -f $tmp/validation/$name/$f ]] && cp "$tmp/validation/$name/$f" "$rec/$name/"
  done
  echo
  echo "## $file $args"
  # shellcheck disable=SC2086
  COALESCE_VERIFY_FROM_RECORDING="$rec/$name" "$LINT" --verify-on-gpu --verify-all \
      --fail-on=never $args "$file" 2>/dev/null | sed -n '/^kernel  /,/^GPU verification/p'
done < "$rec/files.tsv"
rm -rf "$tmp"
