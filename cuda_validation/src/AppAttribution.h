//===- AppAttribution.h - Attribution per instance and launch ---*- C++ -*-===//
///
/// \file
/// Application mode: attributes each unit of a ProfileSplit on its own (the
/// harness's attribute(), unchanged) and joins the results, each marked
/// with the instance and launch it measures.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_APPATTRIBUTION_H
#define COALESCE_VERIFY_APPATTRIBUTION_H

#include "Attribution.h"
#include "ProfileSplit.h"

namespace coalesce::verify {

/// One result per access and profiled launch of its instance (one per
/// access when launches were merged or the instance was not profiled), in
/// the order of \p Split's units. Unattributed instructions keep the
/// profiled function's name.
Attribution attributeUnits(const ProfileSplit &Split,
                           const std::vector<ManifestAccess> &Accesses,
                           double Tolerance);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_APPATTRIBUTION_H
