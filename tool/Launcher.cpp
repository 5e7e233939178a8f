//===- Launcher.cpp - coalesce-lint as a compiler launcher ----------------===//
#include "Launcher.h"

#include "coalesce/CompileFlags.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

namespace coalesce {
namespace tool {

std::vector<std::string> cudaSourcesOf(const TranslatedFlags &T) {
  // "-x cu" (translated to "-x cuda") makes C and C++ sources CUDA, as for
  // nvcc.
  bool CudaLanguage = false;
  for (size_t I = 0; I + 1 < T.Args.size(); ++I)
    if (T.Args[I] == "-x")
      CudaLanguage = T.Args[I + 1] == "cuda";
  std::vector<std::string> Sources;
  for (const std::string &In : T.Inputs) {
    llvm::StringRef Ext = llvm::sys::path::extension(In);
    bool CxxSource = Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" ||
                     Ext == ".c" || Ext == ".C";
    if (Ext == ".cu" || (CudaLanguage && CxxSource))
      Sources.push_back(In);
  }
  return Sources;
}

bool planLauncherAnalysis(Options &O, std::vector<std::string> &Compiler) {
  Compiler = O.Analysis.ExtraArgs;
  O.Analysis.ExtraArgs.clear();
  // The compile command's flags, as a compilation database entry would
  // give them (nvcc options translated, the output and inputs apart).
  // Its response files (CMake's --options-file includes_CUDA.rsp) are read
  // from the directory the build runs the compiler in: this one.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  llvm::Expected<TranslatedFlags> Translated = translateCompileCommandIn(
      std::vector<std::string>(Compiler.begin() + 1, Compiler.end()), Cwd);
  if (!Translated) {
    // The compiler will say what is wrong with its command line.
    llvm::WithColor::warning(llvm::errs(), "coalesce-lint")
        << llvm::toString(Translated.takeError()) << "; not analyzed\n";
    return false;
  }
  const TranslatedFlags &T = *Translated;
  std::vector<std::string> Sources = cudaSourcesOf(T);
  if (Sources.empty())
    return false;
  O.Analysis.Files = Sources;
  O.Analysis.ExtraArgs = T.Args;
  if (!T.Arch.empty() && !O.ArchGiven)
    O.Analysis.Arch = T.Arch;
  return true;
}

int runCompiler(const std::vector<std::string> &Compiler) {
  std::string Program = Compiler.front();
  if (!llvm::StringRef(Program).contains('/')) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program);
    if (!Found) {
      llvm::WithColor::error(llvm::errs(), "coalesce-lint")
          << "compiler '" << Program << "' not found on PATH\n";
      return 127;
    }
    Program = *Found;
  }
  std::vector<llvm::StringRef> Argv(Compiler.begin(), Compiler.end());
  std::string Error;
  bool Failed = false;
  int Rc = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, {}, 0, 0,
                                     &Error, &Failed);
  if (Failed || Rc < 0) {
    llvm::WithColor::error(llvm::errs(), "coalesce-lint")
        << "cannot run the compiler '" << Program << "': " << Error << "\n";
    return Failed ? 127 : 1;
  }
  return Rc;
}

} // namespace tool
} // namespace coalesce
