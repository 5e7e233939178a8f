#!/usr/bin/env python3
"""Per-source-line ground truth from the Nsight Compute source-page CSVs.

    python3 scripts/gpu-groundtruth/lines.py GROUNDTRUTH.tar.gz|DIR [--carry .gt-carry]
            [--programs CARRY/programs.tsv] [--out docs/groundtruth] [--ratio 1.25]
            [--min-requests 16] [--instructions]

Reads csv/NAME.csv (the export of `ncu --page source --print-source cuda,sass
--csv --print-kernel-base function`), one per program of programs.tsv, and
writes OUT/lines-SUITE.tsv: one row per (file, line) that has at least one
executed global-memory instruction, plus OUT/executed-SUITE.tsv, the lines
with any executed instruction (used to tell "not executed" from "executed,
no global access here").

Per line, over its SASS instructions (deduplicated by kernel block and
Address), summed over all profiled kernels and programs:
  requests = Instructions Executed of global loads/stores/atomics
  sectors  = L2 Theoretical Sectors Global
  ideal    = L2 Theoretical Sectors Global Ideal
A line is WASTEFUL when sectors > ratio * ideal and requests >= min-requests (default 16).
Files are named relative to the carried directory (--carry: .gt-carry/ of
prepare.sh, .gt-carry-modern/ of prepare-modern.sh; e.g.
polybench/CUDA/.../gemm.cu); instructions attributed to files outside it
(CUDA headers: atomics, __ldg) are counted in the summary but not in the table.
Global memory here is what ncu's Address Space column calls Global, plus the
global reductions and atomics; cp.async copies (LDGSTS, "Global,Shared") only
with --async-copies.
--line-table DIR|TAR (nvdisasm -g -gi listings of the profiled binaries)
attributes each instruction to the frames of its inline chain instead of
ncu's listing (linetable.py says why; the half types' operators in
cuda_fp16.hpp count at their call sites, --header-operands).
--instructions also writes OUT/instructions-SUITE.tsv: every executed
global-memory instruction (program, kernel, file, line, address, opcode,
requests, sectors, ideal), the raw data the line table sums.
"""
import argparse
import collections
import csv
import io
import os
import re
import shlex
import sys
import tarfile

csv.field_size_limit(1 << 30)


def num(s):
    if s is None:
        return 0.0
    s = s.strip().replace(",", "")
    if s in ("", "-"):
        return 0.0
    try:
        return float(s)
    except ValueError:
        return 0.0


CARRY_MARK = ".gt-carry/"
FRAMES = "first"
ASYNC_COPIES = False
SHARED = False  # --shared: shared-memory wavefronts instead of global sectors
SEC_COL, IDE_COL = "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal"
TABLE = None  # linetable.LineTable (--line-table)
HEADER_OPERANDS = re.compile(r"cuda_(fp16|bf16)\.hpp$")
TABLE_STATS = collections.Counter()


def norm_path(path, prog_dir):
    """Path relative to the carried directory, or None when outside it."""
    if not path or not path.strip():
        return None  # a kernel without line information (a library's)
    p = path.replace("\\", "/")
    i = p.find(CARRY_MARK)
    if i >= 0:
        return os.path.normpath(p[i + len(CARRY_MARK):])
    if not p.startswith("/"):
        return os.path.normpath(os.path.join(prog_dir, p))
    return None


def read_programs(path):
    progs = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            c += [""] * (7 - len(c))
            # column 7 (optional): the tool's own arguments, e.g. --param N=4096
            progs.append(dict(suite=c[0], name=c[1], dir=c[2], nvcc=c[3], run=c[4], lint=c[5].split(),
                              lint_args=shlex.split(c[6])))
    return progs


