#!/usr/bin/env python3
"""Moves measured.tsv rows from the line numbers of the source that was
measured to those of today's calibration.cu (lines matched by difflib on
their text; rows of lines that changed, or that are named with --drop, are
left out).

    python3 cuda_validation/banks/reduce.py RUN1.tar.gz RUN2.tar.gz > raw.tsv
    python3 cuda_validation/banks/remap.py raw.tsv \\
        recordings/calibration-as-measured.cu calibration.cu \\
        --drop dynamic_and_guards#3:213 > measured.tsv

How measured.tsv of 2026-12-05 was made: the strides and tiles from run 1,
the patterns from run 2 (run 1's dynamic_and_guards overran its shared
memory), both of calibration-as-measured.cu; line 213 dropped because the
compiler fused `dyn[l * 2]` with the next line's `dyn[l * 2 + 1]` into one
64-bit load there (today's file reads `dyn[l * 2 + 65]`, which it cannot).

Since the third run (recordings/run3-2026-12-05.tar.gz, H200, today's
calibration.cu, all 452 rows) measured.tsv is reduce.py's output of that run
alone, with no remapping: the 432 lines of runs 1 and 2 measured the same,
and the 15 lines added after them (wide() lines 149..161, line 213) are in.
This script stays for reading the first two recordings.
"""
import argparse
import csv
import difflib
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv")
    ap.add_argument("measured_source")
    ap.add_argument("source")
    ap.add_argument("--drop", action="append", default=[],
                    help="KERNEL#BLOCK:LINE (in today's numbering) to leave out")
    a = ap.parse_args()
    old = open(a.measured_source).read().split("\n")
    new = open(a.source).read().split("\n")
    move = {}
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                move[i1 + k + 1] = j1 + k + 1
    rows = list(csv.DictReader(open(a.tsv), delimiter="\t"))
    w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()),
                       delimiter="\t", lineterminator="\n")
    w.writeheader()
    for r in rows:
        line = int(r["line"])
        if r["file"] != "calibration.cu" or line not in move:
            continue
        r["line"] = str(move[line])
        if f"{r['kernel']}:{r['line']}" in a.drop:
            continue
        w.writerow(r)


if __name__ == "__main__":
    main()
