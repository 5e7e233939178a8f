#!/usr/bin/env python3
"""Runs coalesce-lint --self-check on each file and fails when the census of
any kernel finds a memory operation the report does not account for (as a
prediction, an unknown or an exclusion): the census check of the golden
corpus (issue 26). Each miss is printed with its location.

usage: check_self_check.py TOOL FILE...
"""
import json
import subprocess
import sys


def main(argv):
    tool, files = argv[1], argv[2:]
    entries = missing = kernels = 0
    for path in files:
        out = subprocess.run([tool, "--self-check", "--format=json",
                              "--fail-on=never", path],
                             capture_output=True, text=True).stdout
        try:
            report = json.loads(out)
        except ValueError:
            print("no JSON report for %s" % path)
            return 2
        if "census" not in report:
            print("no census in the report of %s" % path)
            return 2
        entries += report["census"]["entries"]
        for k in report.get("kernels", []):
            kernels += 1
            for m in k.get("census_missing", []):
                missing += 1
                print("missing: %s:%d:%d: %s of '%s' in kernel '%s' (%s)" % (
                    m["file"], m["line"], m["column"], m["op"], m["expr"],
                    k["name"], m["rule"]))
    print("%d files, %d kernels, %d census entries, %d missing from the report"
          % (len(files), kernels, entries, missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
