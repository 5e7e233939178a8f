#!/usr/bin/env bash
# Replays application mode without a GPU on the 42 programs of
# scripts/gpu-groundtruth (PolyBench-ACC and cuda-samples): the H200's
# per-line Nsight Compute source exports committed in
# docs/groundtruth/groundtruth.tar.gz (csv/NAME.csv, one profile of each
# program) are compared with the CURRENT analysis, exactly as
# `coalesce-verify --app` would after profiling the program:
#
#   coalesce-lint --emit-manifest M FILES -- FLAGS    (the program's nvcc flags)
#   coalesce-verify --manifest M --from-recording csv/pb-NAME.csv --json J
#
# so that a change to the predictor is checked against real measurements in
# seconds. Needs .gt-carry/ (scripts/gpu-groundtruth/prepare.sh) for the
# sources and build/bin/{coalesce-lint,coalesce-verify}.
#
#   bash scripts/gpu-verification/replay-app.sh OUTDIR [SUITE...]
#
# SUITE: polybench, cuda-samples (default: both).
# OUTDIR gets per program NAME.txt (coalesce-verify's table) and NAME.json,
# and summary.tsv: accesses confirmed / mismatch / not executed /
# unpredicted and the per-line true positives, false alarms and missed
# lines, with totals in the last row.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: replay-app.sh OUTDIR [SUITE...]}
shift
SUITES=" ${*:-polybench cuda-samples} "
LINT=${LINT:-$ROOT/build/bin/coalesce-lint}
VERIFY=${VERIFY:-$ROOT/build/bin/coalesce-verify}
GT=$ROOT/.gt-carry
[[ -f $GT/programs.tsv ]] || { echo "no $GT/programs.tsv: run scripts/gpu-groundtruth/prepare.sh" >&2; exit 2; }
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
CSV=$(mktemp -d); trap 'rm -rf "$CSV"' EXIT
tar xzf "$ROOT/docs/groundtruth/groundtruth.tar.gz" -C "$CSV" csv

while IFS= read -r line; do
  # Tab-separated with empty fields (read would merge adjacent tabs).
  IFS=$'\x1f' read -r suite name dir args _run files <<<"${line//$'\t'/$'\x1f'}"
  [[ $SUITES == *" $suite "* ]] || continue
  [[ -f $CSV/csv/$name.csv ]] || { echo "$name: no recording"; continue; }
  flags=()
  for a in $args; do
    case $a in -D*|-I*|-std=*) flags+=("$a") ;; esac
  done
  ( cd "$GT/$dir"
    # shellcheck disable=SC2086
    "$LINT" --fail-on=never --emit-manifest "$OUT/$name.tsv" $files -- "${flags[@]}" \
      >"$OUT/$name.lint.log" 2>&1 </dev/null || true )
  rc=0
  "$VERIFY" --manifest "$OUT/$name.tsv" --from-recording "$CSV/csv/$name.csv" \
    --json "$OUT/$name.json" "$OUT/work-$name" >"$OUT/$name.txt" 2>&1 || rc=$?
  rm -rf "$OUT/work-$name" "$OUT/$name.lint.log"
  echo "$name: rc=$rc $(grep -E '^[0-9]+ accesses' "$OUT/$name.txt" || true)"
done < <(tail -n +2 "$GT/programs.tsv")

python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
keys = ["confirmed", "mismatch", "not_executed", "unpredicted",
        "true_positives", "false_alarms", "missed"]
rows, total = [], dict.fromkeys(keys, 0)
for f in sorted(glob.glob(os.path.join(out, "*.json"))):
    d = json.load(open(f))
    verdicts = [a.get("verdict") for a in d.get("accesses", [])]
    s = d.get("summary", {})
    r = {"confirmed": verdicts.count("confirmed"),
         "mismatch": verdicts.count("mismatch"),
         "not_executed": verdicts.count("not-executed"),
         "unpredicted": verdicts.count("unpredicted"),
         "true_positives": s.get("true_positives", 0),
         "false_alarms": s.get("false_alarms", 0),
         "missed": s.get("missed", 0)}
    for k in keys:
        total[k] += r[k]
    rows.append((os.path.basename(f)[:-5], r))
rows.append(("total", total))
with open(os.path.join(out, "summary.tsv"), "w") as o:
    o.write("program\t" + "\t".join(keys) + "\n")
    for n, r in rows:
        o.write(n + "\t" + "\t".join(str(r[k]) for k in keys) + "\n")
t = total
prec = t["true_positives"] / max(1, t["true_positives"] + t["false_alarms"])
rec = t["true_positives"] / max(1, t["true_positives"] + t["missed"])
print(f"accesses: {t['confirmed']} confirmed, {t['mismatch']} mismatch, "
      f"{t['not_executed']} not executed, {t['unpredicted']} unpredicted; "
      f"lines: {t['true_positives']} true positives, {t['false_alarms']} "
      f"false alarms, {t['missed']} missed (precision {prec:.1%}, recall {rec:.1%})")
PY
