#!/usr/bin/env python3
"""Checks analysis/lib/driver/cuda-compat/coalesce_cuda_compat.h against the
CUDA toolkit's own declarations.

usage: check_cuda_compat.py CLANGXX [options]

  CLANGXX             the clang++ to parse with (e.g. /usr/lib/llvm-22/bin/clang++)
  --cuda-path DIR     CUDA toolkit (default: $CUDA_PATH, else /usr/local/cuda)
  --header FILE       the compat header (default: the one in this checkout)
  --arch sm_NN        GPU architecture to parse for (default: sm_90)
  --survey            instead of the cache-hint intrinsics, probe every device
                      function the toolkit's implicitly included device headers
                      declare (sm_*_intrinsics.h, crt/sm_*_rt.h, atomics,
                      crt/device_functions.h, cuda_fp16.h, cuda_bf16.h) and
                      list the ones clang lacks without and with the header.
                      Informational: exits 0 unless the header adds errors.
  --keep DIR          write the generated .cu files and clang's output there
  -v, --verbose       print every probe, not only the failing ones

What the default run does:
  1. extracts, from the toolkit headers (sm_32_intrinsics.h, cuda_fp16.h,
     cuda_bf16.h and every other top-level or crt/ header that declares one),
     each declaration of __ldg __ldcg __ldca __ldcs __ldlu __ldcv __stwb
     __stcg __stcs __stwt that the preprocessor keeps for a device parse of
     --arch (its #if/#ifdef conditions are evaluated here), and the
     min/max/umin/umax/llmin/llmax/ullmin/ullmax of crt/math_functions.hpp
     (host and device callable in nvcc: probed from both kinds of caller);
  2. writes one .cu with, per declaration, a __device__ function whose
     parameters have exactly the declaration's parameter types, which calls
     the intrinsic with them and also names the exact overload
     (static_cast<R (*)(P...)>(&name)), plus a few calls in the shapes user
     code writes (non-const pointers, literals);
  3. parses it with CLANGXX as CUDA, device side and host side, WITHOUT the
     header: the probes that fail are what clang lacks (reported; the run
     fails if none fails while the header's guard says this clang needs it,
     since then the test could not catch a missing overload);
  4. parses it WITH -include of the header: every probe must resolve, and no
     error may come from anywhere else (a redefinition or an ambiguity in the
     header, or in a call to an overload clang already had);
  5. parses the header alone, included twice, into a host C++ file and a CUDA
     file, which must be clean (-Wall -Wextra: no warnings from it either).
Exits 1 (listing each failure) if anything in 4 or 5 fails. The last line is
"N passed, M failed".

Python 3 standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_HEADER = os.path.join(REPO, "analysis", "lib", "driver", "cuda-compat",
                              "coalesce_cuda_compat.h")

CACHE_HINT = ["__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv",
              "__stwb", "__stcg", "__stcs", "__stwt"]

MINMAX = ["min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"]

# Headers nvcc's cuda_runtime.h pulls into every device compilation (and the
# two half-precision headers user code includes); --survey probes these.
SURVEY_HEADERS = [
    "crt/device_functions.h", "crt/device_double_functions.h",
    "device_atomic_functions.h", "sm_20_atomic_functions.h",
    "sm_32_atomic_functions.h", "sm_35_atomic_functions.h",
    "sm_60_atomic_functions.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h",
    "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_61_intrinsics.h",
    "crt/sm_70_rt.h", "crt/sm_80_rt.h", "crt/sm_90_rt.h", "crt/sm_100_rt.h",
    "crt/math_functions.h", "crt/math_functions.hpp",
    "cuda_fp16.h", "cuda_bf16.h",
]

TYPE_WORDS = {"int", "long", "short", "char", "unsigned", "signed", "float",
              "double", "void", "bool", "const", "volatile"}


# --------------------------------------------------------------------------
# A small preprocessor: evaluates #if/#ifdef/#elif with a fixed environment
# (what nvcc -arch=sm_NN defines for the device side), tracking the file's own
# #define/#undef. Only conditionals matter; #include is not followed.
# --------------------------------------------------------------------------
class Cond:
    def __init__(self, env):
        self.env = dict(env)

    def value(self, expr):
        e = expr
        e = re.sub(r"//.*", "", e)
        e = re.sub(r"/\*.*?\*/", "", e)
        e = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)",
                   lambda m: "1" if m.group(1) in self.env else "0", e)
        e = re.sub(r"\bdefined\s+(\w+)",
                   lambda m: "1" if m.group(1) in self.env else "0", e)
        e = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", e)

        def ident(m):
            name = m.group(0)
            v = self.env.get(name)
            if v is None:
                return "0"
            return str(v) if re.fullmatch(r"-?\d+", str(v)) else "1"
        e = re.sub(r"\b[A-Za-z_]\w*\b", ident, e)
        e = e.replace("&&", " and ").replace("||", " or ")
        e = re.sub(r"!(?!=)", " not ", e)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return bool(eval(e, {"__builtins__": {}}, {}))
        except Exception:
            return True  # unknown: keep the text (errs towards probing more)


def expand(text, macros, depth=4):
    """Expands object-like macros of the file (its DECL macros) in text."""
    for _ in range(depth):
        new = re.sub(r"\b[A-Za-z_]\w*\b",
                     lambda m: macros.get(m.group(0), m.group(0)), text)
        if new == text:
            break
        text = new
    return text


def active_text(path, env, macros=None):
    """The file's text with inactive preprocessor branches and all comments
    removed (directive lines blanked, so line numbers are kept)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        src = f.read()
    # strip comments, keeping newlines
    src = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src,
                 flags=re.S)
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r"\\\n", " ", src)
    cond = Cond(env)
    stack = []  # (this branch active, some branch taken, parent active)
    out = []
    for line in src.split("\n"):
        m = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        active = all(s[0] for s in stack)
        if m:
            d, rest = m.group(1), m.group(2).strip()
            if d in ("if", "ifdef", "ifndef"):
                if d == "if":
                    v = cond.value(rest)
                elif d == "ifdef":
                    v = rest.split()[0] in cond.env
                else:
                    v = rest.split()[0] not in cond.env
                stack.append([active and v, v, active])
            elif d == "elif" and stack:
                s = stack[-1]
                v = (not s[1]) and cond.value(rest)
                s[0] = s[2] and v
                s[1] = s[1] or v
            elif d == "else" and stack:
                s = stack[-1]
                s[0] = s[2] and not s[1]
                s[1] = True
            elif d == "endif" and stack:
                stack.pop()
            elif d == "define" and active:
                dm = re.match(r"(\w+)(\([^)]*\))?\s*(.*)", rest)
                if dm:
                    cond.env[dm.group(1)] = (dm.group(3).strip()
                                             if not dm.group(2) else "1") or "1"
                    if macros is not None and not dm.group(2):
                        macros[dm.group(1)] = dm.group(3).strip()
            elif d == "undef" and active:
                cond.env.pop(rest.split()[0] if rest else "", None)
            out.append("")
            continue
        out.append(line if active else "")
    return "\n".join(out)


