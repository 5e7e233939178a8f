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

#include "llvm/Support/Error.h"

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

/// What a finding costs: the bytes its sectors above the ideal move, from
/// the requests the prediction counted (RequestCount).
struct Impact {
  /// Per what the bytes are counted: a launch (the grid and every trip
  /// count known), a block (no grid), or a block and one pass of each loop
  /// in PerIterationOf (a trip count not known).
  enum class Per { Launch, Block, Pass };
  Per Unit = Per::Launch;
  /// The count is over the launch's grid (Launch, or Pass with the grid
  /// known), not one block.
  bool OverGrid = false;
  /// (sectors - ideal) x 32 bytes x requests x instructions.
  double ExcessBytes = 0;
  /// sectors x 32 bytes x requests x instructions: what the access fetches.
  double FetchedBytes = 0;
  /// The excess as a share of the kernel's predicted traffic per launch
  /// (every access with a per-launch count); nullopt when not per launch.
  std::optional<double> KernelShare;
  /// How the requests were counted (RequestCount::Basis).
  std::string Basis;
  /// Loops whose trip counts are not known.
  std::vector<std::string> PerIterationOf;
  /// The memory: for AccessSpace::Shared the bytes are wavefronts x 128
  /// (the bytes one wavefront of shared memory can serve), and the text
  /// counts wavefronts.
  AccessSpace Space = AccessSpace::Global;
};

/// "launch", "block", "pass": how Impact::Unit is written in JSON and SARIF.
const char *impactUnitName(Impact::Per Unit);

/// The instructions each request of \p A is issued as, as Nsight Compute
/// counts them: its pieces (AccessPattern::Instructions), an update's load
/// and store apart.
unsigned instructionsPerRequest(const AccessRecord &A);

/// The impact of access \p A whose excess is \p WastedSectors per request;
/// nullopt when it has no request count.
std::optional<Impact> impactOf(const AccessRecord &A, double WastedSectors);

/// Bytes the accesses of \p K fetch per launch, over those whose requests
/// per launch are counted; nullopt when none is.
std::optional<double> kernelTrafficPerLaunch(const KernelRecord &K);

/// "wastes about 48 MiB of the 64 MiB this load fetches per launch (64
/// blocks x 8 warps x 64 passes of the loop at f.cu:17); 38% of the
/// kernel's traffic".
std::string describeImpact(const Impact &I, AccessOp Op);

/// True when \p A costs more than \p B: per-launch figures before per-block
/// ones before per-pass ones, then more excess bytes; without impacts, more
/// wasted sectors per request.
bool costlier(const struct Finding &A, const struct Finding &B);

/// One diagnostic about one access.
struct Finding {
  std::string RuleId;      ///< "coalesce-stride", ...
  std::string Message;     ///< Lower-case, no final period, with the numbers.
  std::vector<Note> Notes; ///< Causes, call chain.
  std::string Suggestion;  ///< What to change.
  double WastedSectors = 0; ///< (sectors - ideal) per request, for ordering.
  /// What it costs; nullopt when the requests are not counted.
  std::optional<Impact> Cost;
};

/// The least a finding must cost to be reported (--min-impact): excess
/// bytes per launch, or a share of the kernel's predicted traffic. Findings
/// whose figure is not per launch (no grid, a trip count not known) are
/// never dropped by it.
struct MinImpact {
  std::optional<double> Bytes;
  std::optional<double> Share; ///< 0..1.
  bool active() const { return Bytes || Share; }
};

/// Parses "1MiB", "512 KiB", "4096" (bytes; k/M/G and KiB/MiB/GiB are
/// powers of 1024) or "5%"; an error naming the value otherwise.
llvm::Expected<MinImpact> parseMinImpact(llvm::StringRef S);

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
  /// Drop findings that cost less per launch (--min-impact).
  MinImpact MinimumImpact;
};

/// The finding for \p A, or nullopt when it is not one under \p Opts.
std::optional<Finding> buildFinding(const AccessRecord &A,
                                    const FindingOptions &Opts);

} // namespace coalesce

#endif // COALESCE_FINDINGS_H
