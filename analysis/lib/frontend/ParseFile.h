//===- ParseFile.h - The frontend's entry point for one file ----*- C++ -*-===//
///
/// \file
/// What the driver hands the frontend for one translation unit (the clang
/// command line it planned) and what comes back: the file's compile errors,
/// its kernels walked into KernelRecords (accesses, exclusions, the census
/// with --self-check), and the launches its host code makes. No prediction
/// happens here; the driver schedules those (FileJob::PredictEarly).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_FRONTEND_PARSEFILE_H
#define COALESCE_LIB_FRONTEND_PARSEFILE_H

#include "coalesce/Config.h"
#include "coalesce/Report.h"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace clang {
class Decl;
}

namespace coalesce {
namespace frontend {

/// Everything the analysis of one file needs, computed before it starts.
struct FileJob {
  std::string Path;      ///< As the user spelled it.
  std::string Abs;       ///< Absolute.
  std::string Directory; ///< Working directory of the compile command.
  std::string Input;     ///< The path clang is given.
  std::vector<std::string> Args;
  /// The precompiled CUDA headers to load (HeaderCache.h); empty: none.
  std::string Pch;
  /// When set, each kernel is handed to it as soon as it is walked (paths
  /// as reported), with its launches in the file; it returns the number
  /// the kernel's predictions got (PredictionScheduler::start).
  std::function<size_t(const KernelRecord &, std::vector<LaunchSite>)>
      PredictEarly;
};

/// What the analysis of one file produced.
struct FileAnalysis {
  FileResult File;
  std::vector<KernelRecord> Kernels;
  /// Launches found in the file's host code, by kernelKey().
  std::map<std::string, std::vector<LaunchSite>> Launches;
  /// With FileJob::PredictEarly: the number of each of Kernels' predictions
  /// (SIZE_MAX: not handed over).
  std::vector<size_t> Predicting;
};

/// Parses one file with clang and walks its kernels into \p Result (no
/// prediction).
void parseFile(const FileJob &Job, const AnalysisConfig &Config,
               FileAnalysis &Result);

/// Should the parse skip the body of \p D (ASTConsumer::shouldSkipFunctionBody)?
/// True for a function declared in a system header that the walker never
/// follows (not isWalkedLibraryFunction: cub, curand's generators). The
/// analysis never looks inside the others, and parsing them is most of the
/// parse of the CUDA headers; clangd skips them in its preambles. Clang
/// still parses the bodies that declarations need (constexpr, deduced
/// return types). KernelWalker::walksInto is its complement. The
/// driver's precompiled headers skip the same bodies.
bool skipsLibraryBody(const clang::Decl *D);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_LIB_FRONTEND_PARSEFILE_H