# A declaration: <decl macros/keywords> <return type> <name>(<params>) then
# ';', '{', or a __DEF_IF_HOST-like macro.
DECL_RE = re.compile(
    r"(?P<pre>(?:(?:\b__\w+__|\b__[A-Z][A-Z0-9_]*|\bstatic|\binline|"
    r"\bextern|\"C\"|\b_CRTIMP)\s+)+)"
    r"(?P<ret>(?:(?:const|unsigned|signed|long|short|struct)\s+)*[A-Za-z_]\w*"
    r"(?:\s+(?:long|int|char|short|double))*\s*\**)\s*"
    r"\b(?P<name>[A-Za-z_]\w*)\s*"
    r"\((?P<params>[^()]*)\)\s*(?P<after>;|\{|__DEF_IF_HOST|__\w+__\s*;?|$)",
    re.M)


def param_type(p):
    """'const __half2 *const ptr' -> 'const __half2 *const'; '' for '(void)'."""
    p = " ".join(p.split())
    p = re.sub(r"\s*=\s*.*$", "", p)  # default argument
    if p in ("", "void"):
        return ""
    m = re.match(r"(.*?[\s\*&])\s*([A-Za-z_]\w*)$", p)
    if m and m.group(2) not in TYPE_WORDS and m.group(1).strip() not in (
            "", "const", "volatile", "struct"):
        p = m.group(1).strip()
    return p


