# lit configuration for the golden tests: .cu inputs whose expectations
# (FileCheck directives) sit next to the code they describe.
import os
import lit.formats

config.name = "coalesce-lint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "data", "unit", "CMakeLists.txt"]
config.substitutions.append(("%coalesce-lint", config.coalesce_lint))
config.substitutions.append(("%coalesce-verify", config.coalesce_verify))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
for var in ("PATH", "CUDA_PATH", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The SARIF validator (npm's @microsoft/sarif-multitool), installed into
# build/npm by scripts/bootstrap.sh test. Tests that need it say
# "REQUIRES: sarif-multitool"; they are skipped, loudly, only without npm.
import shutil
import subprocess

def find_sarif_multitool(prefix):
    package = os.path.join(prefix, "node_modules", "@microsoft", "sarif-multitool")
    if not os.path.isfile(os.path.join(package, "package.json")):
        return None
    # The package's main module resolves the native binary of this platform
    # (its bin.js wrapper runs through a shell, which splits "A;B" values).
    out = subprocess.run(["node", "-p", "require(%r)" % package],
                         capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None

sarif_multitool = find_sarif_multitool(config.npm_prefix)
if sarif_multitool:
    config.available_features.add("sarif-multitool")
    config.substitutions.append(("%sarif-multitool", sarif_multitool))
elif shutil.which("npm"):
    # npm is there, so a missing validator is a set-up error, not a skip.
    config.available_features.add("sarif-multitool")
    config.substitutions.append(("%sarif-multitool",
        "sh -c 'echo \"sarif-multitool missing from %s: run bash scripts/bootstrap.sh test\" >&2; exit 1' --"
        % config.npm_prefix))
else:
    lit_config.warning("npm not found: SARIF validation tests are skipped "
                       "(install the Debian packages nodejs npm)")

# nvcc compiles generated harnesses (no GPU needed). Tests that need it say
# "REQUIRES: nvcc".
nvcc = shutil.which("nvcc") or next(
    (p for p in [os.path.join(os.environ.get("CUDA_PATH", ""), "bin", "nvcc"),
                 "/usr/local/cuda/bin/nvcc"] if os.path.isfile(p)), None)
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
