#!/usr/bin/env python3
"""Predicted against measured excess bytes per source line (issue 28).

    python3 scripts/gpu-groundtruth/impact.py --carry DIR --json-dir DIR
            [--gt docs/groundtruth] [--out FILE.md] [--require SUITE:TOP:WITHIN ...]

Reads the tool's JSON reports of a ground-truth replay (compare.py's
--json-dir, kept with GT_KEEP=1) and the measured tables
docs/groundtruth/lines-SUITE.tsv (one profiled launch of each kernel a
program runs, sectors and ideal summed per source line). Per line:

  measured excess  = (sectors - ideal) x 32 bytes
  predicted excess = the sum, over the accesses of the line in the kernels
                     the table lists for it (the kernels that ran), of
                     requests.per_launch x (sectors - ideal per request)
                     x 32 x instructions; one launch shape per kernel and
                     access (the first), as the profile took one launch

A line is "flagged" when one of those accesses is a finding; "known" when
each of them has a per-launch request count and one launch shape (a kernel
launched with several block shapes has a prediction for each, and which one
the profile took, the program's first, the report does not say: such lines
are counted apart). Reported per suite:

  top: how many of the 10 costliest predicted lines (flagged, known) are
       among the 20 costliest measured lines; the target is all of them
       (fewer when fewer lines are flagged)
  within 2x: the share of flagged, known lines whose predicted excess is
       within a factor 2 of the measured one (target >= 80%)
  rank correlation: Spearman's, over the flagged known lines

--require SUITE:TOP:WITHIN makes the exit status 1 when the suite's top
count falls below TOP (an absolute count) or its within-2x share below
WITHIN (percent).
"""
import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the same readers of the tables and paths)
from lines import read_programs  # noqa: E402

SECTOR = 32


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(xs, ys):
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else None


def predicted_lines(progs, json_dir):
    """(file, line) -> list of (kernel name, access, program) from every
    report; an access predicted for several launch shapes of its kernel in
    one report is marked (_shapes > 1): the profile took the first launch
    the program made, which the static report does not tell apart. The
    same source access reached through several call sites of a kernel
    (llama_cu_awq's get_mat_vec_int4, called for q, k and v) is one access
    per call chain: the measured line sums the instructions of every call
    site."""
    out = collections.defaultdict(list)
    seen = {}
    for p in progs:
        jp = os.path.join(json_dir, f"{p['name']}.json")
        if not os.path.exists(jp):
            continue
        with open(jp) as f:
            d = json.load(f)
        for k in d["kernels"]:
            for a in k["accesses"]:
                # The measured lines are global memory's (lines-SUITE.tsv):
                # a shared access on the same line is not in them.
                if a.get("space", "global") != "global":
                    continue
                fn = compare.norm(a["file"], p["dir"])
                if fn is None:
                    continue
                key = (p["name"], fn, a["line"], a.get("column"), a["op"], a["expr"],
                       k["name"], k.get("instantiation"), json.dumps(a.get("call_chain")))
                if key in seen:
                    # another launch shape of the kernel in this report
                    first = seen[key]
                    if a.get("launch") and a.get("launch") not in first["_launches"]:
                        first["_launches"].add(a["launch"])
                    continue
                a["_launches"] = {a.get("launch")} if a.get("launch") else set()
                a["_key"] = key[1:]
                seen[key] = a
                out[(fn, a["line"])].append((k["name"], a, p["name"]))
    return out


def json_owners(progs):
    """Program name -> the program whose JSON report holds its predictions
    (compare.tool_run_key)."""
    byname = {p["name"]: p for p in progs}
    first, owner = {}, {}
    for p in progs:
        _, key = compare.tool_run_key(p, byname)
        owner[p["name"]] = first.setdefault(key, p["name"])
    return owner