def is_global_mem(row, col):
    space = row[col["Address Space"]] if "Address Space" in col else ""
    if SHARED:
        # LDS/STS/ATOMS (not cp.async's shared side, "Global,Shared", nor
        # ldmatrix, which the tool does not predict)
        src = row[col["SASS"]].strip() if "SASS" in col else ""
        return space.strip() == "Shared" and "LDSM" not in src
    src = row[col["SASS"]].strip() if "SASS" in col else ""
    op = src.split()[0] if src else ""
    if op.startswith("@"):  # predicate
        op = src.split()[1] if len(src.split()) > 1 else ""
    if space.strip() == "Global":
        return True
    if ASYNC_COPIES and space.strip() == "Global,Shared":
        # cp.async (LDGSTS): a global load and a shared store in one
        # instruction; its L2 sectors columns count the global side
        return True
    # global reductions/atomics (REDG, RED.E.ADD, ATOMG, ATOM.E); not REDUX
    # (a warp reduction) nor ATOMS (shared memory)
    return re.match(r"^(RED|REDG|ATOM|ATOMG)(\.|$)", op) is not None


def record(prog, func, f, line, addr, opcode, opn, req, sec, ide, acc, instr):
    """Adds one executed global-memory instruction to the line (f, line)."""
    if instr is not None and req > 0:
        instr.append((prog["suite"], prog["name"], func, f, line, addr, opcode, int(req), int(sec), int(ide)))
    a = acc[(prog["suite"], f, line)]
    a["requests"] += req
    a["sectors"] += sec
    a["ideal"] += ide
    a["ninstr"] += 1
    if req > 0:
        a["nexec"] += 1
    kind = "atom" if re.match(r"^(RED|REDG|ATOM|ATOMG)(\.|$)", opcode) else \
           "st" if (opn.lower().startswith("st") or opcode.startswith("ST")) else "ld"
    a[kind + "_requests"] += req
    a[kind + "_sectors"] += sec
    a[kind + "_ideal"] += ide
    a["ops"].add(opcode.split(".")[0] + ("." + opcode.split(".")[-1] if opcode.split(".")[-1].isdigit() else ""))
    a["kernels"].add(func)
    a["programs"].add(prog["name"])


def flush_launch(prog, func, launch, acc, executed, other, instr):
    """--line-table: one profiled launch's instructions (address -> what ncu
    listed), each counted once, at the in-carry frames of its inline chain
    (all of them, or the innermost with --frames first). An instruction whose
    innermost frame is outside the carried directory counts only when that
    file matches HEADER_OPERANDS (the half types' operators, which read and
    write the suite's own operand); the rest stays outside, as without the
    table. Without a chain (no calibration, no line information) ncu's own
    listing is used."""
    cal = TABLE.calibrate(func, {a: v["text"] for a, v in launch.items()})
    TABLE_STATS["launches"] += 1
    TABLE_STATS["calibrated" if cal else "uncalibrated"] += 1
    for addr, v in launch.items():
        if v["mem"] is None:
            continue
        req, sec, ide, opcode, opn = v["mem"]
        chain = TABLE.chain(cal[0], int(addr, 16) - cal[1]) if cal and re.fullmatch(r"(0x)?[0-9a-fA-F]+", addr) else None
        if chain:
            inner = norm_path(chain[0][0], prog["dir"])
            frames = [(norm_path(cf, prog["dir"]), cl) for cf, cl in chain]
            frames = list(dict.fromkeys((cf, cl) for cf, cl in frames if cf is not None))
            if inner is None and not HEADER_OPERANDS.search(chain[0][0]):
                frames = []
            if not frames:
                other[prog["suite"]][os.path.basename(chain[0][0])] += req
                continue
            if frames != v["ncu"] and req > 0:
                TABLE_STATS["instructions moved"] += 1
            TABLE_STATS["instructions"] += 1
        else:
            frames = v["ncu"]
            TABLE_STATS["instructions without chain"] += 1
            if not frames:
                other[prog["suite"]][os.path.basename(v["file"])] += req
                continue
        if FRAMES == "first":
            frames = frames[:1]
        for f, line in frames:
            if req > 0:
                executed[(prog["suite"], f)].add(line)
            record(prog, func, f, line, addr, opcode, opn, req, sec, ide, acc, instr)


