//===- PullRequest.cpp - Findings on the lines a change touches -----------===//
#include "PullRequest.h"

#include "coalesce/Subprocess.h"

#include "llvm/ADT/StringExtras.h"
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
  llvm::Expected<ProgramOutput> Run = runProgram(*Git, Args);
  if (!Run)
    return gitError(llvm::toString(Run.takeError()));
  const std::string &Stderr = Run->Stderr, &ExecError = Run->ExecError;
  if (Run->ExitCode != 0)
    return gitError("'git " + llvm::join(Args, " ") + "' failed" +
                    (Stderr.empty() ? ExecError.empty() ? "" : ": " + ExecError
                                    : ": " + llvm::StringRef(Stderr).trim().str()));
  return Run->Stdout;
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