def read_ran(gt, suite, owner):
    """(file, line) -> the (program, kernel) pairs that executed it, from
    docs/groundtruth/instructions-SUITE.tsv (one row per instruction and
    launch measured), each program named by the one whose report predicts
    it (owner); None when the suite has no such table."""
    path = os.path.join(gt, f"instructions-{suite}.tsv")
    if not os.path.exists(path):
        return None
    ran = collections.defaultdict(set)
    with open(path) as f:
        rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
    head = rows[0]
    for r in rows[1:]:
        row = dict(zip(head, r))
        prog = owner.get(row["program"], row["program"])
        ran[(row["file"], int(row["line"]))].add((prog, row["kernel"]))
    return ran


def accesses_of(key, c, pred, ran):
    """The predicted accesses that the measured row c of line key sums: with
    the suite's instruction table, each program's report for the kernels
    that program ran (the table sums the programs, which may run the same
    code at other sizes); without it, the kernels that ran, from the first
    report that predicts them."""
    if ran is not None:
        pairs = ran.get(key, set())
        return [a for (kn, a, prog) in pred.get(key, []) if (prog, kn) in pairs]
    kernels = compare.kernels_of(c)
    accs, seen = [], set()
    for kn, a, _ in pred.get(key, []):
        if kn in kernels and a["_key"] not in seen:
            seen.add(a["_key"])
            accs.append(a)
    return accs


def excess_of(a):
    """Predicted excess bytes per launch of access a; None when unknown."""
    r = a.get("requests")
    s, i = a.get("sectors_per_request"), a.get("ideal_sectors_per_request")
    if not r or r.get("per_launch") is None or s is None or i is None:
        return None
    return r["per_launch"] * max(0.0, s - i) * SECTOR * a.get("instructions", 1)


def suite_report(suite, gtrows, pred, ran):
    rows = []
    for key, c in gtrows.items():
        kernels = compare.kernels_of(c)
        accs = accesses_of(key, c, pred, ran)
        if not accs:
            continue
        measured = (float(c["sectors"]) - float(c["ideal"])) * SECTOR
        flagged = any(a.get("finding") for a in accs)
        parts = [excess_of(a) for a in accs]
        shapes = any(len(a["_launches"]) > 1 for a in accs)
        known = all(x is not None for x in parts) and not shapes
        predicted = sum(x for x in parts if x is not None)
        rows.append(dict(key=key, measured=measured, predicted=predicted,
                         flagged=flagged, known=known, shapes=shapes,
                         kernels=sorted(kernels), source=c.get("source", "")))
    fk = [r for r in rows if r["flagged"] and r["known"]]
    top_pred = sorted(fk, key=lambda r: -r["predicted"])[:10]
    top_meas = {r["key"] for r in sorted(rows, key=lambda r: -r["measured"])[:20]}
    hits = sum(1 for r in top_pred if r["key"] in top_meas)
    within = [r for r in fk if r["measured"] > 0 and 0.5 <= r["predicted"] / r["measured"] <= 2.0]
    rho = spearman([r["predicted"] for r in fk], [r["measured"] for r in fk])
    return dict(rows=rows, fk=fk, top_pred=top_pred, top_meas=top_meas, hits=hits,
                within=within, rho=rho)


def per_kernel(fk):
    """Predicted against measured excess per kernel: the flagged lines with a
    per-launch figure that one kernel alone executed (a line of a header
    that several kernels run is summed over them by the table), summed."""
    by = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for r in fk:
        if len(r["kernels"]) == 1:
            k = by[r["kernels"][0]]
            k[0] += r["predicted"]
            k[1] += r["measured"]
            k[2] += 1
    return by


