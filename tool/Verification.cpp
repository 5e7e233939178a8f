//===- Verification.cpp - --emit-harness, --emit-manifest, --verify-on-gpu -===//
//
// Emits the companion harness for the analyzed kernels and, with
// --verify-on-gpu, runs it through coalesce-verify (built next to this tool)
// and merges what the GPU measured into the report.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "coalesce/Harness.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

#include <fmt/format.h>

namespace coalesce {
namespace tool {

namespace {

/// coalesce-verify: --verify-exe, else next to this executable, else PATH.
std::string findVerifier(const Options &O, const char *Argv0) {
  if (!O.VerifyExe.empty())
    return O.VerifyExe;
  std::string Self = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findVerifier));
  llvm::SmallString<256> Next(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(Next, "coalesce-verify");
  if (llvm::sys::fs::can_execute(Next))
    return Next.str().str();
  if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName("coalesce-verify"))
    return *P;
  return {};
}

HarnessOptions harnessOptions(const Options &O) {
  HarnessOptions H;
  H.Arch = O.Analysis.Arch;
  H.Fill = O.Fill == "zeros"         ? FillMode::Zeros
           : O.Fill == "permutation" ? FillMode::Permutation
                                     : FillMode::Identity;
  H.BufferBytes = O.Buffers;
  H.VerifyAll = O.VerifyAll;
  H.Grid = O.Grid;
  H.TimeoutSeconds = O.VerifyTimeout;
  H.Params = O.Analysis.Params;
  // -I/-D/-std given after "--" matter to nvcc too.
  for (const std::string &A : O.Analysis.ExtraArgs)
    if (llvm::StringRef(A).starts_with("-I") || llvm::StringRef(A).starts_with("-D") ||
        llvm::StringRef(A).starts_with("-std="))
      H.CompileFlags.push_back(A);
  return H;
}

int fail(const llvm::Twine &Msg, int Code) {
  llvm::WithColor::error(llvm::errs(), "coalesce-lint") << Msg << "\n";
  return Code;
}

} // namespace

int runVerification(Report &R, const Options &O, const char *Argv0) {
  if (!O.ManifestFile.empty()) {
    if (llvm::Error E = writeManifest(R, O.ManifestFile))
      return fail(llvm::toString(std::move(E)), ExitUsage);
    if (O.HarnessDir.empty() && !O.VerifyOnGpu) {
      llvm::errs() << "coalesce-lint: manifest written to " << O.ManifestFile
                   << " (run 'coalesce-verify --app CMD --manifest "
                   << O.ManifestFile << "' on a GPU machine)\n";
      return ExitClean;
    }
  }
  llvm::SmallString<256> Dir(O.HarnessDir);
  if (Dir.empty()) {
    if (std::error_code EC =
            llvm::sys::fs::createUniqueDirectory("coalesce-harness", Dir))
      return fail("cannot create a temporary directory: " + EC.message(),
                  ExitUsage);
  }
  std::string Manifest = O.ManifestFile;
  if (!O.AppCommand.empty()) {
    // Application mode: the user's program replaces the harness.
    if (Manifest.empty()) {
      llvm::SmallString<256> M(Dir);
      llvm::sys::path::append(M, "manifest.tsv");
      Manifest = M.str().str();
      if (llvm::Error E = writeManifest(R, Manifest))
        return fail(llvm::toString(std::move(E)), ExitUsage);
    }
  } else if (llvm::Error E = emitHarness(R, harnessOptions(O), Dir)) {
    return fail(llvm::toString(std::move(E)), ExitUsage);
  }
  if (!O.VerifyOnGpu) {
    llvm::errs() << "coalesce-lint: harness written to " << Dir
                 << " (run 'coalesce-verify " << Dir << "' on a GPU machine)\n";
    return ExitClean;
  }

  std::string Exe = findVerifier(O, Argv0);
  if (Exe.empty())
    return fail("coalesce-verify not found next to coalesce-lint or on PATH "
                "(use --verify-exe)",
                ExitVerify);
  VerifyOptions VO;
  VO.Tolerance = O.Tolerance;
  VO.TimeoutSeconds = O.VerifyTimeout;
  if (const char *Rec = std::getenv("COALESCE_VERIFY_FROM_RECORDING"))
    VO.FromRecording = Rec; // Replays a recorded profile (tests, no GPU).
  VO.AppCommand = O.AppCommand;
  VO.Manifest = Manifest;
  VO.LaunchCount = O.LaunchCount;
  VO.KernelRegex = O.KernelRegex;
  llvm::Expected<VerifyRun> Run = runVerifier(Exe, Dir, VO);
  if (O.HarnessDir.empty()) // A temporary harness: nothing to keep.
    llvm::sys::fs::remove_directories(Dir);
  if (!Run)
    return fail(llvm::toString(Run.takeError()), ExitVerify);
  llvm::errs() << Run->Output;

  bool Mismatch = false;
  std::vector<VerifiedAccess> Pairs = mergeMeasurements(R, Run->Accesses);
  // mergeMeasurements returns const views in report order; write back.
  size_t I = 0;
  for (KernelRecord &K : R.Kernels)
    for (AccessRecord &A : K.Accesses) {
      const VerifiedAccess &V = Pairs[I++];
      if (V.Measurements.empty())
        continue;
      A.Measured = combineLaunches(V.Measurements);
      A.Measured->PredictedLaunch =
          O.AppCommand.empty() &&
          (!O.Grid || (K.LaunchGrid && *O.Grid == *K.LaunchGrid));
      Mismatch |= A.Measured->Verdict == "mismatch";
    }
  if (Run->ExitCode != 0 && Run->ExitCode != 1)
    return fail(fmt::format("GPU verification failed: {}", Run->Message),
                ExitVerify);
  if (Mismatch && O.FailOnMismatch)
    return ExitVerify;
  return ExitClean;
}

} // namespace tool
} // namespace coalesce
