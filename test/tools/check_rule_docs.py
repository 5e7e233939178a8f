#!/usr/bin/env python3
"""Checks that the rule docs are what Rules.def generates.

`coalesce-lint --print-rule-docs=PAGE` prints the generated regions of a
page (<!-- NAME:begin --> ... <!-- NAME:end -->); every region it prints
must be in the page, with the same text, and the page must have no other
region. Text outside the regions is written by hand.

    check_rule_docs.py TOOL REPO_ROOT            # check (ctest rule-docs)
    check_rule_docs.py TOOL REPO_ROOT --update   # rewrite the regions
"""
import re
import subprocess
import sys

PAGES = {"readme": "README.md", "rules": "docs/rules.md"}
REGION = re.compile(r"<!-- (\S+):begin -->\n(.*?)<!-- \1:end -->\n", re.S)


def regions(text):
    return {m.group(1): m for m in REGION.finditer(text)}


def main():
    tool, root = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv[3:]
    failures = 0
    missing = []
    for page, rel in PAGES.items():
        out = subprocess.run([tool, f"--print-rule-docs={page}"], check=True,
                             capture_output=True, text=True).stdout
        want = {k: m.group(2) for k, m in regions(out).items()}
        if not want:
            print(f"{rel}: the tool printed no region")
            failures += 1
            continue
        path = f"{root}/{rel}"
        text = open(path, encoding="utf-8").read()
        have = regions(text)
        for name in sorted(set(have) - set(want)):
            print(f"{rel}: region '{name}' is not generated from Rules.def")
            failures += 1
        for name, body in want.items():
            if name not in have:
                print(f"{rel}: region '{name}' is missing (Rules.def has it)")
                failures += 1
                missing.append(f"{rel}:{name}")
            elif have[name].group(2) != body:
                print(f"{rel}: region '{name}' differs from Rules.def's")
                failures += 1
        if update:
            text = REGION.sub(lambda m: m.group(0) if m.group(1) not in want
                              else f"<!-- {m.group(1)}:begin -->\n"
                                   f"{want[m.group(1)]}<!-- {m.group(1)}:end -->\n",
                              text)
            open(path, "w", encoding="utf-8").write(text)
    if update and missing:
        print(f"check_rule_docs: --update rewrites existing regions only; add "
              f"the marker lines of {', '.join(missing)} by hand first")
        return 1
    if failures and not update:
        print(f"check_rule_docs: {failures} differences; regenerate with "
              f"test/tools/check_rule_docs.py TOOL . --update")
        return 1
    print("check_rule_docs: " + ("updated" if update else "docs agree with Rules.def"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