def mib(b):
    return f"{b / 1048576:.3g} MiB" if b >= 1048576 else f"{b / 1024:.3g} KiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--carry", required=True)
    ap.add_argument("--json-dir", required=True)
    ap.add_argument("--gt", default=os.path.join(compare.ROOT, "docs", "groundtruth"))
    ap.add_argument("--out")
    ap.add_argument("--require", action="append", default=[])
    a = ap.parse_args()
    compare.CARRY = os.path.normpath(os.path.abspath(a.carry))
    compare.CARRY_MARK = os.path.basename(compare.CARRY) + "/"
    progs = read_programs(os.path.join(compare.CARRY, "programs.tsv"))
    pred = predicted_lines(progs, a.json_dir)
    owners = json_owners(progs)
    out = ["| suite | lines measured and predicted | flagged, per launch | top 10 predicted in top 20 measured | within 2x | rank correlation |",
           "|---|---|---|---|---|---|"]
    detail = []
    numbers = {}
    for suite in sorted({p["suite"] for p in progs}):
        gtrows, _, _ = compare.read_lines(a.gt, suite)
        if not gtrows:
            continue
        r = suite_report(suite, gtrows, pred, read_ran(a.gt, suite, owners))
        n = len(r["fk"])
        share = 100.0 * len(r["within"]) / n if n else 0.0
        rho = f"{r['rho']:.2f}" if r["rho"] is not None else "-"
        out.append(f"| {suite} | {len(r['rows'])} | {n} | {r['hits']} of {len(r['top_pred'])} | "
                   f"{len(r['within'])} of {n} ({share:.0f}%) | {rho} |")
        numbers[suite] = (r["hits"], len(r["top_pred"]), share)
        multi = [x for x in r["rows"] if x["flagged"] and x["shapes"]]
        if multi:
            detail.append(f"\n{suite}: {len(multi)} flagged lines left out, predicted for several launch "
                          "shapes of their kernel: " + ", ".join(f"{x['key'][0]}:{x['key'][1]}" for x in multi))
        detail.append(f"\n### {suite}: flagged lines, predicted against measured excess per launch\n")
        detail.append("| line | predicted | measured | ratio | in top 20 measured | source |")
        detail.append("|---|---|---|---|---|---|")
        for row in sorted(r["fk"], key=lambda x: -x["predicted"]):
            ratio = row["predicted"] / row["measured"] if row["measured"] > 0 else float("inf")
            detail.append(f"| {row['key'][0]}:{row['key'][1]} | {mib(row['predicted'])} | {mib(row['measured'])} | "
                          f"{ratio:.2f} | {'yes' if row['key'] in r['top_meas'] else 'no'} | "
                          f"`{row['source'][:60].replace('|', '/')}` |")
        by = per_kernel(r["fk"])
        if by:
            inside = sum(1 for p_, m_, _ in by.values() if m_ > 0 and 0.5 <= p_ / m_ <= 2.0)
            krho = spearman([v[0] for v in by.values()], [v[1] for v in by.values()]) if len(by) > 2 else None
            detail.append(f"\n{suite}, per kernel (flagged lines with a per-launch figure that the kernel alone "
                          f"runs): {inside} of {len(by)} kernels within 2x"
                          + (f", rank correlation {krho:.2f}" if krho is not None else "") + "\n")
            detail.append("| kernel | lines | predicted | measured | ratio |")
            detail.append("|---|---|---|---|---|")
            for name, (p_, m_, n_) in sorted(by.items(), key=lambda kv: -kv[1][1]):
                ratio = f"{p_ / m_:.2f}" if m_ > 0 else "-"
                detail.append(f"| {name} | {n_} | {mib(p_)} | {mib(m_)} | {ratio} |")
    text = "\n".join(out + detail) + "\n"
    print("\n".join(out))
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    rc = 0
    for req in a.require:
        suite, top, within = req.split(":")
        if suite not in numbers:
            continue
        hits, of, share = numbers[suite]
        ok = hits >= min(int(top), of) and share >= float(within)
        print(f"{'ok' if ok else 'FAIL'}: {suite}: top {hits} of {of} (>= {top}), within 2x {share:.0f}% (>= {within}%)")
        rc |= not ok
    return rc


if __name__ == "__main__":
    sys.exit(main())
