//===- CoalesceVerify.cpp - Checks coalesce-lint's predictions on a GPU ---===//
//
// coalesce-verify [--ncu PATH] [--tolerance T] [--timeout S]
//                 [--method auto|ncu|replay] [--from-recording DIR2]
//                 [--replay-output FILE] [--json FILE] DIR
//
// coalesce-verify --app 'CMD ARGS' --manifest M [--lint-report R]
//                 [--launch-count N | --all-kernels] [--kernel REGEX]
//                 [--from-recording CSV] [--json FILE] [DIR]
//
// DIR is what `coalesce-lint --emit-harness DIR` wrote (application mode:
// where the profile goes, default coalesce-app). Exit codes: 0 every
// measured access confirmed, 1 some mismatch, 2 usage or input error,
// 3 build failed, 4 no GPU or profiler unavailable, 5 a kernel failed,
// 6 application mode compared nothing (no kernel profiled, or none of those
// profiled has predictions in the manifest).
//
//===----------------------------------------------------------------------===//

#include "AppMode.h"
#include "Attribution.h"
#include "Csv.h"
#include "Manifest.h"
#include "ResultWriter.h"
#include "Runner.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

using namespace coalesce::verify;

namespace {

const char *Usage =
    "usage: coalesce-verify [options] DIR\n"
    "\n"
    "Builds and runs the harness that `coalesce-lint --emit-harness DIR` wrote,\n"
    "profiles it with Nsight Compute and compares the measured sectors per\n"
    "request of every access with the prediction in DIR/manifest.tsv.\n"
    "\n"
    "options:\n"
    "  --ncu PATH            the ncu executable (default: search PATH, CUDA)\n"
    "  --tolerance T         confirmed when |measured - predicted| <=\n"
    "                        T * max(1, predicted) (default 0.05)\n"
    "  --timeout S           per-kernel watchdog in seconds (default 30)\n"
    "  --method M            ncu: Nsight Compute's counters; replay: run\n"
    "                        DIR/replay.cu, which recomputes the model's\n"
    "                        addresses on the GPU and counts sectors per warp\n"
    "                        (checks the model, not the memory system); auto\n"
    "                        (default): ncu, falling back to replay when ncu\n"
    "                        is missing or reports ERR_NVGPUCTRPERM\n"
    "  --from-recording DIR2 parse DIR2/source.csv (+ metrics.csv,\n"
    "                        harness.log) instead of building and running\n"
    "  --replay-output FILE  parse replay.cu's output recorded in FILE instead\n"
    "                        of building and running (implies replay)\n"
    "  --json FILE           also write the results as JSON\n"
    "\n"
    "application mode (the user's own program, built with nvcc -lineinfo):\n"
    "  --app 'CMD ARGS'      profile this command line (run directly, or by\n"
    "                        /bin/sh when it needs a shell) with ncu --section\n"
    "                        SourceCounters and compare per access and per\n"
    "                        source line with --manifest\n"
    "  --manifest M          what coalesce-lint --emit-manifest M wrote\n"
    "  --lint-report R       coalesce-lint's JSON report of the same run\n"
    "                        (--format=json -o R): says why a kernel that\n"
    "                        ran has no rows in the manifest\n"
    "  --launch-count N      the first N matching launches, then stop the\n"
    "                        program (default: the first launch of every\n"
    "                        manifest kernel, then stop)\n"
    "  --all-kernels         the first launch of every kernel, in the\n"
    "                        manifest or not; the program runs to its end\n"
    "  --kernel REGEX        only kernels whose name matches\n"
    "  (--from-recording takes a source-page CSV, or a directory holding\n"
    "  source.csv; DIR, default coalesce-app, receives the profile)\n"
    "\n"
    "exit codes: 0 all confirmed, 1 mismatch, 2 usage/input error,\n"
    "            3 build failed, 4 no GPU or profiler unavailable,\n"
    "            5 kernel error or timeout, 6 (--app) nothing compared: no\n"
    "            kernel profiled, or none profiled has predictions\n";

int usageError(const std::string &Message) {
  std::cerr << "coalesce-verify: error: " << Message << "\n"
            << "run 'coalesce-verify --help' for usage\n";
  return ExitUsage;
}

bool parseDouble(const std::string &S, double &V) {
  char *End = nullptr;
  V = std::strtod(S.c_str(), &End);
  return !S.empty() && End == S.c_str() + S.size() && V >= 0;
}

} // namespace

