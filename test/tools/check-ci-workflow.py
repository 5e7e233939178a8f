#!/usr/bin/env python3
"""Keeps docs/ci.md and the workflow it documents from rotting.

usage: check-ci-workflow.py SOURCE_DIR COALESCE_LINT [ACTION_VALIDATOR|-]

Checks:
  - docs/ci/coalesce-lint.yml parses (PyYAML), and so does every ```yaml
    block of docs/ci.md and .pre-commit-hooks.yaml;
  - docs/ci.md shows the workflow file verbatim;
  - the workflow runs on pull_request, grants security-events: write to the
    job that uploads with github/codeql-action/upload-sarif@v3, uploads the
    file the SARIF step writes (-o), and has a --format=github step;
  - every option given to coalesce-lint in the workflow and in the code
    blocks of docs/ci.md is one that `coalesce-lint --help` lists;
  - the pre-commit configuration in docs/ci.md names a hook id of
    .pre-commit-hooks.yaml;
  - action-validator (npm @action-validator/cli: GitHub's workflow schema)
    accepts the workflow. With "-" it is not installed: the check fails when
    npm is on PATH (scripts/bootstrap.sh test installs it into build/npm),
    and is skipped with a warning without npm.
Prints one line per check; exits 1 on the first failure.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:
    sys.exit("check-ci-workflow: FAIL: %s has no yaml module "
             "(Debian package python3-yaml; bash scripts/bootstrap.sh test "
             "installs it)" % sys.executable)


def fail(msg):
    sys.exit("check-ci-workflow: FAIL: " + msg)


def ok(msg):
    print("ok: " + msg)


def code_blocks(markdown):
    """(language, text) of every fenced block."""
    return re.findall(r"^```(\w*)\n(.*?)^```", markdown, re.S | re.M)


def help_options(tool):
    out = subprocess.run([tool, "--help"], capture_output=True, text=True)
    if out.returncode != 0:
        fail("%s --help exited with %d" % (tool, out.returncode))
    opts = set(re.findall(r"^\s+(-{1,2}[A-Za-z][-A-Za-z]*)", out.stdout, re.M))
    if "--format" not in opts:
        fail("no --format in %s --help: cannot read its options" % tool)
    return opts | {"-o"}  # -o is an alias of --output, not listed


def lint_invocations(text):
    """Argument lists following each 'coalesce-lint' command in shell text."""
    text = text.replace("\\\n", " ")
    calls = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", line)  # shell and YAML comments
        for m in re.finditer(r"(?:^|[\s|;&(])coalesce-lint(\s[^|;&#]*)?", line):
            args = (m.group(1) or "").strip()
            try:
                calls.append(shlex.split(args))
            except ValueError:
                calls.append(args.split())
    return calls


def check_options(calls, known, where):
    n = 0
    for args in calls:
        for a in args:
            if not a.startswith("-") or a == "--":
                continue
            name = a.split("=", 1)[0]
            if name not in known:
                fail("%s passes %s to coalesce-lint, which --help does not list"
                     % (where, name))
            n += 1
    return n


def run_steps(workflow):
    for job_id, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield job_id, job, step


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    src, tool = argv[1], argv[2]
    validator = argv[3] if len(argv) > 3 else "-"
    wf_path = os.path.join(src, "docs", "ci", "coalesce-lint.yml")
    md_path = os.path.join(src, "docs", "ci.md")
    hooks_path = os.path.join(src, ".pre-commit-hooks.yaml")
    wf_text = open(wf_path).read()
    md_text = open(md_path).read()

    try:
        wf = yaml.safe_load(wf_text)
    except yaml.YAMLError as e:
        fail("%s does not parse: %s" % (wf_path, e))
    ok("docs/ci/coalesce-lint.yml parses")
    blocks = code_blocks(md_text)
    yaml_blocks = [b for lang, b in blocks if lang in ("yaml", "yml")]
    for i, b in enumerate(yaml_blocks):
        try:
            yaml.safe_load(b)
        except yaml.YAMLError as e:
            fail("YAML block %d of docs/ci.md does not parse: %s" % (i + 1, e))
    ok("%d YAML blocks of docs/ci.md parse" % len(yaml_blocks))
    if wf_text not in yaml_blocks:
        fail("docs/ci.md does not show docs/ci/coalesce-lint.yml verbatim "
             "(update the block under 'The workflow')")
    ok("docs/ci.md shows the workflow file verbatim")
    hooks = yaml.safe_load(open(hooks_path))
    hook_ids = {h["id"] for h in hooks}
    ok(".pre-commit-hooks.yaml parses (hooks: %s)" % ", ".join(sorted(hook_ids)))

    # PyYAML reads the key 'on' as True (YAML 1.1).
    triggers = wf.get("on", wf.get(True))
    if not isinstance(triggers, dict) or "pull_request" not in triggers:
        fail("the workflow does not run on pull_request")
    sarif_out, uploads, github_steps = None, [], 0
    for job_id, job, step in run_steps(wf):
        run = step.get("run", "")
        for args in lint_invocations(run):
            joined = " ".join(args)
            if "--format=sarif" in joined:
                m = re.search(r"(?:-o|--output)[= ](\S+)", joined)
                if not m:
                    fail("the SARIF step of job %s writes no -o FILE" % job_id)
                sarif_out = m.group(1)
            if "--format=github" in joined:
                github_steps += 1
        if step.get("uses", "").startswith("github/codeql-action/upload-sarif@"):
            if step["uses"] != "github/codeql-action/upload-sarif@v3":
                fail("upload-sarif is not @v3: %s" % step["uses"])
            perms = job.get("permissions") or wf.get("permissions") or {}
            if perms.get("security-events") != "write":
                fail("job %s uploads SARIF without security-events: write" % job_id)
            uploads.append(step.get("with", {}).get("sarif_file"))
    if not sarif_out:
        fail("no coalesce-lint --format=sarif -o FILE step")
    if uploads != [sarif_out]:
        fail("upload-sarif uploads %s, the SARIF step writes %s" % (uploads, sarif_out))
    if github_steps == 0:
        fail("no coalesce-lint --format=github step")
    ok("workflow: pull_request, SARIF to %s uploaded with upload-sarif@v3 and "
       "security-events: write, a --format=github step" % sarif_out)

    known = help_options(tool)
    n = 0
    for job_id, job, step in run_steps(wf):
        n += check_options(lint_invocations(step.get("run", "")), known,
                           "docs/ci/coalesce-lint.yml (job %s)" % job_id)
    for lang, b in blocks:
        n += check_options(lint_invocations(b), known, "docs/ci.md")
    ok("%d coalesce-lint options in the workflow and docs/ci.md, all in --help" % n)

    configs = [yaml.safe_load(b) for b in yaml_blocks]
    used_ids = [h["id"] for c in configs if isinstance(c, dict) and "repos" in c
                for r in c["repos"] for h in r.get("hooks", [])]
    if not used_ids:
        fail("docs/ci.md has no .pre-commit-config.yaml block")
    for i in used_ids:
        if i not in hook_ids:
            fail("docs/ci.md's pre-commit configuration names hook %s, which "
                 ".pre-commit-hooks.yaml does not declare" % i)
    ok("docs/ci.md's pre-commit configuration uses hook %s" % ", ".join(used_ids))

    if validator != "-" and os.path.exists(validator):
        out = subprocess.run([validator, wf_path], capture_output=True, text=True,
                             cwd=src)
        if out.returncode != 0:
            fail("action-validator rejects the workflow:\n%s%s" % (out.stdout, out.stderr))
        ok("action-validator accepts the workflow (GitHub's workflow schema)")
    elif shutil.which("npm"):
        fail("action-validator is missing from build/npm although npm is "
             "installed: run bash scripts/bootstrap.sh test")
    else:
        print("warning: npm not found: the workflow is not validated against "
              "GitHub's schema (install the Debian packages nodejs npm)")
    print("check-ci-workflow: PASS")


if __name__ == "__main__":
    main(sys.argv)
