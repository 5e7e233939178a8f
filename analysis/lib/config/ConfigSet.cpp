//===- ConfigSet.cpp - Configuration files applied to a run ---------------===//

#include "coalesce/ConfigFile.h"

#include "findings/Paths.h"

#include "llvm/Support/Path.h"

namespace coalesce {

AnalysisConfig applyConfig(const ConfigFile &C,
                           const AnalysisConfig &CommandLine,
                           bool DefaultGiven, bool TimeoutGiven) {
  AnalysisConfig A = CommandLine;
  A.Blocks = C.Blocks;
  A.Blocks.insert(A.Blocks.end(), CommandLine.Blocks.begin(),
                  CommandLine.Blocks.end());
  A.Params = C.Params;
  A.Params.insert(A.Params.end(), CommandLine.Params.begin(),
                  CommandLine.Params.end());
  if (C.DefaultParam && !DefaultGiven)
    A.DefaultValue = *C.DefaultParam;
  if (C.Timeout && !TimeoutGiven)
    A.TimeoutSeconds = *C.Timeout;
  return A;
}

FindingPolicy policyOf(const ConfigFile &C, const FindingOptions &CommandLine,
                       bool ThresholdGiven,
                       const std::optional<std::string> &HeaderFilter,
                       bool MinImpactGiven) {
  FindingPolicy P;
  P.Findings = CommandLine;
  if (C.Threshold && !ThresholdGiven)
    P.Findings.Threshold = *C.Threshold;
  if (C.MinimumImpact && !MinImpactGiven)
    P.Findings.MinimumImpact = *C.MinimumImpact;
  P.Rules = C.Rules;
  P.HeaderFilter = HeaderFilter ? HeaderFilter : C.HeaderFilter;
  P.Exclude = C.Exclude;
  P.ExcludeBase = C.Path.empty() ? "" : C.directory();
  return P;
}

llvm::Expected<const ConfigFile &> ConfigSet::forFile(llvm::StringRef File) {
  std::string Path = Explicit;
  if (Path.empty()) {
    std::string Dir = llvm::sys::path::parent_path(absolutePath(File)).str();
    auto It = PathOfDir.find(Dir);
    if (It == PathOfDir.end())
      It = PathOfDir.emplace(Dir, findConfigFile(File)).first;
    Path = It->second;
  }
  auto It = Loaded.find(Path);
  if (It == Loaded.end()) {
    auto C = std::make_unique<ConfigFile>();
    if (!Path.empty()) {
      llvm::Expected<ConfigFile> Read = readConfigFile(Path);
      if (!Read)
        return Read.takeError();
      *C = std::move(*Read);
    }
    It = Loaded.emplace(Path, std::move(C)).first;
  }
  return *It->second;
}

} // namespace coalesce