int main(int Argc, char **Argv) {
  RunOptions Opts;
  AppOptions App;
  std::string JsonFile, ManifestPath;
  bool TimeoutGiven = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](std::string &Out) {
      if (I + 1 >= Argc)
        return false;
      Out = Argv[++I];
      return true;
    };
    std::string V;
    if (A == "-h" || A == "--help") {
      std::cout << Usage;
      return 0;
    } else if (A == "--ncu") {
      if (!Value(Opts.Ncu))
        return usageError("--ncu needs a path");
    } else if (A == "--tolerance") {
      if (!Value(V) || !parseDouble(V, Opts.Tolerance))
        return usageError("--tolerance needs a non-negative number");
    } else if (A == "--timeout") {
      double T = 0;
      if (!Value(V) || !parseDouble(V, T) || T < 1)
        return usageError("--timeout needs a number of seconds >= 1");
      Opts.TimeoutSeconds = static_cast<unsigned>(T);
      TimeoutGiven = true;
    } else if (A == "--method") {
      if (!Value(Opts.Method) ||
          (Opts.Method != "auto" && Opts.Method != "ncu" &&
           Opts.Method != "replay"))
        return usageError("--method must be auto, ncu or replay");
    } else if (A == "--from-recording") {
      if (!Value(Opts.FromRecording))
        return usageError("--from-recording needs a directory");
    } else if (A == "--replay-output") {
      if (!Value(Opts.ReplayOutputFile))
        return usageError("--replay-output needs a file name");
    } else if (A == "--app") {
      if (!Value(App.Command) || App.Command.empty())
        return usageError("--app needs a command line");
    } else if (A == "--manifest") {
      if (!Value(ManifestPath))
        return usageError("--manifest needs a file name");
    } else if (A == "--launch-count") {
      double N = 0;
      if (!Value(V) || !parseDouble(V, N) || N < 1)
        return usageError("--launch-count needs a number >= 1");
      App.LaunchCount = static_cast<unsigned>(N);
    } else if (A == "--lint-report") {
      if (!Value(App.LintReport))
        return usageError("--lint-report needs a file name");
    } else if (A == "--all-kernels") {
      App.AllKernels = true;
    } else if (A == "--kernel") {
      if (!Value(App.KernelRegex))
        return usageError("--kernel needs a regular expression");
    } else if (A == "--json") {
      if (!Value(JsonFile))
        return usageError("--json needs a file name");
    } else if (!A.empty() && A[0] == '-') {
      return usageError("unknown option '" + A + "'");
    } else if (Opts.Dir.empty()) {
      Opts.Dir = A;
    } else {
      return usageError("more than one DIR given");
    }
  }
  if (!App.Command.empty() || !ManifestPath.empty()) {
    if (App.Command.empty() && Opts.FromRecording.empty())
      return usageError("--manifest needs --app 'CMD ARGS' (or --from-recording)");
    if (ManifestPath.empty())
      return usageError("--app needs --manifest M (coalesce-lint --emit-manifest M)");
    if (App.AllKernels && App.LaunchCount)
      return usageError("--all-kernels and --launch-count exclude each other");
    App.Dir = Opts.Dir.empty() ? "coalesce-app" : Opts.Dir;
    App.Ncu = Opts.Ncu;
    App.FromRecording = Opts.FromRecording;
    if (TimeoutGiven)
      App.TimeoutSeconds = Opts.TimeoutSeconds;
    return runAppMode(App, ManifestPath, Opts.Tolerance, JsonFile);
  }
  if (Opts.Dir.empty())
    return usageError("no DIR given");

  ManifestPath = Opts.Dir + "/manifest.tsv";
  std::optional<std::string> Text = readFile(ManifestPath);
  if (!Text)
    return usageError("cannot read " + ManifestPath +
                      " (write DIR with coalesce-lint --emit-harness DIR)");
  std::vector<ManifestAccess> Accesses;
  std::string Error;
  if (!parseManifest(*Text, Accesses, Error))
    return usageError(ManifestPath + ": " + Error);

  if (!Opts.ReplayOutputFile.empty() && !Opts.FromRecording.empty())
    return usageError("--replay-output and --from-recording exclude each other");
  if (!Opts.ReplayOutputFile.empty() && Opts.Method == "ncu")
    return usageError("--replay-output needs --method replay or auto");
  RunData Data;
  if (!Opts.ReplayOutputFile.empty()) {
    std::optional<std::string> Out = readFile(Opts.ReplayOutputFile);
    if (!Out)
      return usageError("cannot read " + Opts.ReplayOutputFile);
    loadReplayText(*Out, Opts.ReplayOutputFile, Data);
  } else if (!Opts.FromRecording.empty()) {
    Data = loadRecording(Opts.FromRecording, Accesses);
  } else {
    Data = runOnGpu(Opts, Accesses);
  }
  RunSummary Summary = startSummary(Data, Opts.Tolerance);
  Attribution Result;
  if (Summary.ExitCode == ExitConfirmed) {
    AttributionInput In = attributionInput(Data, Accesses, Opts.Tolerance);
    Result = Data.Replayed
                 ? attributeReplay(Accesses, Data.Replay, Opts.Tolerance)
                 : attribute(In);
    bool Failed = false, Mismatch = false;
    for (const AccessResult &R : Result.Results) {
      Failed |= R.Result == Verdict::KernelFailed;
      Mismatch |= R.Result == Verdict::Mismatch;
    }
    Summary.ExitCode = Failed ? ExitKernelFailed
                              : Mismatch ? ExitMismatch : ExitConfirmed;
    if (!Data.Device.empty())
      std::cout << "device: " << Data.Device << "\n";
    writeTable(Result, Summary, std::cout);
    for (const auto &[Kernel, S] : Data.Statuses)
      if (S.Status != "ok")
        std::cerr << "coalesce-verify: kernel " << Kernel << ": " << S.Status
                  << (S.Reason.empty() ? "" : " (" + S.Reason + ")") << "\n";
    std::ofstream Tsv(Opts.Dir + "/results.tsv");
    if (Tsv)
      writeTsv(Result, Tsv);
    else
      std::cerr << "coalesce-verify: warning: cannot write " << Opts.Dir
                << "/results.tsv\n";
  }
  if (!JsonFile.empty()) {
    std::ofstream Json(JsonFile);
    if (!Json) {
      std::cerr << "coalesce-verify: error: cannot write " << JsonFile << "\n";
      return ExitUsage;
    }
    writeJson(Result, Summary, Json);
  }
  return Summary.ExitCode;
}
