//===- Suppressions.h - NOLINT and coalesce-lint: ignore comments -*- C++ -*-===//
///
/// \file
/// Suppression comments, read from the source text of the files findings
/// are in (not from the AST), as clang-tidy users write them:
///
///   a[i * 2] = v; // NOLINT                    every rule, this line
///   a[i * 2] = v; // NOLINT(coalesce-stride)   the listed rules (globs)
///   // NOLINTNEXTLINE(coalesce-*)              the next line
///   // NOLINTBEGIN(coalesce-aos) ... // NOLINTEND(coalesce-aos)
///   a[i * 2] = v; // coalesce-lint: ignore[coalesce-stride]
///   // coalesce-lint: ignore[coalesce-stride]  alone on a line: the next one
///
/// A reason may follow ("// NOLINT(coalesce-stride): rows are 16 bytes").
/// Comments naming only other tools' checks (NOLINT(bugprone-*)) are not
/// coalesce-lint's and are ignored.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_SUPPRESSIONS_H
#define COALESCE_SUPPRESSIONS_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce {

/// One suppression comment and the lines it covers.
struct SuppressionComment {
  enum class Kind { NoLint, NoLintNextLine, NoLintBegin, Ignore };
  Kind CommentKind = Kind::NoLint;
  std::string File;
  unsigned Line = 0;   ///< Where the comment is (for NOLINTBEGIN: the BEGIN).
  unsigned Column = 0;
  std::string Text;    ///< As written: "NOLINT(coalesce-stride)".
  /// Rule ids or globs; empty: every rule.
  std::vector<std::string> Rules;
  /// The lines it suppresses, inclusive.
  unsigned FirstLine = 0, LastLine = 0;

  /// Whether it covers \p Line and names \p RuleId.
  bool covers(unsigned Line, llvm::StringRef RuleId) const;
  /// Whether it is explicitly coalesce-lint's (names one of its rules, or is
  /// "coalesce-lint: ignore"): only those are reported as unused, since a
  /// bare NOLINT may be there for clang-tidy.
  bool namesCoalesceRules() const;
};

/// The suppression comments of one file's text, in order. Malformed or
/// unmatched NOLINTBEGIN/NOLINTEND comments are described in \p Problems
/// ("k.cu:12: unmatched NOLINTBEGIN(coalesce-stride)") and suppress nothing.
std::vector<SuppressionComment>
parseSuppressions(llvm::StringRef File, llvm::StringRef Text,
                  std::vector<std::string> &Problems);

/// The suppression comments of the files a run touches, loaded on demand,
/// with the number of findings each one suppressed.
class SuppressionIndex {
public:
  /// The comment that suppresses \p RuleId at \p File:\p Line, or null.
  /// Reads \p File on first use (an unreadable file suppresses nothing) and
  /// counts the use.
  const SuppressionComment *match(const std::string &File, unsigned Line,
                                  llvm::StringRef RuleId);
  /// Reads \p File's comments if not yet read (for the unused listing).
  void load(const std::string &File);
  /// coalesce-lint's comments that suppressed nothing, by file and line.
  std::vector<const SuppressionComment *> unused() const;
  /// Unmatched NOLINTBEGIN/NOLINTEND comments seen so far.
  const std::vector<std::string> &problems() const { return Problems; }

private:
  struct FileComments {
    std::vector<SuppressionComment> Comments;
    std::vector<unsigned> Uses;
  };
  std::map<std::string, FileComments> Files;
  std::vector<std::string> Problems;
};

} // namespace coalesce

#endif // COALESCE_SUPPRESSIONS_H
