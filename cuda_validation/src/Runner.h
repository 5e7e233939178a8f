//===- Runner.h - Build, run and profile the emitted harness ----*- C++ -*-===//
///
/// \file
/// The GPU side of coalesce-verify: builds DIR's harness, runs it once
/// plainly (to catch crashes, timeouts and a missing GPU with a clear
/// message), then under Nsight Compute (source counters, plus a metrics pass
/// when the manifest has atomics), and loads the exports. Or, with
/// --from-recording, loads exports recorded earlier.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_RUNNER_H
#define COALESCE_VERIFY_RUNNER_H

#include "Attribution.h"
#include "Manifest.h"
#include "NcuReport.h"
#include "Replay.h"
#include "ResultWriter.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce::verify {

/// coalesce-verify's exit codes.
enum ExitCode {
  ExitConfirmed = 0,
  ExitMismatch = 1,
  ExitUsage = 2,
  ExitBuildFailed = 3,
  ExitNoGpu = 4,
  ExitKernelFailed = 5,
  /// Application mode compared nothing: ncu profiled no kernel (the
  /// program launched none, or none matching --kernel), or no kernel it
  /// profiled has a row in the manifest (each is named, with why).
  ExitNothingCompared = 6,
};

/// Harness exit codes (kept in sync with the emitter in analysis/lib/harness).
enum HarnessExit {
  HarnessOk = 0,
  HarnessKernelError = 10,
  HarnessTimeout = 11,
  HarnessNoDevice = 12,
  HarnessInitError = 13,
};

/// Command-line options of one verification.
struct RunOptions {
  std::string Dir;
  std::string Ncu;            ///< --ncu; empty: search.
  double Tolerance = 0.05;
  unsigned TimeoutSeconds = 30;
  std::string Method = "auto"; ///< auto, ncu, replay.
  std::string FromRecording;   ///< --from-recording DIR.
  std::string ReplayOutputFile; ///< --replay-output FILE (implies replay).
};

/// What the GPU side produced.
struct RunData {
  int ExitCode = ExitConfirmed; ///< Non-zero: stop with Message.
  std::string Message;
  std::string Device;
  std::string Method; ///< "ncu", "recording" or "replay".
  std::map<std::string, KernelStatus> Statuses; ///< By kernel base name.
  SourcePage Page;
  std::map<std::string, KernelCounters> Counters;
  bool HaveCounters = false;
  /// Set by --method replay (or auto's fallback): results come from Replay.
  bool Replayed = false;
  ReplayOutput Replay;
  /// Why auto mode fell back to the replay; empty otherwise.
  std::string FallbackNote;
};

/// Parses "coalesce-harness: ..." lines into \p Data (statuses, device, and
/// fatal errors as ExitNoGpu with an explanation).
void parseHarnessOutput(const std::string &Output, RunData &Data);

/// Loads DIR2's recorded exports (source.csv or source-page.csv, optional
/// metrics.csv and harness.log; per-harness files are named
/// source-NAME.csv, metrics-NAME.csv, harness-NAME.log).
RunData loadRecording(const std::string &Dir,
                      const std::vector<ManifestAccess> &Accesses);

/// Fills \p Data from replay.cu's output \p Text (statuses, device, fatal
/// errors as ExitNoGpu, malformed output as ExitUsage).
void loadReplayText(const std::string &Text, const std::string &What,
                    RunData &Data);

/// Builds and runs DIR/replay.cu (--method replay).
RunData runReplay(const RunOptions &Opts);

struct ProcessResult;

/// The ncu executable: \p Given, else PATH and the CUDA directories; empty
/// when there is none.
std::string locateNcu(const std::string &Given);

/// Sets \p Data's ExitNoGpu error for a failed ncu run \p R (explaining
/// ERR_NVGPUCTRPERM), naming it \p What.
void describeNcuFailure(const ProcessResult &R, const std::string &What,
                        RunData &Data);

/// The summary of a run: method, device, tolerance, kernel statuses; when
/// the run failed, also its exit code and message, which (like the
/// fallback note) are printed to stderr.
RunSummary startSummary(const RunData &Data, double Tolerance);

/// The input of attribute() for \p Data's profile and \p Accesses (both
/// must outlive it).
AttributionInput attributionInput(const RunData &Data,
                                  const std::vector<ManifestAccess> &Accesses,
                                  double Tolerance);

/// Builds, runs and profiles the harness in Opts.Dir; with --method replay
/// runs replay.cu instead, and with --method auto falls back to it when ncu
/// is missing or may not read the counters (ERR_NVGPUCTRPERM).
RunData runOnGpu(const RunOptions &Opts,
                 const std::vector<ManifestAccess> &Accesses);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_RUNNER_H
