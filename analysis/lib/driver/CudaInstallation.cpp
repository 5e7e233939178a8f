//===- CudaInstallation.cpp - Find the CUDA toolkit, device-parse flags --===//
///
/// \file
/// findCudaInstallation and findCudaInstallationIn: the first of --cuda-path,
/// $CUDA_PATH, the toolkit of the nvcc on $PATH and /usr/local/cuda that holds
/// include/cuda_runtime.h. cudaDeviceParseArgs: the clang arguments for a
/// device-only parse with that toolkit.
///
//===----------------------------------------------------------------------===//

#include "coalesce/CompileFlags.h"
#include "coalesce/Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>

#include <optional>

using llvm::SmallString;
using llvm::StringRef;

namespace coalesce {
namespace {

/// One place that was looked at, and why it was rejected.
struct Attempt {
  std::string Where;
  std::string Why;
};

/// \p Dir made absolute, without "." and ".." parts or a trailing slash.
std::string cleanDir(StringRef Dir) {
  SmallString<256> Path(Dir);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  while (Path.size() > 1 && llvm::sys::path::is_separator(Path.back()))
    Path.pop_back();
  return std::string(Path);
}

/// Empty when \p Dir looks like a CUDA toolkit, else the reason it does not.
std::string rejectReason(StringRef Dir) {
  if (!llvm::sys::fs::is_directory(Dir))
    return "no such directory";
  SmallString<256> Header(Dir);
  llvm::sys::path::append(Header, "include", "cuda_runtime.h");
  if (!llvm::sys::fs::exists(Header))
    return "no include/cuda_runtime.h";
  return "";
}

/// The toolkit holding the nvcc found in \p SearchPath (a $PATH-like list):
/// the directory above the bin/ of its real path; nullopt (and a reason in
/// \p Why) when there is no nvcc.
std::optional<std::string> toolkitOfNvcc(StringRef SearchPath,
                                         std::string &Why) {
  llvm::SmallVector<StringRef, 16> Dirs;
  SearchPath.split(Dirs, llvm::sys::EnvPathSeparator, /*MaxSplit=*/-1,
                   /*KeepEmpty=*/false);
  if (Dirs.empty()) {
    Why = "$PATH is empty";
    return std::nullopt;
  }
  llvm::ErrorOr<std::string> Nvcc = llvm::sys::findProgramByName("nvcc", Dirs);
  if (!Nvcc) {
    Why = "no nvcc on $PATH";
    return std::nullopt;
  }
  SmallString<256> Real;
  if (llvm::sys::fs::real_path(*Nvcc, Real))
    Real = *Nvcc;
  // <toolkit>/bin/nvcc -> <toolkit>
  return std::string(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real)));
}

llvm::Error notFound(const std::vector<Attempt> &Attempts) {
  std::string Message =
      "no CUDA toolkit found (a directory with include/cuda_runtime.h); tried:";
  for (const Attempt &A : Attempts)
    Message += fmt::format("\n  {}: {}", A.Where, A.Why);
  Message += "\nInstall the CUDA toolkit, or point to it with --cuda-path=DIR "
             "or the CUDA_PATH environment variable.";
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

} // namespace

llvm::Expected<std::string>
findCudaInstallationIn(const CudaSearchPlaces &Places) {
  std::vector<Attempt> Attempts;
  std::string Found;
  // Returns true (and the directory in Found) when Dir is a toolkit.
  auto Try = [&](StringRef Label, StringRef Dir) {
    std::string Clean = cleanDir(Dir);
    std::string Why = rejectReason(Clean);
    if (Why.empty()) {
      Found = Clean;
      return true;
    }
    Attempts.push_back({fmt::format("{} {}", Label.str(), Clean), Why});
    return false;
  };

  if (!Places.Explicit.empty()) {
    if (Try("--cuda-path", Places.Explicit))
      return Found;
    return notFound(Attempts);
  }
  if (Places.CudaPathEnv.empty())
    Attempts.push_back({"$CUDA_PATH", "not set"});
  else if (Try("$CUDA_PATH", Places.CudaPathEnv))
    return Found;

  std::string Why;
  if (std::optional<std::string> Dir = toolkitOfNvcc(Places.SearchPath, Why)) {
    if (Try("nvcc on $PATH in", *Dir))
      return Found;
  } else {
    Attempts.push_back({"nvcc", Why});
  }

  if (!Places.DefaultDir.empty() && Try("default", Places.DefaultDir))
    return Found;
  return notFound(Attempts);
}

