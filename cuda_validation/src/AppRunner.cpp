//===- AppRunner.cpp - Profile a user's application under Nsight Compute --===//

#include "AppRunner.h"

#include "Csv.h"
#include "LineComparison.h"
#include "Process.h"

#include <sys/stat.h>

namespace coalesce::verify {

namespace {

bool isDirectory(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

/// Parses the export into \p Data; false with Data's error set.
bool loadPage(const std::string &Csv, const std::string &What, RunData &Data) {
  std::string Error;
  // ncu's own words for a binary without -lineinfo.
  bool NcuSaysNoLineInfo =
      Csv.find("No lineinfo available") != std::string::npos;
  if (!parseSourcePage(Csv, Data.Page, Error) || NcuSaysNoLineInfo) {
    if (NcuSaysNoLineInfo || lacksLineInfo(Data.Page)) {
      Data.ExitCode = ExitUsage;
      Data.Message = What + ": the program was built without line "
                     "information (ncu: \"No lineinfo available\"), so no "
                     "instruction can be mapped to a source line. Rebuild it "
                     "with `nvcc -lineinfo` (or -G) and run again";
      return false;
    }
    Data.ExitCode = ExitNoGpu;
    Data.Message = What + ": no kernel was profiled (" + Error +
                   "); check that the command launches a kernel matching "
                   "--kernel";
    return false;
  }
  if (lacksLineInfo(Data.Page)) {
    Data.ExitCode = ExitUsage;
    Data.Message = What + ": the program was built without line information: "
                   "no instruction has a source line. Rebuild it with "
                   "`nvcc -lineinfo` (or -G) and run again";
    return false;
  }
  return true;
}

} // namespace

std::vector<std::string> appProfileCommand(const std::string &Ncu,
                                           const AppOptions &O) {
  std::string Regex = O.KernelRegex.empty() ? "." : O.KernelRegex;
  std::vector<std::string> Argv = {Ncu, "--clock-control", "none", "--section",
                                   "SourceCounters", "--import-source", "yes"};
  if (O.LaunchCount) {
    Argv.insert(Argv.end(), {"--kernel-name", "regex:" + Regex,
                             "--launch-count", std::to_string(O.LaunchCount)});
  } else {
    // The first invocation of every matching kernel.
    Argv.insert(Argv.end(), {"--kernel-id", "::regex:" + Regex + ":1",
                             "--launch-count", "100"});
  }
  Argv.insert(Argv.end(), {"-f", "-o", O.Dir + "/app", "/bin/sh", "-c",
                           O.Command});
  return Argv;
}

RunData runApp(const AppOptions &O) {
  RunData Data;
  if (!O.FromRecording.empty()) {
    Data.Method = "recording";
    std::string Path = isDirectory(O.FromRecording)
                           ? O.FromRecording + "/source.csv"
                           : O.FromRecording;
    std::optional<std::string> Csv = readFile(Path);
    if (!Csv) {
      Data.ExitCode = ExitUsage;
      Data.Message = "cannot read " + Path;
      return Data;
    }
    loadPage(*Csv, Path, Data);
    return Data;
  }
  Data.Method = "ncu";
  mkdir(O.Dir.c_str(), 0755);
  std::string Ncu = locateNcu(O.Ncu);
  if (Ncu.empty()) {
    Data.ExitCode = ExitNoGpu;
    Data.Message = "Nsight Compute (ncu) not found: install it (it ships with "
                   "the CUDA toolkit) or pass --ncu PATH";
    return Data;
  }
  ProcessResult P = runProcess(appProfileCommand(Ncu, O), ".",
                               O.Dir + "/ncu.log", O.TimeoutSeconds);
  std::optional<std::string> Report = readFile(O.Dir + "/app.ncu-rep");
  if (!Report) {
    describeNcuFailure(P, "ncu (profiling `" + O.Command + "`)", Data);
    return Data;
  }
  ProcessResult X = runProcess(
      {Ncu, "-i", O.Dir + "/app.ncu-rep", "--page", "source", "--print-source",
       "cuda,sass", "--csv", "--print-kernel-base", "function"},
      ".", O.Dir + "/source.csv", 600);
  if (X.ExitCode != 0) {
    describeNcuFailure(X, "ncu -i (exporting the source page)", Data);
    return Data;
  }
  if (loadPage(X.Output, O.Dir + "/source.csv", Data) && P.ExitCode != 0)
    Data.FallbackNote = "the program exited with " +
                        std::to_string(P.ExitCode) +
                        " under ncu; the kernels profiled before are compared "
                        "(log: " + O.Dir + "/ncu.log)";
  return Data;
}

} // namespace coalesce::verify
