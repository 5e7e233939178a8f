//===- AppCoverage.h - Kernels that ran without predictions -----*- C++ -*-===//
///
/// \file
/// Application mode: the kernels the profile holds that have no row in the
/// manifest (their accesses were dropped, their file did not compile, was
/// not analyzed, or the manifest comes from other files). They are named,
/// with why the manifest lacks them as far as the manifest (and
/// coalesce-lint's JSON report, when given) can tell, and their wasteful
/// lines count as missed (LineComparison.h).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_APPCOVERAGE_H
#define COALESCE_VERIFY_APPCOVERAGE_H

#include "LineComparison.h"
#include "LintReport.h"
#include "Manifest.h"
#include "NcuReport.h"

#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace coalesce::verify {

/// A profiled kernel without any row in the manifest.
struct UnpredictedKernel {
  std::string Kernel; ///< Unqualified name (KernelName.h), the pairing key.
  /// The profiled functions of that name as exported (one per
  /// instantiation), in profile order.
  std::vector<std::string> ProfiledAs;
  unsigned Launches = 0; ///< Profiled launches, instantiations together.
  /// Files of its global-memory instructions (base names, CUDA toolkit
  /// headers left out), in profile order.
  std::vector<std::string> Files;
  /// Why the manifest lacks it: what the lint report says of it or of its
  /// file, or that the manifest is empty or does not name its file, else
  /// "no rows in the manifest".
  std::string Reason;
  unsigned MeasuredLines = 0; ///< Its lines with enough requests.
  unsigned WastefulLines = 0; ///< Of those, the wasteful ones (missed).
};

/// The kernels of \p Page whose unqualified name no access of \p Accesses
/// has, in profile order, with their reasons (\p Report may be null).
std::vector<UnpredictedKernel>
findUnpredictedKernels(const std::vector<ManifestAccess> &Accesses,
                       const SourcePage &Page, const LintReport *Report);

/// The unqualified names of \p Kernels (compareLines' last argument).
std::set<std::string>
unpredictedNames(const std::vector<UnpredictedKernel> &Kernels);

/// Sets each kernel's MeasuredLines and WastefulLines from \p Lines (the
/// comparison made with unpredictedNames(Kernels)).
void countUnpredictedLines(std::vector<UnpredictedKernel> &Kernels,
                           const LineComparison &Lines);

/// True when \p Page holds a kernel and every kernel it holds is in
/// \p Kernels: no access of the manifest could be compared.
bool nothingPredictedRan(const std::vector<UnpredictedKernel> &Kernels,
                         const SourcePage &Page);

/// One sentence naming the kernels grouped by reason, with their wasteful
/// lines, for messages ("2 kernels ran without predictions in the manifest,
/// 1 wasteful line counted as missed: rowSum, colSum (no rows in the
/// manifest)").
std::string describeUnpredicted(const std::vector<UnpredictedKernel> &Kernels);

/// Prints the section listing \p Kernels (nothing when there are none).
void writeUnpredicted(const std::vector<UnpredictedKernel> &Kernels,
                      std::ostream &OS);

/// Writes `"unpredicted_kernels": [...],` for the JSON document.
void writeUnpredictedJson(const std::vector<UnpredictedKernel> &Kernels,
                          std::ostream &OS);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_APPCOVERAGE_H