def parse_csv(text, prog, acc, executed, other, srctext, instr=None, nocounters=None):
    nocounters = set() if nocounters is None else nocounters
    short = [0]
    rows = csv.reader(io.StringIO(text))
    cur_file = None
    func = None
    col = None
    cur_line = None
    seen = set()
    block = 0
    # --line-table: the instructions of the launch being read. ncu prints a
    # launch as one block per source file, in ascending path order; a block
    # of another kernel, or whose path does not sort after the last, starts
    # the next launch.
    launch, lfunc, lpath = {}, None, None
    for row in rows:
        if not row:
            continue
        if row[0] == "File Path":
            cur_file = row[1] if len(row) > 1 else ""
            block += 1
            col = None
            continue
        if row[0].startswith("==WARNING=="):
            # e.g. "No lineinfo available to show CUDA-C source related to
            # 'KERNEL'" (cuBLAS kernels): nothing of that kernel follows
            col = None
            cur_line = None
            continue
        if row[0] == "Function Name":
            func = row[1] if len(row) > 1 else ""
            if TABLE is not None:
                if func != lfunc or lpath is None or (cur_file or "") <= lpath:
                    if launch:
                        flush_launch(prog, lfunc, launch, acc, executed, other, instr)
                    launch, lfunc = {}, func
                lpath = cur_file or ""
            # a new kernel: no source table until its "Line No" header (a
            # library kernel without -lineinfo may have none)
            col = None
            cur_line = None
            continue
        if row[0] == "Line No":
            # two "Source" columns: CUDA source text, then SASS text
            col = {}
            nsrc = 0
            for i, h in enumerate(row):
                if h == "Source":
                    col["CUDA" if nsrc == 0 else "SASS"] = i
                    nsrc += 1
                else:
                    col.setdefault(h, i)
            if "Instructions Executed" not in col:
                # a result without the SourceCounters metrics (its launch
                # failed under ncu): only warp-state columns, nothing to count
                nocounters.add(func)
                col = None
            continue
        if col is None:
            continue
        if len(row) <= max(col.values()):
            short[0] += 1  # a row cut short (seen in library kernels' SASS)
            continue
        addr = row[col["Address"]]
        if row[0] != "":
            # a source line
            cur_line = int(row[0])
            f = norm_path(cur_file, prog["dir"])
            if f is not None:
                srctext.setdefault((f, cur_line), row[col["CUDA"]].strip())
                if num(row[col.get("Instructions Executed", -1)] if "Instructions Executed" in col else "0") > 0:
                    executed[(prog["suite"], f)].add(cur_line)
            continue
        if cur_line is None or addr in ("", "-"):
            continue
        if TABLE is not None:
            v = launch.get(addr)
            if v is None:
                v = launch[addr] = {"text": row[col["SASS"]], "mem": None, "ncu": [], "file": cur_file}
                if is_global_mem(row, col):
                    sass = row[col["SASS"]].strip().split()
                    opcode = sass[0] if sass else "?"
                    if opcode.startswith("@") and len(sass) > 1:
                        opcode = sass[1]
                    v["mem"] = (num(row[col["Instructions Executed"]]),
                                num(row[col[SEC_COL]]) if SEC_COL in col else 0.0,
                                num(row[col[IDE_COL]]) if IDE_COL in col else 0.0,
                                opcode,
                                row[col["Access Operation"]].strip() if "Access Operation" in col else "")
            f = norm_path(cur_file, prog["dir"])
            if f is not None and (f, cur_line) not in v["ncu"]:
                v["ncu"].append((f, cur_line))
            continue
        # "first": an instruction counts once per file view, at the first
        # (lowest) line that lists it; "all": at every line of that file
        # that lists it (ncu lists an inlined instruction under each frame of
        # its inline chain: the helper's line and the call site's)
        key = (block, addr) if FRAMES == "first" else (block, addr, cur_line)
        if key in seen:
            continue
        seen.add(key)
        if not is_global_mem(row, col):
            continue
        req = num(row[col["Instructions Executed"]])
        sec = num(row[col[SEC_COL]]) if SEC_COL in col else 0.0
        ide = num(row[col[IDE_COL]]) if IDE_COL in col else 0.0
        opn = row[col["Access Operation"]].strip() if "Access Operation" in col else ""
        sass = row[col["SASS"]].strip().split()
        opcode = sass[0] if sass else "?"
        if opcode.startswith("@") and len(sass) > 1:
            opcode = sass[1]
        f = norm_path(cur_file, prog["dir"])
        if f is None:
            other[prog["suite"]][os.path.basename(cur_file)] += req
            continue
        record(prog, func, f, cur_line, addr, opcode, opn, req, sec, ide, acc, instr)
    if TABLE is not None and launch:
        flush_launch(prog, lfunc, launch, acc, executed, other, instr)
    return short[0]


