//===- LineComparison.h - Measured waste per source line vs findings -*- C++ -*-===//
///
/// \file
/// Application mode (coalesce-verify --app): what the profile of a real run
/// says per source line, against the findings of the manifest.
///
///   SASS instructions of one space -> (file, line), moved ones
///   re-attributed where unambiguous -> sum of sectors (global) or
///   wavefronts (shared), their ideal, requests per line
///   -> wasteful (cost > Ratio x ideal, >= MinRequests requests)
///   -> per line: true positive, missed (wasteful, no finding), false alarm
///      (finding, measured at the ideal), and precision / recall.
///
/// Only lines of files the manifest names count: code the analysis did not
/// see (CUDA headers, other translation units) cannot be missed. Except for
/// the kernels that ran without any row in the manifest (AppCoverage.h):
/// their lines count wherever they are, CUDA toolkit headers left out, so
/// that their waste is missed, not ignored. A line's numbers are sums over
/// every profiled launch and instantiation of every kernel with code on it.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_LINECOMPARISON_H
#define COALESCE_VERIFY_LINECOMPARISON_H

#include "Manifest.h"
#include "MemorySpace.h"
#include "NcuReport.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace coalesce::verify {

/// Which lines count, and when a line counts as measured and as wasteful.
struct LineCriteria {
  /// Global: sectors and the coalescing findings; shared: wavefronts and
  /// the bank-conflict findings. The two are compared apart.
  MemSpace Space = MemSpace::Global;
  double Ratio = 1.25;      ///< Wasteful: cost > Ratio x ideal ...
  double MinRequests = 16;  ///< ... over at least this many requests.
};

/// One source line with executed memory instructions of the compared space
/// or a finding.
struct LineResult {
  std::string File; ///< Base name.
  unsigned Line = 0;
  /// Sectors (global) or wavefronts (shared), measured and ideal, summed.
  double Sectors = 0, Ideal = 0, Requests = 0;
  bool Measured = false; ///< Requests >= MinRequests.
  bool Wasteful = false;
  std::string Rules;     ///< Rules of the findings on the line ("" if none).
  /// The bytes beyond the ideal the findings on the line predict for the
  /// profiled launches (global memory): each finding's per-launch figure
  /// times its kernel's profiled launches; nullopt when a finding of the
  /// line has no per-launch figure or its kernel several instances.
  std::optional<double> PredictedExcess;
  /// "true-positive", "missed", "false-alarm", "not-measured" (a finding on
  /// a line without enough requests) or "ok" (neither).
  std::string Verdict;
  std::string Note;      ///< Instructions moved here, from where.
  /// Kernels with instructions on the line that have no row in the
  /// manifest (unqualified names, in profile order).
  std::vector<std::string> Unpredicted;
};

/// The comparison of one run.
struct LineComparison {
  MemSpace Space = MemSpace::Global; ///< The space compared.
  std::vector<LineResult> Lines; ///< By file, then line.
  /// One sentence per instruction moved to another line, e.g.
  /// "k@a.cu:12 load moved to line 11 (only predicted load of base A near)".
  std::vector<std::string> Moves;
  unsigned Wasteful = 0, FlaggedMeasured = 0, TruePositives = 0;
  unsigned FalseAlarms = 0, Missed = 0, FlaggedNotMeasured = 0;
  std::optional<double> Precision, Recall; ///< Unset when undefined (0/0).
};

/// Compares the profile \p Page with the findings of \p Accesses. The
/// lines of the kernels named in \p Unpredicted (unqualified names: kernels
/// profiled without rows in the manifest) count in every file but the CUDA
/// toolkit's headers.
LineComparison compareLines(const std::vector<ManifestAccess> &Accesses,
                            const SourcePage &Page, const LineCriteria &C,
                            const std::set<std::string> &Unpredicted = {});

/// True for a header of the CUDA toolkit (a path with an include directory
/// at most four directories under one named cuda*, as
/// /usr/local/cuda/targets/x86_64-linux/include/sm_20_atomic_functions.hpp
/// or /opt/cuda-12.4/include/cuda_fp16.h): code
/// no analysis of the user's sources predicts.
bool isToolkitHeader(const std::string &Path);

/// True when the profile has global-memory instructions but none carries a
/// source line: the program was built without -lineinfo.
bool lacksLineInfo(const SourcePage &Page);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_LINECOMPARISON_H
