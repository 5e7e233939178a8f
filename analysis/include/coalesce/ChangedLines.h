//===- ChangedLines.h - The lines a change adds or modifies -----*- C++ -*-===//
///
/// \file
/// On a pull request only the findings on lines the change touches are news.
/// ChangedLines reads a unified diff (`git diff`, any context size) and
/// answers whether a source range of a file intersects the lines the diff
/// adds or modifies (the new side of each hunk).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_CHANGEDLINES_H
#define COALESCE_CHANGEDLINES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>

namespace coalesce {

/// Added or modified lines per file, from a unified diff.
class ChangedLines {
public:
  /// Parses \p Diff. File names on "+++ " lines are taken relative to
  /// \p Root (the repository root for `git diff`; empty: the working
  /// directory); a "b/" prefix (git's default) is dropped when \p StripB.
  /// Deleted files and binary patches contribute nothing. Fails on a hunk
  /// header that cannot be read.
  static llvm::Expected<ChangedLines>
  parse(llvm::StringRef Diff, llvm::StringRef Root, bool StripB = true);

  /// Whether the diff adds or modifies any line of \p File from \p First to
  /// \p Last (1-based, inclusive). \p File may be relative to the working
  /// directory or absolute.
  bool touches(llvm::StringRef File, unsigned First, unsigned Last) const;

  /// Files with at least one added or modified line.
  size_t fileCount() const { return Lines.size(); }

private:
  /// Absolute path -> added or modified lines of its new version.
  std::map<std::string, std::set<unsigned>> Lines;
};

} // namespace coalesce

#endif // COALESCE_CHANGEDLINES_H
