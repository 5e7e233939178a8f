#!/usr/bin/env python3
"""Per-line shared-memory wavefronts from the calibration run's source-page
CSVs (scripts/gpu-groundtruth/device-run.sh with GT_CARRY=cuda_validation/banks).

    python3 cuda_validation/banks/reduce.py banks.tar.gz|DIR > measured.tsv

One row per (kernel, source line, shared-memory SASS instruction), deduplicated
by kernel block and address: the program, the kernel's name with the index of
its block in the program's export (launch order: `tile#2` is the third
profiled kernel), the source file, the line, the opcode,
the access width in bits, the operation, warp-level instructions executed,
Nsight Compute's "L1 Wavefronts Shared" and "L1 Wavefronts Shared Ideal".
"""
import csv
import io
import os
import sys
import tarfile

csv.field_size_limit(1 << 30)


def num(s):
    s = (s or "").strip().replace(",", "")
    try:
        return float(s)
    except ValueError:
        return 0.0


def csv_files(src):
    if os.path.isdir(src):
        d = os.path.join(src, "csv")
        for n in sorted(os.listdir(d)):
            yield n, open(os.path.join(d, n), encoding="utf-8", errors="replace").read()
        return
    with tarfile.open(src) as t:
        for m in sorted(t.getmembers(), key=lambda m: m.name):
            if m.name.startswith("csv/") and m.name.endswith(".csv"):
                yield os.path.basename(m.name), t.extractfile(m).read().decode("utf-8", "replace")


def rows(text):
    hdr = fn = path = None
    line = None
    block = -1
    for r in csv.reader(io.StringIO(text)):
        if r and r[0] == "File Path":
            path = os.path.basename(r[1])
            continue
        if r and r[0] == "Function Name":
            fn, hdr = r[1], None
            block += 1
            continue
        if r and r[0] == "Line No":
            hdr = r
            continue
        if not hdr or len(r) != len(hdr):
            continue
        if r[0].strip():  # a source row names the line its SASS rows follow
            line = int(r[0])
            continue
        yield path, f"{fn}#{block}", line, dict(zip(hdr, r)), r


def main():
    out = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    out.writerow(["program", "kernel", "file", "line", "opcode", "bits", "op", "instructions",
                  "wavefronts", "ideal"])
    seen = set()
    dropped = 0
    for src in sys.argv[1:]:
        for name, text in csv_files(src):
            program = name[:-len(".csv")]
            for path, fn, line, d, r in rows(text):
                if "Shared" not in d.get("Address Space", ""):
                    continue
                # Nsight Compute 2025.3 exports inlined intrinsics twice: at
                # the header line (a block of its own, `atomicAdd` at
                # device_atomic_functions.hpp:107) and at the calling line
                # of calibration.cu, with the same counters. The caller's
                # line is the one the tool predicts.
                if not path.endswith(".cu"):
                    dropped += 1
                    continue
                addr = d.get("Address", "")
                key = (program, fn, addr)
                if key in seen:
                    continue
                seen.add(key)
                sass = r[3].strip()
                opcode = sass.split()[0] if sass else "?"
                out.writerow([program, fn, path, line, opcode, d.get("Access Size", ""),
                              d.get("Access Operation", ""),
                              int(num(d["Instructions Executed"])),
                              int(num(d["L1 Wavefronts Shared"])),
                              int(num(d["L1 Wavefronts Shared Ideal"]))])
    if dropped:
        print(f"reduce: {dropped} rows at header lines (inlined intrinsics, "
              "also exported at their calling line) left out", file=sys.stderr)


if __name__ == "__main__":
    main()
