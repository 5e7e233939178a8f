//===- AppRunner.cpp - Profile a user's application under Nsight Compute --===//

#include "AppRunner.h"

#include "Csv.h"
#include "LineComparison.h"
#include "Process.h"

#include <sys/stat.h>

#include <cctype>
#include <regex>
#include <set>

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

/// How many results ncu reports profiling ("==PROF== Profiling ..." lines).
unsigned profiledResults(const std::string &NcuLog) {
  unsigned N = 0;
  for (size_t P = NcuLog.find("==PROF== Profiling"); P != std::string::npos;
       P = NcuLog.find("==PROF== Profiling", P + 1))
    N += P == 0 || NcuLog[P - 1] == '\n';
  return N;
}

std::string listed(const std::vector<std::string> &Names) {
  std::string Out;
  for (const std::string &N : Names)
    Out += (Out.empty() ? "" : ", ") + N;
  return Out;
}

/// The names of \p Names that --kernel selects (all without --kernel, none
/// when std::regex rejects it).
std::vector<std::string> selected(const std::vector<std::string> &Names,
                                  const std::string &KernelRegex) {
  std::vector<std::string> Out;
  try {
    std::regex Filter(KernelRegex.empty() ? "." : KernelRegex);
    for (const std::string &N : Names)
      if (std::regex_search(N, Filter))
        Out.push_back(N);
  } catch (const std::regex_error &) {
  }
  return Out;
}

/// The note for a program that ended before the first launch of every
/// manifest kernel was profiled: kernels outside the manifest were not.
std::string partialNote(const AppOptions &O, unsigned Profiled,
                        const ProcessResult &P) {
  unsigned Stop = appStopAfter(O);
  if (!appUsesManifestFilter(O) || !Profiled || Profiled >= Stop ||
      P.ExitCode != 0)
    return "";
  return "the program ended after " + std::to_string(Profiled) + " of the " +
         std::to_string(Stop) +
         " manifest kernels' first launches; kernels the manifest does not "
         "name were not profiled (--all-kernels profiles the first launch of "
         "every kernel)";
}

} // namespace

bool appUsesManifestFilter(const AppOptions &O) {
  return !O.LaunchCount && !O.AllKernels && !appKernels(O).empty();
}

bool ncuProfiledNothing(const std::string &NcuLog) {
  return NcuLog.find("==WARNING== No kernels were profiled") !=
         std::string::npos;
}

std::vector<std::string> ncuAvailableKernels(const std::string &NcuLog) {
  std::vector<std::string> Out;
  size_t P = NcuLog.find("No kernels were profiled");
  if (P == std::string::npos)
    return Out;
  P = NcuLog.find("Available Kernels:", P);
  if (P == std::string::npos)
    return Out;
  P = NcuLog.find('\n', P);
  while (P != std::string::npos && P + 1 < NcuLog.size()) {
    size_t End = NcuLog.find('\n', P + 1);
    std::string Line = NcuLog.substr(
        P + 1, End == std::string::npos ? std::string::npos : End - P - 1);
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    // "12. name": a number, a dot, a blank, the name.
    size_t Dot = Line.find(". ");
    if (Dot == 0 || Dot == std::string::npos ||
        Line.find_first_not_of("0123456789") != Dot)
      break;
    Out.push_back(Line.substr(Dot + 2));
    P = End;
  }
  return Out;
}

std::string nothingProfiledMessage(const AppOptions &O,
                                   const std::vector<std::string> &Ran,
                                   const std::string &Log) {
  std::string Cmd = "`" + O.Command + "`";
  std::string Where = " (ncu: \"No kernels were profiled\"; log: " + Log + ")";
  if (Ran.empty())
    return "ncu profiled no kernel: " + Cmd +
           " launched no CUDA kernel under it" + Where +
           ". Check that the command runs the program's GPU work (a "
           "program that finds no GPU may exit 0 without launching any)";
  std::string Text = "ncu profiled no kernel: " + Cmd + " launched " +
                     listed(Ran) + ", none of which ";
  if (!O.KernelRegex.empty() && selected(Ran, O.KernelRegex).empty())
    return Text + "matches --kernel '" + O.KernelRegex + "'" + Where;
  return Text + "ncu's filter selected" + Where;
}

