#!/usr/bin/env python3
"""Fails when coalesce-lint reports a kernel with no access although its body
plainly reads or writes memory (a subscript, ->, or * of a name that is not a
__shared__/__constant__/local array): the "never silent" check of the golden
corpus. A kernel for which the tool says why it reports no access
(`no_access_reason`: all its memory operations in code that cannot run in
that instance, a body compiled out for the architecture) is not silent.

usage: check_not_silent.py TOOL [--drop-accesses] FILE...
--drop-accesses empties every kernel's accesses before checking: the check
must then fail, which shows it can.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "scripts", "real-code"))
from summarize import body_memory_uses  # noqa: E402


def main(argv):
    tool, args = argv[1], argv[2:]
    drop = "--drop-accesses" in args
    files = [a for a in args if a != "--drop-accesses"]
    silent, kernels = [], 0
    for path in files:
        out = subprocess.run([tool, "--format=json", "--fail-on=never", path],
                             capture_output=True, text=True).stdout
        try:
            report = json.loads(out)
        except ValueError:
            print("no JSON report for %s" % path)
            return 2
        for k in report.get("kernels", []):
            kernels += 1
            if (k.get("accesses") or k.get("no_access_reason")) and not drop:
                continue
            uses = body_memory_uses(k["file"], k["line"], k["column"], k["name"])
            if uses:
                kind, name, line = uses[0]
                silent.append("%s:%d: kernel '%s' reports no access but uses "
                              "'%s%s' at line %d" % (k["file"], k["line"],
                                                      k["name"], name, kind, line))
    for s in silent:
        print("silent: " + s)
    print("%d kernels checked, %d silent" % (kernels, len(silent)))
    return 1 if silent else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