def norm_type(t):
    """Canonical spelling for de-duplication: top-level const dropped."""
    t = " ".join(t.replace("*", " * ").replace("&", " & ").split())
    t = re.sub(r"\* const$", "*", t)
    if "*" not in t and "&" not in t:
        t = re.sub(r"^const ", "", t)
    return t


class Decl:
    def __init__(self, ret, name, params, where):
        self.ret = " ".join(ret.split())
        self.name = name
        self.params = params
        self.where = where

    def key(self):
        return (self.name, tuple(norm_type(p) for p in self.params))

    def spelling(self):
        return "%s %s(%s)" % (self.ret, self.name,
                              ", ".join(norm_type(p) for p in self.params))


def extract(cuda_inc, files, names, env):
    decls, seen = [], set()
    for rel in files:
        path = os.path.join(cuda_inc, rel)
        if not os.path.exists(path):
            continue
        macros = {}
        text = active_text(path, env, macros)
        for m in DECL_RE.finditer(text):
            name = m.group("name")
            if names is not None and name not in names:
                continue
            pre = expand(m.group("pre"), macros)
            # device (or host device) functions only
            if not re.search(r"__device__|__device_builtin__", pre):
                continue
            start = text.rfind("\n", 0, m.start())
            before = text[max(0, start - 200):m.start()]
            if re.search(r"template\s*<[^;{}]*>\s*$", before):
                continue  # templates are not probed
            raw = m.group("params").strip()
            if "..." in raw or "(" in raw or "[" in raw:
                continue
            params = [param_type(p) for p in raw.split(",")] if raw else []
            params = [p for p in params if p]
            if m.group("ret").strip() in ("return", "else", "case"):
                continue
            line = text.count("\n", 0, m.start()) + 1
            d = Decl(m.group("ret"), name, params, "%s:%d" % (rel, line))
            d.host = "__host__" in pre
            if d.key() in seen:
                continue
            seen.add(d.key())
            decls.append(d)
    return decls


def files_declaring(cuda_inc, names):
    """Every top-level and crt/ header whose text declares one of names."""
    out = []
    pat = re.compile(r"\b(%s)\s*\(" % "|".join(map(re.escape, names)))
    for sub in ("", "crt"):
        d = os.path.join(cuda_inc, sub)
        for fn in sorted(os.listdir(d)):
            if not fn.endswith((".h", ".hpp")):
                continue
            rel = os.path.join(sub, fn) if sub else fn
            with open(os.path.join(d, fn), encoding="utf-8",
                      errors="replace") as f:
                if pat.search(f.read()):
                    out.append(rel)
    return out


def cuda_version(cuda_inc):
    try:
        with open(os.path.join(cuda_inc, "cuda.h")) as f:
            m = re.search(r"#define\s+CUDA_VERSION\s+(\d+)", f.read())
            return int(m.group(1))
    except (OSError, AttributeError):
        return 13000


# --------------------------------------------------------------------------
# Probe generation
# --------------------------------------------------------------------------
PRELUDE = """\
// generated by test/tools/check_cuda_compat.py
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cstddef>
"""

