#!/usr/bin/env python3
"""Line-level precision and recall of coalesce-lint against the H200 ground truth.

    bash scripts/gpu-groundtruth/prepare.sh            # sources into .gt-carry/ (once)
    python3 scripts/gpu-groundtruth/compare.py [--tool build/bin/coalesce-lint]
            [--gt docs/groundtruth] [--json-dir DIR] [--reuse-json] [--out FILE.md]

For every distinct (directory, files, flags) of .gt-carry/programs.tsv the tool
is run as
    coalesce-lint --format=json --fail-on=never FILES -- -D... -I...
from the program's directory, with the -D/-I/-std flags of its nvcc command
(the same defines as the GPU build). Its findings are reduced to source lines
(the access's start line) and compared with docs/groundtruth/lines-SUITE.tsv:

  measured line : requests >= --min-requests (default: the TSV's threshold)
  wasteful line : the TSV's `wasteful` column (sectors > 1.25 * ideal), or
                  sectors > --line-ratio x ideal when given
  flagged line  : at least one access on the line has a finding
  precision     = flagged & wasteful / flagged & measured
  recall        = flagged & wasteful / wasteful
Lines that were not measured (kernel not run or not profiled, or no global
instruction attributed to the line) count in neither; findings there are
listed separately. "significant" repeats the numbers keeping only findings
whose predicted (or worst-case) sectors per request exceed --ratio x ideal,
or that are indirect (the GPU criterion applied to the prediction);
"+-1 line" lets a finding and a wasteful line one line apart match (-lineinfo
puts some loads on the line that uses their value).
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CARRY = os.path.join(ROOT, ".gt-carry")


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lines import read_programs  # noqa: E402  (one reader of programs.tsv)


def lint_flags(nvcc_args):
    out = []
    toks = shlex.split(nvcc_args)
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in ("-D", "-I") and i + 1 < len(toks):
            out += [t + toks[i + 1]]
            i += 2
            continue
        if t.startswith(("-D", "-I", "-std=")):
            out.append(t)
        i += 1
    return out


def read_lines(gt, suite):
    path = os.path.join(gt, f"lines-{suite}.tsv")
    rows = {}
    min_req = None
    if not os.path.exists(path):
        print(f"warning: {path} missing: no ground truth for suite {suite}", file=sys.stderr)
        return rows, collections.defaultdict(set), None
    with open(path) as f:
        first = f.readline()
        m = re.search(r"requests >= ([0-9.]+)", first)
        if m:
            min_req = float(m.group(1))
        hdr = f.readline().rstrip("\n").split("\t")
        for line in f:
            c = dict(zip(hdr, line.rstrip("\n").split("\t")))
            rows[(c["file"], int(c["line"]))] = c
    executed = collections.defaultdict(set)
    ep = os.path.join(gt, f"executed-{suite}.tsv")
    if os.path.exists(ep):
        with open(ep) as f:
            for line in f:
                if line.startswith("#") or line.startswith("file\t"):
                    continue
                fn, ls = line.rstrip("\n").split("\t")
                executed[fn] = {int(x) for x in ls.split(",") if x}
    return rows, executed, min_req


def norm(path, prog_dir):
    p = path if os.path.isabs(path) else os.path.join(CARRY, prog_dir, path)
    p = os.path.normpath(p)
    i = p.find(".gt-carry/")
    return p[i + len(".gt-carry/"):] if i >= 0 else None


def run_tool(tool, prog, flags, json_path, reuse):
    if reuse and os.path.exists(json_path):
        with open(json_path) as f:
            return json.load(f), None
    cmd = [tool, "--format=json", "--fail-on=never"] + prog["lint"] + ["--"] + flags
    r = subprocess.run(cmd, cwd=os.path.join(CARRY, prog["dir"]), capture_output=True, text=True)
    if r.returncode not in (0, 1):
        return None, f"exit {r.returncode}: {r.stderr.strip()[:300]}"
    with open(json_path, "w") as f:
        f.write(r.stdout)
    return json.loads(r.stdout), None


def significant(a, ratio):
    if a["finding"] is None:
        return False
    if a["classification"] == "indirect":
        return True
    ideal = a["ideal_sectors_per_request"]
    spr = max(x for x in (a["sectors_per_request"], a["worst_sectors_per_request"], 0) if x is not None)
    return ideal is not None and spr > ratio * ideal


def describe(a):
    spr = a["sectors_per_request"]
    s = f"{a['op']} `{a['expr']}` {a['classification']} {spr if spr is not None else '?'}/{a['ideal_sectors_per_request']}"
    if a["worst_sectors_per_request"] is not None:
        s += f" (worst {a['worst_sectors_per_request']})"
    if a["finding"]:
        s += f" [{a['finding']['rule']}]"
    return s


def line_ratio(lst):
    """Predicted sectors / ideal over a line's accesses (each prediction once)."""
    seen = set()
    num = den = 0.0
    for x in lst:
        spr, ideal = x["sectors_per_request"], x["ideal_sectors_per_request"]
        if spr is None or not ideal:
            continue
        key = (x["expr"], x["op"], spr, ideal)
        if key in seen:
            continue
        seen.add(key)
        num += spr
        den += ideal
    return f"{num / den:.3f}" if den else "?"


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    ap.add_argument("--programs", default=os.path.join(CARRY, "programs.tsv"))
    ap.add_argument("--gt", default=os.path.join(ROOT, "docs", "groundtruth"))
    ap.add_argument("--json-dir", default=os.path.join(CARRY, "lint-json"))
    ap.add_argument("--reuse-json", action="store_true", help="read the JSON of an earlier run instead of running the tool")
    ap.add_argument("--ratio", type=float, default=1.25)
    ap.add_argument("--line-ratio", type=float, default=None,
                    help="call a line wasteful when its measured sectors exceed this x ideal "
                         "(default: the TSV's wasteful column, 1.25)")
    ap.add_argument("--min-requests", type=float, default=None)
    ap.add_argument("--suite", action="append", help="only these suites")
    ap.add_argument("--out", help="write the report (markdown) here too")
    a = ap.parse_args()

    progs = read_programs(a.programs)
    byname = {p["name"]: p for p in progs}
    os.makedirs(a.json_dir, exist_ok=True)
    report = []
    P = report.append
    P(f"tool: `{a.tool}` ({subprocess.run([a.tool, '--version'], capture_output=True, text=True).stdout.strip()})\n")
    summary = []
    for suite in sorted({p["suite"] for p in progs}):
        if a.suite and suite not in a.suite:
            continue
        gtrows, executed, min_req = read_lines(a.gt, suite)
        if a.min_requests is not None:
            min_req = a.min_requests
        min_req = min_req or 0
        # ---- run the tool once per distinct (dir, files, flags)
        accesses = collections.defaultdict(list)  # (file, line) -> [access]
        done = set()
        errors = []
        kernels = 0
        for p in progs:
            if p["suite"] != suite:
                continue
            nv = p["nvcc"]
            if nv.startswith("="):
                nv = byname[nv[1:]]["nvcc"]
            flags = lint_flags(nv)
            key = (p["dir"], tuple(p["lint"]), tuple(flags))
            if key in done:
                continue
            done.add(key)
            jp = os.path.join(a.json_dir, f"{p['name']}.json")
            d, err = run_tool(a.tool, p, flags, jp, a.reuse_json)
            if d is None:
                errors.append(f"{p['name']}: tool failed: {err}")
                continue
            for f in d["files"]:
                ek = [e for e in f["errors"] if e["in_kernel"]]
                if f["fatal_error"] or ek:
                    errors.append(f"{p['name']}: {f['file']}: {f['fatal_error'] or ''} "
                                  f"{len(ek)} compile error(s) in kernels, e.g. {ek[0]['message'] if ek else ''}")
            for k in d["kernels"]:
                kernels += 1
                for acc in k["accesses"]:
                    fn = norm(acc["file"], p["dir"])
                    if fn is None or acc["line"] is None:
                        continue
                    acc["_prog"] = p["name"]
                    accesses[(fn, acc["line"])].append(acc)

        def measured(key):
            r = gtrows.get(key)
            return r is not None and float(r["requests"]) >= min_req

        def wasteful(key):
            if not measured(key):
                return False
            if a.line_ratio is not None:
                r = gtrows[key]
                return float(r["sectors"]) > a.line_ratio * float(r["ideal"])
            return gtrows[key]["wasteful"] == "1"

        W = {k for k in gtrows if wasteful(k)}
        M = {k for k in gtrows if measured(k)}
        P(f"## {suite}\n")
        P(f"{len(done)} tool runs, {kernels} kernels analyzed (instantiations counted separately); "
          f"{len(M)} measured lines (>= {min_req:g} requests), {len(W)} wasteful.\n")
        if errors:
            P("Tool problems:\n")
            for e in errors:
                P(f"- {e}")
            P("")
        for variant in ("all", "significant"):
            F = {k for k, lst in accesses.items()
                 if any(x["finding"] is not None and (variant == "all" or significant(x, a.ratio)) for x in lst)}
            tp = F & W
            fm = F & M
            near = lambda k, S: any((k[0], k[1] + d) in S for d in (-1, 0, 1))
            tp_n = {k for k in fm | {k for k in F if near(k, M)} if near(k, W)}
            fm_n = {k for k in F if near(k, M)}
            hit_n = {k for k in W if near(k, F)}
            P(f"### findings: {variant}\n")
            P("| | lines |\n|---|---:|")
            P(f"| flagged lines | {len(F)} |")
            P(f"| flagged and measured | {len(fm)} |")
            P(f"| flagged and wasteful (true positives) | {len(tp)} |")
            P(f"| false alarms (flagged, measured, not wasteful) | {len(fm - W)} |")
            P(f"| misses (wasteful, not flagged) | {len(W - F)} |")
            P(f"| **precision** | **{pct(len(tp), len(fm))}** |")
            P(f"| **recall** | **{pct(len(tp), len(W))}** |")
            P(f"| precision, +-1 line | {pct(len(tp_n), len(fm_n))} |")
            P(f"| recall, +-1 line | {pct(len(hit_n), len(W))} |")
            P("")
            summary.append((suite, variant, len(W), len(fm), len(tp), len(fm - W), len(W - F),
                            pct(len(tp), len(fm)), pct(len(tp), len(W)), pct(len(tp_n), len(fm_n)),
                            pct(len(hit_n), len(W))))
            if variant != "all":
                continue
            P("#### False alarms\n")
            for k in sorted(fm - W):
                r = gtrows[k]
                flagged = [describe(x) for x in accesses[k] if x["finding"] is not None]
                P(f"- `{k[0]}:{k[1]}` `{r['source'][:100]}` — GPU {r['sectors_per_req']}/{r['ideal_per_req']} "
                  f"sectors/req (ratio {r['ratio']}, {r['requests']} req, {r['opcodes']}); tool line ratio "
                  f"{line_ratio(accesses[k])}: {'; '.join(flagged)}")
            P("\n#### Misses\n")
            for k in sorted(W - F):
                r = gtrows[k]
                acc = [describe(x) for x in accesses.get(k, [])]
                nb = [f"{d:+d}: " + describe(x) for d in (-1, 1) for x in accesses.get((k[0], k[1] + d), [])
                      if x["finding"] is not None]
                P(f"- `{k[0]}:{k[1]}` `{r['source'][:100]}` — GPU {r['sectors_per_req']}/{r['ideal_per_req']} "
                  f"sectors/req (ratio {r['ratio']}, {r['requests']} req, {r['opcodes']}, {r['kernels']}); tool line ratio "
                  f"{line_ratio(accesses.get(k, []))}: "
                  + ("; ".join(acc) if acc else "no access on this line")
                  + (f"; finding on neighbouring line {'; '.join(nb)}" if nb else ""))
            unm = sorted(F - M)
            P(f"\n#### Findings on lines not measured ({len(unm)})\n")
            for k in unm:
                why = ("executed, no global instruction attributed here" if k[1] in executed.get(k[0], set())
                       else "line not executed in the profiled launches")
                if k in gtrows:
                    why = f"only {gtrows[k]['requests']} requests"
                flagged = [describe(x) for x in accesses[k] if x["finding"] is not None]
                P(f"- `{k[0]}:{k[1]}` ({why}): {'; '.join(flagged)}")
            P("")
    head = ["suite", "findings", "wasteful", "flagged+measured", "TP", "FP", "FN", "precision", "recall",
            "precision +-1", "recall +-1"]
    tab = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    tab += ["| " + " | ".join(str(x) for x in s[:2] + (s[2],) + s[3:]) + " |" for s in summary]
    text = "\n".join(["# Line-level comparison\n", "\n".join(tab), ""] + report) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
