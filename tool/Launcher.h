//===- Launcher.h - coalesce-lint as a compiler launcher --------*- C++ -*-===//
///
/// \file
/// `coalesce-lint --launcher [OPTIONS] -- COMPILER ARGS...` (for
/// CMAKE_CUDA_COMPILER_LAUNCHER, Make's NVCC=, Bazel or ninja toolchains):
/// analyzes the CUDA sources of the compile command with its own flags,
/// prints the findings on stderr, then runs the real compiler and returns its
/// status, so any build, distributed or not, that runs the compiler runs the
/// analysis.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TOOL_LAUNCHER_H
#define COALESCE_TOOL_LAUNCHER_H

#include "Options.h"

#include "coalesce/CompileFlags.h"

#include <string>
#include <vector>

namespace coalesce {
namespace tool {

/// The CUDA sources of a translated compile command: its inputs ending in
/// .cu, or any C/C++ input under "-x cu" (translateCompileCommand already
/// tells inputs from option values such as "-o x.cu" or "-MF x.cu.d").
std::vector<std::string> cudaSourcesOf(const TranslatedFlags &T);

/// Sets up \p O to analyze the compile command O.Analysis.ExtraArgs (the
/// compiler and its arguments): the inputs become the files, the
/// translated flags the extra arguments. Returns false when the command
/// compiles no CUDA source (a link, a host file, --version): only the
/// compiler runs then.
bool planLauncherAnalysis(Options &O, std::vector<std::string> &Compiler);

/// Runs \p Compiler (its argv) with the standard streams inherited; returns
/// its exit status, or 127 with a message when it cannot be started.
int runCompiler(const std::vector<std::string> &Compiler);

} // namespace tool
} // namespace coalesce

#endif // COALESCE_TOOL_LAUNCHER_H
