#!/usr/bin/env python3
"""Line-level precision and recall of coalesce-lint against the H200 ground truth.

    bash scripts/gpu-groundtruth/prepare.sh            # sources into .gt-carry/ (once)
    python3 scripts/gpu-groundtruth/compare.py [--tool build/bin/coalesce-lint]
            [--gt docs/groundtruth] [--json-dir DIR] [--reuse-json] [--out FILE.md]
            [--carry .gt-carry] [--frames first|all] [--require SUITE:VARIANT:PRECISION:RECALL ...]

The tool defaults to $COALESCE_LINT, else build/bin/coalesce-lint. --carry
names the prepared directory (.gt-carry of prepare.sh, the default, or
.gt-carry-modern of prepare-modern.sh). --frames all also puts an access on
each call site of its call chain (for tables from lines.py --frames all).
--require makes the exit status 1 when
a suite's precision or recall (percent, e.g. llmc:significant:95:90) falls
below the given numbers, or when the tool fails on a program: the CI replay
(VARIANT: all or significant, the exact-line numbers; all-stmt or
significant-stmt, the statement-span numbers).

For every distinct (directory, files, flags, tool arguments) of
.gt-carry/programs.tsv the tool is run as
    coalesce-lint --format=json --fail-on=never [TOOL_ARGS] FILES -- -D... -I...
(TOOL_ARGS: the optional 7th column, e.g. --param N=4096 of prepare-half.sh)
from the program's directory, with the -D/-I/-std flags of its nvcc command
(the same defines as the GPU build). Its findings are reduced to source lines
(the access's start line) and compared with docs/groundtruth/lines-SUITE.tsv
(-include FILE of the nvcc command is passed too):

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
CARRY_MARK = ".gt-carry/"


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
        if t == "-include" and i + 1 < len(toks):
            # a forced include (llama_cu_awq's stand-in for cub::Max/Min of
            # CUDA 12), relative to the program's directory as for nvcc
            out += [t, toks[i + 1]]
            i += 2
            continue
        if t.startswith(("-D", "-I", "-std=")):
            out.append(t)
        i += 1
    return out


def kernels_of(row):
    """The kernels that executed a measured line (the table's kernels
    column), as a set; empty when the row does not say."""
    return set((row or {}).get("kernels", "").split(",")) - {""}


def read_lines(gt, suite):
    path = os.path.join(gt, f"lines-{suite}{SUFFIX}.tsv")
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


SUFFIX = ""  # "-shared" with --space shared


def norm(path, prog_dir):
    p = path if os.path.isabs(path) else os.path.join(CARRY, prog_dir, path)
    p = os.path.normpath(p)
    i = p.find(CARRY_MARK)
    return p[i + len(CARRY_MARK):] if i >= 0 else None


def tool_run_key(p, byname):
    """The tool's flags for program p and the key of its run: the tool runs
    once per distinct (directory, files, flags, tool arguments), its report
    named after the first program with that key."""
    nv = p["nvcc"]
    if nv.startswith("="):
        nv = byname[nv[1:]]["nvcc"]
    flags = lint_flags(nv)
    return flags, (p["dir"], tuple(p["lint"]), tuple(flags), tuple(p.get("lint_args", [])))


def run_tool(tool, prog, flags, json_path, reuse):
    if reuse and os.path.exists(json_path):
        with open(json_path) as f:
            return json.load(f), None
    cmd = [tool, "--format=json", "--fail-on=never"] + prog.get("lint_args", []) + prog["lint"] + ["--"] + flags
    r = subprocess.run(cmd, cwd=os.path.join(CARRY, prog["dir"]), capture_output=True, text=True)
    if r.returncode not in (0, 1):
        return None, f"exit {r.returncode}: {r.stderr.strip()[:300]}"
    try:
        d = json.loads(r.stdout)
    except ValueError as e:
        return None, f"exit {r.returncode}, no JSON report ({e}): {r.stderr.strip()[:300]}"
    with open(json_path, "w") as f:
        f.write(r.stdout)
    return d, None


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


_SRC = {}


def statement_lines(path, line, column, limit=8):
    """The lines from (line, column) to the end of the statement that holds it:
    the first ';', '{' or '}' outside the brackets opened after the start
    (at most `limit` lines). -lineinfo often puts a multi-line statement's
    load or store on its last line."""
    if path not in _SRC:
        try:
            with open(path, errors="replace") as f:
                _SRC[path] = f.read().split("\n")
        except OSError:
            _SRC[path] = None
    src = _SRC[path]
    if not src or line is None or line < 1 or line > len(src):
        return [line]
    depth = 0
    col = max((column or 1) - 1, 0)
    for ln in range(line, min(line + limit, len(src) + 1)):
        text = src[ln - 1]
        i = col if ln == line else 0
        while i < len(text):
            ch = text[i]
            if text.startswith("//", i):
                break
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif ch in ";{}" and depth <= 0:
                return list(range(line, ln + 1))
            i += 1
    return [line]


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", default=os.environ.get("COALESCE_LINT") or os.path.join(ROOT, "build", "bin", "coalesce-lint"))
    ap.add_argument("--carry", default=".gt-carry", help="the prepared directory (default .gt-carry)")
    ap.add_argument("--programs", default=None, help="default: CARRY/programs.tsv")
    ap.add_argument("--gt", default=os.path.join(ROOT, "docs", "groundtruth"))
    ap.add_argument("--json-dir", default=None, help="default: CARRY/lint-json")
    ap.add_argument("--require", action="append", default=[],
                    help="SUITE:VARIANT:MIN_PRECISION:MIN_RECALL (percent); exit 1 below it")
    ap.add_argument("--reuse-json", action="store_true", help="read the JSON of an earlier run instead of running the tool")
    ap.add_argument("--ratio", type=float, default=1.25)
    ap.add_argument("--line-ratio", type=float, default=None,
                    help="call a line wasteful when its measured sectors exceed this x ideal "
                         "(default: the TSV's wasteful column, 1.25)")
    ap.add_argument("--min-requests", type=float, default=None)
    ap.add_argument("--suite", action="append", help="only these suites")
    ap.add_argument("--frames", choices=("first", "all"), default="first",
                    help="first (default): an access counts at its own line; all: also at each call site of its "
                         "call chain (for tables written by lines.py --frames all)")
    ap.add_argument("--out", help="write the report (markdown) here too")
    ap.add_argument("--space", choices=("global", "shared"), default="global",
                    help="compare the global accesses with lines-SUITE.tsv (default) or the shared ones "
                         "(bank conflicts, issue 27) with lines-SUITE-shared.tsv (lines.py --shared)")
    a = ap.parse_args()
    global CARRY, CARRY_MARK, SUFFIX
    SUFFIX = "-shared" if a.space == "shared" else ""
    CARRY = a.carry if os.path.isabs(a.carry) else os.path.join(ROOT, a.carry)
    CARRY = os.path.normpath(CARRY)
    CARRY_MARK = os.path.basename(CARRY) + "/"
    a.programs = a.programs or os.path.join(CARRY, "programs.tsv")
    a.json_dir = a.json_dir or os.path.join(CARRY, "lint-json")
    a.tool = os.path.abspath(a.tool)

    progs = read_programs(a.programs)
    byname = {p["name"]: p for p in progs}
    os.makedirs(a.json_dir, exist_ok=True)
    report = []
    P = report.append
    P(f"tool: `{a.tool}` ({subprocess.run([a.tool, '--version'], capture_output=True, text=True).stdout.strip()})\n")
    summary = []
    numbers = {}  # (suite, variant) -> (precision %, recall %)
    failed = set()
    for suite in sorted({p["suite"] for p in progs}):
        if a.suite and suite not in a.suite:
            continue
        gtrows, executed, min_req = read_lines(a.gt, suite)
        if a.min_requests is not None:
            min_req = a.min_requests
        min_req = min_req or 0
        # ---- run the tool once per distinct (dir, files, flags)
        accesses = collections.defaultdict(list)  # (file, line) -> [access]
        span_acc = collections.defaultdict(list)  # the same over each access's statement lines
        done = set()
        errors = []
        kernels = 0
        for p in progs:
            if p["suite"] != suite:
                continue
            flags, key = tool_run_key(p, byname)
            if key in done:
                continue
            done.add(key)
            jp = os.path.join(a.json_dir, f"{p['name']}.json")
            d, err = run_tool(a.tool, p, flags, jp, a.reuse_json)
            if d is None:
                errors.append(f"{p['name']}: tool failed: {err}")
                failed.add(suite)
                continue
            for f in d["files"]:
                ek = [e for e in f["errors"] if e["in_kernel"]]
                if f["fatal_error"] or ek:
                    errors.append(f"{p['name']}: {f['file']}: {f['fatal_error'] or ''} "
                                  f"{len(ek)} compile error(s) in kernels, e.g. {ek[0]['message'] if ek else ''}")
            for k in d["kernels"]:
                kernels += 1
                for acc in k["accesses"]:
                    if acc.get("space", "global") != a.space:
                        continue
                    if a.space == "shared":  # wavefronts in the sector columns
                        acc["sectors_per_request"] = acc.get("wavefronts_per_request")
                        acc["ideal_sectors_per_request"] = acc.get("ideal_wavefronts_per_request")
                    fn = norm(acc["file"], p["dir"])
                    if fn is None or acc["line"] is None:
                        continue
                    acc["_prog"] = p["name"]
                    acc["_kernel"] = k["name"]
                    keys = [(fn, acc["line"])]
                    if a.frames == "all":
                        # also every call site of its call chain, as ncu lists an
                        # inlined instruction under each frame (lines.py --frames all)
                        for c in acc.get("call_chain") or []:
                            fc = norm(c["file"], p["dir"]) if c.get("file") else None
                            if fc is not None and c.get("line") is not None:
                                keys.append((fc, c["line"]))
                    for key in dict.fromkeys(keys):
                        accesses[key].append(acc)
                    # the statement spans, for the "statement" columns
                    frames = [(acc["file"], acc["line"], acc.get("column"))]
                    if a.frames == "all":
                        frames += [(c["file"], c["line"], c.get("column")) for c in acc.get("call_chain") or []
                                   if c.get("file") and c.get("line") is not None]
                    for (ff, fl, fcol) in frames:
                        fk = norm(ff, p["dir"])
                        if fk is None:
                            continue
                        for l2 in statement_lines(os.path.join(CARRY, fk), fl, fcol):
                            span_acc[(fk, l2)].append(acc)

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
        def ran(key, lst):
            # A measured line is judged by the predictions of the kernels that
            # executed it (the table's kernels column): a finding of a kernel
            # whose program did not profile (llm.c's layernorm_backward_kernel10,
            # ncu rc 9) on a header line another kernel measured says nothing.
            names = kernels_of(gtrows.get(key))
            if not names:
                return lst
            return [x for x in lst if x.get("_kernel") in names]

        for variant in ("all", "significant"):
            F = {k for k, lst in accesses.items()
                 if any(x["finding"] is not None and (variant == "all" or significant(x, a.ratio))
                        for x in ran(k, lst))}
            tp = F & W
            fm = F & M
            near = lambda k, S: any((k[0], k[1] + d) in S for d in (-1, 0, 1))
            tp_n = {k for k in fm | {k for k in F if near(k, M)} if near(k, W)}
            fm_n = {k for k in F if near(k, M)}
            hit_n = {k for k in W if near(k, F)}
            Fs = {k for k, lst in span_acc.items()
                  if any(x["finding"] is not None and (variant == "all" or significant(x, a.ratio))
                         for x in ran(k, lst))}
            tp_s, fm_s = Fs & W, Fs & M
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
            P(f"| precision, statement | {pct(len(tp_s), len(fm_s))} |")
            P(f"| recall, statement | {pct(len(tp_s), len(W))} |")
            P("")
            numbers[(suite, variant)] = (100.0 * len(tp) / len(fm) if fm else 100.0,
                                         100.0 * len(tp) / len(W) if W else 100.0)
            numbers[(suite, variant + "-stmt")] = (100.0 * len(tp_s) / len(fm_s) if fm_s else 100.0,
                                                   100.0 * len(tp_s) / len(W) if W else 100.0)
            summary.append((suite, variant, len(W), len(fm), len(tp), len(fm - W), len(W - F),
                            pct(len(tp), len(fm)), pct(len(tp), len(W)), pct(len(tp_n), len(fm_n)),
                            pct(len(hit_n), len(W)), pct(len(tp_s), len(fm_s)), pct(len(tp_s), len(W))))
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
                  + (f"; finding on neighbouring line {'; '.join(nb)}" if nb else "")
                  + ("; flagged through its statement's span (a multi-line statement)" if k in Fs else ""))
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
            "precision +-1", "recall +-1", "precision stmt", "recall stmt"]
    tab = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    tab += ["| " + " | ".join(str(x) for x in s[:2] + (s[2],) + s[3:]) + " |" for s in summary]
    text = "\n".join(["# Line-level comparison\n", "\n".join(tab), ""] + report) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    bad = []
    for req in a.require:
        suite, variant, mp, mr = req.split(":")
        if suite in failed:
            bad.append(f"{suite}: the tool failed on a program")
        if (suite, variant) not in numbers:
            bad.append(f"{suite} {variant}: not computed")
            continue
        pr, rc = numbers[(suite, variant)]
        # the printed numbers are rounded to 0.1%; compare the same way
        if round(pr, 1) < float(mp) or round(rc, 1) < float(mr):
            bad.append(f"{suite} {variant}: precision {pr:.1f}% recall {rc:.1f}% "
                       f"(required {float(mp):g}% / {float(mr):g}%)")
        else:
            print(f"ok: {suite} {variant}: precision {pr:.1f}% >= {float(mp):g}%, recall {rc:.1f}% >= {float(mr):g}%",
                  file=sys.stderr)
    for b in bad:
        print(f"FAIL: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
