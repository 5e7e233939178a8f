//===- Findings.h - From predictions to diagnostics -------------*- C++ -*-===//
///
/// \file
/// The diagnostic builder: decides which accesses are findings (against a
/// threshold) and words them: a rule id, a message that states the numbers,
/// notes that point at the cause, and a concrete suggestion.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FINDINGS_H
#define COALESCE_FINDINGS_H

#include "coalesce/Report.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// The tool's version string (reports, baselines, SARIF).
const char *toolVersion();

/// A secondary location with an explanation ("note:").
struct Note {
  SourceLocation Loc;
  std::string Message;
};

/// One diagnostic about one access.
struct Finding {
  std::string RuleId;      ///< "coalesce-stride", ...
  std::string Message;     ///< Lower-case, no final period, with the numbers.
  std::vector<Note> Notes; ///< Causes, call chain.
  std::string Suggestion;  ///< What to change.
  double WastedSectors = 0; ///< (sectors - ideal) per request, for ordering.
};

/// What counts as a finding.
struct FindingOptions {
  /// An access is a finding when its sectors per request exceed the ideal
  /// by more than this many sectors (default: any excess).
  double Threshold = 0.0;
  /// Report accesses that are fine under the assumed values but misaligned
  /// for others ("may be misaligned").
  bool ReportPossiblyMisaligned = true;
  /// Switch the coalesce-misaligned-offset rule on (--possibly-misaligned);
  /// otherwise it is off unless a configuration enables it.
  bool EnablePossiblyMisaligned = false;
  /// Report indirect (gather/scatter) accesses.
  bool ReportIndirect = true;
};

/// The finding for \p A, or nullopt when it is not one under \p Opts.
std::optional<Finding> buildFinding(const AccessRecord &A,
                                    const FindingOptions &Opts);

} // namespace coalesce

#endif // COALESCE_FINDINGS_H
