//===- Replay.h - coalesce-verify --method replay ---------------*- C++ -*-===//
///
/// \file
/// The fallback measurement where Nsight Compute may not read the GPU's
/// counters (ERR_NVGPUCTRPERM) or is missing: DIR/replay.cu, written by
/// `coalesce-lint --emit-harness`, recomputes every access's address from the
/// model's expression on the GPU with the harness's launch and counts the
/// distinct sectors per warp request. It prints
///
///   coalesce-replay: device=NAME (sm_XY)
///   coalesce-replay: kernel=NAME status=ok|error reason=...
///   coalesce-replay: id=N sectors=S requests=R undefined=U
///   coalesce-replay: id=N status=not-replayed reason=...
///   coalesce-replay: fatal=cudaErrorNoDevice reason=...
///
/// which this file parses into per-access results (method
/// "instrumented-replay"). It checks the lane model, not the memory system.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_REPLAY_H
#define COALESCE_VERIFY_REPLAY_H

#include "Attribution.h"
#include "Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce::verify {

/// What replay.cu printed for one access.
struct ReplayCount {
  bool Replayed = false;  ///< False: status=not-replayed (Reason says why).
  double Sectors = 0, Requests = 0;
  double Undefined = 0;   ///< Lane evaluations the model leaves undefined.
  std::string Reason;
};

/// Everything replay.cu printed.
struct ReplayOutput {
  std::string Device;
  std::string Fatal, FatalReason;             ///< fatal=..., reason=...
  std::map<std::string, KernelStatus> Kernels; ///< By kernel base name.
  std::map<unsigned, ReplayCount> Counts;       ///< By manifest id.
};

/// Parses the "coalesce-replay: " lines of \p Text (other lines ignored).
/// Returns false with \p Error on a malformed replay line.
bool parseReplayOutput(const std::string &Text, ReplayOutput &Out,
                       std::string &Error);

/// Gives each manifest access its replay result and verdict (method
/// "instrumented-replay").
Attribution attributeReplay(const std::vector<ManifestAccess> &Accesses,
                            const ReplayOutput &Replay, double Tolerance);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_REPLAY_H
