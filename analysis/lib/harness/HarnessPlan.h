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
  /// Struct: a by-value struct built as `TYPE arg{}` whose dereferenced
  /// pointer fields each get their own buffer (Fields) and whose integer
  /// fields the analysis used get their values (FieldValues).
  /// StructPointer: a pointer to ElemCount structures copied to device
  /// memory (a buffer of its own, sized like a pointer's), whose pointer
  /// fields the kernel dereferences (accesses based on "p->a",
  /// "ps[i].a", "(*p).in.a") each get their own buffer (Fields; one per
  /// structure, or one shared by all when SharedFields) and whose integer
  /// fields the analysis used get their values (FieldValues).
  enum class Kind { Buffer, Integer, Floating, ZeroBytes, Struct, StructPointer };
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
  /// Struct: the spelled type, its pointer fields' buffers (Name is the
  /// member path, "a" or "in.a"; the fill is chosen from the field's type
  /// when the harness compiles) and integer member values.
  std::string TypeName;
  std::vector<ArgPlan> Fields;
  std::vector<std::pair<std::string, int64_t>> FieldValues;
  /// StructPointer: how many structures the device array holds (its
  /// accesses' exact extent over sizeof the structure, at least 1), and
  /// whether they share one buffer per field (more than
  /// MaxPerElementFields structures).
  uint64_t ElemCount = 1;
  unsigned StructBytes = 0;
  /// Exact sizing: the bytes the accesses reach past the pointer (0: the
  /// size was not derived from exact bounds).
  uint64_t ReachBytes = 0;
  bool SharedFields = false;
  /// Fields: the access bases that name this field ("ps[blockIdx.x].a").
  std::vector<std::string> Bases;
};

/// Above this many structures behind a pointer, their pointer fields share
/// one buffer per field.
constexpr uint64_t MaxPerElementFields = 64;

/// One kernel launch of the harness.
struct KernelPlan {
  const KernelRecord *Kernel = nullptr;
  size_t KernelIdx = 0;
  std::string Callee; ///< The expression naming the kernel ("k<float>").
  std::string Harness; ///< Executable name.
  BlockShape Block, Grid;
  std::vector<ArgPlan> Args;
  std::string SkipReason; ///< Non-empty: the harness skips the kernel.
  /// Launched with cudaLaunchCooperativeKernel (grid.sync() needs it).
  bool Cooperative = false;
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


} // namespace coalesce

#endif // COALESCE_HARNESS_HARNESSPLAN_H
