//===- TeamWorkflow.cpp - Configuration, suppressions, baselines ----------===//

#include "TeamWorkflow.h"
#include "PullRequest.h"

#include "coalesce/Analyzer.h"

#include "llvm/Support/WithColor.h"

#include <fmt/format.h>

#include <algorithm>

namespace coalesce {
namespace tool {

namespace {

/// The policy of configuration \p C, built once.
const FindingPolicy &policyFor(const ConfigFile &C, const Options &O,
                               TeamRun &T) {
  auto It = T.Policies.find(C.Path);
  if (It == T.Policies.end())
    It = T.Policies
             .emplace(C.Path, policyOf(C, O.Findings, O.Given.count("threshold"),
                                       O.HeaderFilter,
                                       O.Given.count("min-impact")))
             .first;
  return It->second;
}

} // namespace

llvm::Expected<std::vector<AnalysisConfig>> planAnalysis(Options &O,
                                                         TeamRun &T) {
  T.Configs = ConfigSet(O.ConfigFile);
  // A bad revision or diff fails before the analysis, not after it.
  llvm::Expected<std::optional<ChangedLines>> Changed = changedLinesOf(O);
  if (!Changed)
    return Changed.takeError();
  T.Changed = std::move(*Changed);
  std::vector<std::string> Order;                 // configuration paths
  std::map<std::string, std::vector<std::string>> FilesOf;
  for (const std::string &File : O.Analysis.Files) {
    llvm::Expected<const ConfigFile &> C = T.Configs.forFile(File);
    if (!C)
      return C.takeError();
    if (File == O.Analysis.Files.front()) {
      // The first input's configuration decides what is global to the run.
      if (C->Format && !O.Given.count("format"))
        if (llvm::Error E = setFormat(*C->Format, O))
          return std::move(E);
      if (C->FailOn && !O.Given.count("fail-on"))
        if (llvm::Error E = setFailOn(*C->FailOn, O))
          return std::move(E);
      applyVerifySettings(C->Verify, O);
    }
    if (policyFor(*C, O, T).excludes(File))
      continue;
    if (!FilesOf.count(C->Path))
      Order.push_back(C->Path);
    FilesOf[C->Path].push_back(File);
  }
  std::vector<AnalysisConfig> Plan;
  for (const std::string &Path : Order) {
    const std::vector<std::string> &Files = FilesOf[Path];
    llvm::Expected<const ConfigFile &> C = T.Configs.forFile(Files.front());
    if (!C)
      return C.takeError();
    AnalysisConfig A =
        applyConfig(*C, O.Analysis, O.Given.count("default-param"),
                    O.Given.count("timeout"));
    A.Files = Files;
    Plan.push_back(std::move(A));
  }
  return Plan;
}

llvm::Expected<Report> analyzePlanned(const std::vector<AnalysisConfig> &Plan,
                                      const Options &O) {
  Report Merged;
  for (const AnalysisConfig &A : Plan) {
    llvm::Expected<Report> R = analyze(A);
    if (!R)
      return R.takeError();
    std::move(R->Files.begin(), R->Files.end(),
              std::back_inserter(Merged.Files));
    std::move(R->Kernels.begin(), R->Kernels.end(),
              std::back_inserter(Merged.Kernels));
  }
  const std::vector<std::string> &Inputs = O.Analysis.Files;
  auto Position = [&](const FileResult &F) {
    return std::find(Inputs.begin(), Inputs.end(), F.File) - Inputs.begin();
  };
  std::stable_sort(Merged.Files.begin(), Merged.Files.end(),
                   [&](const FileResult &A, const FileResult &B) {
                     return Position(A) < Position(B);
                   });
  Merged.sort();
  return Merged;
}

llvm::Expected<FindingTable> triageFindings(const Report &R, const Options &O,
                                            TeamRun &T) {
  // Every file a finding may be in gets its configuration read now, so a
  // broken one is an error rather than silently ignored.
  std::map<std::string, const FindingPolicy *> PolicyOfFile;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses) {
      if (PolicyOfFile.count(A.Loc.File))
        continue;
      llvm::Expected<const ConfigFile &> C = T.Configs.forFile(A.Loc.File);
      if (!C)
        return C.takeError();
      PolicyOfFile[A.Loc.File] = &policyFor(*C, O, T);
    }
  TriageOptions TO;
  TO.PolicyFor = [&](const std::string &File) -> const FindingPolicy & {
    return *PolicyOfFile.at(File);
  };
  TO.Suppressions = &T.Suppressions;
  if (!O.WriteBaselineFile.empty()) {
    Baseline B = baselineOf(triage(R, TO), O.WriteBaselineFile);
    if (llvm::Error E = writeBaseline(B))
      return std::move(E);
    llvm::errs() << fmt::format(
        "coalesce-lint: wrote {} baseline entr{} to {}\n", B.Entries.size(),
        B.Entries.size() == 1 ? "y" : "ies", O.WriteBaselineFile);
    T.Known = std::move(B);
  } else if (!O.BaselineFile.empty()) {
    llvm::Expected<Baseline> B = readBaseline(O.BaselineFile);
    if (!B)
      return B.takeError();
    T.Known = std::move(*B);
  }
  if (T.Known)
    TO.KnownFindings = &*T.Known;
  if (T.Changed)
    TO.Changed = &*T.Changed;
  FindingTable Table = triage(R, TO);
  if (T.Changed && Table.OutsideDiff)
    llvm::WithColor::note(llvm::errs(), "coalesce-lint") << fmt::format(
        "{} finding{} on lines the diff does not touch not reported\n",
        Table.OutsideDiff, Table.OutsideDiff == 1 ? "" : "s");
  if (Table.BelowMinImpact)
    llvm::WithColor::note(llvm::errs(), "coalesce-lint") << fmt::format(
        "{} finding{} costing less than --min-impact not reported\n",
        Table.BelowMinImpact, Table.BelowMinImpact == 1 ? "" : "s");
  return Table;
}

void reportSuppressionUse(const Report &R, const FindingTable &Table,
                          const Options &O, TeamRun &T) {
  for (const FileResult &F : R.Files)
    T.Suppressions.load(F.File);
  for (const std::string &Problem : T.Suppressions.problems())
    llvm::WithColor::warning(llvm::errs(), "coalesce-lint")
        << Problem << " (it suppresses nothing)\n";
  if (Table.StaleBaselineEntries)
    llvm::WithColor::note(llvm::errs(), "coalesce-lint") << fmt::format(
        "{} baseline finding{} no longer found; --write-baseline {} drops "
        "them\n",
        Table.StaleBaselineEntries, Table.StaleBaselineEntries == 1 ? "" : "s",
        O.BaselineFile);
  if (!O.ListUnusedSuppressions)
    return;
  // Beside a text report on stdout; never inside a machine format.
  bool ToStdout = O.Format == OutputFormat::Text && O.OutputFile.empty();
  llvm::raw_ostream &OS = ToStdout ? llvm::outs() : llvm::errs();
  std::vector<const SuppressionComment *> Unused = T.Suppressions.unused();
  for (const SuppressionComment *C : Unused)
    OS << fmt::format("{}:{}:{}: unused suppression '{}'\n", C->File, C->Line,
                      C->Column, C->Text);
  OS << fmt::format("{} unused suppression{}\n", Unused.size(),
                    Unused.size() == 1 ? "" : "s");
}

} // namespace tool
} // namespace coalesce
