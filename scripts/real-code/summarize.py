#!/usr/bin/env python3
"""Summarize run-suite.sh output directories as Markdown.

    scripts/real-code/summarize.py [--examples FILE.json] [--coverage] OUTDIR...

Prints, for each OUTDIR (one suite) and for all of them together, a table of:
translation units and how the tool exited, kernels, kernels with no access,
"silently empty" kernels, accesses and how many got a numeric prediction,
classifications, unknown/indirect reasons grouped into patterns, findings by
rule, where block shapes came from, and tool time against a plain clang
parse. --examples writes concrete instances of each kind of miss (file, line,
source lines) for writing test cases. --coverage adds (after the tables
above, which it leaves as they are) the kernels the suite's sources define
that no report lists, why as far as can be told, the tool's error messages
grouped, and the tool/clang time median and max over every file. Python 3
standard library only.

Heuristics (stated again under the tables):
- "silently empty": the tool reports the kernel with zero accesses, the file
  has no compile error inside a kernel, and the kernel's own body (found from
  the JSON location by matching parentheses and braces, comments and string
  literals blanked) contains a subscript `x[`, a `->`, or a unary `*`
  dereference whose base name is not declared `__shared__` or `__constant__`
  (in the body or at file scope) and is not a local array declared in the
  body. Accesses made only in called __device__ functions are not looked at,
  so this undercounts; a subscript of a fixed-size array member of a
  by-value struct (`s.arr[i]`) is counted, so it can overcount.
- "assumed, launched in TU": block_source is "assumed" although the kernel's
  name is followed by `<<<` (optionally with template arguments), or appears
  as an argument of cudaLaunchKernel/cudaLaunchCooperativeKernel, in the
  translation unit or in the file that defines the kernel.
"""
import argparse
import collections
import json
import os
import re
import statistics
import sys

EXIT_NAMES = [
    ("ok", "exit 0/1"),
    ("usage", "usage error (2)"),
    ("parse", "does not compile (3)"),
    ("timeout", "timeout (124)"),
    ("crash", "crash (>=128)"),
    ("other", "other exit"),
]

C_WORDS = set("""int float double char short long unsigned signed bool void const volatile
auto struct class sizeof return if else for while do switch case break continue
static_cast reinterpret_cast const_cast true false nullptr""".split())


def exit_kind(rc):
    if rc in (0, 1):
        return "ok"
    if rc == 2:
        return "usage"
    if rc == 3:
        return "parse"
    if rc == 124:
        return "timeout"
    if rc >= 128 or rc < 0:
        return "crash"
    return "other"


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:] if ln]


def read_meta(path):
    meta = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for ln in f:
                k, _, v = ln.rstrip("\n").partition("\t")
                meta[k] = v
    return meta


# ---------------------------------------------------------------- source scan

_file_cache = {}


def read_source(path):
    if path not in _file_cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                _file_cache[path] = f.read()
        except OSError:
            _file_cache[path] = None
    return _file_cache[path]


_blank_cache = {}


def blank_comments_strings(text):
    """Replace comments and string/char literals by spaces (keeps offsets)."""
    key = id(text)
    if key in _blank_cache and _blank_cache[key][0] is text:
        return _blank_cache[key][1]
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    res = "".join(out)
    _blank_cache[key] = (text, res)
    return res


def line_offsets(text):
    offs = [0]
    for m in re.finditer("\n", text):
        offs.append(m.end())
    return offs


def find_body(clean, start, name):
    """Body span (open brace, close brace) of the function whose name starts
    at offset start; None if that is a declaration without a body."""
    i = clean.find("(", start)
    if i < 0:
        return None
    depth = 0
    n = len(clean)
    while i < n:
        if clean[i] == "(":
            depth += 1
        elif clean[i] == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    # Skip to '{' (definition) or ';' (declaration).
    while i < n and clean[i] not in "{;":
        i += 1
    if i >= n or clean[i] == ";":
        return None
    b = i
    depth = 0
    while i < n:
        if clean[i] == "{":
            depth += 1
        elif clean[i] == "}":
            depth -= 1
            if depth == 0:
                return (b, i)
        i += 1
    return None