# Calls in the shapes user code writes: non-const pointers to loads, literals
# and other arithmetic types to stores. They must resolve like nvcc resolves
# them (one overload chosen by the pointer type), with and without the header.
USAGE_PROBES = [
    ("__ldg(float*)", "float *p", "float r = __ldg(p); (void)r;"),
    ("__ldg(int4*)", "int4 *p", "int4 r = __ldg(p); (void)r;"),
    ("__ldcs(const float*)", "const float *p", "float r = __ldcs(p); (void)r;"),
    ("__ldca(float*)", "float *p", "float r = __ldca(p); (void)r;"),
    ("__ldlu(double*)", "double *p", "double r = __ldlu(p); (void)r;"),
    ("__ldcg(unsigned long*)", "unsigned long *p",
     "unsigned long r = __ldcg(p); (void)r;"),
    ("__stcs(float*, int literal)", "float *p", "__stcs(p, 0);"),
    ("__stcs(float*, double)", "float *p, double v", "__stcs(p, v);"),
    ("__stcs(float4*, float4)", "float4 *p, float4 v", "__stcs(p + 1, v);"),
    ("__stcg(int*, char)", "int *p, char v", "__stcg(p, v);"),
    ("__stwb(__half*, __half)", "__half *p, __half v", "__stwb(p, v);"),
    ("__stcs(__nv_bfloat16*, float)", "__nv_bfloat16 *p, float v",
     "__stcs(p, __float2bfloat16(v));"),
    ("__stwt(unsigned long*, unsigned long)", "unsigned long *p",
     "__stwt(p, 1ul);"),
    ("host max(int, max(int, int))", "int c, int t, int v",
     "int r = max(3 * c, max(t, v)); (void)r;", "__host__"),
    ("host min(int, int) * min(int, int)", "int t",
     "int r = min(t, 256) * min(t, 256); (void)r;", "__host__"),
    ("host std::max(size_t, size_t)", "size_t a, size_t b",
     "size_t r = std::max(a, b); (void)r;", "__host__"),
    ("host using std::max; max(short, short)", "short a, short b",
     "using std::max; short r = max(a, b); (void)r;", "__host__"),
    ("host using std::min; min(size_t, size_t)", "size_t a, size_t b",
     "using std::min; size_t r = min(a, b); (void)r;", "__host__"),
    ("device max(int, unsigned)", "int a, unsigned b",
     "unsigned r = max(a, b); (void)r;"),
    ("device fminf-style min(float, float)", "float a, float b",
     "float r = min(a, b); (void)r;"),
    ("__stcs through a template", "float *p",
     "__usage_store(p, 1.0f);",
     "template <class T> __device__ void __usage_store(T *q, T v)"
     " { __stcs(q, v); }"),
]


def gen_probes(decls, with_usage):
    """Returns (source, probes) where probes[i] = (label, first, last line)."""
    lines = PRELUDE.split("\n")[:-1]
    probes = []

    def add(label, body_lines):
        first = len(lines) + 1
        lines.extend(body_lines)
        probes.append((label, first, len(lines)))

    for i, d in enumerate(decls):
        params = ", ".join("%s a%d" % (p, j) for j, p in enumerate(d.params))
        args = ", ".join("a%d" % j for j in range(len(d.params)))
        ptypes = ", ".join(d.params)
        call = "%s(%s)" % (d.name, args)
        body = ["__device__ void __probe_%d(%s) {" % (i, params)]
        if d.ret == "void":
            body.append("  %s;" % call)
        else:
            body.append("  %s __r = %s; (void)__r;" % (d.ret, call))
        body.append("  (void)static_cast<%s (*)(%s)>(&%s);" % (
            d.ret, ptypes, d.name))
        body.append("}")
        add(d.spelling(), body)
        if d.host:
            body = ["__host__ void __hprobe_%d(%s) {" % (i, params)]
            if d.ret == "void":
                body.append("  %s;" % call)
            else:
                body.append("  %s __r = %s; (void)__r;" % (d.ret, call))
            body.append("}")
            add("(host caller) " + d.spelling(), body)
    if with_usage:
        for i, probe in enumerate(USAGE_PROBES):
            label, params, stmt = probe[:3]
            side = "__device__"
            extra = list(probe[3:])
            if extra and extra[0] == "__host__":
                side = extra.pop(0)
            add("usage: " + label, extra +
                ["%s void __usage_%d(%s) {" % (side, i, params),
                 "  " + stmt, "}"])
    return "\n".join(lines) + "\n", probes


