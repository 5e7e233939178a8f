//===- Process.h - Running tools with a deadline ----------------*- C++ -*-===//
///
/// \file
/// POSIX process helpers: run a program in a directory with its output in a
/// log file and a wall-clock limit, and find programs on PATH.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_PROCESS_H
#define COALESCE_VERIFY_PROCESS_H

#include <string>
#include <vector>

namespace coalesce::verify {

/// How a run ended.
struct ProcessResult {
  bool Started = false;  ///< False when the program could not be executed.
  bool TimedOut = false; ///< Killed (with its process group) at the deadline.
  int ExitCode = -1;     ///< Exit status; 128+N when killed by signal N.
  std::string Output;    ///< stdout and stderr together (from the log file).
};

/// Runs \p Argv (Argv[0] is looked up on PATH when it has no '/') in
/// \p WorkDir, writing stdout and stderr to \p LogFile (overwritten), and
/// kills it after \p TimeoutSeconds (0: no limit).
ProcessResult runProcess(const std::vector<std::string> &Argv,
                         const std::string &WorkDir, const std::string &LogFile,
                         unsigned TimeoutSeconds);

/// The first executable named \p Name on PATH, then in \p ExtraDirs; empty
/// when there is none. A \p Name with a '/' is checked as is.
std::string findProgram(const std::string &Name,
                        const std::vector<std::string> &ExtraDirs = {});

/// The last \p MaxLines lines of \p Text.
std::string tailLines(const std::string &Text, unsigned MaxLines);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_PROCESS_H
