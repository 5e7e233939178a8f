//===- Fixes.cpp - --fix, --fix-dry-run, --export-fixes -------------------===//
#include "Options.h"

#include "coalesce/Fixes.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace coalesce {
namespace tool {

int runFixes(const Report &R, const Options &O, const AnalysisConfig &Config) {
  auto Fail = [](const std::string &Msg) {
    llvm::WithColor::error(llvm::errs(), "coalesce-lint") << Msg << "\n";
    return ExitUsage;
  };
  llvm::Expected<std::vector<FixIt>> Fixes = paddingFixes(R, Config);
  if (!Fixes)
    return Fail(llvm::toString(Fixes.takeError()));
  // Listed on stderr, like the summary, so that a report on stdout (JSON,
  // SARIF) stays whole.
  for (const FixIt &F : *Fixes)
    llvm::errs() << fmt::format("{}:{}:{}: fix-it: replace '{}' with '{}': "
                                "{} [{}]\n",
                                F.Loc.File, F.Loc.Line, F.Loc.Column,
                                F.Original, F.Replacement, F.Message,
                                F.RuleId);
  if (!O.ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(O.ExportFixes, EC);
    if (EC)
      return Fail(fmt::format("cannot write {}: {}", O.ExportFixes,
                              EC.message()));
    OS << fixesYaml(*Fixes, R.Files.empty() ? "" : R.Files.front().File);
  }
  if (O.Fix) {
    if (llvm::Error E = applyFixes(*Fixes))
      return Fail(llvm::toString(std::move(E)));
    llvm::errs() << fmt::format("{} fix-it{} applied\n", Fixes->size(),
                                Fixes->size() == 1 ? "" : "s");
  } else {
    llvm::errs() << fmt::format("{} fix-it{} (not applied; --fix applies "
                                "them)\n",
                                Fixes->size(), Fixes->size() == 1 ? "" : "s");
  }
  return ExitClean;
}

} // namespace tool
} // namespace coalesce