def kernel_body(path, line, col, name):
    text = read_source(path)
    if text is None or line is None:
        return None
    clean = blank_comments_strings(text)
    offs = line_offsets(text)
    if line - 1 >= len(offs):
        return None
    start = offs[line - 1] + max((col or 1) - 1, 0)
    span = find_body(clean, start, name)
    if span is None:
        # The JSON location may be a prototype: look for a definition.
        for m in re.finditer(r"\b%s\s*\(" % re.escape(name), clean):
            pre = clean[max(0, m.start() - 400):m.start()]
            if "__global__" not in pre:
                continue
            span = find_body(clean, m.start(), name)
            if span:
                break
    if span is None:
        return None
    return (span[0], span[1], text, clean)


def split_declarators(s):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def qualified_names(clean, qualifier):
    names = set()
    for m in re.finditer(r"\b%s\b([^;{}]*);" % qualifier, clean):
        for piece in split_declarators(m.group(1)):
            piece = piece.split("=")[0]
            ids = re.findall(r"([A-Za-z_]\w*)\s*(?:\[|$)", piece.strip())
            if ids:
                names.add(ids[-1])
    return names


LOCAL_ARRAY = re.compile(r"\b([A-Za-z_]\w*)[\s*&]+([A-Za-z_]\w*)\s*\[[^\]]*\]")
SUBSCRIPT = re.compile(r"([A-Za-z_]\w*)\s*(?:\)\s*)?\[")
ARROW = re.compile(r"([A-Za-z_]\w*)\s*->")
DEREF = re.compile(r"(?:^|[=(,;{}!&|?:+\-<>\[]|\breturn)\s*\*\s*\(*\s*([A-Za-z_]\w*)")


def body_memory_uses(path, line, col, name):
    """Names dereferenced in the kernel body that are not shared/constant/local
    arrays: [(kind, name, line)]; None if the body was not found."""
    kb = kernel_body(path, line, col, name)
    if kb is None:
        return None
    b, e, text, clean = kb
    body = clean[b:e + 1]
    excluded = qualified_names(clean, "__shared__") | qualified_names(clean, "__constant__")
    for m in LOCAL_ARRAY.finditer(body):
        if m.group(1) not in ("return", "else", "case", "goto", "delete", "new"):
            excluded.add(m.group(2))
    excluded |= C_WORDS
    uses = []
    base_line = clean.count("\n", 0, b) + 1

    def add(kind, m, nm):
        if nm in excluded:
            return
        uses.append((kind, nm, base_line + body.count("\n", 0, m.start())))

    for m in SUBSCRIPT.finditer(body):
        nm = m.group(1)
        # `T name[...]` declarations were excluded above; skip `type[`.
        add("[", m, nm)
    for m in ARROW.finditer(body):
        add("->", m, m.group(1))
    for m in DEREF.finditer(body):
        add("*", m, m.group(1))
    return uses


