//===- Baseline.h - Findings a team has accepted, by fingerprint -*- C++ -*-===//
///
/// \file
/// A baseline records the findings of a code base at one point in time so
/// that later runs report only new ones (--write-baseline, --baseline).
/// Findings are identified by a fingerprint of the kernel name, the
/// normalized expression text and the rule, never by line numbers, so
/// edits that move code do not make old findings new. The same fingerprint
/// in one file is counted: a second identical access is new.
///
/// The file is JSON:
///
///   {"tool": "coalesce-lint", "baseline": 1, "findings": [
///     {"file": "src/k.cu", "kernel": "k", "rule": "coalesce-stride",
///      "expr": "a[i*2]", "fingerprint": "3f0c...", "count": 1}]}
///
/// with "file" relative to the baseline file's directory.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_BASELINE_H
#define COALESCE_BASELINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coalesce {

class FindingTable;

/// The version of the baseline file format this build reads and writes.
constexpr int BaselineFormatVersion = 1;

/// \p Expr without whitespace: "a[i * 2]" and "a[i*2]" are one expression.
std::string normalizeExpression(llvm::StringRef Expr);

/// 16 hex digits identifying a finding of \p RuleId on \p Expr in
/// \p Kernel, independent of its position in the file.
std::string findingFingerprint(llvm::StringRef Kernel, llvm::StringRef Expr,
                               llvm::StringRef RuleId);

/// One accepted finding (or \c Count identical ones) of one file.
struct BaselineEntry {
  std::string File; ///< Relative to the baseline file's directory.
  std::string Kernel;
  std::string Rule;
  std::string Expr; ///< Normalized; for people reading the file.
  std::string Fingerprint;
  unsigned Count = 1;
};

/// A baseline file, read or about to be written.
struct Baseline {
  std::string Path;
  std::vector<BaselineEntry> Entries;

  /// The directory entries' files are relative to.
  std::string directory() const;
  /// How an entry spells \p File: relative to directory(), or absolute
  /// when the file is not under it.
  std::string fileKey(llvm::StringRef File) const;
};

/// Reads a baseline; errors name the file and what is wrong with it.
llvm::Expected<Baseline> readBaseline(llvm::StringRef Path);

/// The baseline that accepts every reported finding of \p Table (suppressed
/// ones are left out), for a file at \p Path.
Baseline baselineOf(const FindingTable &Table, llvm::StringRef Path);

/// Writes \p B to B.Path (entries sorted by file, kernel, rule, expression).
llvm::Error writeBaseline(const Baseline &B);

} // namespace coalesce

#endif // COALESCE_BASELINE_H
