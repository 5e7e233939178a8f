//===- Runner.cpp - Build, run and profile the emitted harness ------------===//

#include "Runner.h"

#include "Csv.h"
#include "Process.h"

#include <iostream>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

namespace coalesce::verify {

namespace {

bool exists(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0;
}

/// The distinct harness executables of the manifest, in order.
std::vector<std::string> harnessNames(const std::vector<ManifestAccess> &As) {
  std::vector<std::string> Names;
  std::set<std::string> Seen;
  for (const ManifestAccess &A : As)
    if (Seen.insert(A.Harness).second)
      Names.push_back(A.Harness);
  return Names;
}

/// "source.csv" for the default harness, "source-NAME.csv" for others.
std::string exportName(const std::string &Kind, const std::string &Harness,
                       const std::string &Ext) {
  return Harness == "harness" ? Kind + "." + Ext
                              : Kind + "-" + Harness + "." + Ext;
}

bool hasAtomics(const std::vector<ManifestAccess> &As) {
  for (const ManifestAccess &A : As)
    if (A.atomic())
      return true;
  return false;
}

/// Merges one harness's source page into the run's.
void mergePage(SourcePage &Into, SourcePage &&From) {
  for (SassInstruction &I : From.Instructions)
    Into.Instructions.push_back(std::move(I));
  for (const auto &[Fn, N] : From.FunctionInstructions)
    Into.FunctionInstructions[Fn] += N;
}

bool loadExports(const std::string &SourceCsv, const std::string &MetricsCsv,
                 RunData &Data) {
  std::optional<std::string> Text = readFile(SourceCsv);
  if (!Text) {
    Data.ExitCode = ExitUsage;
    Data.Message = "cannot read " + SourceCsv;
    return false;
  }
  SourcePage Page;
  std::string Error;
  if (!parseSourcePage(*Text, Page, Error)) {
    Data.ExitCode = ExitUsage;
    Data.Message = SourceCsv + ": " + Error;
    return false;
  }
  mergePage(Data.Page, std::move(Page));
  if (std::optional<std::string> M = readFile(MetricsCsv)) {
    if (!parseMetrics(*M, Data.Counters, Error)) {
      Data.ExitCode = ExitUsage;
      Data.Message = MetricsCsv + ": " + Error;
      return false;
    }
    Data.HaveCounters = true;
  }
  return true;
}

std::vector<std::string> cudaBinDirs() {
  std::vector<std::string> Dirs;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"})
    if (const char *V = std::getenv(Var))
      Dirs.push_back(std::string(V) + "/bin");
  Dirs.push_back("/usr/local/cuda/bin");
  return Dirs;
}

std::string findNcu(const std::string &Given) {
  if (!Given.empty())
    return findProgram(Given);
  std::vector<std::string> Dirs = cudaBinDirs();
  for (const std::string &D : std::vector<std::string>(Dirs))
    Dirs.push_back(D + "/../nsight-compute");
  Dirs.push_back("/opt/nvidia/nsight-compute");
  return findProgram("ncu", Dirs);
}

/// nvcc from $NVCC, PATH or the CUDA directories; empty when missing.
std::string findNvcc() {
  return std::getenv("NVCC") ? findProgram(std::getenv("NVCC"))
                             : findProgram("nvcc", cudaBinDirs());
}

const char *NoNvcc = "nvcc not found (looked on PATH, $CUDA_PATH/bin and "
                     "/usr/local/cuda/bin): install the CUDA toolkit or set "
                     "NVCC=/path/to/nvcc";

/// Checks nvidia-smi -L when nvidia-smi exists; false with Data set.
bool checkGpu(const std::string &Dir, RunData &Data) {
  std::string Smi = findProgram("nvidia-smi");
  if (Smi.empty())
    return true;
  ProcessResult R = runProcess({Smi, "-L"}, Dir, Dir + "/nvidia-smi.log", 60);
  if (R.ExitCode == 0)
    return true;
  Data.ExitCode = ExitNoGpu;
  Data.Message = "no usable GPU: nvidia-smi -L failed (exit " +
                 std::to_string(R.ExitCode) + "): " + tailLines(R.Output, 5);
  return false;
}

/// Whether DIR has the replay (older emitters did not write it).
bool canReplay(const std::string &Dir) {
  return exists(Dir + "/replay.cu") && exists(Dir + "/build-replay.sh");
}

/// auto mode: the replay instead of ncu, saying why.
RunData fallBackToReplay(const RunOptions &Opts, const std::string &Why) {
  RunData Data = runReplay(Opts);
  Data.FallbackNote =
      Why + "; falling back to --method replay (instrumented replay of the "
            "model's address functions on the GPU: a check of the lane model "
            "and the launch, not of the memory system)";
  return Data;
}

/// Explains a failed profiler run; sets ExitNoGpu.
void explainNcuFailure(const ProcessResult &R, const std::string &What,
                       RunData &Data) {
  Data.ExitCode = ExitNoGpu;
  if (R.Output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    Data.Message =
        "Nsight Compute may not read the GPU performance counters here "
        "(ERR_NVGPUCTRPERM). Run coalesce-verify as root, or allow counters "
        "for all users: add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' "
        "to a file in /etc/modprobe.d/ and reload the driver (or reboot); in a "
        "container, start it with --cap-add=SYS_ADMIN. See "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM";
    return;
  }
  // ncu exits 0 without a report when it profiled nothing; application
  // mode explains that case before it gets here (AppRunner.cpp).
  Data.Message = What +
                 (R.TimedOut        ? " timed out (exit " +
                                          std::to_string(R.ExitCode) + ")"
                  : R.ExitCode == 0 ? " exited 0 without writing a report"
                                    : " failed (exit " +
                                          std::to_string(R.ExitCode) + ")") +
                 ":\n" + tailLines(R.Output, 15);
}

} // namespace

void parseHarnessOutput(const std::string &Output, RunData &Data) {
  std::istringstream In(Output);
  std::string Line;
  const std::string Prefix = "coalesce-harness: ";
  while (std::getline(In, Line)) {
    size_t At = Line.find(Prefix);
    if (At == std::string::npos)
      continue;
    std::string Rest = Line.substr(At + Prefix.size());
    std::map<std::string, std::string> Fields;
    while (!Rest.empty()) {
      size_t Eq = Rest.find('=');
      if (Eq == std::string::npos)
        break;
      std::string Key = Rest.substr(0, Eq);
      std::string Value = Rest.substr(Eq + 1);
      if (Key == "reason" || Key == "device") { // Free text to the end.
        Fields[Key] = Value;
        break;
      }
      size_t Space = Value.find(' ');
      Fields[Key] = Value.substr(0, Space);
      Rest = Space == std::string::npos ? "" : Value.substr(Space + 1);
    }
    if (Fields.count("device"))
      Data.Device = Fields["device"];
    if (Fields.count("fatal")) {
      const std::string &E = Fields["fatal"];
      Data.ExitCode = ExitNoGpu;
      if (E == "cudaErrorInsufficientDriver")
        Data.Message = "the NVIDIA driver is missing or older than the CUDA runtime the "
                       "harness was built with (cudaErrorInsufficientDriver): "
                       "update the driver or build with an older CUDA toolkit";
      else if (E == "cudaErrorNoDevice")
        Data.Message = "no CUDA GPU is visible to the harness "
                       "(cudaErrorNoDevice); check nvidia-smi and "
                       "CUDA_VISIBLE_DEVICES";
      else
        Data.Message = "the harness could not initialize CUDA: " + E +
                       (Fields.count("reason") ? " (" + Fields["reason"] + ")"
                                               : "");
    }
    if (Fields.count("kernel") && Fields.count("status"))
      Data.Statuses[kernelBaseName(Fields["kernel"])] = {Fields["status"],
                                                         Fields["reason"]};
  }
}

RunData loadRecording(const std::string &Dir,
                      const std::vector<ManifestAccess> &Accesses) {
  RunData Data;
  Data.Method = "recording";
  for (const std::string &H : harnessNames(Accesses)) {
    std::string Source = Dir + "/" + exportName("source", H, "csv");
    if (!exists(Source) && H == "harness")
      Source = Dir + "/source-page.csv";
    if (!loadExports(Source, Dir + "/" + exportName("metrics", H, "csv"), Data))
      return Data;
    if (std::optional<std::string> Log =
            readFile(Dir + "/" + exportName("harness", H, "log")))
      parseHarnessOutput(*Log, Data);
  }
  return Data;
}

void loadReplayText(const std::string &Text, const std::string &What,
                    RunData &Data) {
  Data.Method = "replay";
  Data.Replayed = true;
  std::string Error;
  if (!parseReplayOutput(Text, Data.Replay, Error)) {
    Data.ExitCode = ExitUsage;
    Data.Message = What + ": " + Error;
    return;
  }
  Data.Device = Data.Replay.Device;
  Data.Statuses = Data.Replay.Kernels;
  if (!Data.Replay.Fatal.empty()) {
    // The same messages as for the harness.
    parseHarnessOutput("coalesce-harness: fatal=" + Data.Replay.Fatal +
                           (Data.Replay.FatalReason.empty()
                                ? ""
                                : " reason=" + Data.Replay.FatalReason),
                       Data);
  }
}

RunData runReplay(const RunOptions &Opts) {
  RunData Data;
  Data.Method = "replay";
  Data.Replayed = true;
  const std::string &Dir = Opts.Dir;
  if (!canReplay(Dir)) {
    Data.ExitCode = ExitUsage;
    Data.Message = Dir + "/replay.cu or build-replay.sh is missing: emit DIR "
                   "again with a coalesce-lint that writes them "
                   "(--emit-harness)";
    return Data;
  }
  std::string Nvcc = findNvcc();
  if (Nvcc.empty()) {
    Data.ExitCode = ExitBuildFailed;
    Data.Message = NoNvcc;
    return Data;
  }
  setenv("NVCC", Nvcc.c_str(), 1);
  ProcessResult Build = runProcess({"bash", "build-replay.sh"}, Dir,
                                   Dir + "/build-replay.log", 900);
  if (Build.ExitCode != 0) {
    Data.ExitCode = ExitBuildFailed;
    Data.Message = "building replay.cu failed (" + Dir +
                   "/build-replay.log):\n" + tailLines(Build.Output, 20);
    return Data;
  }
  if (!checkGpu(Dir, Data))
    return Data;
  ProcessResult R = runProcess({"./replay"}, Dir, Dir + "/replay.log",
                               Opts.TimeoutSeconds * 4 + 60);
  if (!R.Started) {
    Data.ExitCode = ExitBuildFailed;
    Data.Message = "cannot execute " + Dir + "/replay";
    return Data;
  }
  loadReplayText(R.Output, Dir + "/replay.log", Data);
  if (Data.ExitCode != ExitConfirmed)
    return Data;
  if (R.TimedOut || (R.ExitCode != 0 && R.ExitCode != HarnessKernelError)) {
    Data.ExitCode = ExitKernelFailed;
    Data.Message = "replay " + std::string(R.TimedOut ? "timed out" : "failed") +
                   " (exit " + std::to_string(R.ExitCode) + "):\n" +
                   tailLines(R.Output, 15);
  }
  return Data;
}

RunData runOnGpu(const RunOptions &Opts,
                 const std::vector<ManifestAccess> &Accesses) {
  RunData Data;
  Data.Method = "ncu";
  const std::string &Dir = Opts.Dir;
  if (Opts.Method == "replay")
    return runReplay(Opts);

  // 1. Build.
  std::string Nvcc = findNvcc();
  if (Nvcc.empty()) {
    Data.ExitCode = ExitBuildFailed;
    Data.Message = NoNvcc;
    return Data;
  }
  if (!exists(Dir + "/build.sh")) {
    Data.ExitCode = ExitUsage;
    Data.Message = Dir + "/build.sh is missing: was DIR written by "
                   "coalesce-lint --emit-harness?";
    return Data;
  }
  setenv("NVCC", Nvcc.c_str(), 1);
  ProcessResult Build =
      runProcess({"bash", "build.sh"}, Dir, Dir + "/build.log", 900);
  if (Build.ExitCode != 0) {
    Data.ExitCode = ExitBuildFailed;
    Data.Message = "building the harness failed (" + Dir +
                   "/build.log):\n" + tailLines(Build.Output, 20);
    return Data;
  }

  // 2. Is there a GPU at all?
  if (!checkGpu(Dir, Data))
    return Data;

  std::string Ncu;
  {
    Ncu = findNcu(Opts.Ncu);
    if (Ncu.empty()) {
      if (Opts.Method == "auto" && canReplay(Dir))
        return fallBackToReplay(Opts, "Nsight Compute (ncu) not found");
      Data.ExitCode = ExitNoGpu;
      Data.Message = "Nsight Compute (ncu) not found: install it (it ships "
                     "with the CUDA toolkit) or pass --ncu PATH";
      return Data;
    }
  }

  bool Atomics = hasAtomics(Accesses);
  for (const std::string &H : harnessNames(Accesses)) {
    // 3. Plain runs, dropping kernels that fail, until the rest run cleanly.
    std::vector<std::string> Kernels;
    std::set<std::string> Seen;
    for (const ManifestAccess &A : Accesses)
      if (A.Harness == H && Seen.insert(A.Kernel).second)
        Kernels.push_back(A.Kernel);
    std::vector<std::string> Good;
    for (unsigned Round = 0; Round != 8; ++Round) {
      std::vector<std::string> Argv = {"./" + H};
      std::vector<std::string> Pending;
      for (const std::string &K : Kernels)
        if (!Data.Statuses.count(kernelBaseName(K)) ||
            Data.Statuses[kernelBaseName(K)].Status == "pending")
          Pending.push_back(K);
      if (Pending.empty())
        break;
      Argv.insert(Argv.end(), Pending.begin(), Pending.end());
      unsigned Limit = Opts.TimeoutSeconds * (Pending.size() + 1) + 60;
      ProcessResult R = runProcess(Argv, Dir, Dir + "/" +
                                   exportName("harness", H, "log"), Limit);
      parseHarnessOutput(R.Output, Data);
      if (Data.ExitCode != ExitConfirmed)
        return Data;
      if (!R.Started) {
        Data.ExitCode = ExitBuildFailed;
        Data.Message = "cannot execute " + Dir + "/" + H;
        return Data;
      }
      bool Progress = false;
      for (const std::string &K : Pending) {
        auto It = Data.Statuses.find(kernelBaseName(K));
        if (It == Data.Statuses.end()) {
          if (R.ExitCode == HarnessOk || R.TimedOut) {
            Data.Statuses[kernelBaseName(K)] = {
                R.TimedOut ? "timeout" : "error",
                R.TimedOut ? "the harness was killed at the deadline"
                           : "the harness did not report on it"};
            Progress = true;
          }
          continue;
        }
        Progress = true;
        if (It->second.Status == "ok")
          Good.push_back(K);
      }
      if (R.ExitCode >= 128 && !R.TimedOut) {
        // A crash of the host process: every unreported kernel failed.
        for (const std::string &K : Pending)
          Data.Statuses.emplace(kernelBaseName(K),
                                KernelStatus{"error", "the harness crashed (exit " +
                                                          std::to_string(R.ExitCode) + ")"});
        break;
      }
      if (!Progress)
        break;
    }
    if (Good.empty())
      continue;

    // 4. Profile the kernels that ran cleanly.
    std::vector<std::string> Profile = {
        Ncu, "--clock-control", "none", "--section", "SourceCounters",
        "--import-source", "yes", "-f", "-o", "rep-" + H, "./" + H};
    Profile.insert(Profile.end(), Good.begin(), Good.end());
    unsigned Limit = Opts.TimeoutSeconds * 20 * (Good.size() + 1) + 120;
    ProcessResult P = runProcess(Profile, Dir, Dir + "/ncu-" + H + ".log", Limit);
    if (Opts.Method == "auto" && canReplay(Dir) &&
        P.Output.find("ERR_NVGPUCTRPERM") != std::string::npos)
      return fallBackToReplay(Opts, "ncu may not read the GPU performance "
                                    "counters here (ERR_NVGPUCTRPERM)");
    if (P.ExitCode != 0 ||
        P.Output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
      explainNcuFailure(P, "ncu (profiling " + H + ")", Data);
      return Data;
    }
    std::string SourceCsv = Dir + "/" + exportName("source", H, "csv");
    ProcessResult X = runProcess(
        {Ncu, "-i", "rep-" + H + ".ncu-rep", "--page", "source",
         "--print-source", "cuda,sass", "--csv", "--print-kernel-base",
         "function"},
        Dir, SourceCsv, 600);
    if (X.ExitCode != 0) {
      explainNcuFailure(X, "ncu -i (exporting the source page)", Data);
      return Data;
    }
    std::string MetricsCsv = Dir + "/" + exportName("metrics", H, "csv");
    if (Atomics) {
      std::vector<std::string> M = {Ncu, "--clock-control", "none", "--metrics",
                                    counterMetricList(), "--csv",
                                    "--print-kernel-base", "function",
                                    "./" + H};
      M.insert(M.end(), Good.begin(), Good.end());
      ProcessResult MR = runProcess(M, Dir, MetricsCsv, Limit);
      if (MR.ExitCode != 0) {
        explainNcuFailure(MR, "ncu (metrics pass)", Data);
        return Data;
      }
    } else {
      std::remove(MetricsCsv.c_str());
    }
    if (!loadExports(SourceCsv, MetricsCsv, Data))
      return Data;
  }
  return Data;
}

} // namespace coalesce::verify

