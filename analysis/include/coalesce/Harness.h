//===- Harness.h - GPU verification of the predictions ----------*- C++ -*-===//
///
/// \file
/// The analysis side of the GPU verification (docs/verification.md):
///
///   Report -> emitHarness(DIR): harness.cu + build.sh + manifest.tsv
///          -> (any CUDA machine) coalesce-verify DIR: build, run, profile
///          -> results JSON -> runVerifier() -> mergeMeasurements()
///
/// The emitted directory needs only CUDA, a C++ compiler and CMake (for
/// coalesce-verify) on the GPU machine. Manifest ids are the positions of
/// the accesses in the report (kernels in order, then their accesses), so a
/// measurement maps back to its AccessRecord.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_HARNESS_H
#define COALESCE_HARNESS_H

#include "coalesce/Config.h"
#include "coalesce/Report.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// How the harness fills the buffers it allocates.
enum class FillMode {
  Zeros,       ///< All bytes 0.
  Identity,    ///< Integers i % M, floats small values (data-dependent
               ///< indices stay in bounds: M is the smallest buffer's length).
  Permutation, ///< Integers a pseudo-random permutation of 0..M-1.
};

/// "zeros", "identity", "permutation".
const char *fillModeName(FillMode F);

/// Options of emitHarness().
struct HarnessOptions {
  /// GPU architecture for nvcc's -arch.
  std::string Arch = "sm_90";
  FillMode Fill = FillMode::Identity;
  /// Buffer sizes in bytes by pointer parameter name (--buffer NAME=BYTES).
  std::map<std::string, uint64_t> BufferBytes;
  /// Size of a buffer whose extent the analysis cannot bound (or that no
  /// analyzed access uses). Bounded ones get exactly the bytes their
  /// accesses can reach over the whole launch (every block, thread and loop
  /// iteration: interval arithmetic, ExprBounds.h), at least MinBufferBytes;
  /// a kernel needing more than MaxBufferBytes for one buffer is skipped.
  uint64_t DefaultBufferBytes = 64ull << 20;
  uint64_t MinBufferBytes = 256;
  uint64_t MaxBufferBytes = 16ull << 30;
  /// Grid for every kernel (else the constant grid of its launch, else 64
  /// blocks in x, or 8x8 for 2-D blocks).
  std::optional<BlockShape> Grid;
  /// Verify every kernel; else only those with at least one finding under
  /// default FindingOptions.
  bool VerifyAll = false;
  /// Per-kernel watchdog of the harness.
  unsigned TimeoutSeconds = 30;
  /// Values of scalar parameters given by the user (--param); the
  /// predictions' assumed values fill the rest, then 1024 / 1.0.
  std::vector<ParamValue> Params;
  /// Extra nvcc flags for build.sh (-I, -D, -std from the compile command).
  std::vector<std::string> CompileFlags;
};

/// Writes the harness for the selected kernels of \p R into \p Dir (created
/// if needed): src/<file>.cu copies, harness.cu (harness_<stem>.cu when the
/// kernels come from several files), build.sh, manifest.tsv, README.
/// Fails when \p Dir cannot be written or a source file cannot be read.
llvm::Error emitHarness(const Report &R, const HarnessOptions &Opts,
                        llvm::StringRef Dir);

/// Writes the manifest of every access of every kernel of \p R to \p Path
/// (manifest.tsv's format): what `coalesce-verify --app` compares a profiled
/// application run with (--emit-manifest).
llvm::Error writeManifest(const Report &R, llvm::StringRef Path);

/// The manifest id of access \p AccessIdx of kernel \p KernelIdx.
unsigned accessId(const Report &R, size_t KernelIdx, size_t AccessIdx);

/// Options of runVerifier(), passed to coalesce-verify.
struct VerifyOptions {
  std::string Ncu;          ///< --ncu; empty: coalesce-verify searches.
  double Tolerance = 0.05;  ///< --tolerance.
  unsigned TimeoutSeconds = 30;
  std::string Method = "auto"; ///< auto, ncu, replay.
  std::string FromRecording;   ///< --from-recording DIR.
  /// Application mode: the command to profile (--app) and the manifest
  /// (--manifest; runVerifier's Dir is then unused), --launch-count (0:
  /// first launch of every kernel) and --kernel.
  std::string AppCommand, Manifest;
  unsigned LaunchCount = 0;
  std::string KernelRegex;
};

/// What coalesce-verify measured for one manifest access.
struct AccessMeasurement {
  unsigned Id = 0;
  std::string Kernel, File;
  unsigned Line = 0, Column = 0;
  std::string Op;
  std::optional<double> Predicted;
  /// The prediction the measurement was compared with (a group's mean).
  std::optional<double> ComparedPrediction;
  /// Sectors per request, or wavefronts per request of a shared access.
  std::optional<double> MeasuredSectorsPerRequest;
  double MeasuredRequests = 0, MeasuredSectors = 0;
  /// What those requests cost at the ideal (the source page's), when known.
  std::optional<double> MeasuredIdeal;
  /// The access's memory: the measurement is in its costUnitName().
  AccessSpace Space = AccessSpace::Global;
  /// "ncu-source-counters", "ncu-metrics", "instrumented-replay", "none".
  std::string Method;
  /// "confirmed", "mismatch", "unpredicted", "not-executed",
  /// "kernel-failed", "not-profiled", "not-replayed" (--method replay).
  std::string Verdict;
  /// Ids measured together with this one (itself included), else empty.
  std::vector<unsigned> Group;
  std::string Note;
  /// Application mode: which profiled launch of the kernel (1, 2, ...; 0
  /// when not said).
  unsigned Launch = 0;
};

/// One coalesce-verify run.
struct VerifyRun {
  int ExitCode = 0;    ///< coalesce-verify's exit code (0..5).
  std::string Message; ///< Why it failed, when it did.
  std::string Device;
  std::vector<AccessMeasurement> Accesses;
  std::string Output;  ///< Its stdout and stderr.
};

/// Parses the JSON coalesce-verify writes with --json.
llvm::Expected<VerifyRun> parseVerifyJson(llvm::StringRef Json);

/// Runs \p VerifyExe on \p Dir with --json and returns its results. An
/// llvm::Error only when it cannot be run or its JSON is unreadable; a
/// failed verification (no GPU, build error) is a VerifyRun with ExitCode
/// and Message set.
llvm::Expected<VerifyRun> runVerifier(llvm::StringRef VerifyExe,
                                      llvm::StringRef Dir,
                                      const VerifyOptions &Opts);

/// An access of the report with its measurements: one per profiled launch
/// of its kernel, in launch order (empty when not measured).
struct VerifiedAccess {
  const KernelRecord *Kernel = nullptr;
  const AccessRecord *Access = nullptr;
  std::vector<const AccessMeasurement *> Measurements;
};

/// Pairs every access of \p R with its measurements from \p M (by id,
/// checked against kernel and line), in report order. \p M must outlive
/// the result.
std::vector<VerifiedAccess>
mergeMeasurements(const Report &R, llvm::ArrayRef<AccessMeasurement> M);

/// What the report says of an access measured in \p Launches (at least
/// one): a single launch as measured; several summed (sectors over
/// requests), a mismatch if any launch mismatched, each launch listed.
Measurement
combineLaunches(llvm::ArrayRef<const AccessMeasurement *> Launches);

/// One line for a diagnostic note, e.g. "measured on the GPU: 32 sectors per
/// request over 32768 requests (ncu-source-counters): confirmed".
std::string describeMeasurement(const AccessMeasurement &M);

} // namespace coalesce

#endif // COALESCE_HARNESS_H
