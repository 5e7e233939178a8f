//===- HeaderCache.cpp - The CUDA headers parsed once, reused -------------===//
#include "HeaderCache.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

namespace coalesce {
namespace frontend {

namespace {

/// Generates the PCH into a given file, whatever the command line says.
class WritePchAction : public clang::GeneratePCHAction {
public:
  explicit WritePchAction(std::string Output) : Output(std::move(Output)) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.getFrontendOpts().OutputFile = Output;
    return GeneratePCHAction::BeginInvocation(CI);
  }

private:
  std::string Output;
};

class WritePchFactory : public clang::tooling::FrontendActionFactory {
public:
  explicit WritePchFactory(std::string Output) : Output(std::move(Output)) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<WritePchAction>(Output);
  }

private:
  std::string Output;
};

/// Counts errors without printing anything.
class ErrorCounter : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
  }
};

} // namespace

HeaderPch headerPchFor(const std::string &CacheDir,
                       const std::vector<std::string> &Args,
                       const std::string &Directory) {
  llvm::MD5 Hash;
  auto Add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  };
  Add(clang::getClangFullVersion());
  Add(Directory);
  for (const std::string &A : Args)
    Add(A);
  llvm::MD5::MD5Result Result;
  Hash.final(Result);
  // pruneCache() only ever removes files named llvmcache-*.
  HeaderPch Pch;
  llvm::SmallString<256> Path(CacheDir);
  llvm::sys::path::append(Path, fmt::format("llvmcache-coalesce-headers-{}.pch",
                                            Result.digest().str()));
  Pch.Path = Path.str().str();
  llvm::SmallString<256> Prefix(CacheDir);
  llvm::sys::path::append(Prefix, "coalesce-headers-prefix.cuh");
  Pch.Prefix = Prefix.str().str();
  return Pch;
}

bool ensureHeaderPch(const HeaderPch &Pch, const std::vector<std::string> &Args,
                     const std::string &Directory) {
  if (llvm::sys::fs::exists(Pch.Path))
    return true;
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Pch.Path)))
    return false;
  // The prefix is written once and never touched again: the PCH records its
  // modification time, and clang rejects the PCH when it changes.
  if (!llvm::sys::fs::exists(Pch.Prefix)) {
    llvm::SmallString<256> Tmp;
    int FD;
    if (llvm::sys::fs::createUniqueFile(Pch.Prefix + ".tmp-%%%%%%%%", FD, Tmp))
      return false;
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << "// The empty prefix coalesce-lint precompiles the CUDA headers "
            "with.\n";
    }
    if (llvm::sys::fs::rename(Tmp, Pch.Prefix))
      llvm::sys::fs::remove(Tmp);
  }
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Pch.Path + ".tmp-%%%%%%%%", FD, Tmp))
    return false;
  llvm::sys::fs::closeFile(FD);
  clang::tooling::FixedCompilationDatabase DB(Directory, Args);
  clang::tooling::ClangTool Tool(DB, {Pch.Prefix});
  ErrorCounter Errors;
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);
  WritePchFactory Factory(Tmp.str().str());
  int Rc = Tool.run(&Factory);
  uint64_t Size = 0;
  if (Rc != 0 || Errors.getNumErrors() != 0 ||
      llvm::sys::fs::file_size(Tmp, Size) || Size == 0) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  // Another run may have renamed its copy first; either copy is good.
  if (llvm::sys::fs::rename(Tmp, Pch.Path)) {
    llvm::sys::fs::remove(Tmp);
    return llvm::sys::fs::exists(Pch.Path);
  }
  return true;
}

bool seenBefore(const HeaderPch &Pch) {
  llvm::SmallString<256> Marker(Pch.Path);
  llvm::sys::path::replace_extension(Marker, "seen");
  if (llvm::sys::fs::exists(Marker))
    return true;
  if (!llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Marker))) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Marker, EC);
  }
  return false;
}

bool rejectsPch(const std::string &ErrorMessage) {
  llvm::StringRef M(ErrorMessage);
  return M.contains("precompiled") || M.contains("PCH file") ||
         M.contains("AST file");
}

void pruneHeaderCache(const std::string &CacheDir) {
  llvm::CachePruningPolicy Policy;
  Policy.MaxSizeBytes = uint64_t(2) << 30;
  llvm::pruneCache(CacheDir, Policy);
}

} // namespace frontend
} // namespace coalesce
