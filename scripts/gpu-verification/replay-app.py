#!/usr/bin/env python3
"""Replays application mode without a GPU on the 42 programs of
scripts/gpu-groundtruth (PolyBench-ACC and cuda-samples).

The H200's per-line Nsight Compute source exports committed in
docs/groundtruth/groundtruth.tar.gz (csv/NAME.csv, one profile of each
program) are compared with the CURRENT analysis, exactly as
`coalesce-verify --app` would after profiling the program:

    coalesce-lint --emit-manifest M FILES -- FLAGS    (the program's nvcc flags)
    coalesce-verify --manifest M --from-recording csv/NAME.csv --json J

so that a change to the predictor is checked against real measurements in
about a minute. Needs .gt-carry/ (scripts/gpu-groundtruth/prepare.sh) for the
sources and build/bin/{coalesce-lint,coalesce-verify}. Programs and flags are
read as scripts/gpu-groundtruth/compare.py reads them.

    python3 scripts/gpu-verification/replay-app.py OUTDIR [SUITE...]

SUITE: polybench, cuda-samples (default: both). OUTDIR gets per program
NAME.txt (coalesce-verify's table) and NAME.json, and summary.tsv: accesses
confirmed / mismatch / not executed / unpredicted and the per-line true
positives, false alarms and missed lines, with totals in the last row.
"""
import json
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "gpu-groundtruth"))
from compare import CARRY, lint_flags  # noqa: E402
from lines import read_programs  # noqa: E402

KEYS = ["confirmed", "mismatch", "not_executed", "unpredicted",
        "true_positives", "false_alarms", "missed"]


def counts(doc):
    verdicts = [a.get("verdict") for a in doc.get("accesses", [])]
    s = doc.get("summary", {})
    return {"confirmed": verdicts.count("confirmed"),
            "mismatch": verdicts.count("mismatch"),
            "not_executed": verdicts.count("not-executed"),
            "unpredicted": verdicts.count("unpredicted"),
            "true_positives": s.get("true_positives", 0),
            "false_alarms": s.get("false_alarms", 0),
            "missed": s.get("missed", 0)}


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: replay-app.py OUTDIR [SUITE...]")
    out = os.path.abspath(sys.argv[1])
    suites = sys.argv[2:] or ["polybench", "cuda-samples"]
    lint = os.environ.get("LINT", os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    verify = os.environ.get("VERIFY", os.path.join(ROOT, "build", "bin", "coalesce-verify"))
    programs_tsv = os.path.join(CARRY, "programs.tsv")
    if not os.path.exists(programs_tsv):
        sys.exit(f"no {programs_tsv}: run scripts/gpu-groundtruth/prepare.sh")
    os.makedirs(out, exist_ok=True)
    progs = read_programs(programs_tsv)
    byname = {p["name"]: p for p in progs}
    rows, total = [], dict.fromkeys(KEYS, 0)
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(os.path.join(ROOT, "docs", "groundtruth", "groundtruth.tar.gz")) as t:
            t.extractall(tmp, members=[m for m in t.getmembers() if m.name.startswith("csv/")])
        for p in progs:
            if p["suite"] not in suites:
                continue
            csv = os.path.join(tmp, "csv", p["name"] + ".csv")
            if not os.path.exists(csv):
                print(f"{p['name']}: no recording")
                continue
            nv = p["nvcc"]
            if nv.startswith("="):
                nv = byname[nv[1:]]["nvcc"]
            manifest = os.path.join(out, p["name"] + ".tsv")
            subprocess.run([lint, "--fail-on=never", "--emit-manifest", manifest] + p["lint"]
                           + ["--"] + lint_flags(nv), cwd=os.path.join(CARRY, p["dir"]),
                           stdin=subprocess.DEVNULL, capture_output=True)
            js = os.path.join(out, p["name"] + ".json")
            r = subprocess.run([verify, "--manifest", manifest, "--from-recording", csv, "--json",
                                js, os.path.join(tmp, "work-" + p["name"])],
                               capture_output=True, text=True)
            with open(os.path.join(out, p["name"] + ".txt"), "w") as f:
                f.write(r.stdout + r.stderr)
            line = next((l for l in r.stdout.splitlines() if " accesses" in l and l[:1].isdigit()), "")
            print(f"{p['name']}: rc={r.returncode} {line}")
            if not os.path.exists(js):
                continue
            with open(js) as f:
                c = counts(json.load(f))
            for k in KEYS:
                total[k] += c[k]
            rows.append((p["name"], c))
    rows.sort()
    rows.append(("total", total))
    with open(os.path.join(out, "summary.tsv"), "w") as o:
        o.write("program\t" + "\t".join(KEYS) + "\n")
        for n, c in rows:
            o.write(n + "\t" + "\t".join(str(c[k]) for k in KEYS) + "\n")
    t = total
    prec = t["true_positives"] / max(1, t["true_positives"] + t["false_alarms"])
    rec = t["true_positives"] / max(1, t["true_positives"] + t["missed"])
    print(f"accesses: {t['confirmed']} confirmed, {t['mismatch']} mismatch, "
          f"{t['not_executed']} not executed, {t['unpredicted']} unpredicted; "
          f"lines: {t['true_positives']} true positives, {t['false_alarms']} "
          f"false alarms, {t['missed']} missed (precision {prec:.1%}, recall {rec:.1%})")


if __name__ == "__main__":
    main()
