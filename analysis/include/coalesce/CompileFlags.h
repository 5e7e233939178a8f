//===- CompileFlags.h - Compiler arguments for a CUDA device parse -*- C++ -*-===//
///
/// \file
/// Turns compile commands written for nvcc (or clang) into arguments that
/// clang 22 accepts for a device-only parse, and finds the CUDA installation.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_COMPILEFLAGS_H
#define COALESCE_COMPILEFLAGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coalesce {

/// Result of translating an nvcc command line.
struct TranslatedFlags {
  /// Arguments clang understands (-I, -D, -std=, -isystem, ...), without the
  /// compiler name, the input file and the output.
  std::vector<std::string> Args;
  /// The newest GPU architecture named by -arch/-gencode/--cuda-gpu-arch
  /// ("sm_90"), or empty when none was named.
  std::string Arch;
  /// The positional arguments: the input files, in order (option values
  /// such as "-o x.o" or "-MF x.d" are not among them).
  std::vector<std::string> Inputs;
  /// Flags that were dropped, for --verbose.
  std::vector<std::string> Dropped;
};

/// Translates an nvcc (or clang/gcc) command line, starting after the
/// compiler name. Stops at a chained command ("&&", ";"). Translates:
/// -arch/-gencode/--gpu-architecture to Arch (newest wins), "-x cu" to
/// "-x cuda", -Xcompiler values unwrapped, --include-path/--define-macro to
/// -I/-D; drops nvcc-only flags (-rdc, -ccbin, --expt-relaxed-constexpr,
/// -Xptxas, -lineinfo, -G, -o FILE, -c, ...) with their values.
TranslatedFlags translateCompileCommand(const std::vector<std::string> &Argv);

/// Expands the response files of a compile command (starting after the
/// compiler name) run in \p Directory, as nvcc and clang do: "@FILE" and
/// nvcc's "--options-file FILE", "--options-file=FILE[,FILE]" and
/// "-optf FILE" are replaced by the words of FILE, split at blanks with
/// quotes and backslashes as in a shell (llvm::cl::TokenizeGNUCommandLine).
/// Relative names, also of nested response files, are relative to
/// \p Directory (empty: the current directory). Only the first command of a
/// chained command line is expanded. A response file that is missing or
/// cannot be read, or that names itself, is an error naming it.
llvm::Expected<std::vector<std::string>>
expandResponseFiles(const std::vector<std::string> &Argv,
                    llvm::StringRef Directory);

/// translateCompileCommand() of the command with its response files
/// expanded (expandResponseFiles()): the form for a compilation database
/// entry, whose "directory" is \p Directory.
llvm::Expected<TranslatedFlags>
translateCompileCommandIn(const std::vector<std::string> &Argv,
                          llvm::StringRef Directory);

/// Finds the CUDA toolkit: \p Explicit if non-empty, else $CUDA_PATH, else the
/// directory above the nvcc found on $PATH, else /usr/local/cuda. The
/// directory must contain include/cuda_runtime.h.
llvm::Expected<std::string> findCudaInstallation(const std::string &Explicit);

/// The places findCudaInstallation looks, given explicitly so that the search
/// can run (and be tested) without reading the process environment.
struct CudaSearchPlaces {
  /// The directory the user named (--cuda-path); when non-empty it is the
  /// only candidate.
  std::string Explicit;
  /// The value of $CUDA_PATH; empty when unset.
  std::string CudaPathEnv;
  /// Directories searched for nvcc, written like $PATH; empty: no search.
  std::string SearchPath;
  /// The last resort.
  std::string DefaultDir = "/usr/local/cuda";
};

/// Finds the CUDA toolkit in \p Places, in this order: Explicit (alone when
/// given), CudaPathEnv, the directory above the bin/ holding the nvcc found in
/// SearchPath (symbolic links resolved), DefaultDir. Returns the first that
/// contains include/cuda_runtime.h, as an absolute path; the error lists every
/// place tried and why it was rejected.
llvm::Expected<std::string>
findCudaInstallationIn(const CudaSearchPlaces &Places);

/// The clang arguments for a device-only parse of a .cu file for \p Arch with
/// the toolkit at \p CudaPath: -x cuda --cuda-device-only
/// --cuda-gpu-arch=... --cuda-path=... -isystem <cuda>/include/cccl
/// -Wno-unknown-cuda-version, and the other flags the parse needs;
/// -idirafter \p HostInclude when it is not empty.
std::vector<std::string>
cudaDeviceParseArgs(const std::string &CudaPath, const std::string &Arch,
                    const std::string &HostInclude = "");

/// The include directory of nvcc's host compiler, which nvcc's
/// preprocessing searches and clang's does not (`gcc
/// -print-file-name=include`: omp.h, openacc.h, quadmath.h); empty when no
/// gcc is on PATH or it names no directory.
std::string hostCompilerIncludeDir();

} // namespace coalesce

#endif // COALESCE_COMPILEFLAGS_H
