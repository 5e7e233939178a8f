//===- HeaderCache.cpp - The CUDA headers parsed once, reused -------------===//
#include "HeaderCache.h"

#include "frontend/ParseFile.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <set>

namespace coalesce {
namespace driver {

namespace {

/// Collects every header name the preprocessor looks up: #include (and
/// -include, #include_next, #import) and __has_include, found or not.
class NameRecorder : public clang::PPCallbacks {
public:
  explicit NameRecorder(std::set<std::string> &Names) : Names(Names) {}
  void InclusionDirective(clang::SourceLocation, const clang::Token &,
                          llvm::StringRef FileName, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef,
                          llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    Names.insert(FileName.str());
  }
  void HasInclude(clang::SourceLocation, llvm::StringRef FileName, bool,
                  clang::OptionalFileEntryRef,
                  clang::SrcMgr::CharacteristicKind) override {
    Names.insert(FileName.str());
  }

private:
  std::set<std::string> &Names;
};

/// Answers which function bodies the parse skips (skipsLibraryBody).
class LibraryBodySkipper : public clang::ASTConsumer {
public:
  bool shouldSkipFunctionBody(clang::Decl *D) override {
    return frontend::skipsLibraryBody(D);
  }
};

/// Generates the PCH into a given file, whatever the command line says,
/// recording the header names it looks up.
class WritePchAction : public clang::GeneratePCHAction {
public:
  WritePchAction(std::string Output, std::set<std::string> &Names)
      : Output(std::move(Output)), Names(Names) {}

protected:
  bool BeginInvocation(clang::CompilerInstance &CI) override {
    CI.getFrontendOpts().OutputFile = Output;
    // The same bodies as a parse without the cache: the entry is smaller
    // and quicker to build, and a file's analysis sees the same AST either
    // way.
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return GeneratePCHAction::BeginInvocation(CI);
  }
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI,
                    llvm::StringRef InFile) override {
    std::unique_ptr<clang::ASTConsumer> Writer =
        GeneratePCHAction::CreateASTConsumer(CI, InFile);
    if (!Writer)
      return nullptr;
    // A multiplexer skips a body only when each of its consumers would.
    std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
    Consumers.push_back(std::move(Writer));
    Consumers.push_back(std::make_unique<LibraryBodySkipper>());
    return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
  }
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    if (!GeneratePCHAction::BeginSourceFileAction(CI))
      return false;
    CI.getPreprocessor().addPPCallbacks(std::make_unique<NameRecorder>(Names));
    return true;
  }

private:
  std::string Output;
  std::set<std::string> &Names;
};

class WritePchFactory : public clang::tooling::FrontendActionFactory {
public:
  WritePchFactory(std::string Output, std::set<std::string> &Names)
      : Output(std::move(Output)), Names(Names) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<WritePchAction>(Output, Names);
  }

private:
  std::string Output;
  std::set<std::string> &Names;
};

/// Counts errors without printing anything.
class ErrorCounter : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
  }
};

/// The entry of \p Args in \p CacheDir.
std::string entryPath(const std::string &CacheDir,
                      const std::vector<std::string> &Args,
                      const std::string &Directory) {
  llvm::MD5 Hash;
  auto Add = [&](llvm::StringRef S) {
    Hash.update(S);
    Hash.update(llvm::ArrayRef<uint8_t>{0});
  };
  Add(clang::getClangFullVersion());
  // Entries written before the PCH skipped library bodies are not reused.
  Add("library-bodies-skipped");
  Add(Directory);
  for (const std::string &A : Args)
    Add(A);
  llvm::MD5::MD5Result Result;
  Hash.final(Result);
  // pruneCache() only ever removes files named llvmcache-*.
  llvm::SmallString<256> Path(CacheDir);
  llvm::sys::path::append(Path, fmt::format("llvmcache-coalesce-headers-{}.pch",
                                            Result.digest().str()));
  return Path.str().str();
}

/// Where the header names of the shared entry \p Pch are listed.
std::string namesPath(const std::string &Pch) {
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(Pch));
  llvm::StringRef Stem = llvm::sys::path::stem(Pch);
  Stem.consume_front("llvmcache-coalesce-headers-");
  llvm::sys::path::append(Path,
                          fmt::format("llvmcache-coalesce-names-{}.txt", Stem));
  return Path.str().str();
}

