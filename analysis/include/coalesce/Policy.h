//===- Policy.h - Which findings a team wants, and how loud -----*- C++ -*-===//
///
/// \file
/// The per-file finding policy: rules switched on or off and their severity
/// (by id or glob, as in a configuration file), the finding threshold, the
/// header filter and the excluded paths. Built from .coalesce-lint.yaml and
/// the command line; read by the triage (Triage.h).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_POLICY_H
#define COALESCE_POLICY_H

#include "coalesce/Findings.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// How loud a finding is: "note", "warning" (the default) or "error".
enum class Severity { Note, Warning, Error };

/// "note", "warning", "error".
const char *severityName(Severity S);

/// The severity named \p Name, or nullopt when it names none.
std::optional<Severity> parseSeverity(llvm::StringRef Name);

/// One entry of a configuration's rule list: a rule id or glob
/// ("coalesce-*") and what it sets. Later entries win.
struct RuleSetting {
  std::string Pattern;
  std::optional<bool> Enabled;
  std::optional<Severity> Level;
};

/// True when the glob \p Pattern ("coalesce-*", "*", an exact id) matches
/// \p RuleId. A malformed glob matches nothing.
bool ruleGlobMatches(llvm::StringRef Pattern, llvm::StringRef RuleId);

/// What counts as a finding in one file, and how it is reported.
struct FindingPolicy {
  FindingOptions Findings;
  std::vector<RuleSetting> Rules;
  /// Findings outside the input files are kept only in files whose path
  /// matches this regex (clang-tidy's --header-filter); unset: all kept.
  std::optional<std::string> HeaderFilter;
  /// Globs of paths to skip, relative to ExcludeBase ('*' also matches '/').
  std::vector<std::string> Exclude;
  /// Directory the Exclude globs are relative to (the configuration file's).
  std::string ExcludeBase;

  /// Whether \p RuleId is reported at all (default: yes).
  bool enabled(llvm::StringRef RuleId) const;
  /// The severity of \p RuleId's findings (default: warning).
  Severity severity(llvm::StringRef RuleId) const;
  /// Whether \p File matches an Exclude glob.
  bool excludes(llvm::StringRef File) const;
  /// Whether a finding in the non-input file \p File passes HeaderFilter.
  bool showsHeader(llvm::StringRef File) const;
};

} // namespace coalesce

#endif // COALESCE_POLICY_H
