//===- TeamWorkflow.h - Configuration, suppressions, baselines --*- C++ -*-===//
///
/// \file
/// The steps a team's settings add around the analysis: configuration files
/// decide the options of each input (and the inputs skipped), findings are
/// triaged by the policy of their file, in-source suppressions and the
/// baseline, and unused suppressions are listed on request.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TOOL_TEAMWORKFLOW_H
#define COALESCE_TOOL_TEAMWORKFLOW_H

#include "Options.h"

#include "coalesce/ConfigFile.h"
#include "coalesce/Suppressions.h"
#include "coalesce/Triage.h"

#include <map>
#include <vector>

namespace coalesce {
namespace tool {

/// What the workflow keeps between its steps.
struct TeamRun {
  ConfigSet Configs;
  /// The finding policy of each configuration, by its path ("" for none).
  std::map<std::string, FindingPolicy> Policies;
  SuppressionIndex Suppressions;
  std::optional<Baseline> Known;
  /// Lines changed by --diff-base or --diff; unset: every line.
  std::optional<ChangedLines> Changed;
};

/// Reads the configuration of every input, takes format and fail-on from
/// the first input's unless given on the command line, and returns one
/// analysis configuration per configuration file, excluded inputs left out.
llvm::Expected<std::vector<AnalysisConfig>> planAnalysis(Options &O,
                                                         TeamRun &T);

/// Runs each planned analysis and merges the reports (files in
/// command-line order).
llvm::Expected<Report> analyzePlanned(const std::vector<AnalysisConfig> &Plan,
                                      const Options &O);

/// Triages the findings of \p R: each file's policy, in-source suppressions,
/// and --baseline (or --write-baseline, which records them first).
llvm::Expected<FindingTable> triageFindings(const Report &R, const Options &O,
                                            TeamRun &T);

/// Warnings about unmatched NOLINTBEGIN/END, a stale baseline and, with
/// --list-unused-suppressions, the comments that suppressed nothing.
void reportSuppressionUse(const Report &R, const FindingTable &Table,
                          const Options &O, TeamRun &T);

} // namespace tool
} // namespace coalesce

#endif // COALESCE_TOOL_TEAMWORKFLOW_H
