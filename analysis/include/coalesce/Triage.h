//===- Triage.h - What becomes of each finding ------------------*- C++ -*-===//
///
/// \file
/// Between the analysis and the writers: every access that is a finding
/// under its file's policy (Policy.h), with its severity, its fingerprint,
/// and whether an in-source comment (Suppressions.h) or the baseline
/// (Baseline.h) silences it. Writers print reported findings, mark
/// suppressed ones (JSON, SARIF) and the exit code counts reported ones.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TRIAGE_H
#define COALESCE_TRIAGE_H

#include "coalesce/Baseline.h"
#include "coalesce/ChangedLines.h"
#include "coalesce/Findings.h"
#include "coalesce/Policy.h"
#include "coalesce/Report.h"
#include "coalesce/Suppressions.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// One finding and what the team's configuration makes of it.
struct TriagedFinding {
  const KernelRecord *Kernel = nullptr;
  const AccessRecord *Access = nullptr;
  Finding F;
  Severity Level = Severity::Warning;
  /// findingFingerprint() of the access.
  std::string Fingerprint;
  /// 0 for the first finding with this fingerprint in its file, 1 for the
  /// next, ...: with Fingerprint, a stable identity.
  unsigned Occurrence = 0;
  /// The comment that suppresses it, if any.
  std::optional<SuppressionComment> SuppressedBy;
  /// It is in the baseline (--baseline): not new.
  bool Baselined = false;

  /// Neither suppressed nor in the baseline: printed and counted.
  bool reported() const { return !SuppressedBy && !Baselined; }
};

/// How to triage a report.
struct TriageOptions {
  /// The policy of the file a finding is in; unset: the default policy.
  std::function<const FindingPolicy &(const std::string &File)> PolicyFor;
  /// In-source suppressions to honor; null: none.
  SuppressionIndex *Suppressions = nullptr;
  /// Findings to treat as known; null: every finding is new.
  const Baseline *KnownFindings = nullptr;
  /// Only findings on these lines (--diff-base, --diff); null: all.
  const ChangedLines *Changed = nullptr;
};

/// The findings of a report, in report order.
class FindingTable {
public:
  std::vector<TriagedFinding> Findings;
  /// A baseline was applied (SARIF then states each result's baselineState).
  bool HasBaseline = false;
  /// Baseline entries (counting duplicates) no finding matched any more.
  unsigned StaleBaselineEntries = 0;
  /// Findings left out because the diff does not touch their lines.
  unsigned OutsideDiff = 0;
  /// Findings left out because they cost less than --min-impact.
  unsigned BelowMinImpact = 0;

  /// The finding of \p A, or null when it is none.
  const TriagedFinding *find(const AccessRecord &A) const;
  /// Findings that are reported.
  unsigned reportedCount() const;
  /// Reported findings of severity \p Level or higher.
  unsigned reportedAtLeast(Severity Level) const;
  /// Findings silenced by a comment or the baseline.
  unsigned suppressedCount() const;

  /// Rebuilds the index find() uses; call after filling Findings.
  void reindex();

private:
  std::map<const AccessRecord *, size_t> Index;
};

/// Decides the findings of \p R under \p Opts. The table points into \p R,
/// which must outlive it.
FindingTable triage(const Report &R, const TriageOptions &Opts);

/// The table the writers use when given none: \p Opts for every file, no
/// suppressions, no baseline.
FindingTable triage(const Report &R, const FindingOptions &Opts);

} // namespace coalesce

#endif // COALESCE_TRIAGE_H
