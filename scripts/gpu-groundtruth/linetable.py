"""The binary's own line table, for lines.py --line-table.

Reads `nvdisasm -c -g -gi CUBIN` listings (half/device-all.sh's companion
step writes them; see docs/validation.md), which give every SASS instruction
of every function its inline chain:

    //## File "/usr/.../cuda_fp16.hpp", line 138 inlined at ".../gpu_kernels.h", line 77
    //## File ".../gpu_kernels.h", line 77
            /*01c0*/              @!P3 LDG.E.U16 R9, desc[UR6][R6.64] ;

(innermost frame first). Nsight Compute's source page lists an inlined
instruction under the lines of some frames of its chain but not always under
the call site: a `(float)x[index]` whose load the half type's conversion
operator performs (cuda_fp16.hpp:138) is listed at cuda_fp16.hpp only, and
so was left out of the line tables as "outside the carried directory". With
the line table each instruction measured by ncu (matched by address: the
function's load address is found by aligning ncu's SASS text with the
listing's) is counted at the frames of its chain instead.
"""
import os
import re
import tarfile

_FUNC = re.compile(r"^\.text\.(\S+):\s*$")
_FRAME = re.compile(r'//## File "([^"]+)", line (\d+)')
_INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*$")


def opcode_key(text):
    """Predicate and opcode: what must agree between ncu's and nvdisasm's SASS."""
    t = text.replace(";", " ").split()
    if not t:
        return ""
    return " ".join(t[:2]) if t[0].startswith("@") else t[0]


class LineTable:
    def __init__(self, src):
        self.funcs = {}  # mangled name -> {offset: (opcode key, chain)}
        for name, text in self._read(src):
            self._parse(text)
        self._cal = {}

    @staticmethod
    def _read(src):
        if os.path.isdir(src):
            for dp, _, fns in os.walk(src):
                for fn in sorted(fns):
                    if fn.endswith(".sass"):
                        with open(os.path.join(dp, fn), errors="replace") as f:
                            yield fn, f.read()
        else:
            with tarfile.open(src) as t:
                for m in t.getmembers():
                    if m.isfile() and m.name.endswith(".sass"):
                        yield m.name, t.extractfile(m).read().decode("utf-8", "replace")

    def _parse(self, text):
        cur = None
        chain = ()
        pending = []
        for line in text.split("\n"):
            m = _FUNC.match(line)
            if m:
                cur = self.funcs.setdefault(m.group(1), {})
                chain, pending = (), []
                continue
            m = _FRAME.search(line)
            if m and "//##" in line:
                pending.append((m.group(1), int(m.group(2))))
                continue
            m = _INSN.search(line)
            if m and cur is not None:
                if pending:
                    chain, pending = tuple(pending), []
                cur[int(m.group(1), 16)] = (opcode_key(m.group(2)), chain)

    def candidates(self, func):
        """Functions whose mangled name holds FUNC (ncu's base name) as an identifier."""
        tag = f"{len(func)}{func}"
        return [m for m in self.funcs if tag in m or m == func]

    def calibrate(self, func, rows):
        """rows: {absolute address: ncu SASS text}. -> (mangled, load address) or None."""
        keys = {int(a, 16): opcode_key(t) for a, t in rows.items() if re.fullmatch(r"(0x)?[0-9a-fA-F]+", a)}
        if not keys:
            return None
        ck = (func, min(keys), len(keys))
        if ck in self._cal:
            return self._cal[ck]
        a0 = min(keys)
        best, best_score = None, 0.0
        for m in self.candidates(func):
            code = self.funcs[m]
            for off, (k, _) in code.items():
                if k != keys[a0]:
                    continue
                base = a0 - off
                score = sum(1 for a, k2 in keys.items() if code.get(a - base, ("",))[0] == k2) / len(keys)
                if score > best_score:
                    best, best_score = (m, base), score
        res = best if best_score >= 0.95 else None
        self._cal[ck] = res
        return res

    def chain(self, mangled, offset):
        """The inline chain (innermost first) of the instruction at OFFSET."""
        e = self.funcs.get(mangled, {}).get(offset)
        return e[1] if e else None
