//===- PullRequest.cpp - Findings on the lines a change touches -----------===//
#include "PullRequest.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace coalesce {
namespace tool {

namespace {

llvm::Error gitError(const llvm::Twine &Msg) {
  return llvm::createStringError(std::errc::invalid_argument, "%s",
                                 Msg.str().c_str());
}

/// Runs `git ARGS` in the working directory; returns its stdout, or an error
/// with its stderr.
llvm::Expected<std::string> runGit(llvm::ArrayRef<llvm::StringRef> Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return gitError("--diff-base needs git on PATH (or give the diff with "
                    "--diff FILE)");
  llvm::SmallString<128> Out, Err;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("coalesce-git", "out", Out))
    return gitError("cannot create a temporary file: " + EC.message());
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("coalesce-git", "err", Err))
    return gitError("cannot create a temporary file: " + EC.message());
  std::vector<llvm::StringRef> Argv{*Git};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(Out),
                                                llvm::StringRef(Err)};
  std::string ExecError;
  int Rc = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0, 0,
                                     &ExecError);
  auto Read = [](llvm::StringRef Path) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
        llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Stdout = Read(Out), Stderr = Read(Err);
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  if (Rc != 0)
    return gitError("'git " + llvm::join(Args, " ") + "' failed" +
                    (Stderr.empty() ? ExecError.empty() ? "" : ": " + ExecError
                                    : ": " + llvm::StringRef(Stderr).trim().str()));
  return Stdout;
}

} // namespace

llvm::Expected<std::optional<ChangedLines>> changedLinesOf(const Options &O) {
  if (!O.DiffBase.empty()) {
    llvm::Expected<std::string> Root =
        runGit({"rev-parse", "--show-toplevel"});
    if (!Root)
      return Root.takeError();
    // The change from the merge base, as a pull request shows it: lines
    // committed since REV and lines not committed yet.
    llvm::Expected<std::string> Diff =
        runGit({"diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames",
                "--src-prefix=a/", "--dst-prefix=b/", O.DiffBase});
    if (!Diff)
      return Diff.takeError();
    llvm::Expected<ChangedLines> C =
        ChangedLines::parse(*Diff, llvm::StringRef(*Root).trim());
    if (!C)
      return C.takeError();
    return std::optional<ChangedLines>(std::move(*C));
  }
  if (!O.DiffFile.empty()) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
        llvm::MemoryBuffer::getFileOrSTDIN(O.DiffFile, /*IsText=*/true);
    if (!B)
      return gitError("cannot read the diff '" + O.DiffFile +
                      "': " + B.getError().message());
    llvm::Expected<ChangedLines> C =
        ChangedLines::parse((*B)->getBuffer(), "");
    if (!C)
      return gitError("invalid diff '" + O.DiffFile +
                      "': " + llvm::toString(C.takeError()));
    return std::optional<ChangedLines>(std::move(*C));
  }
  return std::nullopt;
}

} // namespace tool
} // namespace coalesce
