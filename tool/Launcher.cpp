//===- Launcher.cpp - coalesce-lint as a compiler launcher ----------------===//
#include "Launcher.h"

#include "coalesce/CompileFlags.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

namespace coalesce {
namespace tool {

namespace {

/// Options of nvcc, clang and gcc whose value is the next argument and may
/// name a file (outputs, dependency files, includes).
bool takesFileValue(llvm::StringRef A) {
  static const char *const Names[] = {
      "-o",  "-MF", "-MT", "-MQ", "-include", "-imacros", "-Xcompiler",
      "--output-file", "--compiler-options", "-Xlinker", "--linker-options",
      "-Xptxas", "-Xnvlink", "-Xclang", "-ccbin", "--compiler-bindir",
      "-isystem", "-I", "-L", "-l", "-odir", "--dependency-output"};
  for (const char *N : Names)
    if (A == N)
      return true;
  return false;
}

} // namespace

std::vector<std::string> cudaSourcesOf(const std::vector<std::string> &Cmd) {
  std::vector<std::string> Sources;
  bool CudaLanguage = false;
  for (size_t I = 1; I < Cmd.size(); ++I) {
    llvm::StringRef A = Cmd[I];
    if (A == "-x" && I + 1 < Cmd.size()) {
      llvm::StringRef L = Cmd[++I];
      CudaLanguage = L == "cu" || L == "cuda";
      continue;
    }
    if (A.starts_with("-")) {
      if (takesFileValue(A))
        ++I;
      continue;
    }
    llvm::StringRef Ext = llvm::sys::path::extension(A);
    bool CxxSource = Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" ||
                     Ext == ".c" || Ext == ".C";
    if (Ext == ".cu" || (CudaLanguage && CxxSource))
      Sources.push_back(A.str());
  }
  return Sources;
}

bool planLauncherAnalysis(Options &O, std::vector<std::string> &Compiler) {
  Compiler = O.Analysis.ExtraArgs;
  O.Analysis.ExtraArgs.clear();
  std::vector<std::string> Sources = cudaSourcesOf(Compiler);
  if (Sources.empty())
    return false;
  // The compile command's flags, as a compilation database entry would
  // give them (nvcc options translated, the output and inputs dropped).
  TranslatedFlags T = translateCompileCommand(
      std::vector<std::string>(Compiler.begin() + 1, Compiler.end()));
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
