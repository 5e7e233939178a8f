//===- FindingGroups.h - One finding per source access ----------*- C++ -*-===//
///
/// \file
/// The analysis predicts each access once per kernel instantiation, launch
/// shape and call site; the triaged table holds a finding for each. A reader
/// wants one per line of source: the findings of one source access are one
/// group, those that read the same (rule, message, severity) one verdict of
/// it, named by the instantiations, launches or call sites they come from.
/// An access in a device function whose verdict differs per call site is
/// reported at each call site instead (the function's line a related
/// location), so that call sites are suppressed, baselined and fixed apart.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FINDINGGROUPS_H
#define COALESCE_FINDINGGROUPS_H

#include "coalesce/Triage.h"

#include <string>
#include <vector>

namespace coalesce {

/// Findings of one source access that read the same.
struct Verdict {
  /// In report order; never empty.
  std::vector<const TriagedFinding *> Members;
  /// Where each member comes from, as the group's members differ: the
  /// instantiation ("scale<float, 256>"), the launch ("block 128 at
  /// f.cu:40"), the call site ("k1 at f.cu:12:3"); distinct, in order.
  std::vector<std::string> Contexts;
};

/// One finding as the writers print it.
struct FindingGroup {
  /// Where the diagnostic points: the access, or (AtCallSite) the kernel's
  /// call of the device function that holds it.
  SourceLocation Primary;
  bool AtCallSite = false;
  /// The costliest first; the others are printed compactly under it.
  std::vector<Verdict> Verdicts;
  /// Distinct contexts over every verdict, and what they are: "instantiation",
  /// "launch shape", "call site" or "use" when several of those vary.
  unsigned ContextCount = 0;
  std::string ContextNoun;

  /// The finding printed in full.
  const TriagedFinding &lead() const { return *Verdicts.front().Members.front(); }
};

/// The reported findings of \p T, one group per source access (or per call
/// site, see above), the costliest first (costlier() of their leads), then
/// in the order of their primary locations.
std::vector<FindingGroup> groupFindings(const FindingTable &T);

/// "in 2 of 3 instantiations (scale<float, 128>; scale<float, 256>)" for
/// verdict \p V of \p G; "in all 3 instantiations (...)" when it is the
/// only one; empty when the group has a single context.
std::string describeContexts(const FindingGroup &G, const Verdict &V);

/// The lines every writer prints under a group's lead finding: where its
/// verdict holds (when it is not the only context), then each other verdict
/// as "in 2 of 3 instantiations (...): MESSAGE", with " [RULE]" when
/// \p NameOtherRules and its rule is not the lead's.
std::vector<std::string> verdictLines(const FindingGroup &G,
                                      bool NameOtherRules);

} // namespace coalesce

#endif // COALESCE_FINDINGGROUPS_H
