//===- Report.h - What an analysis run found --------------------*- C++ -*-===//
///
/// \file
/// The result model shared by the frontend (which fills it from the AST),
/// the predictor, the output writers and the harness emitter. Plain data, no
/// Clang types.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_REPORT_H
#define COALESCE_REPORT_H

#include "coalesce/LaneModel.h"
#include "coalesce/Predictor.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// A 1-based position in a source file, as clang reports it.
struct SourceLocation {
  std::string File;
  unsigned Line = 0, Column = 0;
  bool valid() const { return Line != 0; }
};

/// One parameter of a kernel, as the harness needs it to synthesize values.
struct KernelParameter {
  enum class Kind { Pointer, Integer, Floating, Other };
  std::string Name;
  std::string Type;        ///< Spelled type, e.g. "const float *".
  Kind ParamKind = Kind::Other;
  unsigned Bytes = 0;        ///< sizeof the parameter.
  std::string PointeeType;   ///< For pointers: "float", "float4", "P".
  unsigned PointeeBytes = 0; ///< For pointers: sizeof the pointee (1 for void).
  bool IsSigned = true;      ///< For integers.
};

/// What the GPU measured for an access (--verify-on-gpu).
struct Measurement {
  std::optional<double> SectorsPerRequest;
  double Requests = 0;
  std::string Method;  ///< "ncu-source-counters", "ncu-metrics", ...
  std::string Verdict; ///< "confirmed", "mismatch", "not-executed", ...
  std::string Note;    ///< E.g. the accesses measured together with it.
  /// Bytes the profiled launch moved beyond the ideal, (sectors - ideal) x
  /// 32: a global access measured alone in one launch; nullopt otherwise.
  std::optional<double> ExcessBytes;
  /// The profiled launch is the one a per-launch cost counts: a harness
  /// launch at the grid of the file's own launch (not --grid, not an
  /// application's launches).
  bool PredictedLaunch = false;
  /// One profiled launch of the kernel (application mode).
  struct Launch {
    unsigned Number = 0; ///< 1 for the first profiled launch.
    std::optional<double> SectorsPerRequest;
    double Requests = 0;
    std::string Verdict;
  };
  /// Each launch when the kernel was profiled more than once; the fields
  /// above are then over all of them (sectors and requests summed, a
  /// mismatch in any launch a mismatch).
  std::vector<Launch> Launches;
};

/// A launch of a kernel found in host code, with what is known there.
struct LaunchSite {
  SourceLocation Loc;
  BlockShape Block;
  std::optional<BlockShape> Grid;
  /// Where Grid is not known: x, y and z of the grid as expressions over the
  /// kernel's scalar parameters (Symbol::param), when the launch computes
  /// the grid from the values it passes as arguments (`dim3 g(CEIL_DIV(M,
  /// 32))` and `k<<<g, b>>>(M, ...)`); `--param M=...` then gives it.
  std::optional<std::array<Expr, 3>> GridOfParams;
  /// Scalar arguments with a constant value there, by parameter name.
  std::map<std::string, int64_t> Params;
  /// Parameters the launch passes the same run-time value as an earlier
  /// one (`k<<<g, b>>>(n, n)`): the later parameter's name -> the earlier
  /// one's, the name GridOfParams uses for both; a value given for either
  /// gives the grid.
  std::map<std::string, std::string> SameValueAs;
  /// Pointer arguments at a constant byte offset from the start of an
  /// allocation (`d_a + 1` gives 4 for floats), by parameter name.
  std::map<std::string, int64_t> PointerOffsets;
  /// The block dimensions not known there ("block z"), taken as 1: the
  /// known ones fill whole warps, so which lanes share a warp is known.
  std::string Unresolved;
};

/// One global-memory access executed by a kernel (directly or through the
/// __device__ functions it calls).
/// A statically sized __shared__ array of two or more dimensions, as the
/// padding fix-it of a bank conflict needs it (Fixes.h).
struct SharedArrayDecl {
  std::string Name;
  SourceLocation Decl; ///< The declaration.
  /// The innermost dimension's size as written (`32` of `[32][32]`): its
  /// location, byte offset and length in its file, its text and value.
  SourceLocation DimLoc;
  unsigned DimOffset = 0, DimLength = 0;
  std::string DimText;
  int64_t Extent = 0;
  /// The array is used other than as the base of subscripts (its address
  /// taken, decayed to a pointer, under sizeof or a cast): padding could
  /// change what that code sees, so no fix-it.
  bool Escapes = false;
};