std::vector<std::string> appKernels(const AppOptions &O) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  try {
    std::regex Filter(O.KernelRegex.empty() ? "." : O.KernelRegex);
    for (const std::string &K : O.ManifestKernels)
      if (!K.empty() && std::regex_search(K, Filter) && Seen.insert(K).second)
        Out.push_back(K);
  } catch (const std::regex_error &) {
    return {}; // ncu's regex dialect may still take it: no selection here.
  }
  return Out;
}

unsigned appStopAfter(const AppOptions &O) {
  if (O.LaunchCount)
    return O.LaunchCount;
  if (O.AllKernels)
    return 0;
  return static_cast<unsigned>(appKernels(O).size());
}

std::vector<std::string> appCommandArgv(const std::string &Command) {
  // Anything a shell would interpret: quotes, expansions, redirections,
  // pipes, lists, globs, comments, a leading environment assignment.
  static const std::string Special = "|&;<>()$`\\\"'*?[]#~{}!\n";
  std::vector<std::string> Words;
  std::string Word;
  for (char C : Command) {
    if (Special.find(C) != std::string::npos)
      return {"/bin/sh", "-c", Command};
    if (C == ' ' || C == '\t') {
      if (!Word.empty())
        Words.push_back(Word);
      Word.clear();
    } else {
      Word += C;
    }
  }
  if (!Word.empty())
    Words.push_back(Word);
  if (Words.empty() || Words.front().find('=') != std::string::npos)
    return {"/bin/sh", "-c", Command};
  return Words;
}

