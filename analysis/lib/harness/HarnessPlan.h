//===- HarnessPlan.h - What the emitted harness will do ---------*- C++ -*-===//
///
/// \file
/// Internal to the harness emitter. The plan is decided first, as data, and
/// the writers only print it:
///
///   Report + HarnessOptions -> selected kernels -> per kernel: launch shape,
///   one ArgPlan per parameter (buffer size and fill, scalar value, or why
///   the kernel must be skipped) -> harness.cu / build.sh / manifest.tsv
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_HARNESS_HARNESSPLAN_H
#define COALESCE_HARNESS_HARNESSPLAN_H

#include "coalesce/Harness.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// How one kernel argument is synthesized.
struct ArgPlan {
  enum class Kind { Buffer, Integer, Floating, ZeroBytes };
  Kind ArgKind = Kind::ZeroBytes;
  std::string Name;
  unsigned Bytes = 0;   ///< sizeof the argument.
  bool IsSigned = true; ///< Integer.
  int64_t IntValue = 0;
  double FloatValue = 1.0;
  std::string ValueOrigin; ///< "--param", "assumed by the analysis", "default".
  // Buffers:
  uint64_t BufferBytes = 0;
  /// Bytes before the pointer passed to the kernel (negative offsets).
  uint64_t LeadBytes = 0;
  /// What the buffer's scalars are: 'i' integer, 'f' float, 'd' double,
  /// 'z' left zero (other types).
  char FillKind = 'z';
  unsigned FillElemBytes = 0; ///< Scalar size for 'i' (1, 2, 4, 8).
  std::string SizeOrigin;     ///< "--buffer", "derived ...", "default".
};

/// One kernel launch of the harness.
struct KernelPlan {
  const KernelRecord *Kernel = nullptr;
  size_t KernelIdx = 0;
  std::string Callee; ///< The expression naming the kernel ("k<float>").
  std::string Harness; ///< Executable name.
  BlockShape Block, Grid;
  std::vector<ArgPlan> Args;
  std::string SkipReason; ///< Non-empty: the harness skips the kernel.
  uint64_t IntModulus = 1; ///< Identity/permutation values are < this.
  /// Integer scalar parameters by name (--param, assumed, else 1024), also
  /// for skipped kernels; replay.cu binds Param symbols to them.
  std::map<std::string, int64_t> ScalarValues;
};

/// One harness executable (one user source file).
struct HarnessFilePlan {
  std::string Name;       ///< "harness" or "harness_<stem>".
  std::string SourcePath; ///< The user's file, absolute.
  std::vector<KernelPlan> Kernels;
};

/// The whole plan.
struct HarnessPlan {
  std::vector<HarnessFilePlan> Files;
};

/// Decides everything the harness does.
HarnessPlan planHarness(const Report &R, const HarnessOptions &Opts);

/// The byte range [lowest, highest + access size) that \p A reaches when the
/// kernel runs with \p Block and \p Grid and scalar parameters \p Values,
/// taking each symbol's extreme values (loop counters: 0 and
/// \p LoopBound - 1). nullopt when a symbol cannot be bounded (data-dependent
/// or unknown values).
std::optional<std::pair<int64_t, int64_t>>
accessByteRange(const AccessRecord &A, const BlockShape &Block,
                const BlockShape &Grid,
                const std::map<std::string, int64_t> &Values,
                int64_t LoopBound);

} // namespace coalesce

#endif // COALESCE_HARNESS_HARNESSPLAN_H
