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
