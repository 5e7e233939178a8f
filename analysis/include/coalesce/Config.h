//===- Config.h - Typed options of an analysis run --------------*- C++ -*-===//
///
/// \file
/// The options the tool passes down to the analysis. Nothing deep inside the
/// analysis reads global options: everything comes through this struct.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_CONFIG_H
#define COALESCE_CONFIG_H

#include "coalesce/LaneModel.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// A block shape given by the user, for one kernel or (Kernel empty) all.
struct BlockOverride {
  std::string Kernel;
  BlockShape Shape;
};

/// A parameter value given by the user, for one kernel or (Kernel empty) all.
struct ParamValue {
  std::string Kernel;
  std::string Name;
  int64_t Value = 0;
};

/// How far an analysis run got, for a progress bar.
struct AnalysisProgress {
  const char *Stage = ""; ///< "parsing" (files) or "predicting" (kernels).
  size_t Done = 0;
  size_t Total = 0;
};

/// Everything an analysis run needs.
struct AnalysisConfig {
  std::vector<std::string> Files;
  /// Directory holding compile_commands.json (-p); empty: search upwards from
  /// the first file, else use no database.
  std::string BuildDir;
  /// Compiler arguments after "--".
  std::vector<std::string> ExtraArgs;
  /// GPU architecture, e.g. "sm_90".
  std::string Arch = "sm_90";
  /// CUDA installation; empty: detect (CUDA_PATH, nvcc on PATH,
  /// /usr/local/cuda).
  std::string CudaPath;
  std::vector<BlockOverride> Blocks;
  std::vector<ParamValue> Params;
  /// Value assumed for parameters without a user value.
  int64_t DefaultValue = 1024;
  /// Take the census of every kernel's memory operations (apart from the
  /// walker) and record those the report does not account for
  /// (--self-check; KernelRecord::CensusMisses).
  bool SelfCheck = false;
  /// Seconds the parse and walk of one file may take, and again the
  /// prediction of each of its kernels (--timeout); 0: no limit.
  unsigned TimeoutSeconds = 120;
  /// Directory of the header cache: the CUDA headers precompiled once per
  /// compile configuration and reused by every parse; empty: no cache.
  std::string HeaderCacheDir;
  /// Build a missing cache entry even for a single file (the compiler
  /// launcher: the other files of the target come in later runs). Otherwise
  /// an entry is built only when two files of the run share it, since
  /// building costs more than one plain parse; existing entries are always
  /// used.
  bool HeaderCacheBuildAlways = false;
  /// Files (then kernels) analyzed at once (-j); 0: one per core. The report
  /// is the same for every value.
  unsigned Jobs = 0;
  /// Called after each file and each kernel, one call at a time; may be
  /// empty.
  std::function<void(const AnalysisProgress &)> OnProgress;

  /// The block shape the user gave for \p Kernel, if any (per-kernel first).
  std::optional<BlockShape> blockFor(const std::string &Kernel) const;
  /// Parameter values for \p Kernel (per-kernel values override global ones).
  std::map<std::string, int64_t> paramsFor(const std::string &Kernel) const;
};

} // namespace coalesce

#endif // COALESCE_CONFIG_H
