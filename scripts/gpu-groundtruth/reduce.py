#!/usr/bin/env python3
"""Shrinks device-run.sh's archive of ncu source-page CSVs to what lines.py
reads, for committing: the block headers, the source-line rows, and the
SASS rows of instructions that touch memory (any address space, atomics and
reductions too), each with the columns lines.py and linetable.py use.

    python3 scripts/gpu-groundtruth/reduce.py IN.tar.gz OUT.tar.gz

lines.py gives the same tables from OUT as from IN (with or without
--line-table: the memory instructions alone place each function, see
linetable.calibrate).
"""
import csv
import io
import re
import sys
import tarfile

csv.field_size_limit(1 << 30)
KEEP = ["Line No", "Source", "Address", "Source", "Instructions Executed", "Address Space", "Access Operation",
        "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal"]


def reduce_csv(text):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    idx = None
    for row in csv.reader(io.StringIO(text)):
        if not row:
            continue
        if row[0] in ("File Path", "Function Name") or row[0].startswith("=="):
            w.writerow(row)
            idx = None
            continue
        if row[0] == "Line No":
            src = [i for i, h in enumerate(row) if h == "Source"]
            pos = {h: i for i, h in reversed(list(enumerate(row)))}
            if "Instructions Executed" not in pos:
                w.writerow(row)  # no counters: lines.py notes it and skips the kernel
                idx = None
                continue
            idx = [0, src[0], pos["Address"], src[1]] + [pos.get(h, -1) for h in KEEP[4:]]
            w.writerow([row[i] if i >= 0 else h for i, h in zip(idx, KEEP)])
            continue
        if idx is None:
            continue
        if row[0] == "":
            space = row[idx[5]] if idx[5] >= 0 and idx[5] < len(row) else ""
            sass = row[idx[3]].split() if idx[3] < len(row) else []
            op = sass[1] if sass and sass[0].startswith("@") and len(sass) > 1 else (sass[0] if sass else "")
            if space.strip() in ("", "-") and not re.match(r"^(RED|REDG|ATOM|ATOMG)(\.|$)", op):
                continue
        w.writerow([row[i] if 0 <= i < len(row) else "" for i in idx])
    return out.getvalue()


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with tarfile.open(src) as t, tarfile.open(dst, "w:gz") as o:
        for m in t.getmembers():
            if not m.isfile():
                continue
            data = t.extractfile(m).read()
            if m.name.endswith(".csv"):
                data = reduce_csv(data.decode("utf-8", "replace")).encode()
            info = tarfile.TarInfo(m.name)
            info.size, info.mtime, info.mode = len(data), m.mtime, m.mode
            o.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    main()
