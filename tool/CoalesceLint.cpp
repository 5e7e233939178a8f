//===- CoalesceLint.cpp - The coalesce-lint command line ------------------===//
//
// Wires command-line options to the analysis library: parse options, run
// analyze(), write the report, optionally verify on the GPU, and turn the
// outcome into an exit code.
//
// Exit codes (documented in docs/options.md and the man page):
//   0  no findings            1  findings
//   2  usage or input error   3  an input (or a kernel) does not compile
//   4  GPU verification failed or found a mismatch (--fail-on-mismatch)
//   5  --self-check: the report misses memory operations the census found
//
//===----------------------------------------------------------------------===//
#include "Launcher.h"
#include "ManyFiles.h"
#include "Merge.h"
#include "Options.h"
#include "TeamWorkflow.h"

#include "coalesce/Analyzer.h"
#include "coalesce/Output.h"
#include "coalesce/Rules.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

using namespace coalesce;

namespace {

int printError(const llvm::Twine &Msg) {
  llvm::WithColor::error(llvm::errs(), "coalesce-lint") << Msg << "\n";
  return tool::ExitUsage;
}

/// Writes the report in the chosen format to stdout or --output.
llvm::Expected<unsigned> writeReport(const Report &R, const tool::Options &O,
                                     const FindingTable &Table,
                                     llvm::raw_ostream *Sink) {
  OutputOptions Out;
  Out.Table = &Table;
  Out.Findings = O.Findings;
  Out.PrintAccesses = O.PrintAccesses;
  Out.ShowAllErrors = O.ShowAllErrors;
  Out.Verbose = O.Verbose;
  Out.Summary = O.Summary;
  std::unique_ptr<llvm::raw_fd_ostream> File;
  llvm::raw_ostream *OS = &llvm::outs();
  if (Sink && O.OutputFile.empty()) {
    OS = Sink;
  } else if (!O.OutputFile.empty()) {
    std::error_code EC;
    File = std::make_unique<llvm::raw_fd_ostream>(O.OutputFile, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write '%s': %s",
                                     O.OutputFile.c_str(),
                                     EC.message().c_str());
    OS = File.get();
  } else {
    Out.Color = O.Color;
  }
  unsigned Findings = 0;
  switch (O.Format) {
  case tool::OutputFormat::Text:
    Findings = writeText(R, Out, *OS);
    break;
  case tool::OutputFormat::Json:
    Findings = writeJson(R, Out, *OS);
    break;
  case tool::OutputFormat::Sarif:
    Findings = writeSarif(R, Out, *OS);
    break;
  case tool::OutputFormat::Github:
    Findings = writeGithub(R, Out, *OS);
    break;
  case tool::OutputFormat::Html:
    Findings = writeHtml(R, Out, *OS);
    break;
  }
  OS->flush();
  if (File && File->has_error()) {
    std::error_code EC = File->error();
    File->clear_error();
    return llvm::createStringError(
        EC, "cannot write the report to '%s': %s",
        O.OutputFile.empty() ? "<stdout>" : O.OutputFile.c_str(),
        EC.message().c_str());
  }
  return Findings;
}

/// Analyzes the files of \p O and writes the report (to \p Sink when given
/// and no --output); returns the exit code. \p TimedOut is set when a file
/// ran past --timeout and left its thread running.
int lint(tool::Options &O, const char *Argv0, llvm::raw_ostream *Sink,
         bool &TimedOut) {
  if (llvm::Error E = tool::selectFiles(O))
    return printError(llvm::toString(std::move(E)));
  tool::attachProgressBar(O);
  tool::TeamRun Team;
  llvm::Expected<std::vector<AnalysisConfig>> Plan = tool::planAnalysis(O, Team);
  if (!Plan)
    return printError(llvm::toString(Plan.takeError()));
  llvm::Expected<Report> R = tool::analyzePlanned(*Plan, O);
  tool::clearProgressBar(O);
  if (!R)
    return printError(llvm::toString(R.takeError()));
  // As clang's -disable-free does for the AST: the report stays until the
  // process ends, which returns its memory at once (freeing thousands of
  // records one by one costs more than writing them out).
  llvm::scope_exit Bury([&R] {
    llvm::BuryPointer(std::make_unique<Report>(std::move(*R)));
  });
  R->SelfChecked = O.Analysis.SelfCheck;
  tool::warnUnmatchedKernels(*R, O, llvm::errs());
  // Inputs that cannot be read are errors of the run (exit 2), named on
  // stderr as well as in the report; the other files were analyzed.
  for (const FileResult &F : R->Files)
    if (F.InputError)
      llvm::WithColor::error(llvm::errs(), "coalesce-lint")
          << F.FatalError << "\n";

  int VerifyExit = tool::ExitClean;
  if (!O.HarnessDir.empty() || O.VerifyOnGpu || !O.ManifestFile.empty()) {
    VerifyExit = tool::runVerification(*R, O, Argv0);
    if (VerifyExit == tool::ExitUsage)
      return VerifyExit;
  }

  llvm::Expected<FindingTable> Table = tool::triageFindings(*R, O, Team);
  if (!Table)
    return printError(llvm::toString(Table.takeError()));
  if (!O.ExplainAccess.empty())
    return tool::explainAccessAt(*R, O, *Table);
  llvm::Expected<unsigned> Findings = writeReport(*R, O, *Table, Sink);
  if (!Findings)
    return printError(llvm::toString(Findings.takeError()));
  tool::reportSuppressionUse(*R, *Table, O, Team);
  if (O.Fix || O.FixDryRun || !O.ExportFixes.empty())
    if (int FixExit = tool::runFixes(*R, O, Plan->front()))
      return FixExit;
  int Exit = VerifyExit != tool::ExitClean
                 ? VerifyExit
                 : tool::exitCode(*R, Table->reportedAtLeast(O.FailLevel), O);
  for (const FileResult &F : R->Files)
    TimedOut |= F.TimedOut;
  if (O.Analysis.SelfCheck &&
      writeSelfCheck(*R, llvm::errs()) > 0 &&
      (Exit == tool::ExitClean || Exit == tool::ExitFindings))
    Exit = tool::ExitSelfCheck;
  return Exit;
}

/// A file that ran past --timeout left its thread running: ends the process
/// without running static destructors under it.
int finish(int Exit, bool TimedOut) {
  if (TimedOut) {
    llvm::outs().flush();
    llvm::errs().flush();
    llvm::sys::Process::Exit(Exit, /*NoCleanup=*/true);
  }
  return Exit;
}

/// --launcher: analyze the compile command's CUDA sources, print the report
/// on stderr when it has something to say, then run the compiler.
int runAsLauncher(tool::Options &O, const char *Argv0) {
  std::vector<std::string> Compiler;
  bool TimedOut = false;
  int LintExit = tool::ExitClean;
  if (tool::planLauncherAnalysis(O, Compiler)) {
    // The target's other files come in later runs with the same flags.
    O.Analysis.HeaderCacheBuildAlways = true;
    O.Progress = false;
    O.Color = false;
    std::string Text;
    llvm::raw_string_ostream Report(Text);
    LintExit = lint(O, Argv0, &Report, TimedOut);
    // Quiet when clean: a build prints nothing for a file without findings.
    if (LintExit != tool::ExitClean)
      llvm::errs() << Text;
  }
  int CompilerExit = tool::runCompiler(Compiler);
  // The build's status is the compiler's; findings fail it only when asked
  // for with --fail-on on the command line.
  bool FailOnFindings = O.Given.count("fail-on") && O.FailOnFindings;
  if (CompilerExit == 0 && FailOnFindings && LintExit == tool::ExitFindings)
    CompilerExit = tool::ExitFindings;
  return finish(CompilerExit, TimedOut);
}

} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  if (Argc >= 2 && llvm::StringRef(Argv[1]) == "merge")
    return tool::runMerge(Argc - 2, Argv + 2);
  llvm::Expected<tool::Options> Parsed = tool::parseOptions(Argc, Argv);
  if (!Parsed)
    return printError(llvm::toString(Parsed.takeError()) +
                      "\n(run 'coalesce-lint --help' for usage)");
  tool::Options &O = *Parsed;
  if (O.Action == tool::RunAction::Exit)
    return tool::ExitClean;
  if (O.Action == tool::RunAction::Explain)
    return tool::explainRule(O.ExplainRule, llvm::outs());
  if (O.Action == tool::RunAction::ListRules)
    return tool::listRules(llvm::outs());
  if (O.Action == tool::RunAction::PrintRuleDocs)
    return writeRuleDocs(O.RuleDocsPage, llvm::outs()) ? tool::ExitClean
                                                       : tool::ExitUsage;

  if (O.Launcher)
    return runAsLauncher(O, Argv[0]);
  bool TimedOut = false;
  int Exit = lint(O, Argv[0], nullptr, TimedOut);
  return finish(Exit, TimedOut);
}