std::vector<std::string> appProfileCommand(const std::string &Ncu,
                                           const AppOptions &O) {
  std::string Regex = O.KernelRegex.empty() ? "." : O.KernelRegex;
  std::vector<std::string> Argv = {Ncu, "--clock-control", "none", "--section",
                                   "SourceCounters", "--import-source", "yes"};
  if (O.LaunchCount) {
    // The first N matching launches, then the program is stopped.
    Argv.insert(Argv.end(), {"--kernel-name", "regex:" + Regex,
                             "--launch-count", std::to_string(O.LaunchCount),
                             "--kill", "yes"});
  } else if (std::vector<std::string> Kernels =
                 O.AllKernels ? std::vector<std::string>() : appKernels(O);
             !Kernels.empty()) {
    // The first invocation of each kernel of the manifest, then stop: ncu
    // intercepts every later launch too (a program launching its kernels
    // in a host loop, PolyBench's lu with 1024 launches, otherwise runs
    // for minutes under it). The names are matched as whole words of
    // ncu's function name (no ':' in the pattern: --kernel-id splits on
    // it).
    std::string Names;
    for (const std::string &K : Kernels) {
      if (!Names.empty())
        Names += '|';
      for (char C : K) {
        if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
          Names += '\\';
        Names += C;
      }
    }
    std::string Word = "[^A-Za-z0-9_]";
    Argv.insert(Argv.end(),
                {"--kernel-id",
                 "::regex:(^|" + Word + ")(" + Names + ")(" + Word + "|$):1",
                 "--launch-count", std::to_string(Kernels.size()), "--kill",
                 "yes"});
  } else {
    // The first invocation of every matching kernel; the program runs to
    // its end.
    Argv.insert(Argv.end(), {"--kernel-id", "::regex:" + Regex + ":1",
                             "--launch-count", "100"});
  }
  Argv.insert(Argv.end(), {"-f", "-o", O.Dir + "/app"});
  // The program itself, not /bin/sh -c, when the command needs no shell:
  // on an H200 with ncu 2025.3, every launch of a program started through
  // /bin/sh -c cost about 0.1 s under ncu, also those not profiled (lu,
  // 1024 launches: past 25 s instead of 3.4 s run directly).
  for (std::string &A : appCommandArgv(O.Command))
    Argv.push_back(std::move(A));
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
  std::string Log = O.Dir + "/ncu.log";
  ProcessResult P = runProcess(appProfileCommand(Ncu, O), ".", Log,
                               O.TimeoutSeconds);
  std::optional<std::string> Report = readFile(O.Dir + "/app.ncu-rep");
  AppOptions Used = O; // The options of the run whose report is read.
  if (!Report && !P.TimedOut && ncuProfiledNothing(P.Output)) {
    // ncu names the kernels the program launched. With the manifest's
    // kernels as filter, none of them ran: profile those that did, to
    // report them as kernels without predictions.
    std::vector<std::string> Ran = ncuAvailableKernels(P.Output);
    std::vector<std::string> Others = selected(Ran, O.KernelRegex);
    if (appUsesManifestFilter(O) && !Others.empty()) {
      Used.ManifestKernels = Others;
      Data.FallbackNote = "none of the manifest's kernels (" +
                          listed(appKernels(O)) + ") was launched by `" +
                          O.Command +
                          "`; profiled instead the first launch of each "
                          "kernel it launched: " +
                          listed(Others) + " (first log: " + Log + ")";
      Log = O.Dir + "/ncu-launched.log";
      P = runProcess(appProfileCommand(Ncu, Used), ".", Log, O.TimeoutSeconds);
      Report = readFile(O.Dir + "/app.ncu-rep");
    }
    if (!Report && !P.TimedOut && ncuProfiledNothing(P.Output) &&
        (P.ExitCode == 0 || !Ran.empty())) {
      Data.ExitCode = ExitNothingCompared;
      Data.Message = nothingProfiledMessage(O, Ran, Log);
      return Data;
    }
  }
  if (!Report) {
    describeNcuFailure(P, "ncu (profiling `" + O.Command + "`)", Data);
    return Data;
  }
  ProcessResult X = runProcess(
      {Ncu, "-i", O.Dir + "/app.ncu-rep", "--page", "source", "--print-source",
       "cuda,sass", "--csv", "--print-kernel-base", "demangled"},
      ".", O.Dir + "/source.csv", 600);
  if (X.ExitCode != 0) {
    describeNcuFailure(X, "ncu -i (exporting the source page)", Data);
    return Data;
  }
  bool Loaded = loadPage(X.Output, O.Dir + "/source.csv", Data);
  unsigned Exported = 0;
  for (const auto &[Fn, N] : Data.Page.Launches)
    Exported += N;
  auto AddNote = [&](const std::string &Note) {
    if (!Note.empty())
      Data.FallbackNote += (Data.FallbackNote.empty() ? "" : "; ") + Note;
  };
  unsigned Profiled = profiledResults(P.Output);
  if (Loaded && Used.ManifestKernels == O.ManifestKernels)
    AddNote(partialNote(O, Profiled, P));
  if (Loaded && Profiled && Profiled != Exported)
    AddNote(
        "ncu profiled " + std::to_string(Profiled) +
        " launches, but the source page export was read as " +
        std::to_string(Exported) +
        " (launches are told apart by the export's block order): the "
        "per-launch rows may be split wrongly; the per-line numbers are not "
        "affected");
  if (Loaded && P.ExitCode != 0) {
    unsigned Stop = appStopAfter(Used);
    AddNote(Stop ? "the program exited with " + std::to_string(P.ExitCode) +
                   " under ncu, which stops it (--kill yes) once " +
                   std::to_string(Stop) +
                   " launches are profiled; the kernels profiled are "
                   "compared (log: " + Log + ")"
             : "the program exited with " + std::to_string(P.ExitCode) +
                   " under ncu; the kernels profiled before are compared "
                   "(log: " + Log + ")");
  }
  return Data;
}

} // namespace coalesce::verify