namespace coalesce::verify {

std::string locateNcu(const std::string &Given) { return findNcu(Given); }

void describeNcuFailure(const ProcessResult &R, const std::string &What,
                        RunData &Data) {
  explainNcuFailure(R, What, Data);
}

} // namespace coalesce::verify

namespace coalesce::verify {

RunSummary startSummary(const RunData &Data, double Tolerance) {
  if (!Data.FallbackNote.empty())
    std::cerr << "coalesce-verify: note: " << Data.FallbackNote << "\n";
  RunSummary Summary;
  Summary.Method = Data.Method;
  Summary.Device = Data.Device;
  Summary.Tolerance = Tolerance;
  Summary.Kernels = Data.Statuses;
  if (Data.ExitCode != ExitConfirmed) {
    std::cerr << "coalesce-verify: error: " << Data.Message << "\n";
    Summary.ExitCode = Data.ExitCode;
    Summary.Message = Data.Message;
  }
  return Summary;
}

AttributionInput attributionInput(const RunData &Data,
                                  const std::vector<ManifestAccess> &Accesses,
                                  double Tolerance) {
  AttributionInput In;
  In.Accesses = &Accesses;
  In.Source = &Data.Page;
  In.Counters = Data.HaveCounters ? &Data.Counters : nullptr;
  In.Statuses = &Data.Statuses;
  In.Tolerance = Tolerance;
  return In;
}

} // namespace coalesce::verify
