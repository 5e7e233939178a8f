//===- TableFor.h - The findings a writer prints ----------------*- C++ -*-===//
///
/// \file
/// Internal helper of the writers: the triaged table given in the options,
/// or one built from the plain finding options when none was given.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_TABLEFOR_H
#define COALESCE_OUTPUT_TABLEFOR_H

#include "coalesce/Output.h"
#include "coalesce/Triage.h"

namespace coalesce {

/// Opts.Table when set, else \p Local filled by triage(R, Opts.Findings).
inline const FindingTable &tableFor(const Report &R, const OutputOptions &Opts,
                                    FindingTable &Local) {
  if (Opts.Table)
    return *Opts.Table;
  Local = triage(R, Opts.Findings);
  return Local;
}

} // namespace coalesce

#endif // COALESCE_OUTPUT_TABLEFOR_H