/// The names listed for the shared entry \p Pch; nullopt when there is no
/// list (never built, or pruned).
std::optional<std::vector<std::string>> readNames(const std::string &Pch) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(namesPath(Pch));
  if (!Buf)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Lines.begin(), Lines.end());
}

/// Writes a file through a temporary one and a rename.
bool writeAtomically(const std::string &Path, llvm::StringRef Contents) {
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Tmp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
  }
  if (llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

/// Builds the PCH \p Path of \p Args (with the prefix of \p Pch); with
/// \p RecordNames, lists the header names it looked up beside it first.
bool buildPch(const HeaderPch &Pch, const std::string &Path,
              const std::vector<std::string> &Args,
              const std::string &Directory, bool RecordNames) {
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Tmp))
    return false;
  llvm::sys::fs::closeFile(FD);
  clang::tooling::FixedCompilationDatabase DB(Directory, Args);
  // Its own working directory, not the process's (frontend/ParseFile.cpp).
  clang::tooling::ClangTool Tool(DB, {Pch.Prefix},
                                 std::make_shared<clang::PCHContainerOperations>(),
                                 llvm::vfs::createPhysicalFileSystem());
  ErrorCounter Errors;
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);
  std::set<std::string> Names;
  WritePchFactory Factory(Tmp.str().str(), Names);
  int Rc = Tool.run(&Factory);
  uint64_t Size = 0;
  std::string List;
  for (const std::string &N : Names)
    List += N + "\n";
  if (Rc != 0 || Errors.getNumErrors() != 0 ||
      llvm::sys::fs::file_size(Tmp, Size) || Size == 0 ||
      (RecordNames && !writeAtomically(namesPath(Path), List))) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  // Another run may have renamed its copy first; either copy is good.
  if (llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return llvm::sys::fs::exists(Path);
  }
  return true;
}

/// Makes \p To the same file as \p From (a hard link; a copy where links
/// are not possible).
bool linkEntry(const std::string &From, const std::string &To) {
  llvm::SmallString<256> Tmp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(To + ".tmp-%%%%%%%%", FD, Tmp))
    return false;
  llvm::sys::fs::closeFile(FD);
  llvm::sys::fs::remove(Tmp);
  if (llvm::sys::fs::create_hard_link(From, Tmp) &&
      llvm::sys::fs::copy_file(From, Tmp))
    return false;
  if (llvm::sys::fs::rename(Tmp, To)) {
    llvm::sys::fs::remove(Tmp);
    return llvm::sys::fs::exists(To);
  }
  return true;
}

/// Whether the shared entry \p Shared exists with its names, none of them
/// found in \p Dirs.
bool sharedEntryFits(const std::string &Shared,
                     const std::vector<std::string> &Dirs,
                     const std::string &Directory) {
  std::optional<std::vector<std::string>> Names = readNames(Shared);
  return Names && llvm::sys::fs::exists(Shared) &&
         !shadowsAny(Dirs, *Names, Directory);
}

/// The marker file of kind \p Kind beside the entry \p Path (pruned with
/// it: same name, another extension).
std::string markerOf(const std::string &Path, llvm::StringRef Kind) {
  llvm::SmallString<256> Marker(Path);
  llvm::sys::path::replace_extension(Marker, Kind);
  return Marker.str().str();
}

/// Creates (or refreshes) \p Marker with \p Text; failure only costs the
/// memory of what it records.
void writeMarker(const std::string &Marker, llvm::StringRef Text) {
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Marker)))
    return;
  std::error_code EC;
  llvm::raw_fd_ostream OS(Marker, EC);
  if (!EC)
    OS << Text;
}

/// Whether building \p Path failed less than a day ago (its headers do not
/// compile with its arguments, as when a user directory holds a `cuda.h` of
/// its own): a failed build costs most of a parse, and the next run would
/// fail the same way. After a day it is tried again, in case the headers
/// were fixed.
bool failedRecently(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(markerOf(Path, "failed"), Status))
    return false;
  return std::chrono::system_clock::now() - Status.getLastModificationTime() <
         std::chrono::hours(24);
}

