//===- AppRunner.h - Profile a user's application under Nsight Compute -*- C++ -*-===//
///
/// \file
/// Application mode (coalesce-verify --app): runs the user's own program,
/// built with -lineinfo, under
///   ncu --clock-control none --section SourceCounters --import-source yes
/// and exports its source page with demangled kernel names (one name per
/// template instantiation: --print-kernel-base demangled), or loads such an
/// export recorded earlier.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_APPRUNNER_H
#define COALESCE_VERIFY_APPRUNNER_H

#include "Runner.h"

#include <string>
#include <vector>

namespace coalesce::verify {

/// What to profile and how.
struct AppOptions {
  std::string Command;  ///< --app: a shell command line ("./prog -n 4").
  std::string Dir;      ///< Where the report, export and logs go.
  std::string Ncu;      ///< --ncu; empty: search.
  /// --launch-count: profile the first N launches of matching kernels; 0:
  /// the first launch of every matching kernel (at most 100 launches).
  unsigned LaunchCount = 0;
  std::string KernelRegex; ///< --kernel: kernels whose name matches.
  /// The kernels of the manifest, in order (distinct names). With them and
  /// no --launch-count, ncu profiles the first launch of each one matching
  /// --kernel and then stops the program (--kill yes): a program that
  /// launches its kernels in a long host loop stays cheap.
  std::vector<std::string> ManifestKernels;
  /// --all-kernels: the first launch of every kernel matching --kernel,
  /// the manifest's or not, and no stop (as without manifest kernels).
  bool AllKernels = false;
  unsigned TimeoutSeconds = 600; ///< For the whole profiled run.
  /// --from-recording: a source-page CSV, or a directory holding source.csv.
  std::string FromRecording;
  /// --lint-report: coalesce-lint's JSON report of the run that wrote the
  /// manifest; says why a kernel that ran has no rows. Its kernels join the
  /// manifest's in the profile filter. "" when not given.
  std::string LintReport;
};

/// The words of \p Command when it is a plain command line (words split
/// by blanks, nothing a shell would interpret); else /bin/sh -c Command.
std::vector<std::string> appCommandArgv(const std::string &Command);

/// The ncu command line for \p O (without the export step).
std::vector<std::string> appProfileCommand(const std::string &Ncu,
                                           const AppOptions &O);

/// The manifest kernels \p O profiles (those matching --kernel), or none
/// when they cannot be chosen (no manifest kernels, an invalid regex).
std::vector<std::string> appKernels(const AppOptions &O);

/// How many profiled launches end the run (ncu --kill yes), 0: none (the
/// program runs to its end).
unsigned appStopAfter(const AppOptions &O);

/// True when \p O profiles the first launch of each manifest kernel and
/// then stops the program (no --launch-count, no --all-kernels, manifest
/// kernels matching --kernel).
bool appUsesManifestFilter(const AppOptions &O);

/// True when ncu's log says it profiled no kernel ("==WARNING== No kernels
/// were profiled."; ncu then exits 0, or with the program's status, and
/// writes no report).
bool ncuProfiledNothing(const std::string &NcuLog);

/// The kernels ncu lists after profiling none ("Available Kernels:" then
/// "1. name" lines, base names, one per kernel the program launched); empty
/// when the log has no such list (the program launched no kernel).
std::vector<std::string> ncuAvailableKernels(const std::string &NcuLog);

/// Why ncu profiled nothing, for \p O's filter and the kernels \p Ran the
/// program launched (ncuAvailableKernels); \p Log is the log's path.
std::string nothingProfiledMessage(const AppOptions &O,
                                   const std::vector<std::string> &Ran,
                                   const std::string &Log);

/// Profiles the application (or loads the recording) into RunData::Page.
/// When ncu profiled nothing with the manifest's kernels as filter, the
/// program is profiled again with the kernels it did launch (ncu names
/// them), so that they can be reported as kernels without predictions; a
/// note says so. Nothing profiled at all is ExitNothingCompared, with why
/// (the program launched no kernel, or none matching --kernel). Other
/// failures (ncu missing, counters not permitted, the program failing
/// before any kernel was profiled) set ExitCode and Message; a program
/// built without -lineinfo is an ExitUsage error that says so.
RunData runApp(const AppOptions &O);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_APPRUNNER_H