ERR_RE = re.compile(r"^(.*?):(\d+):(\d+): (error|warning): (.*)$", re.M)


def parse(clang, cu_path, extra, side, arch, cuda_path):
    cmd = [clang, "-x", "cuda", "--cuda-%s-only" % side,
           "--cuda-gpu-arch=" + arch, "-nocudalib", "--cuda-path=" + cuda_path,
           "-isystem", os.path.join(cuda_path, "include", "cccl"),
           "-fsyntax-only", "-ferror-limit=0", "-Wno-unknown-cuda-version",
           "-fno-caret-diagnostics", "-fno-diagnostics-color"] + extra + [
           cu_path]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return r.returncode, r.stdout, cmd


def classify(output, cu_path, probes):
    """Maps error lines in cu_path to probes; returns (failed {label: msg},
    stray [msgs of errors elsewhere])."""
    failed, stray = {}, []
    base = os.path.basename(cu_path)
    for m in ERR_RE.finditer(output):
        fname, line, kind, msg = m.group(1), int(m.group(2)), m.group(4), \
            m.group(5)
        if kind != "error":
            continue
        if os.path.basename(fname) == base:
            for label, first, last in probes:
                if first <= line <= last:
                    failed.setdefault(label, msg)
                    break
            else:
                stray.append(m.group(0))
        else:
            stray.append(m.group(0))
    if not failed and not stray and "error" in output and \
            re.search(r"\berror\b", output):
        if re.search(r"^(clang|error).*error", output, re.M):
            stray.append(output.strip().splitlines()[0])
    return failed, stray


def header_guard_says_needed(header, clang_major):
    with open(header) as f:
        m = re.search(r"__clang_major__\s*<=\s*(\d+)", f.read())
    return m is not None and clang_major <= int(m.group(1))


