//===- AppReport.h - Application mode's table and JSON ----------*- C++ -*-===//
///
/// \file
/// What coalesce-verify --app prints: the per-access table (as for the
/// harness, one row per access and profiled launch), how profiled kernels
/// were paired with the manifest's instances, then the lines that were
/// missed or flagged falsely, the moves of compiler-placed instructions, and
/// a summary with precision and recall, for global memory and then for
/// shared memory; and the "instances", "lines", "summary", "shared_lines"
/// and "shared_summary" members of its JSON.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_APPREPORT_H
#define COALESCE_VERIFY_APPREPORT_H

#include "Attribution.h"
#include "LineComparison.h"
#include "ProfileSplit.h"

#include <ostream>
#include <string>

namespace coalesce::verify {

/// Prints how profiled kernels were paired with the manifest's instances,
/// when that is worth saying: a template instance, several launches, or
/// instantiations merged (with the reason). Instances never profiled are
/// counted, not listed.
void writePairings(const ProfileSplit &S, std::ostream &OS);

/// Writes `"instances": [...],` (every pairing) for the JSON document.
void writePairingsJson(const ProfileSplit &S, std::ostream &OS);

/// Prints the line verdicts other than "ok", the moves and the summary of
/// one space (global: sectors; shared: wavefronts and bank conflicts).
void writeLineTable(const LineComparison &L, std::ostream &OS);

/// Writes `"lines", "moves", "summary"` (global memory, with the access
/// verdict counts) and `"shared_lines", "shared_moves", "shared_summary"`
/// (wavefronts) for the JSON document, no braces around them.
void writeLineJson(const LineComparison &Global, const LineComparison &Shared,
                   const Attribution &A, std::ostream &OS);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_APPREPORT_H