def source_text(srctext, carry, file, line):
    """ncu's copy of the line, else the carried file's (a call site that ncu
    listed no instruction under, --line-table)."""
    if (file, line) not in srctext:
        try:
            with open(os.path.join(carry, file), errors="replace") as f:
                lines = f.read().split("\n")
            srctext[(file, line)] = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        except OSError:
            srctext[(file, line)] = ""
    return srctext[(file, line)]


def load_csvs(src):
    """Yields (program name, text)."""
    if os.path.isdir(src):
        d = os.path.join(src, "csv") if os.path.isdir(os.path.join(src, "csv")) else src
        for fn in sorted(os.listdir(d)):
            if fn.endswith(".csv"):
                with open(os.path.join(d, fn), errors="replace") as f:
                    yield fn[:-4], f.read()
    else:
        with tarfile.open(src) as t:
            for m in t.getmembers():
                if m.isfile() and m.name.endswith(".csv") and "/csv/" in "/" + m.name:
                    yield os.path.basename(m.name)[:-4], t.extractfile(m).read().decode("utf-8", "replace")


def new_acc():
    d = collections.defaultdict(float)
    d["ops"] = set()
    d["kernels"] = set()
    d["programs"] = set()
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("source", help="groundtruth.tar.gz from device-run.sh, or a directory of CSVs")
    ap.add_argument("--carry", default=".gt-carry",
                    help="the directory prepare.sh (.gt-carry) or prepare-modern.sh (.gt-carry-modern) filled")
    ap.add_argument("--programs", default=None, help="default: CARRY/programs.tsv")
    ap.add_argument("--instructions", action="store_true", help="also write OUT/instructions-SUITE.tsv")
    ap.add_argument("--frames", choices=("first", "all"), default="first",
                    help="first (default, the PolyBench/cuda-samples tables): an instruction counts at the first "
                         "line of a file that lists it; all: at every line of its inline chain (call sites too)")
    ap.add_argument("--async-copies", action="store_true",
                    help="also count cp.async copies (SASS LDGSTS, address space 'Global,Shared'), which the "
                         "default, as in every table before the half-precision suites, leaves out")
    ap.add_argument("--out", default=os.path.join(root, "docs", "groundtruth"))
    ap.add_argument("--ratio", type=float, default=1.25)
    ap.add_argument("--min-requests", type=float, default=16)
    ap.add_argument("--line-table", default=None,
                    help="a directory or tar.gz of `nvdisasm -c -g -gi` listings (*.sass) of the profiled binaries: "
                         "each instruction counts at the frames of its inline chain (linetable.py) instead of where "
                         "ncu's source page lists it")
    ap.add_argument("--header-operands", default=r"cuda_(fp16|bf16)\.hpp$",
                    help="with --line-table: headers (regex on the path) whose inlined instructions count at their "
                         "call sites in the carried directory (default: the half types' operators, %(default)s)")
    ap.add_argument("--shared", action="store_true",
                    help="shared memory instead of global (issue 27): per line, shared-memory instructions "
                         "(LDS, STS, ATOMS) with their L1 Wavefronts Shared and its ideal in the sectors and "
                         "ideal columns; writes lines-SUITE-shared.tsv and executed-SUITE-shared.tsv")
    a = ap.parse_args()
    global CARRY_MARK, FRAMES, ASYNC_COPIES, TABLE, HEADER_OPERANDS, SHARED, SEC_COL, IDE_COL
    SHARED = a.shared
    if SHARED:
        SEC_COL, IDE_COL = "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"
    FRAMES = a.frames
    ASYNC_COPIES = a.async_copies
    if a.line_table:
        from linetable import LineTable
        TABLE = LineTable(a.line_table)
        HEADER_OPERANDS = re.compile(a.header_operands)
    carry = a.carry if os.path.isabs(a.carry) else os.path.join(root, a.carry)
    CARRY_MARK = os.path.basename(os.path.normpath(carry)) + "/"
    if a.programs is None:
        a.programs = os.path.join(carry, "programs.tsv")

    progs = {p["name"]: p for p in read_programs(a.programs)}
    instr = [] if a.instructions else None
    acc = collections.defaultdict(new_acc)
    executed = collections.defaultdict(set)
    other = collections.defaultdict(collections.Counter)
    srctext = {}
    measured = collections.defaultdict(list)
    for name, text in load_csvs(a.source):
        if name not in progs:
            print(f"warning: {name}.csv is not in {a.programs}", file=sys.stderr)
            continue
        nc = set()
        nshort = parse_csv(text, progs[name], acc, executed, other, srctext, instr, nc)
        if nshort:
            print(f"warning: {name}: {nshort} rows shorter than their header (skipped)", file=sys.stderr)
        if nc:
            print(f"warning: {name}: no source counters for {', '.join(sorted(nc))} (not counted)", file=sys.stderr)
        measured[progs[name]["suite"]].append(name)

    os.makedirs(a.out, exist_ok=True)
    suites = sorted({k[0] for k in acc} | set(measured))
    cols = ["file", "line", "wasteful", "requests", "sectors", "ideal", "ratio", "sectors_per_req",
            "ideal_per_req", "ld_sectors", "ld_ideal", "st_sectors", "st_ideal", "atom_sectors",
            "atom_ideal", "instructions", "opcodes", "kernels", "programs", "source"]
    for s in suites:
        path = os.path.join(a.out, f"lines-{s}{'-shared' if SHARED else ''}.tsv")
        rows = sorted((k, v) for k, v in acc.items() if k[0] == s)
        nw = 0
        with open(path, "w") as f:
            f.write(f"# ground truth per source line, suite {s}: wasteful = sectors > {a.ratio} * ideal "
                    f"and requests >= {a.min_requests:g}; programs measured: {' '.join(sorted(measured[s]))}\n")
            f.write("\t".join(cols) + "\n")
            for (suite, file, line), v in rows:
                if v["requests"] <= 0:
                    continue
                w = int(v["sectors"] > a.ratio * v["ideal"] and v["requests"] >= a.min_requests)
                nw += w
                r = v["requests"]
                vals = [file, line, w, int(r), int(v["sectors"]), int(v["ideal"]),
                        f"{v['sectors'] / v['ideal']:.3f}" if v["ideal"] else "inf",
                        f"{v['sectors'] / r:.3f}", f"{v['ideal'] / r:.3f}",
                        int(v["ld_sectors"]), int(v["ld_ideal"]), int(v["st_sectors"]), int(v["st_ideal"]),
                        int(v["atom_sectors"]), int(v["atom_ideal"]), int(v["nexec"]),
                        ",".join(sorted(v["ops"])), ",".join(sorted(v["kernels"])),
                        ",".join(sorted(v["programs"])), source_text(srctext, carry, file, line).replace("\t", " ")]
                f.write("\t".join(str(x) for x in vals) + "\n")
        with open(os.path.join(a.out, f"executed-{s}{'-shared' if SHARED else ''}.tsv"), "w") as f:
            f.write("# lines with at least one executed instruction (any kind)\nfile\tlines\n")
            for (suite, file), ls in sorted(executed.items()):
                if suite == s:
                    f.write(f"{file}\t{','.join(str(x) for x in sorted(ls))}\n")
        if instr is not None:
            with open(os.path.join(a.out, f"instructions-{s}.tsv"), "w") as f:
                f.write(f"# executed global-memory instructions, suite {s} (the rows lines-{s}.tsv sums)\n")
                f.write("program\tkernel\tfile\tline\taddress\topcode\trequests\tsectors\tideal\n")
                for r in sorted(x for x in instr if x[0] == s):
                    f.write("\t".join(str(v) for v in r[1:]) + "\n")
        nlines = sum(1 for k, v in acc.items() if k[0] == s and v["requests"] > 0)
        hdr = ", ".join(f"{k}: {int(c)} requests" for k, c in other[s].most_common(5))
        print(f"{s}: {len(measured[s])} programs, {nlines} lines with global accesses, {nw} wasteful -> {path}"
              + (f"; outside .gt-carry: {hdr}" if hdr else ""))
    if TABLE is not None:
        print("line table: " + ", ".join(f"{k} {v}" for k, v in sorted(TABLE_STATS.items())))


if __name__ == "__main__":
    main()
