#!/usr/bin/env python3
"""The census of a --self-check run of run-suite.sh, per suite: memory
operations the census found, those missing from the report (by census rule,
with examples), and the accesses, unknowns and exclusions of the reports.

usage: census.py OUTDIR... [--examples N]

Each OUTDIR is one run-suite.sh output directory whose tool ran with
--self-check (COALESCE_LINT pointing at a wrapper that adds it).
Python 3 standard library only.
"""
import collections
import glob
import json
import os
import sys


def summarize(outdir, examples):
    entries = missing = reports = accesses = unknown = excluded = 0
    rules = collections.Counter()
    reasons = collections.Counter()
    samples = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(outdir, "json", "*.json"))):
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            continue
        reports += 1
        census = report.get("census")
        if census:
            entries += census["entries"]
        for k in report.get("kernels", []):
            for a in k.get("accesses", []):
                accesses += 1
                if a.get("classification") == "unknown":
                    unknown += 1
            for x in k.get("excluded", []):
                excluded += 1
                reasons[x["reason"]] += 1
            for m in k.get("census_missing", []):
                missing += 1
                rules[m["rule"]] += 1
                if len(samples[m["rule"]]) < examples:
                    samples[m["rule"]].append("%s:%d:%d %s '%s'" % (
                        os.path.basename(m["file"]), m["line"], m["column"],
                        m["op"], m["expr"][:60]))
    name = os.path.basename(os.path.normpath(outdir))
    pct = 100.0 * unknown / accesses if accesses else 0.0
    print("## %s" % name)
    print("reports %d, census entries %d, missing %d; accesses %d, unknown %d "
          "(%.1f%%), excluded %d" % (reports, entries, missing, accesses,
                                     unknown, pct, excluded))
    for rule, n in rules.most_common():
        print("  missing by rule: %4d  %s" % (n, rule))
        for s in samples[rule]:
            print("      e.g. %s" % s)
    for reason, n in reasons.most_common(6):
        print("  excluded: %5d  %s" % (n, reason))
    return entries, missing


def main(argv):
    examples = 3
    dirs = []
    it = iter(argv[1:])
    for a in it:
        if a == "--examples":
            examples = int(next(it))
        else:
            dirs.append(a)
    total_e = total_m = 0
    for d in dirs:
        e, m = summarize(d, examples)
        total_e += e
        total_m += m
    print("total: census entries %d, missing %d" % (total_e, total_m))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
