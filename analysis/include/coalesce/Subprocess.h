//===- Subprocess.h - Running a program and reading what it printed -*- C++
//-*-===//
#ifndef COALESCE_SUBPROCESS_H
#define COALESCE_SUBPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace coalesce {

/// What a program run to its end printed, and how it ended.
struct ProgramOutput {
  /// Its exit status; negative when it could not be run or was stopped.
  int ExitCode = -1;
  std::string Stdout;
  std::string Stderr;
  /// Why it could not be run, when it could not.
  std::string ExecError;
};

/// Runs \p Program with the arguments \p Args (argv[0] not included) on an
/// empty standard input, its standard output and error captured through
/// temporary files; waits at most \p SecondsToWait (0: no limit). An error
/// only when the temporary files cannot be made.
llvm::Expected<ProgramOutput> runProgram(llvm::StringRef Program,
                                         llvm::ArrayRef<llvm::StringRef> Args,
                                         unsigned SecondsToWait = 0);

} // namespace coalesce

#endif // COALESCE_SUBPROCESS_H
