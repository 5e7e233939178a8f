//===- Paths.h - Paths as reports and baselines spell them ------*- C++ -*-===//
///
/// \file
/// Internal helpers: absolute and relative forms of the paths in a report,
/// so SARIF, GitHub annotations, baselines and exclude globs agree on one
/// spelling whatever the working directory.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FINDINGS_PATHS_H
#define COALESCE_FINDINGS_PATHS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace coalesce {

/// \p Path made absolute against the working directory, "." and ".."
/// removed, '/' separated.
std::string absolutePath(llvm::StringRef Path);

/// \p Path relative to the directory \p Root ('/' separated), or nullopt
/// when it is not under \p Root. An empty \p Root is the working directory.
std::optional<std::string> relativePath(llvm::StringRef Path,
                                        llvm::StringRef Root);

/// \p Path relative to the working directory when it is under it, else
/// absolute: the spelling CI systems expect (repository-relative).
std::string displayPath(llvm::StringRef Path);

} // namespace coalesce

#endif // COALESCE_FINDINGS_PATHS_H
