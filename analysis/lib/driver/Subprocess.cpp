//===- Subprocess.cpp - Running a program and reading what it printed -----===//
#include "coalesce/Subprocess.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <vector>

namespace coalesce {

llvm::Expected<ProgramOutput> runProgram(llvm::StringRef Program,
                                         llvm::ArrayRef<llvm::StringRef> Args,
                                         unsigned SecondsToWait) {
  llvm::SmallString<128> Out, Err;
  for (llvm::SmallString<128> *Path : {&Out, &Err})
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "coalesce-run", Path == &Out ? "out" : "err", *Path))
      return llvm::createStringError(EC, "cannot create a temporary file: %s",
                                     EC.message().c_str());
  std::vector<llvm::StringRef> Argv{Program};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(Out), llvm::StringRef(Err)};
  ProgramOutput Result;
  Result.ExitCode =
      llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects,
                                SecondsToWait, 0, &Result.ExecError);
  auto Read = [](llvm::StringRef Path) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
        llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  Result.Stdout = Read(Out);
  Result.Stderr = Read(Err);
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  return Result;
}

} // namespace coalesce
