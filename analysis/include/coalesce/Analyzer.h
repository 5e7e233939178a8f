//===- Analyzer.h - The analysis entry point --------------------*- C++ -*-===//
///
/// \file
/// Parses each input as CUDA device code with clang, extracts every global
/// access of every kernel, and predicts its sectors per request:
///
///   file -> kernel -> global access -> symbolic address (Expr)
///        -> lane model per warp -> sectors per request -> Report
///
/// Findings and output formats are separate steps (Findings.h, Output.h).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_ANALYZER_H
#define COALESCE_ANALYZER_H

#include "coalesce/Config.h"
#include "coalesce/Report.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coalesce {

/// Analyzes all files of \p Config. Errors in the user's code are recorded in
/// the report (Report::Files), and so are inputs that cannot be read
/// (FileResult::InputError) and files whose analysis crashed or ran past
/// Config.TimeoutSeconds (FileResult::Crashed, TimedOut): the other files are
/// still analyzed. An llvm::Error is returned only when the run itself cannot
/// proceed (no CUDA installation, unreadable compilation database).
llvm::Expected<Report> analyze(const AnalysisConfig &Config);

/// Every CUDA source of \p BuildDir/compile_commands.json (files ending in
/// .cu, or compiled with nvcc or "-x cuda"), sorted, each once.
llvm::Expected<std::vector<std::string>>
cudaFilesOfDatabase(const std::string &BuildDir);

} // namespace coalesce

#endif // COALESCE_ANALYZER_H
