//===- FuzzPipeline.cpp - libFuzzer target for the whole analysis ---------===//
///
/// \file
/// Writes the input as a .cu file and runs what `coalesce-lint FILE` runs:
/// coalesce::analyze (one file, one job, a short --timeout), triage, the
/// text, JSON, SARIF and GitHub writers (into memory; JSON and SARIF must
/// parse as JSON) and the harness emitter. The analysis must never crash
/// or hang: a file reported as crashed (the crash recovery caught a signal)
/// or timed out is __builtin_trap(), so libFuzzer keeps the input.
///
/// Environment:
///   CUDA_PATH               the toolkit (else found as the tool finds it);
///   COALESCE_FUZZ_PCH       a precompiled __clang_cuda_runtime_wrapper.h
///                           (scripts/fuzz.sh makes it): parsed with
///                           -nocudainc -include-pch instead of the headers,
///                           the same declarations about 5x faster;
///   COALESCE_FUZZ_TIMEOUT   the analysis' --timeout in seconds (default 60:
///                           wall time, and instrumented runs on a loaded
///                           machine take seconds);
///   COALESCE_FUZZ_VERBOSE   set: print each text report on stderr.
///
//===----------------------------------------------------------------------===//

#include "coalesce/Analyzer.h"
#include "coalesce/CompileFlags.h"
#include "coalesce/Harness.h"
#include "coalesce/Output.h"
#include "coalesce/Triage.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace coalesce;

namespace {

/// What every run shares, set up once.
struct Setup {
  std::string Dir;   ///< A private directory: the input, an empty database.
  std::string Input; ///< Dir/input.cu.
  std::string HarnessDir;
  AnalysisConfig Config;
  bool Verbose = false; ///< Print the text report (COALESCE_FUZZ_VERBOSE).
};

Setup *TheSetup = nullptr;

[[noreturn]] void die(const std::string &Message) {
  std::fprintf(stderr, "fuzz-pipeline: %s\n", Message.c_str());
  std::exit(2);
}

[[noreturn]] void fail(const std::string &Message) {
  std::fprintf(stderr, "fuzz-pipeline: %s\n", Message.c_str());
  // The analysis' crash recovery took over SIGILL: give libFuzzer its
  // handler back, so that it keeps the input.
  llvm::CrashRecoveryContext::Disable();
  __builtin_trap();
}

void writeFile(const std::string &Path, const char *Data, size_t Size) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    die("cannot write " + Path + ": " + EC.message());
  OS.write(Data, Size);
}

/// Fails when \p Text (a writer's output) does not parse as JSON.
void checkJson(const char *Writer, const std::string &Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    fail(std::string(Writer) + " wrote invalid JSON: " +
         llvm::toString(V.takeError()));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *Argc, char ***Argv) {
  auto *S = new Setup;
  llvm::SmallString<128> Dir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("fuzz-pipeline", Dir))
    die("cannot create a temporary directory: " + EC.message());
  S->Dir = Dir.str().str();
  S->Input = S->Dir + "/input.cu";
  S->HarnessDir = S->Dir + "/harness";
  // An empty database: no compile_commands.json above /tmp is looked for.
  writeFile(S->Dir + "/compile_commands.json", "[]\n", 3);

  AnalysisConfig &C = S->Config;
  C.Files = {S->Input};
  C.BuildDir = S->Dir;
  C.Jobs = 1;
  C.TimeoutSeconds = 60;
  if (std::optional<std::string> T =
          llvm::sys::Process::GetEnv("COALESCE_FUZZ_TIMEOUT"))
    C.TimeoutSeconds = std::max(1, std::atoi(T->c_str()));
  llvm::Expected<std::string> Cuda = findCudaInstallation("");
  if (!Cuda)
    die(llvm::toString(Cuda.takeError()));
  C.CudaPath = *Cuda;
  if (std::optional<std::string> Pch =
          llvm::sys::Process::GetEnv("COALESCE_FUZZ_PCH")) {
    if (!llvm::sys::fs::exists(*Pch))
      die("COALESCE_FUZZ_PCH: no such file: " + *Pch);
    // The wrapper clang includes implicitly, precompiled; its own include
    // path comes with -nocudainc no more.
    C.ExtraArgs = {"-nocudainc", "-isystem", C.CudaPath + "/include",
                   "-include-pch", *Pch};
  }
  S->Verbose = llvm::sys::Process::GetEnv("COALESCE_FUZZ_VERBOSE").has_value();
  TheSetup = S;
  return 0;
}

/// Analyzes a kernel that must analyze cleanly: a broken setup (a stale
/// PCH) would otherwise make every input a compile error and fuzz nothing.
/// Runs from the first input, not from LLVMFuzzerInitialize: the analysis'
/// crash recovery must find libFuzzer's signal handlers already installed,
/// to give them back when fail() traps.
void checkSetup(Setup &S) {
  const char Probe[] = "__global__ void k(float *a) { a[threadIdx.x] = 0; }\n";
  writeFile(S.Input, Probe, sizeof(Probe) - 1);
  llvm::Expected<Report> R = analyze(S.Config);
  if (!R)
    die(llvm::toString(R.takeError()));
  if (R->Kernels.size() != 1 || R->Files.size() != 1 ||
      !R->Files[0].Errors.empty())
    die("the setup does not analyze a plain kernel" +
        (R->Files.empty() || R->Files[0].Errors.empty()
             ? std::string()
             : ": " + R->Files[0].Errors[0].Message));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Setup &S = *TheSetup;
  static const bool SetupChecked = (checkSetup(S), true);
  (void)SetupChecked;
  writeFile(S.Input, reinterpret_cast<const char *>(Data), Size);

  llvm::Expected<Report> R = analyze(S.Config);
  if (!R)
    die("the run could not proceed: " + llvm::toString(R.takeError()));
  for (const FileResult &F : R->Files) {
    if (F.Crashed)
      fail("the analysis crashed: " + F.FatalError);
    if (F.TimedOut)
      fail("the analysis hung: " + F.FatalError);
    if (F.InputError)
      fail("the input could not be read: " + F.FatalError);
  }

  FindingTable Table = triage(*R, FindingOptions());
  OutputOptions Opts;
  Opts.Table = &Table;
  Opts.PrintAccesses = true;
  Opts.ShowAllErrors = true;
  std::string Text, Json, Sarif, Github;
  {
    llvm::raw_string_ostream OS(Text);
    writeText(*R, Opts, OS);
  }
  {
    llvm::raw_string_ostream OS(Json);
    writeJson(*R, Opts, OS);
  }
  {
    llvm::raw_string_ostream OS(Sarif);
    writeSarif(*R, Opts, OS);
  }
  {
    llvm::raw_string_ostream OS(Github);
    writeGithub(*R, Opts, OS);
  }
  if (S.Verbose)
    llvm::errs() << Text;
  checkJson("writeJson", Json);
  checkJson("writeSarif", Sarif);

  // The harness of every kernel: buffer extents from interval bounds.
  HarnessOptions H;
  H.VerifyAll = true;
  if (llvm::Error E = emitHarness(*R, H, S.HarnessDir))
    fail("emitHarness failed: " + llvm::toString(std::move(E)));
  return 0;
}
