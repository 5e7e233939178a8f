//===- HarnessEmitter.cpp - Writes the verification directory -------------===//

#include "HarnessPlan.h"
#include "HarnessSource.h"
#include "ReplaySource.h"

#include "coalesce/Findings.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

namespace coalesce {

const char *fillModeName(FillMode F) {
  switch (F) {
  case FillMode::Zeros:
    return "zeros";
  case FillMode::Identity:
    return "identity";
  case FillMode::Permutation:
    return "permutation";
  }
  return "identity";
}

unsigned accessId(const Report &R, size_t KernelIdx, size_t AccessIdx) {
  unsigned Id = 0;
  for (size_t K = 0; K != KernelIdx && K != R.Kernels.size(); ++K)
    Id += R.Kernels[K].Accesses.size();
  return Id + static_cast<unsigned>(AccessIdx);
}

namespace {

llvm::Error writeFile(llvm::StringRef Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write %s: %s",
                                   Path.str().c_str(), EC.message().c_str());
  OS << Text;
  return llvm::Error::success();
}

/// Single-quotes \p S for a POSIX shell.
std::string shellQuote(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

std::string tsvField(std::string S) {
  std::replace(S.begin(), S.end(), '\t', ' ');
  std::replace(S.begin(), S.end(), '\n', ' ');
  std::replace(S.begin(), S.end(), '\r', ' ');
  return S.empty() ? "-" : S;
}

std::string number(const std::optional<double> &V) {
  return V ? fmt::format("{:.6g}", *V) : "-";
}

const char *atomicName(AtomicKind K) {
  switch (K) {
  case AtomicKind::None:
    return "none";
  case AtomicKind::Integer:
    return "integer";
  case AtomicKind::Float:
    return "float";
  }
  return "none";
}

std::string manifest(const Report &R, const HarnessPlan &Plan) {
  std::string Out =
      "# coalesce-lint harness manifest v1: one row per access; read by "
      "coalesce-verify\n"
      "id\tkernel\tharness\tfile\tline\tcolumn\tend_line\top\tatomic\t"
      "access_bytes\telem_bytes\tpredicted\tideal\tclassification\trule\t"
      "call_sites\texpr\tbase\tinstance\tspace\texcess_per_launch\n";
  FindingOptions FO;
  for (const HarnessFilePlan &F : Plan.Files)
    for (const KernelPlan &K : F.Kernels)
      for (size_t AI = 0; AI != K.Kernel->Accesses.size(); ++AI) {
        const AccessRecord &A = K.Kernel->Accesses[AI];
        std::optional<Finding> Fd = buildFinding(A, FO);
        std::string Sites;
        for (const SourceLocation &S : A.CallChain)
          Sites += fmt::format("{}{}:{}", Sites.empty() ? "" : ";", S.File,
                               S.Line);
        // The finding's excess bytes per launch (global memory, when the
        // grid and the trip counts are known), for application mode's
        // predicted-against-measured excess per line.
        std::optional<double> Excess;
        if (Fd && Fd->Cost && Fd->Cost->Unit == Impact::Per::Launch &&
            A.Pattern.Space == AccessSpace::Global)
          Excess = Fd->Cost->ExcessBytes;
        Out += fmt::format(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}"
            "\t{}\t{}\t{}\t{}\n",
            accessId(R, K.KernelIdx, AI), tsvField(K.Kernel->Name), K.Harness,
            tsvField(A.Loc.File), A.Loc.Line, A.Loc.Column,
            std::max(A.Loc.Line, A.EndLoc.Line), accessOpName(A.Pattern.Op),
            atomicName(A.Pattern.Atomic), A.Pattern.AccessBytes, A.ElemBytes,
            number(A.Predicted.SectorsPerRequest),
            number(A.Predicted.IdealSectorsPerRequest),
            classificationName(A.Predicted.Class), Fd ? Fd->RuleId : "-",
            tsvField(Sites), tsvField(A.Expression), tsvField(A.Base),
            tsvField(K.Kernel->Instantiation), accessSpaceName(A.Pattern.Space),
            number(Excess));
      }
  return Out;
}

std::string buildScript(const HarnessPlan &Plan, const HarnessOptions &Opts) {
  std::string Out = "#!/usr/bin/env bash\n"
                    "# Builds the coalesce-lint harness. Set NVCC to use another "
                    "nvcc.\n"
                    "set -euo pipefail\n"
                    "cd \"$(dirname \"$0\")\"\n"
                    "NVCC=${NVCC:-nvcc}\n";
  std::string Flags;
  for (const std::string &F : Opts.CompileFlags)
    Flags += " " + shellQuote(F);
  for (const HarnessFilePlan &F : Plan.Files)
    Out += fmt::format(
        "\"$NVCC\" -O3 -lineinfo -arch={} -o {} {}.cu -I{}{}\n", Opts.Arch,
        F.Name, F.Name,
        shellQuote(llvm::sys::path::parent_path(F.SourcePath)), Flags);
  return Out;
}

/// build-replay.sh: replay.cu needs no user code, so no -I or user flags.
std::string replayBuildScript(const HarnessOptions &Opts) {
  return fmt::format(
      "#!/usr/bin/env bash\n"
      "# Builds replay.cu for coalesce-verify --method replay. Set NVCC to use "
      "another nvcc.\n"
      "set -euo pipefail\n"
      "cd \"$(dirname \"$0\")\"\n"
      "NVCC=${{NVCC:-nvcc}}\n"
      "\"$NVCC\" -O3 -arch={} -o replay replay.cu\n",
      Opts.Arch);
}

std::string readme(const HarnessPlan &Plan, const HarnessOptions &Opts) {
  std::string Out =
      "Written by `coalesce-lint --emit-harness`. To check the predictions on "
      "a GPU:\n\n"
      "    coalesce-verify DIR          # build.sh, run, profile, compare\n\n"
      "coalesce-verify comes from cuda_validation/ of the coalesce-lint "
      "sources\n(cmake -S cuda_validation -B build && cmake --build build); "
      "it needs CUDA,\nNsight Compute (ncu) and permission to read the GPU's "
      "performance counters.\nBy hand: ./build.sh && ./harness [KERNEL...] "
      "then profile with ncu.\n\n"
      "Files: manifest.tsv (the predicted accesses), harness.cu (launches "
      "each\nkernel once), src/ (a copy of the analyzed source), build.sh.\n"
      "Without counter access: coalesce-verify --method replay DIR builds "
      "replay.cu\n(build-replay.sh), which recomputes the model's address of "
      "every access on the\nGPU and counts sectors per warp: a check of the "
      "model, not of the hardware.\n"
      "build.sh also passes -I with the source's original directory for its "
      "headers;\ncopy those along when moving DIR to another machine.\n\n";
  Out += fmt::format("Arguments: buffers filled with '{}' values, scalar "
                     "integers from --param or\nthe analysis' assumptions "
                     "(else 1024), floats 1.0. Watchdog: {} s per kernel.\n\n",
                     fillModeName(Opts.Fill), Opts.TimeoutSeconds);
  for (const HarnessFilePlan &F : Plan.Files)
    for (const KernelPlan &K : F.Kernels) {
      Out += fmt::format("{} ({}): ", K.Callee, F.Name);
      if (!K.SkipReason.empty()) {
        Out += "skipped: " + K.SkipReason + "\n";
        continue;
      }
      Out += fmt::format("grid {}, block {}\n", K.Grid.str(), K.Block.str());
      for (const ArgPlan &A : K.Args) {
        if (A.ArgKind == ArgPlan::Kind::Buffer)
          Out += fmt::format("  {}: {} bytes ({})\n", A.Name, A.BufferBytes,
                             A.SizeOrigin);
        else if (A.ArgKind == ArgPlan::Kind::StructPointer) {
          Out += fmt::format("  {}: {} structure(s) of {} bytes in device "
                             "memory, {} bytes ({})\n",
                             A.Name, A.ElemCount, A.StructBytes, A.BufferBytes,
                             A.SizeOrigin);
          for (const ArgPlan &F : A.Fields)
            Out += fmt::format("    {}->{}: {} bytes{} ({})\n", A.Name, F.Name,
                               F.BufferBytes,
                               A.SharedFields ? ", one buffer shared by all "
                                                "structures"
                                              : " per structure",
                               F.SizeOrigin);
          for (const auto &[Field, V] : A.FieldValues)
            Out += fmt::format("    {}->{} = {}\n", A.Name, Field, V);
        } else if (A.ArgKind == ArgPlan::Kind::Integer)
          Out += fmt::format("  {} = {} ({})\n", A.Name, A.IntValue,
                             A.ValueOrigin);
        else
          Out += fmt::format("  {}: {}\n", A.Name, A.ValueOrigin);
      }
    }
  return Out;
}

} // namespace