CALL = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^;<>()]*>)?\s*(?:::\s*([A-Za-z_]\w*)\s*)?\(")
NOT_CALLS = C_WORDS | {"__syncthreads", "__syncwarp", "printf", "assert", "__threadfence",
                       "__threadfence_block", "sizeof", "dim3", "min", "max", "make_float2",
                       "make_float3", "make_float4", "make_int2", "make_int4"}


def body_calls(path, line, col, name):
    """Functions called in the kernel body (not builtins/intrinsics)."""
    kb = kernel_body(path, line, col, name)
    if kb is None:
        return []
    b, e, _, clean = kb
    out = []
    for m in CALL.finditer(clean[b:e + 1]):
        nm = m.group(2) or m.group(1)
        if nm in NOT_CALLS or m.group(1) in NOT_CALLS or nm.startswith("__") or nm.startswith("atomic"):
            continue
        out.append((m.group(1) + ("::" + m.group(2) if m.group(2) else "")))
    return out


def launched_in(texts, name):
    pat = re.compile(
        r"\b%s\s*(?:<[^;<>]*(?:<[^;<>]*>[^;<>]*)*>)?\s*<<<|"
        r"\bcudaLaunch(?:Cooperative)?Kernel(?:Ex)?\s*\(\s*(?:\([^)]*\)\s*)?&?\s*%s\b"
        % (re.escape(name), re.escape(name)))
    for path in texts:
        text = read_source(path)
        if text is None:
            continue
        clean = blank_comments_strings(text)
        m = pat.search(clean)
        if m:
            return path, clean.count("\n", 0, m.start()) + 1
    return None


# --------------------------------------------------------------- reasons

def normalize_reason(reason):
    """'prefix: expr' -> ('prefix', expr with identifiers -> ID, numbers -> N)."""
    if reason is None:
        return ("(no reason)", "")
    prefix, sep, rest = reason.partition(": ")
    if not sep:
        return (re.sub(r"'[^']*'", "'X'", reason), "")

    def ident(m):
        w = m.group(0)
        return w if w in C_WORDS else "ID"

    shape = re.sub(r"\b\d+[uUlLfF]*\b", "N", rest)
    shape = re.sub(r"\b[A-Za-z_]\w*\b", ident, shape)
    shape = re.sub(r"\s+", " ", shape).strip()
    return (prefix, shape)


def error_place(err, cuda_path):
    f = err.get("file") or ""
    if cuda_path and f.startswith(cuda_path.rstrip("/") + "/"):
        if "/cub/" in f:
            return "cuda-cub"
        if "/thrust/" in f:
            return "cuda-thrust"
        if "/cooperative_groups" in f:
            return "cuda-cooperative_groups"
        return "cuda-other"
    if f.startswith("/usr/"):
        return "system"
    return "suite"


# --------------------------------------------------------------- collect

def new_stats():
    return {
        "files": 0, "skipped_included": 0,
        "exit": collections.Counter(),
        "clang_failed": 0,
        "files_with_errors": 0,
        "errors_place": collections.Counter(),
        "kernels": 0, "kernels_zero": 0, "kernels_zero_in_kernel_error": 0,
        "silent": 0, "silent_unknown_body": 0, "zero_calls_only": 0,
        "zero_explained": 0,
        "accesses": 0, "numeric": 0,
        "classes": collections.Counter(),
        "unknown": collections.Counter(), "unknown_shape": collections.Counter(),
        "indirect": 0, "indirect_reason": collections.Counter(),
        "rules": collections.Counter(), "findings": 0,
        "block_source": collections.Counter(), "assumed_launched": 0,
        "ratios": [], "tool_s": 0.0, "clang_s": 0.0, "tool_max_s": 0.0,
        "rss_max_kb": 0,
    }


def merge(total, s):
    for k, v in s.items():
        if isinstance(v, collections.Counter):
            total[k].update(v)
        elif isinstance(v, list):
            total[k].extend(v)
        elif k in ("tool_max_s", "rss_max_kb"):
            total[k] = max(total[k], v)
        else:
            total[k] += v


def src_lines(path, line, before=1, after=3):
    text = read_source(path)
    if text is None or not line:
        return []
    lines = text.splitlines()
    lo, hi = max(1, line - before), min(len(lines), line + after)
    return ["%d: %s" % (i, lines[i - 1].rstrip()) for i in range(lo, hi + 1)]


def collect(outdir, examples):
    meta = read_meta(os.path.join(outdir, "meta.tsv"))
    rows = read_tsv(os.path.join(outdir, "results.tsv"))
    suite_dir = meta.get("suite_dir", "")
    cuda_path = meta.get("cuda", "/usr/local/cuda")
    s = new_stats()
    s["skipped_included"] = int(meta.get("skipped_included", 0) or 0)
    suite = meta.get("suite") or (rows[0]["suite"] if rows else os.path.basename(outdir))
    for r in rows:
        s["files"] += 1
        rc = int(r["tool_rc"])
        kind = exit_kind(rc)
        s["exit"][kind] += 1
        tu = os.path.join(suite_dir, r["file"])
        if kind != "ok":
            examples["exit-" + kind].append({
                "suite": suite, "file": tu, "rc": rc,
                "stderr_tail": tail(os.path.join(outdir, "logs", re.sub(r"[^A-Za-z0-9._-]", "_", r["file"]) + ".tool.err")),
            })
        if r["clang_rc"] != "0":
            s["clang_failed"] += 1
        try:
            tw, cw = float(r["tool_wall_s"]), float(r["clang_wall_s"])
            s["tool_s"] += tw
            s["clang_s"] += cw
            s["tool_max_s"] = max(s["tool_max_s"], tw)
            if kind == "ok" and cw > 0:
                s["ratios"].append(tw / cw)
        except ValueError:
            pass
        if r["tool_maxrss_kb"].isdigit():
            s["rss_max_kb"] = max(s["rss_max_kb"], int(r["tool_maxrss_kb"]))
        if not r.get("json"):
            continue
        jp = os.path.join(outdir, r["json"])
        try:
            with open(jp, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        in_kernel_error = False
        errs = [e for fe in doc["files"] for e in fe["errors"]]
        if errs:
            s["files_with_errors"] += 1
        places_seen = set()
        for e in errs:
            in_kernel_error |= bool(e.get("in_kernel"))
            p = error_place(e, cuda_path)
            if p not in places_seen:
                s["errors_place"][p] += 1
                places_seen.add(p)
            if p.startswith("cuda-") or e.get("in_kernel"):
                examples["error-" + p + ("-in-kernel" if e.get("in_kernel") else "")].append({
                    "suite": suite, "tu": tu, "file": e.get("file"), "line": e.get("line"),
                    "message": e["message"], "in_kernel": e.get("in_kernel"),
                    "source": src_lines(e.get("file"), e.get("line"), 1, 1) if e.get("file") else [],
                })
        for k in doc["kernels"]:
            s["kernels"] += 1
            s["block_source"][k["block_source"]] += 1
            accs = k["accesses"]
            kname = k["name"]
            kid = "%s:%s %s" % (k["file"], k["line"], k.get("instantiation") or kname)
            if k["block_source"] == "assumed":
                where = launched_in([tu, k["file"]], kname)
                if where:
                    s["assumed_launched"] += 1
                    examples["block-assumed-but-launched"].append({
                        "suite": suite, "kernel": kid, "launch": "%s:%d" % where,
                        "source": src_lines(where[0], where[1], 0, 0),
                    })
            if not accs:
                s["kernels_zero"] += 1
                if in_kernel_error:
                    s["kernels_zero_in_kernel_error"] += 1
                elif k.get("no_access_reason"):
                    # The tool says why (code that cannot run in this
                    # instance, a body compiled out for the architecture).
                    s["zero_explained"] += 1
                else:
                    uses = body_memory_uses(k["file"], k["line"], k["column"], kname)
                    calls = body_calls(k["file"], k["line"], k["column"], kname)
                    if uses is None:
                        s["silent_unknown_body"] += 1
                    elif not uses and calls:
                        s["zero_calls_only"] += 1
                        examples["zero-accesses-body-only-calls"].append({
                            "suite": suite, "kernel": kid, "calls": calls[:6],
                            "source": src_lines(k["file"], k["line"], 0, 6),
                        })
                    elif uses:
                        s["silent"] += 1
                        examples["silently-empty"].append({
                            "suite": suite, "kernel": kid,
                            "uses": ["%s %s line %d" % u for u in uses[:8]],
                            "source": src_lines(k["file"], uses[0][2], 1, 2),
                        })
            for a in accs:
                s["accesses"] += 1
                cls = a["classification"]
                s["classes"][cls] += 1
                if (a.get("sectors_per_request") is not None or
                        a.get("wavefronts_per_request") is not None):
                    s["numeric"] += 1
                prefix, shape = normalize_reason(a["reason"])
                if cls == "unknown":
                    s["unknown"][prefix] += 1
                    if shape:
                        s["unknown_shape"][prefix + ": " + shape] += 1
                    examples["unknown: " + prefix].append({
                        "suite": suite, "kernel": kid,
                        "access": "%s:%s:%s %s" % (a["file"], a["line"], a["column"], a["expr"]),
                        "reason": a["reason"],
                        "source": src_lines(a["file"], a["line"], 1, 1),
                    })
                elif cls == "indirect":
                    s["indirect"] += 1
                    s["indirect_reason"][prefix] += 1
                if a["finding"]:
                    s["findings"] += 1
                    s["rules"][a["finding"]["rule"]] += 1
    return suite, meta, s


def tail(path, n=3):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()[-n:]
    except OSError:
        return []


# --------------------------------------------------------------- output

def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def quantile(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def fmt_ratio(x):
    return "-" if x is None else "%.2f" % x


def main_table(names, stats):
    cols = names + ["**total**"]
    rows = [
        ("translation units", lambda s: s["files"]),
        ("`.cu` files skipped (#included by another)", lambda s: s["skipped_included"]),
        ("tool exit 0/1", lambda s: s["exit"]["ok"]),
        ("does not compile (exit 3)", lambda s: s["exit"]["parse"]),
        ("usage error (exit 2)", lambda s: s["exit"]["usage"]),
        ("crash (exit >= 128)", lambda s: s["exit"]["crash"]),
        ("timeout (120 s)", lambda s: s["exit"]["timeout"]),
        ("other exit", lambda s: s["exit"]["other"]),
        ("files with compile errors (any, JSON)", lambda s: s["files_with_errors"]),
        ("... errors in CUDA headers (cub/thrust/cg/other)", lambda s: "%d/%d/%d/%d" % (
            s["errors_place"]["cuda-cub"], s["errors_place"]["cuda-thrust"],
            s["errors_place"]["cuda-cooperative_groups"], s["errors_place"]["cuda-other"])),
        ("plain clang parse fails", lambda s: s["clang_failed"]),
        ("kernels (incl. instantiations)", lambda s: s["kernels"]),
        ("kernels with zero accesses", lambda s: s["kernels_zero"]),
        ("... of which silently empty", lambda s: s["silent"]),
        ("... of which explained by the tool (no_access_reason)",
         lambda s: s["zero_explained"]),
        ("... of which body only calls functions", lambda s: s["zero_calls_only"]),
        ("... of which error in kernel", lambda s: s["kernels_zero_in_kernel_error"]),
        ("block: launch-site", lambda s: s["block_source"]["launch-site"]),
        ("block: launch-bounds", lambda s: s["block_source"]["launch-bounds"]),
        ("block: command-line", lambda s: s["block_source"]["command-line"]),
        ("block: assumed", lambda s: s["block_source"]["assumed"]),
        ("... assumed although launched in TU", lambda s: s["assumed_launched"]),
        ("accesses", lambda s: s["accesses"]),
        ("with numeric prediction", lambda s: "%d (%s)" % (s["numeric"], pct(s["numeric"], s["accesses"]))),
        ("coalesced", lambda s: s["classes"]["coalesced"]),
        ("uniform", lambda s: s["classes"]["uniform"]),
        ("misaligned", lambda s: s["classes"]["misaligned"]),
        ("strided", lambda s: s["classes"]["strided"]),
        ("aos", lambda s: s["classes"]["aos"]),
        ("transposed", lambda s: s["classes"]["transposed"]),
        ("indirect", lambda s: s["indirect"]),
        ("unknown", lambda s: s["classes"]["unknown"]),
        ("findings", lambda s: s["findings"]),
        ("tool time total (s)", lambda s: "%.0f" % s["tool_s"]),
        ("clang -fsyntax-only total (s)", lambda s: "%.0f" % s["clang_s"]),
        ("tool/clang median", lambda s: fmt_ratio(quantile(s["ratios"], 0.5))),
        ("tool/clang p90", lambda s: fmt_ratio(quantile(s["ratios"], 0.9))),
        ("tool/clang max", lambda s: fmt_ratio(max(s["ratios"]) if s["ratios"] else None)),
        ("slowest file (s)", lambda s: "%.1f" % s["tool_max_s"]),
        ("peak RSS (MiB)", lambda s: "%.0f" % (s["rss_max_kb"] / 1024.0)),
    ]
    out = ["| | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for label, fn in rows:
        out.append("| %s | %s |" % (label, " | ".join(str(fn(stats[c])) for c in cols)))
    return "\n".join(out)


def counter_table(names, stats, key, title, limit=None):
    cols = names + ["**total**"]
    keys = [k for k, _ in stats["**total**"][key].most_common(limit)]
    if not keys:
        return "%s: none.\n" % title
    out = ["| %s | %s |" % (title, " | ".join(cols)), "|---" * (len(cols) + 1) + "|"]
    for k in keys:
        out.append("| %s | %s |" % (k.replace("|", "\\|"), " | ".join(
            str(stats[c][key][k]) for c in cols)))
    return "\n".join(out)


# --------------------------------------------------------------- coverage

GLOBAL_DEF = re.compile(r"\b__global__\b")
SRC_EXT = (".cu", ".cuh", ".h", ".hpp", ".hxx", ".inl", ".cpp", ".cc")


def defined_kernels(suite_dir, src_root):
    """(path, line, name, is_template) for each __global__ function defined
    (with a body) in the suite's sources under src_root and its include
    directories' files; comments and strings blanked, #if not evaluated."""
    out = []
    for top in src_root:
        for dp, _, fns in os.walk(top):
            for fn in sorted(fns):
                if not fn.endswith(SRC_EXT):
                    continue
                path = os.path.join(dp, fn)
                text = read_source(path)
                if text is None or "__global__" not in text:
                    continue
                clean = blank_comments_strings(text)
                for m in GLOBAL_DEF.finditer(clean):
                    # The name: the identifier before the first '(' after
                    # __global__ (skipping attributes/macros with parentheses
                    # such as __launch_bounds__(...)).
                    j = m.end()
                    name = None
                    while True:
                        k = clean.find("(", j)
                        if k < 0:
                            break
                        ids = re.findall(r"[A-Za-z_]\w*", clean[j:k])
                        if not ids:
                            break
                        cand = ids[-1]
                        if cand.startswith("__launch_bounds__") or cand in (
                                "__launch_bounds__", "__maxnreg__", "__cluster_dims__",
                                "__attribute__", "__declspec", "alignas") or cand.isupper():
                            # skip the parenthesized argument list
                            depth, q = 0, k
                            while q < len(clean):
                                if clean[q] == "(":
                                    depth += 1
                                elif clean[q] == ")":
                                    depth -= 1
                                    if depth == 0:
                                        break
                                q += 1
                            j = q + 1
                            continue
                        name = cand
                        break
                    if not name or name in C_WORDS:
                        continue
                    span = find_body(clean, m.end(), name)
                    if span is None:
                        continue
                    pre = clean[max(0, m.start() - 300):m.start()]
                    # template<...> right before (possibly across lines)
                    is_tmpl = bool(re.search(r"template\s*<[^;{}]*>\s*(?:static\s+|inline\s+|__device__\s+|__host__\s+|[A-Z_]+\s+)*$", pre))
                    line = clean.count("\n", 0, m.start()) + 1
                    out.append((os.path.realpath(path), line, name, is_tmpl))
    return out


INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*["<]([^">]+)[">]', re.M)


def reached_files(tu, inc_dirs, memo):
    """Files a TU reaches through #include lines (regex, #if not evaluated),
    resolved against the includer's directory and the include directories;
    system headers are not followed."""
    seen, todo = set(), [os.path.realpath(tu)]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        if f not in memo:
            text = read_source(f) or ""
            found = []
            for inc in INCLUDE_LINE.findall(text):
                for base in [os.path.dirname(f)] + inc_dirs:
                    c = os.path.join(base, inc)
                    if os.path.isfile(c):
                        found.append(os.path.realpath(c))
                        break
            memo[f] = found
        todo.extend(memo[f])
    return seen


def coverage(outdir):
    meta = read_meta(os.path.join(outdir, "meta.tsv"))
    rows = read_tsv(os.path.join(outdir, "results.tsv"))
    suite_dir = meta.get("suite_dir", "")
    roots = set()
    # The source subtree: common prefix of the translation units, plus the
    # suite's include directories inside the suite.
    tus = [os.path.join(suite_dir, r["file"]) for r in rows]
    if tus:
        roots.add(os.path.commonpath([os.path.dirname(t) for t in tus]))
    for a in meta.get("include_args", "").split():
        if a.startswith("-I"):
            d = a[2:]
            if d.startswith(suite_dir + "/") and "gen-include" not in d:
                roots.add(d)
    # drop roots inside other roots
    roots = set(os.path.normpath(os.path.realpath(r)) for r in roots)
    roots = sorted(r for r in roots if not any(r != o and r.startswith(o + "/") for o in roots))
    defs = defined_kernels(suite_dir, roots)
    inc_dirs = [a[2:] for a in meta.get("include_args", "").split() if a.startswith("-I")]
    memo = {}
    reach_ok, reach_fail = set(), set()
    for r in rows:
        tu = os.path.join(suite_dir, r["file"])
        files = reached_files(tu, inc_dirs, memo)
        (reach_ok if int(r["tool_rc"]) in (0, 1) else reach_fail).update(files)
    # .cu files run-suite.sh's TU filter left out (not built by the suite's
    # default build): kernels only they reach are not counted at all.
    reach_out = set()
    fo = os.path.join(outdir, "filtered-out.txt")
    if os.path.exists(fo):
        with open(fo, encoding="utf-8") as f:
            for ln in f:
                if ln.strip():
                    reach_out.update(reached_files(os.path.join(suite_dir, ln.strip()), inc_dirs, memo))
    reach_out -= reach_ok | reach_fail
    defs = [d for d in defs if d[0] not in reach_out]
    reported = set()
    reported_any_file = set()
    err_files = collections.Counter()
    messages = collections.Counter()
    parse_fail_tus = set()
    ratios_all = []
    for r in rows:
        tu = os.path.realpath(os.path.join(suite_dir, r["file"]))
        if int(r["tool_rc"]) not in (0, 1):
            parse_fail_tus.add(tu)
        try:
            tw, cw = float(r["tool_wall_s"]), float(r["clang_wall_s"])
            if cw > 0:
                ratios_all.append(tw / cw)
        except ValueError:
            pass
        if not r.get("json"):
            continue
        try:
            with open(os.path.join(outdir, r["json"]), encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        for fe in doc["files"]:
            seen = set()
            for e in fe["errors"]:
                ef = os.path.realpath(e.get("file") or "")
                err_files[ef] += 1
                msg = re.sub(r"'[^']*'", "'X'", e["message"])
                if msg not in seen:
                    messages[msg] += 1
                    seen.add(msg)
            if fe.get("fatal_error"):
                messages["fatal: " + re.sub(r"'[^']*'", "'X'", str(fe["fatal_error"]))] += 1
        for k in doc["kernels"]:
            kf = os.path.realpath(k["file"])
            reported.add((kf, k["name"]))
            reported_any_file.add(k["name"])
    missing = []
    for path, line, name, is_tmpl in defs:
        if (path, name) in reported:
            continue
        if path not in reach_ok and path in reach_fail:
            why = "its file is a TU that does not compile"
        elif path not in reach_ok:
            why = "no TU includes it"
        elif err_files.get(path):
            why = "compile errors in its file"
        elif is_tmpl:
            why = "template, no instantiation in any TU"
        else:
            why = "reached, not reported (#if'd out or dropped)"
        missing.append((why, path, line, name))
    return meta, defs, reported, missing, messages, ratios_all


def print_coverage(outdirs):
    print("### Kernels the sources define that no report lists (--coverage)\n")
    print("Found by scanning the suite's source subtree and include directories")
    print("for `__global__` definitions (comments blanked, `#if` not evaluated:")
    print("an upper bound; files reached only from `.cu` files the suite's TU")
    print("filter leaves out are not counted); matched to the reports by file and")
    print("name.\n")
    print("| suite | defined | reported (file+name) | missing | only in TUs that do not compile | no TU includes it | errors in its file | template, not instantiated | reached, not reported | tool/clang median, max (every file) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    details = []
    for d in outdirs:
        meta, defs, reported, missing, messages, ratios = coverage(d)
        c = collections.Counter(w for w, _, _, _ in missing)
        rep_in_defs = sum(1 for p, _, n, _ in defs if (p, n) in reported)
        print("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s, %s |" % (
            meta.get("suite", d), len(defs), rep_in_defs, len(missing),
            c["its file is a TU that does not compile"], c["no TU includes it"],
            c["compile errors in its file"],
            c["template, no instantiation in any TU"],
            c["reached, not reported (#if'd out or dropped)"],
            fmt_ratio(quantile(ratios, 0.5)), fmt_ratio(max(ratios) if ratios else None)))
        details.append((meta, missing, messages))
    print()
    for meta, missing, messages in details:
        sd = meta.get("suite_dir", "") + "/"
        print("#### %s\n" % meta.get("suite", "?"))
        if messages:
            print("Compile errors in the reports (files with each message, top 12):\n")
            for msg, n in messages.most_common(12):
                print("- %d x %s" % (n, msg.replace(sd, "")))
            print()
        if missing:
            print("Missing kernels (first 25):\n")
            for why, path, line, name in sorted(missing, key=lambda m: (m[0] != "reached, not reported (#if'd out or dropped)", m))[:25]:
                print("- `%s` %s:%d: %s" % (name, path.replace(os.path.realpath(sd) + "/", ""), line, why))
            print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdirs", nargs="+")
    ap.add_argument("--examples", help="write examples of each kind of miss (JSON)")
    ap.add_argument("--max-examples", type=int, default=40)
    ap.add_argument("--coverage", action="store_true",
                    help="also list kernels the sources define that no report lists")
    args = ap.parse_args()

    examples = collections.defaultdict(list)
    names, stats, metas = [], {}, {}
    total = new_stats()
    for d in args.outdirs:
        suite, meta, s = collect(d, examples)
        names.append(suite)
        stats[suite] = s
        metas[suite] = meta
        merge(total, s)
    stats["**total**"] = total

    print("### Totals\n")
    print(main_table(names, stats))
    print()
    print("### Unknown accesses by reason\n")
    print(counter_table(names, stats, "unknown", "reason"))
    print()
    print("### Unknown accesses by reason and expression shape (top 25; identifiers -> ID, numbers -> N)\n")
    print(counter_table(names, stats, "unknown_shape", "reason: shape", 25))
    print()
    print("### Indirect accesses by reason\n")
    print(counter_table(names, stats, "indirect_reason", "reason"))
    print()
    print("### Findings by rule\n")
    print(counter_table(names, stats, "rules", "rule"))
    print()
    print("### Suites\n")
    print("| suite | commit | files | include dirs |")
    print("|---|---|---|---|")
    for n in names:
        m = metas[n]
        print("| %s | %s | %s TUs | `%s` |" % (
            n, m.get("commit", "NA"), m.get("translation_units", "?"),
            m.get("include_args", "").replace(m.get("suite_dir", "") + "/", "")))
    print()
    m0 = metas[names[0]] if names else {}
    print("Tool: %s (repo commit %s), %s; arch %s; %s jobs; timeout %s s; run %s." % (
        m0.get("tool_version", "?"), m0.get("tool_repo_commit", "?"), m0.get("clang", "?"),
        m0.get("arch", "?"), m0.get("jobs", "?"), m0.get("timeout", "?"), m0.get("date", "?")))
    print()
    print(HEURISTICS)
    if args.coverage:
        print()
        print_coverage(args.outdirs)

    if args.examples:
        ex = {k: v[:args.max_examples] for k, v in sorted(examples.items())}
        counts = {k: len(v) for k, v in sorted(examples.items())}
        with open(args.examples, "w", encoding="utf-8") as f:
            json.dump({"counts": counts, "examples": ex}, f, indent=1)
            f.write("\n")


HEURISTICS = """Heuristics:
- *silently empty*: zero accesses reported, no compile error inside a kernel in
  the file, no `no_access_reason` from the tool (sixteenth session), and the kernel's own body (located from the JSON `line`/`column`,
  parentheses and braces matched with comments and literals blanked) contains
  `name[`, `name->` or a unary `*name` whose `name` is not declared
  `__shared__`/`__constant__` (file or body) nor a local array of the body.
  Accesses only inside called `__device__` functions are not seen (undercount);
  a fixed-size array member of a by-value struct (`s.a[i]`) is counted
  (overcount). Zero-access kernels without such a use whose body calls a
  non-builtin function (`f(`, `C<T>::f(`) are counted as *body only calls
  functions*: candidates for accesses missed in callees.
- *assumed although launched in TU*: `block_source` is `assumed` but the name
  is followed by `<<<` (template arguments allowed) or is passed to
  `cudaLaunchKernel`/`cudaLaunchCooperativeKernel` in the translation unit or
  the kernel's file.
- tool/clang: wall time of `coalesce-lint` over wall time of
  `clang++-22 -x cuda --cuda-device-only -fsyntax-only -w` with the same
  arguments, per file, files where the tool exited 0/1.
- unknown reasons are grouped on the text before the first `: `; the shape
  table replaces identifiers by `ID` and numbers by `N` in the rest."""


if __name__ == "__main__":
    sys.exit(main())