llvm::Expected<std::string> findCudaInstallation(const std::string &Explicit) {
  CudaSearchPlaces Places;
  Places.Explicit = Explicit;
  Places.CudaPathEnv = llvm::sys::Process::GetEnv("CUDA_PATH").value_or("");
  Places.SearchPath = llvm::sys::Process::GetEnv("PATH").value_or("");
  return findCudaInstallationIn(Places);
}

namespace {
/// The compatibility header (docs/cuda-compat.md): where an installation
/// puts it (PREFIX/share/coalesce-lint/include, beside PREFIX/bin), else the
/// copy in the source tree this program was built from; empty when neither
/// exists.
std::string compatHeader() {
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  SmallString<256> Installed(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Installed, "share", "coalesce-lint", "include",
                          "coalesce_cuda_compat.h");
  if (!Exe.empty() && llvm::sys::fs::exists(Installed))
    return std::string(Installed);
  if (llvm::sys::fs::exists(COALESCE_COMPAT_HEADER))
    return COALESCE_COMPAT_HEADER;
  return {};
}
} // namespace

std::string hostCompilerIncludeDir() {
  llvm::ErrorOr<std::string> Gcc = llvm::sys::findProgramByName("gcc");
  if (!Gcc)
    return {};
  llvm::Expected<ProgramOutput> Run =
      runProgram(*Gcc, {"-print-file-name=include"}, /*SecondsToWait=*/10);
  if (!Run) {
    llvm::consumeError(Run.takeError());
    return {};
  }
  std::string Dir = StringRef(Run->Stdout).trim().str();
  // gcc echoes the name back when it has no such directory.
  if (Run->ExitCode != 0 || !llvm::sys::path::is_absolute(Dir) ||
      !llvm::sys::fs::is_directory(Dir))
    return {};
  return Dir;
}

std::vector<std::string> cudaDeviceParseArgs(const std::string &CudaPath,
                                             const std::string &Arch,
                                             const std::string &HostInclude) {
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-device-only"};
  // Without an architecture clang picks its own default.
  if (!Arch.empty())
    Args.push_back("--cuda-gpu-arch=" + Arch);
  Args.push_back("--cuda-path=" + CudaPath);
  // CUDA 13 keeps libcu++/CUB/Thrust in include/cccl, which nvcc adds to the
  // include path by itself and clang does not.
  SmallString<256> Cccl(CudaPath);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(Cccl)) {
    Args.push_back("-isystem");
    Args.push_back(std::string(Cccl));
  }
  // Clang 22 knows CUDA up to 13.0 and warns about anything newer; libdevice
  // stays on (no -nocudalib): without it clang cannot tell the SDK version
  // and lowers <<<...>>> to the pre-9.2 launch API.
  Args.push_back("-Wno-unknown-cuda-version");
  // Parse exactly as the clang driver does: with clang's resource directory,
  // whose include/cuda_wrappers (<new>, <cmath>, ...) the driver puts first
  // on the include path for CUDA. LibTooling would derive the directory from
  // this program's location, where it does not exist, and cub's placement
  // new and thrust's allocators would then fail to compile.
  SmallString<256> Wrappers(COALESCE_CLANG_RESOURCE_DIR);
  llvm::sys::path::append(Wrappers, "include", "cuda_wrappers");
  if (llvm::sys::fs::is_directory(Wrappers))
    Args.push_back("-resource-dir=" COALESCE_CLANG_RESOURCE_DIR);
  // The intrinsics nvcc declares and clang 22 lacks (__stcs(float *, float),
  // __stcg, __ldlu, ...; host min/max) and the macros nvcc predefines that
  // code tests (__CUDACC_VER_MAJOR__, __CUDA_ARCH_LIST__, ...), after clang's
  // own CUDA wrapper: code nvcc compiles then parses. The intrinsics apply
  // only to the clang versions known to lack them.
  if (std::string Compat = compatHeader(); !Compat.empty()) {
    Args.push_back("-include");
    Args.push_back(Compat);
  }
  // nvcc preprocesses with its host compiler, which finds the headers of
  // its own include directory (gcc's omp.h, openacc.h, quadmath.h); clang
  // has its own versions of the others and searches that directory last.
  if (!HostInclude.empty()) {
    Args.push_back("-idirafter");
    Args.push_back(HostInclude);
  }
  return Args;
}

} // namespace coalesce