def clang_major(clang):
    out = subprocess.run([clang, "--version"], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    m = re.search(r"clang version (\d+)", out)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("clang")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH",
                                                          "/usr/local/cuda"))
    ap.add_argument("--header", default=DEFAULT_HEADER)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--survey", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()

    cuda_inc = os.path.join(a.cuda_path, "include")
    if not os.path.isdir(cuda_inc):
        sys.exit("check_cuda_compat: no CUDA toolkit at %s" % a.cuda_path)
    header = os.path.abspath(a.header)
    if not os.path.isfile(header):
        sys.exit("check_cuda_compat: no header %s" % header)
    am = re.fullmatch(r"sm_(\d+)[a-z]?", a.arch)
    if not am:
        sys.exit("check_cuda_compat: --arch must look like sm_90")
    env = {"__cplusplus": "201703", "__CUDACC__": "1",
           "__CUDA_ARCH__": str(int(am.group(1)) * 10), "__LP64__": "1",
           "__clang__": "1", "__GNUC__": "4", "__GNUC_MINOR__": "2",
           "__x86_64__": "1", "__linux__": "1",
           "CUDA_VERSION": str(cuda_version(cuda_inc)),
           "CUDART_VERSION": str(cuda_version(cuda_inc)),
           "__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__": "1"}

    if a.survey:
        decls = extract(cuda_inc, SURVEY_HEADERS, None, env)
    else:
        decls = extract(cuda_inc, files_declaring(cuda_inc, CACHE_HINT),
                        set(CACHE_HINT), env)
        # nvcc's host-and-device ::min/::max family (the header adds the
        # host halves): probed from a __device__ and a __host__ caller.
        decls += extract(cuda_inc, ["crt/math_functions.hpp"], set(MINMAX),
                         {k: v for k, v in env.items()
                          if k != "__CUDA_ARCH__"})
    if not decls:
        sys.exit("check_cuda_compat: found no declarations under %s" % cuda_inc)
    src, probes = gen_probes(decls, with_usage=not a.survey)
    work = a.keep or tempfile.mkdtemp(prefix="cuda-compat-")
    os.makedirs(work, exist_ok=True)
    cu = os.path.join(work, "survey.cu" if a.survey else "probe.cu")
    with open(cu, "w") as f:
        f.write(src)

    major = clang_major(a.clang)
    print("check_cuda_compat: %d declarations from %s; clang %d; %s" % (
        len(decls), cuda_inc, major, a.arch))
    passed = failed = 0

    def record(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
        print("%s: %s" % ("PASS" if ok else "FAIL", what))

    lacking = {}
    for side in ("device", "host"):
        # 3. without the header
        rc, out, _ = parse(a.clang, cu, [], side, a.arch, a.cuda_path)
        if a.keep:
            open(os.path.join(work, "without-%s.log" % side), "w").write(out)
        nf, stray0 = classify(out, cu, probes)
        lacking[side] = nf
        print("without the header (%s side): %d of %d probes fail" % (
            side, len(nf), len(probes)))
        for label in sorted(nf):
            print("  lacks: %s    [%s]" % (label, nf[label]))
        for s in stray0:
            print("  other error: %s" % s)
        # 4. with the header
        rc, out, _ = parse(a.clang, cu, ["-include", header], side, a.arch,
                           a.cuda_path)
        if a.keep:
            open(os.path.join(work, "with-%s.log" % side), "w").write(out)
        wf, stray = classify(out, cu, probes)
        stray = [s for s in stray if s not in stray0] if a.survey else stray
        if a.survey:
            print("with the header (%s side): %d of %d probes fail" % (
                side, len(wf), len(probes)))
            for label in sorted(wf):
                print("  still lacks: %s    [%s]" % (label, wf[label]))
            broken = sorted(set(wf) - set(nf))
            record(not broken and not stray,
                   "%s side: the header breaks no probe that clang resolved "
                   "without it" % side)
            for label in broken:
                print("  broken by the header: %s    [%s]" % (label, wf[label]))
        else:
            for label, _, _ in probes:
                ok = label not in wf
                if a.verbose or not ok:
                    record(ok, "%s side: %s%s" % (
                        side, label, "" if ok else "    [%s]" % wf[label]))
                else:
                    passed += 1
            # the test must be able to fail
            if header_guard_says_needed(header, major):
                record(bool(nf), "%s side: without the header some probe "
                       "fails (so the check can catch a missing overload)"
                       % side)
        for s in stray:
            record(False, "%s side: error outside the probes: %s" % (side, s))

    # 5. the header on its own
    solo = os.path.join(work, "solo.cu")
    with open(solo, "w") as f:
        f.write('#include "%s"\n#include "%s"\n'
                "__global__ void k(float *p) { __stcs(p, __ldlu(p + 1)); }\n"
                % (header, header))
    for side in ("device", "host"):
        rc, out, _ = parse(a.clang, solo, ["-Wall", "-Wextra"], side, a.arch,
                           a.cuda_path)
        bad = [l for l in out.splitlines()
               if re.search(r"(error|warning):", l)]
        record(rc == 0 and not bad,
               "header included twice into a CUDA file (%s side), -Wall "
               "-Wextra: clean%s" % (side, "" if not bad else
                                    "    [%s]" % "; ".join(bad[:3])))
    cpp = os.path.join(work, "solo.cpp")
    with open(cpp, "w") as f:
        f.write('#include "%s"\nint main() { return 0; }\n' % header)
    r = subprocess.run([a.clang, "-x", "c++", "-fsyntax-only", "-Wall",
                        "-Wextra", cpp], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    record(r.returncode == 0 and not r.stdout.strip(),
           "header included into plain C++: no effect, clean%s" % (
               "" if not r.stdout.strip() else "    [%s]" %
               r.stdout.strip().splitlines()[0]))
    if not a.keep:
        for fn in os.listdir(work):
            os.unlink(os.path.join(work, fn))
        os.rmdir(work)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
