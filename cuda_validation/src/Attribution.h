//===- Attribution.h - Measured sectors per request per access --*- C++ -*-===//
///
/// \file
/// Maps the profiled SASS instructions back to the manifest's accesses and
/// compares measured against predicted sectors per request:
///
///   manifest access -> (kernel, file basename, line range, load/store)
///     -> SASS instructions -> sum sectors / sum executions -> verdict
///
/// Accesses whose instruction sets overlap (two loads on one line, a load
/// that the compiler merged with its neighbour) are measured together as one
/// group, compared against the mean of the members' predictions, and flagged
/// as such. Atomics are measured per kernel from the red/atom counters of the
/// metrics pass: the source page attributes them to the CUDA headers and its
/// per-instruction "theoretical" sectors report the ideal.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_ATTRIBUTION_H
#define COALESCE_VERIFY_ATTRIBUTION_H

#include "Manifest.h"
#include "NcuReport.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce::verify {

/// The outcome for one access.
enum class Verdict {
  Confirmed,   ///< Measured within tolerance of the prediction.
  Mismatch,    ///< Measured outside the tolerance.
  Unpredicted, ///< Measured, but the analysis made no numeric prediction.
  NotExecuted, ///< No instruction for it, or its instructions never ran.
  KernelFailed,///< The kernel crashed or timed out.
  NotProfiled, ///< The kernel is missing from the profile or was skipped.
  NotReplayed, ///< --method replay: the model's address depends on values it
               ///< does not know (loaded from memory, per-lane, run-time).
};

/// "confirmed", "mismatch", "unpredicted", "not-executed", "kernel-failed",
/// "not-profiled", "not-replayed".
const char *verdictName(Verdict V);

/// What the harness said about one kernel ("ok", "error", "timeout",
/// "skipped") and why.
struct KernelStatus {
  std::string Status;
  std::string Reason;
};

/// The measurement of one manifest access.
struct AccessResult {
  ManifestAccess Access;
  std::optional<double> Measured; ///< Sectors per request.
  double Sectors = 0, Requests = 0;
  /// What the same requests would cost without waste, from the source
  /// page's per-instruction ideal; nullopt where only kernel-level counters
  /// measured the access (atomics), which hold no ideal.
  std::optional<double> IdealSectors;
  /// "ncu-source-counters", "ncu-metrics", "instrumented-replay" or "none".
  std::string Method = "none";
  Verdict Result = Verdict::NotExecuted;
  /// Ids of the accesses measured together with this one (itself included);
  /// empty when it was measured alone.
  std::vector<unsigned> Group;
  /// The prediction the group was compared against (mean of the members').
  std::optional<double> ComparedPrediction;
  /// Sectors per request of each instruction, in address order.
  std::vector<double> InstructionValues;
  std::string Note;
  /// Application mode: the manifest instance measured ("" for a kernel that
  /// is no template, and in harness mode), the profiled function it was
  /// paired with, and which of its Launches profiled launches this is (from
  /// 1; 0 when launches and instantiations were summed, or not profiled).
  std::string Instance, ProfiledAs;
  unsigned Launch = 0, Launches = 0;
};

/// A global-memory instruction no access accounts for.
struct UnattributedInstruction {
  SassInstruction Instruction;
};

/// Inputs of attribute().
struct AttributionInput {
  const std::vector<ManifestAccess> *Accesses = nullptr;
  const SourcePage *Source = nullptr;
  /// Kernel-level counters; may be null (then atomics fall back to the
  /// source page's theoretical sectors, which report the ideal).
  const std::map<std::string, KernelCounters> *Counters = nullptr;
  /// Harness status per kernel base name; may be null.
  const std::map<std::string, KernelStatus> *Statuses = nullptr;
  double Tolerance = 0.05;
};

/// The result of attribute().
struct Attribution {
  std::vector<AccessResult> Results; ///< In manifest order.
  std::vector<UnattributedInstruction> Unattributed;
};

/// Whether an instruction doing \p Op can belong to \p A: a load to a load
/// or a load+store, a store to a store or a load+store, an atomic to an
/// atomic (the spaces are compared apart).
bool takesOp(const ManifestAccess &A, MemOp Op);

/// True when \p Measured is within \p Tolerance of \p Predicted:
/// |measured - predicted| <= Tolerance * max(1, predicted).
bool withinTolerance(double Predicted, double Measured, double Tolerance);

/// Attributes the profile to the accesses and gives each a verdict.
Attribution attribute(const AttributionInput &In);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_ATTRIBUTION_H
