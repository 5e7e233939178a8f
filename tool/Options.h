//===- Options.h - Command-line options of coalesce-lint --------*- C++ -*-===//
///
/// \file
/// The tool's options, parsed into one typed struct, and the small helpers
/// that turn them into actions and exit codes.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TOOL_OPTIONS_H
#define COALESCE_TOOL_OPTIONS_H

#include "coalesce/Config.h"
#include "coalesce/ConfigFile.h"
#include "coalesce/Findings.h"
#include "coalesce/Policy.h"
#include "coalesce/Report.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace coalesce {
class FindingTable;
namespace tool {

/// Exit codes, documented in docs/options.md and the man page.
enum ExitCode {
  ExitClean = 0,     ///< Nothing to report.
  ExitFindings = 1,  ///< At least one finding (unless --fail-on=never).
  ExitUsage = 2,     ///< Bad options, missing file, no CUDA installation.
  ExitCompile = 3,   ///< An input or a kernel does not compile.
  ExitVerify = 4,    ///< GPU verification failed or found a mismatch.
  ExitSelfCheck = 5, ///< --self-check: the report misses memory operations.
};

enum class OutputFormat { Text, Json, Sarif, Github, Html };
enum class RunAction { Analyze, Explain, ListRules, PrintRuleDocs, Exit };

/// Everything the command line says.
struct Options {
  RunAction Action = RunAction::Analyze;
  AnalysisConfig Analysis;
  FindingOptions Findings;
  OutputFormat Format = OutputFormat::Text;
  std::string OutputFile;
  bool Color = false;
  bool PrintAccesses = false;
  bool ShowAllErrors = false;
  bool Verbose = false;
  bool Summary = false;
  bool FailOnFindings = true;
  /// --launcher: O.Analysis.ExtraArgs is a compiler command to analyze, then
  /// run.
  bool Launcher = false;
  /// --arch was given (it then overrides the compile command's).
  bool ArchGiven = false;
  /// Draw a progress bar on stderr (--progress; auto: stderr is a terminal).
  bool Progress = false;
  /// --shard K/N: Index K (1-based) of Count shards; Count 0: no sharding.
  struct {
    unsigned Index = 0, Count = 0;
  } Shard;
  std::string ExplainRule;
  /// --print-rule-docs PAGE (readme, rules).
  std::string RuleDocsPage;
  /// --explain-access FILE:LINE[:COL]: draw that line's accesses instead of
  /// writing a report.
  std::string ExplainAccess;
  /// Fix-its (Fixes.h): --fix writes them into the files, --fix-dry-run
  /// prints them, --export-fixes FILE writes clang-tidy's YAML.
  bool Fix = false, FixDryRun = false;
  std::string ExportFixes;
  // GPU verification.
  bool VerifyOnGpu = false;
  bool VerifyAll = false;
  bool FailOnMismatch = false;
  std::string HarnessDir;
  std::string ManifestFile; ///< --emit-manifest.
  std::string AppCommand;   ///< --run: application mode.
  unsigned LaunchCount = 0; ///< --launch-count (application mode).
  std::string KernelRegex;  ///< --kernel (application mode).
  std::map<std::string, uint64_t> Buffers;
  std::optional<BlockShape> Grid;
  std::string Fill = "identity";
  double Tolerance = 0.05;
  unsigned VerifyTimeout = 30;
  std::string VerifyExe;
  // Team workflow: configuration files, suppressions, baselines.
  /// --fail-on=error: only findings of this severity or higher fail.
  Severity FailLevel = Severity::Warning;
  std::string ConfigFile;        ///< --config; empty: search upwards.
  std::string BaselineFile;      ///< --baseline.
  std::string WriteBaselineFile; ///< --write-baseline.
  std::string DiffBase;          ///< --diff-base REV.
  std::string DiffFile;          ///< --diff FILE ('-': stdin).
  bool ListUnusedSuppressions = false;
  std::optional<std::string> HeaderFilter;
  /// Options given on the command line ("threshold", "format", ...): they
  /// override configuration files.
  std::set<std::string> Given;
};

/// Parses argv (options, files, and compiler arguments after "--").
llvm::Expected<Options> parseOptions(int Argc, const char **Argv);

/// --format NAME (text, json, sarif, github, html), from the command line or a
/// configuration file.
llvm::Error setFormat(llvm::StringRef Name, Options &O);
/// --fail-on LEVEL (warning, error, never).
llvm::Error setFailOn(llvm::StringRef Level, Options &O);

/// Parses "[KERNEL:]X[,Y[,Z]]" (also "16x16").
llvm::Expected<BlockOverride> parseBlock(llvm::StringRef S);
/// Parses "[KERNEL:]NAME=VALUE".
llvm::Expected<ParamValue> parseParam(llvm::StringRef S);

/// The `verify:` settings of a configuration file, for every option the
/// command line did not give.
void applyVerifySettings(const VerifySettings &V, Options &O);

/// --explain RULE: prints the rule's documentation; returns the exit code.
int explainRule(llvm::StringRef Id, llvm::raw_ostream &OS);
/// --list-rules.
int listRules(llvm::raw_ostream &OS);

/// Warns about --block/--param options naming a kernel the files lack
/// (a typo would otherwise be silently ignored).
void warnUnmatchedKernels(const Report &R, const Options &O,
                          llvm::raw_ostream &OS);

/// The exit code for an analysis that produced \p Findings findings.
int exitCode(const Report &R, unsigned Findings, const Options &O);

/// --explain-access: explains the accesses at O.ExplainAccess in \p R on
/// stdout; returns ExitClean, or the exit code of the error it prints
/// (ExitUsage when there is no access there).
int explainAccessAt(const Report &R, const Options &O,
                    const FindingTable &Table);

/// --fix, --fix-dry-run, --export-fixes: computes the fix-its of \p R
/// with \p Config (the analysis the report came from), prints, exports or
/// applies them. Returns ExitClean, or ExitUsage after printing an error.
int runFixes(const Report &R, const Options &O, const AnalysisConfig &Config);

/// --emit-harness / --verify-on-gpu: emits the harness and, when asked, runs
/// it through coalesce-verify and merges the measurements into \p R.
/// Returns ExitClean, ExitVerify or ExitUsage.
int runVerification(Report &R, const Options &O, const char *Argv0);

} // namespace tool
} // namespace coalesce

#endif // COALESCE_TOOL_OPTIONS_H
