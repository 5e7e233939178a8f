#!/usr/bin/env python3
"""Replays the H200's shared-memory measurements of calibration.cu against
coalesce-lint's predictions (issue 27).

    python3 cuda_validation/banks/replay.py LINT MEASURED.tsv [--table OUT.md]

Runs `LINT --format=json` on calibration.cu (next to this script), then for
every measured line of every kernel instance compares Nsight Compute's
shared wavefronts per request with the prediction, both against their
ideal: a line matches when the predicted wavefronts per request equal the
measured ones within 2% (and so does the ideal). The request count of a line
is the predicted requests per launch (a predicated instruction's "Instructions
Executed" also counts warps whose lanes are all off); lines whose predicted
requests per launch are not known compare wavefronts per ideal wavefront.
Exit 0 when every line matches, 1 otherwise (each mismatch printed), 2 on bad
input.
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TILES = ["tile<float, 0>", "tile<float, 1>", "tile<double, 0>",
         "tile<double, 1>", "tile<char, 0>", "tile<short, 0>"]


def instance(program, kernel):
    """The lint's kernel instance for a measured (program, kernel#block)."""
    name, block = kernel.split("#")
    group = program[len("banks-"):]
    if name in ("load_strides", "store_strides"):
        return f"{name}<{group}>"
    if name == "tile":
        return TILES[int(block)]
    return name


def predictions(lint):
    src = os.path.join(HERE, "calibration.cu")
    out = subprocess.run([lint, "--format=json", "--fail-on=never", src],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"replay: {lint} exited {out.returncode}: {out.stderr[-2000:]}")
    lines = collections.defaultdict(list)
    for k in json.loads(out.stdout)["kernels"]:
        name = k.get("instantiation") or k["name"]
        for a in k["accesses"]:
            if a.get("space") == "shared":
                lines[(name, a["line"])].append(a)
    return lines


def predicted_line(accesses):
    """(wavefronts, ideal, requests) per launch over the line's accesses
    (an update is a load and a store); requests None when not per launch."""
    w = i = r = 0.0
    known = True
    for a in accesses:
        ops = 2 if a["op"] == "load+store" else 1
        per = (a.get("requests") or {}).get("per_launch")
        if per is None:
            known = False
            per = (a.get("requests") or {}).get("per_block") or 1
        n = per * ops * a.get("instructions", 1)
        w += n * (a["wavefronts_per_request"] or 0)
        i += n * (a["ideal_wavefronts_per_request"] or 0)
        r += n
    return w, i, (r if known else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lint")
    ap.add_argument("measured")
    ap.add_argument("--table")
    args = ap.parse_args()
    pred = predictions(args.lint)
    meas = collections.defaultdict(lambda: [0, 0, 0, set()])
    with open(args.measured) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (instance(row["program"], row["kernel"]), int(row["line"]))
            m = meas[key]
            m[0] += int(row["instructions"])
            m[1] += int(row["wavefronts"])
            m[2] += int(row["ideal"])
            m[3].add(row["opcode"])
    rows, bad = [], 0
    for key in sorted(meas):
        inst, line = key
        instr, mw, mi, ops = meas[key]
        if key not in pred:
            rows.append((inst, line, "-", f"{mw}/{mi}", "missed (no prediction)"))
            bad += 1
            continue
        pw, pi, preq = predicted_line(pred[key])
        if preq is not None:
            ok = abs(pw - mw) <= 0.02 * mw + 1e-9 and abs(pi - mi) <= 0.02 * mi + 1e-9
            shown = f"{pw:g}/{pi:g}"
        else:  # per pass of a loop: compare wavefronts per ideal wavefront
            ok = pi > 0 and mi > 0 and abs(pw / pi - mw / mi) <= 0.02 * (mw / mi)
            shown = f"{pw / pi:.3g}x ideal" if pi else "-"
        verdict = "match" if ok else "MISMATCH"
        bad += not ok
        rows.append((inst, line, shown, f"{mw}/{mi}", verdict))
    for key in sorted(set(pred) - set(meas)):
        rows.append((key[0], key[1], "predicted", "-", "not measured"))
    matched = sum(r[4] == "match" for r in rows)
    measured = len(meas)
    text = ["| kernel | line | predicted wavefronts/ideal per launch | measured | verdict |",
            "|---|---:|---:|---:|---|"]
    text += [f"| `{r[0]}` | {r[1]} | {r[2]} | {r[3]} | {r[4]} |" for r in rows]
    summary = (f"banks replay: {matched} of {measured} measured lines match, "
               f"{bad} mismatch or missed")
    if args.table:
        with open(args.table, "w") as f:
            f.write("\n".join(text) + "\n\n" + summary + "\n")
    for r in rows:
        if r[4] not in ("match", "not measured"):
            print(f"{r[0]} line {r[1]}: predicted {r[2]}, measured {r[3]}: {r[4]}")
    print(summary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