struct AccessRecord {
  SourceLocation Loc;     ///< Start of the subscript/dereference expression.
  SourceLocation EndLoc;  ///< Last character of it (for ranges).
  std::string Kernel;
  std::string Expression; ///< Source text of the accessed lvalue.
  std::string Base;       ///< Name of the pointer or array.
  unsigned ElemBytes = 0;
  std::string SourceLine; ///< The text of Loc's line, for carets.
  /// Where the lane-dependent part of the index comes from (a variable's
  /// definition), for a "note:"; invalid when the index uses threadIdx
  /// directly.
  SourceLocation LaneSourceLoc;
  std::string LaneSourceName;
  /// The threadIdx components that variable depends on ("threadIdx.x").
  std::vector<std::string> LaneSourceSymbols;
  /// Call sites from the kernel down to the __device__ function holding the
  /// access (empty for accesses in the kernel body).
  std::vector<SourceLocation> CallChain;
  AccessPattern Pattern;
  Prediction Predicted;
  /// Filled by GPU verification.
  std::optional<Measurement> Measured;
  /// When the compiler merges this access with others of the same element
  /// (float2 .x and .y): a sentence saying so; empty otherwise.
  std::string MergedWith;
  /// When the kernel is launched with several shapes whose predictions
  /// differ: the launch this record's prediction is for ("block 128 at
  /// f.cu:40"); empty otherwise.
  std::string Launch;
  /// When the access runs in a loop whose carried values the analysis
  /// sampled over its first iterations only ("the first 8 iterations of the
  /// loop at f.cu:12"): its address is known there, not beyond, so no
  /// buffer can be sized from it. Empty otherwise.
  std::string SampledOnly;
  /// For a subscript of a statically sized multi-dimensional __shared__
  /// array: the array (the padding fix-it).
  std::optional<SharedArrayDecl> SharedArray;
};

/// A memory operation the walker met and does not predict, with why: shared,
/// local, constant or parameter memory, a value held in registers, code
/// that cannot run. Kept so that every memory operation of a kernel is
/// accounted for (--self-check).
struct ExcludedAccess {
  SourceLocation Loc;
  AccessOp Op = AccessOp::Load;
  std::string Expression;
  std::string Reason;
};

/// A memory operation that the census (--self-check) found in code a kernel
/// reaches and that the report does not account for: a bug in the tool.
struct CensusMiss {
  SourceLocation Loc;
  std::string Expression;
  std::string Operation; ///< "load", "store", "load+store", "access".
  std::string Rule;      ///< The census rule that found it.
};

/// One __global__ function and its accesses.
struct KernelRecord {
  std::string Name;
  SourceLocation Loc;
  BlockShape Block;
  BlockShapeSource BlockSource = BlockShapeSource::Assumed;
  /// Grid dimensions of a launch in the same file, when constant.
  std::optional<BlockShape> LaunchGrid;
  /// The launches found in host code (this file, or with -p the project),
  /// with distinct block shapes; empty when none was resolved.
  std::vector<LaunchSite> Launches;
  /// __launch_bounds__ maximum threads, when given.
  std::optional<unsigned> LaunchBounds;
  /// Name that identifies the kernel across translation units
  /// ("ns::k<float>").
  std::string Key;
  std::vector<KernelParameter> Params;
  std::vector<AccessRecord> Accesses;
  /// Template kernels are analyzed per instantiation; this names it.
  std::string Instantiation;
  /// Memory operations met and not predicted (shared, local, ...).
  std::vector<ExcludedAccess> Excluded;
  /// When the kernel reports no access although its source has memory
  /// operations: why (all of them in code that cannot run in this instance,
  /// or a body compiled out for the target by `#if __CUDA_ARCH__ ...`).
  /// Empty otherwise.
  std::string NoAccessReason;
  /// With --self-check: how many memory operations the census found, and
  /// those the report does not account for.
  unsigned CensusEntries = 0;
  std::vector<CensusMiss> CensusMisses;
};

/// A compile error in an input file.
struct CompileError {
  SourceLocation Loc;
  std::string Message;
  bool InKernel = false; ///< Inside a kernel or a function a kernel calls.
};

/// What happened to one input file.
struct FileResult {
  std::string File;
  bool Analyzed = false;          ///< The AST was built and walked.
  unsigned KernelsAnalyzed = 0;   ///< Kernels walked in this file.
  /// Kernels not analyzed because of compile errors in their code.
  unsigned KernelsNotAnalyzed = 0;
  std::vector<CompileError> Errors;
  /// Kernel templates the file defines and never instantiates (a header
  /// given alone): nothing of them can be analyzed here.
  std::vector<std::pair<std::string, SourceLocation>> UninstantiatedKernels;
  std::string FatalError;         ///< Why nothing could be analyzed.
  /// The analysis (or a kernel's prediction) ran past --timeout and was
  /// abandoned; its thread may still be running.
  bool TimedOut = false;
  /// The analysis (or a kernel's prediction) crashed and was recovered.
  bool Crashed = false;
  /// The input itself is unusable (missing, a directory, unreadable):
  /// FatalError says why; an input error (exit 2), not a compile error.
  bool InputError = false;
};

/// Everything one run found, in deterministic order (file, line, column).
struct Report {
  std::vector<FileResult> Files;
  std::vector<KernelRecord> Kernels;
  /// The kernels' census was taken (--self-check): the writers show the
  /// census and the excluded operations.
  bool SelfChecked = false;

  unsigned compileErrorCount() const;
  /// With --self-check: the memory operations of the census, and those
  /// missing from the report, over every kernel.
  unsigned censusEntryCount() const;
  unsigned censusMissCount() const;
  unsigned accessCount() const;
  /// Sorts kernels and accesses by (file, line, column, kernel).
  void sort();
};

} // namespace coalesce

#endif // COALESCE_REPORT_H