llvm::Error emitHarness(const Report &R, const HarnessOptions &Opts,
                        llvm::StringRef Dir) {
  HarnessPlan Plan = planHarness(R, Opts);
  llvm::SmallString<256> Src(Dir);
  llvm::sys::path::append(Src, "src");
  if (std::error_code EC = llvm::sys::fs::create_directories(Src))
    return llvm::createStringError(EC, "cannot create %s: %s",
                                   Src.str().str().c_str(),
                                   EC.message().c_str());
  for (const HarnessFilePlan &F : Plan.Files) {
    // Same file name as the original, so the profile's line table (which
    // names the copy) matches the manifest by base name.
    std::string Base = llvm::sys::path::filename(F.SourcePath).str();
    llvm::SmallString<256> Copy(Src);
    llvm::sys::path::append(Copy, Base);
    if (std::error_code EC = llvm::sys::fs::copy_file(F.SourcePath, Copy))
      return llvm::createStringError(EC, "cannot copy %s to %s: %s",
                                     F.SourcePath.c_str(),
                                     Copy.str().str().c_str(),
                                     EC.message().c_str());
    llvm::SmallString<256> Cu(Dir);
    llvm::sys::path::append(Cu, F.Name + ".cu");
    if (llvm::Error E =
            writeFile(Cu, harnessSource(F, Opts, "src/" + Base)))
      return E;
  }
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, "manifest.tsv");
  if (llvm::Error E = writeFile(Path, manifest(R, Plan)))
    return E;
  Path = Dir;
  llvm::sys::path::append(Path, "build.sh");
  if (llvm::Error E = writeFile(Path, buildScript(Plan, Opts)))
    return E;
  llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read |
                                          llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
  Path = Dir;
  llvm::sys::path::append(Path, "replay.cu");
  if (llvm::Error E = writeFile(Path, replaySource(R, Plan)))
    return E;
  Path = Dir;
  llvm::sys::path::append(Path, "build-replay.sh");
  if (llvm::Error E = writeFile(Path, replayBuildScript(Opts)))
    return E;
  llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read |
                                          llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_write);
  Path = Dir;
  llvm::sys::path::append(Path, "README");
  return writeFile(Path, readme(Plan, Opts));
}

} // namespace coalesce

namespace coalesce {

llvm::Error writeManifest(const Report &R, llvm::StringRef Path) {
  HarnessOptions Opts;
  Opts.VerifyAll = true;
  llvm::SmallString<256> Parent(llvm::sys::path::parent_path(Path));
  if (!Parent.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
      return llvm::createStringError(EC, "cannot create %s: %s",
                                     Parent.str().str().c_str(),
                                     EC.message().c_str());
  return writeFile(Path, manifest(R, planHarness(R, Opts)));
}

} // namespace coalesce
