#!/usr/bin/env python3
"""Checks that no pipeline stage of analysis/ includes a later one.

The stages, lowest first, are the folders of analysis/lib/ (analysis/CMakeLists.txt
says what each holds). A file of a stage may include the public headers
(analysis/include/coalesce/) owned by its own stage or an earlier one, and
the internal headers ("stage/X.h", or "X.h" in its own folder) of its own
stage or an earlier one. Public headers follow the same rule by their owner.

    check_layering.py ANALYSIS_DIR
    check_layering.py --self-test    (a made-up tree with one violation of
                                      each kind must fail)

Prints each violation as FILE:LINE: and exits 1 when there is one.
"""
import os
import re
import sys

STAGES = ["symbolic", "model", "census", "frontend", "findings", "output",
          "config", "harness", "driver"]

# The stage that defines what each public header declares.
PUBLIC = {
    "Expr.h": "symbolic", "ExprBounds.h": "symbolic",
    "ExprKinds.def": "symbolic", "ExprVisitor.h": "symbolic",
    "LaneModel.h": "model", "SectorCounter.h": "model", "BankCounter.h": "model",
    "Predictor.h": "model", "Config.h": "model", "Report.h": "model",
    "KernelPrediction.h": "model",
    "Findings.h": "findings", "Rules.h": "findings", "Rules.def": "findings",
    "Policy.h": "findings", "Suppressions.h": "findings",
    "Baseline.h": "findings", "ChangedLines.h": "findings",
    "Triage.h": "findings", "FindingGroups.h": "findings",
    "Output.h": "output", "MergeReports.h": "output",
    "ConfigFile.h": "config",
    "Harness.h": "harness",
    "Analyzer.h": "driver", "CompileFlags.h": "driver", "Fixes.h": "driver",
    "Subprocess.h": "driver",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def stage_of_include(inc, own_stage, errors, where):
    if inc.startswith("coalesce/"):
        name = inc[len("coalesce/"):]
        if name not in PUBLIC:
            errors.append(f"{where}: public header '{inc}' has no owning stage "
                          "in test/tools/check_layering.py")
            return None
        return PUBLIC[name]
    head = inc.split("/")[0]
    if "/" in inc and head in STAGES:
        return head
    if "/" not in inc:
        return own_stage
    return None  # clang/, llvm/, fmt/ ...


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as t:
        for d in ("lib/model", "lib/driver", "lib/extra", "include/coalesce"):
            os.makedirs(os.path.join(t, d))
        def write(rel, text):
            with open(os.path.join(t, rel), "w", encoding="utf-8") as f:
                f.write(text)
        write("lib/model/A.cpp", '#include "coalesce/Analyzer.h"\n'
              '#include "driver/Isolation.h"\n#include "coalesce/Nope.h"\n')
        write("lib/driver/Isolation.h", '#include "model/A.h"\n')
        write("include/coalesce/Analyzer.h", "")
        write("include/coalesce/Report.h", '#include "coalesce/Analyzer.h"\n')
        out = os.popen(f"{sys.executable} {__file__} {t}").read()
    expected = ["A.cpp:1: stage 'model' includes 'coalesce/Analyzer.h'",
                "A.cpp:2: stage 'model' includes 'driver/Isolation.h'",
                "A.cpp:3: public header 'coalesce/Nope.h' has no owning",
                "lib/extra: folder is not a stage",
                "Report.h:1: stage 'model' includes 'coalesce/Analyzer.h'",
                "5 violations"]
    missing = [e for e in expected if e not in out]
    print(out, end="")
    print("self-test:", "FAILED, missing " + repr(missing) if missing else "ok")
    return 1 if missing else 0


def main():
    if sys.argv[1] == "--self-test":
        return self_test()
    root = sys.argv[1]
    errors = []
    files = []
    lib = os.path.join(root, "lib")
    for stage in sorted(os.listdir(lib)):
        d = os.path.join(lib, stage)
        if not os.path.isdir(d):
            continue
        if stage not in STAGES:
            errors.append(f"{d}: folder is not a stage of check_layering.py")
            continue
        for dirpath, _, names in os.walk(d):
            for n in sorted(names):
                if n.endswith((".cpp", ".h", ".def")):
                    files.append((os.path.join(dirpath, n), stage))
    inc_dir = os.path.join(root, "include", "coalesce")
    for n in sorted(os.listdir(inc_dir)):
        if n not in PUBLIC:
            errors.append(f"{inc_dir}/{n}: public header has no owning stage")
            continue
        files.append((os.path.join(inc_dir, n), PUBLIC[n]))
    for path, stage in files:
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                where = f"{path}:{lineno}"
                target = stage_of_include(m.group(1), stage, errors, where)
                if target and STAGES.index(target) > STAGES.index(stage):
                    errors.append(f"{where}: stage '{stage}' includes "
                                  f"'{m.group(1)}' of the later stage '{target}'")
    for e in errors:
        print(e)
    print(f"check_layering: {len(files)} files, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