/// ensureHeaderPch() once the entry is known to be missing.
bool buildEntry(const HeaderPch &Pch, const std::vector<std::string> &Args,
                const std::string &Directory) {
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Pch.Path)))
    return false;
  // The prefix is written once and never touched again: the PCH records its
  // modification time, and clang rejects the PCH when it changes.
  if (!llvm::sys::fs::exists(Pch.Prefix) &&
      !writeAtomically(Pch.Prefix, "// The empty prefix coalesce-lint "
                                   "precompiles the CUDA headers with.\n") &&
      !llvm::sys::fs::exists(Pch.Prefix))
    return false;
  std::vector<std::string> Rest;
  std::vector<std::string> Dirs = userIncludeDirs(Args, Rest);
  if (Pch.Shared.empty()) // Path is the shared entry.
    return buildPch(Pch, Pch.Path, Rest, Directory, /*RecordNames=*/true);
  // The shared entry serves these arguments when no include directory of
  // theirs holds a header it looked up: the search finds the same files.
  if ((sharedEntryFits(Pch.Shared, {}, Directory) ||
       buildPch(Pch, Pch.Shared, Rest, Directory, /*RecordNames=*/true)) &&
      sharedEntryFits(Pch.Shared, Dirs, Directory) &&
      linkEntry(Pch.Shared, Pch.Path))
    return true;
  return buildPch(Pch, Pch.Path, Args, Directory, /*RecordNames=*/false);
}

} // namespace

std::vector<std::string> userIncludeDirs(const std::vector<std::string> &Args,
                                         std::vector<std::string> &Rest) {
  std::vector<std::string> Dirs;
  Rest.clear();
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A(Args[I]);
    bool Separate = A == "-I" || A == "-iquote" || A == "--include-directory";
    if (Separate && I + 1 < Args.size()) {
      Dirs.push_back(Args[++I]);
      continue;
    }
    if (!Separate && (A.consume_front("-I") || A.consume_front("-iquote") ||
                      A.consume_front("--include-directory="))) {
      Dirs.push_back(A.str());
      continue;
    }
    Rest.push_back(Args[I]);
  }
  return Dirs;
}

bool shadowsAny(const std::vector<std::string> &Dirs,
                const std::vector<std::string> &Names,
                const std::string &Directory) {
  for (const std::string &D : Dirs) {
    llvm::SmallString<256> Dir(D);
    if (llvm::sys::path::is_relative(Dir)) {
      Dir = Directory;
      llvm::sys::path::append(Dir, D);
    }
    for (const std::string &N : Names) {
      if (llvm::sys::path::is_absolute(N))
        continue;
      llvm::SmallString<256> Path(Dir);
      llvm::sys::path::append(Path, N);
      if (llvm::sys::fs::exists(Path))
        return true;
    }
  }
  return false;
}

HeaderPch headerPchFor(const std::string &CacheDir,
                       const std::vector<std::string> &Args,
                       const std::string &Directory) {
  HeaderPch Pch;
  llvm::SmallString<256> Prefix(CacheDir);
  llvm::sys::path::append(Prefix, "coalesce-headers-prefix.cuh");
  Pch.Prefix = Prefix.str().str();
  std::vector<std::string> Rest;
  std::vector<std::string> Dirs = userIncludeDirs(Args, Rest);
  std::string Shared = entryPath(CacheDir, Rest, Directory);
  if (Dirs.empty() || sharedEntryFits(Shared, Dirs, Directory)) {
    Pch.Path = Shared;
    return Pch;
  }
  Pch.Path = entryPath(CacheDir, Args, Directory);
  Pch.Shared = Shared;
  return Pch;
}

bool ensureHeaderPch(const HeaderPch &Pch, const std::vector<std::string> &Args,
                     const std::string &Directory) {
  if (llvm::sys::fs::exists(Pch.Path))
    return true;
  if (failedRecently(Pch.Path))
    return false;
  if (buildEntry(Pch, Args, Directory))
    return true;
  writeMarker(markerOf(Pch.Path, "failed"),
              "coalesce-lint could not precompile the CUDA headers for this "
              "configuration\n");
  return false;
}

bool seenBefore(const HeaderPch &Pch) {
  std::string Marker =
      markerOf(Pch.Shared.empty() ? Pch.Path : Pch.Shared, "seen");
  if (llvm::sys::fs::exists(Marker))
    return true;
  writeMarker(Marker, "");
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

} // namespace driver
} // namespace coalesce
