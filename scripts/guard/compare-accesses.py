#!/usr/bin/env python3
"""Compares two runs of compare-suites.sh (or run-suite.sh) access by access.

    scripts/guard/compare-accesses.py BASE NEW SUITE...

For each SUITE, matches the accesses of BASE/SUITE/json/*.json and
NEW/SUITE/json/*.json by kernel, instantiation, file, line, column, operation
and call chain, and prints the totals (accesses, unknown and their share)
and how the accesses that differ changed: "unknown -> coalesced" (a
prediction where there was none), "coalesced -> coalesced (numbers)" (the
same class, other figures), "count 1 -> 0" (accesses that disappeared, for
example now excluded). A refactoring prints no change; a fix prints only the
transitions it intends. Python 3 standard library only.
"""
import collections
import glob
import json
import os
import sys


def accesses(report):
    out = collections.defaultdict(list)
    for k in report['kernels']:
        for x in k['accesses']:
            # Shared accesses (issue 27) are compared by their own runs.
            if x.get('space') == 'shared':
                continue
            key = (k['name'], k.get('instantiation'), x['file'], x['line'],
                   x['column'], x['op'],
                   tuple((c['line'], c['column']) for c in x['call_chain']))
            out[key].append((x['classification'], x['sectors_per_request']))
    return out


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    base, new, suites = argv[1], argv[2], argv[3:]
    for suite in suites:
        changes = collections.Counter()
        total, unknown = [0, 0], [0, 0]
        for path in sorted(glob.glob(f'{new}/{suite}/json/*.json')):
            old_path = f'{base}/{suite}/json/{os.path.basename(path)}'
            try:
                runs = (accesses(json.load(open(old_path))),
                        accesses(json.load(open(path))))
            except (OSError, ValueError, KeyError):
                continue
            for i, run in enumerate(runs):
                for v in run.values():
                    total[i] += len(v)
                    unknown[i] += sum(1 for c in v if c[0] == 'unknown')
            a_run, b_run = runs
            for key in set(a_run) | set(b_run):
                a = sorted(a_run.get(key, []), key=str)
                b = sorted(b_run.get(key, []), key=str)
                if a == b:
                    continue
                if len(a) != len(b):
                    changes[f'count {len(a)} -> {len(b)}'] += 1
                    continue
                for x, y in zip(a, b):
                    if x != y:
                        changes[f'{x[0]} -> {y[0]}' if x[0] != y[0]
                                else f'{x[0]} -> {y[0]} (numbers)'] += 1
        share = [100 * u / max(1, t) for u, t in zip(unknown, total)]
        print(f'{suite}: accesses {total[0]} -> {total[1]}, unknown '
              f'{unknown[0]} ({share[0]:.1f}%) -> {unknown[1]} ({share[1]:.1f}%)')
        for what, n in changes.most_common():
            print(f'    {n} {what}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
