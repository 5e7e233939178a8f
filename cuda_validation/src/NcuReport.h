//===- NcuReport.h - Nsight Compute CSV exports as data ---------*- C++ -*-===//
///
/// \file
/// Reads the two Nsight Compute exports coalesce-verify uses:
///
///  - the source page (`ncu -i rep --page source --print-source cuda,sass
///    --csv --print-kernel-base function|demangled`): per profiled launch
///    (result), one block per source file of "File Path" / "Function Name" /
///    header rows, then CUDA source-line rows (Line No set, Address "-")
///    each followed by the SASS rows compiled from that line (Line No
///    empty). Every SASS row appears twice; the columns differ between
///    kernels (a kernel without plain loads and stores has no "Access
///    Operation" column), so each block is read by its own header. The
///    export has no result id: a new result begins where the function name
///    changes or a file comes back under the same function, and the launches
///    of one function are numbered in that order.
///  - the metrics page (`ncu --metrics ... --csv`): one row per kernel launch
///    and metric, used for atomics, whose per-instruction "theoretical"
///    sectors report the ideal rather than what the hardware does.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_NCUREPORT_H
#define COALESCE_VERIFY_NCUREPORT_H

#include "MemorySpace.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce::verify {

/// What a memory instruction does.
enum class MemOp { Load, Store, Atomic };

/// "load", "store", "atomic".
const char *memOpName(MemOp Op);

/// One global- or shared-memory SASS instruction with its counters
/// (deduplicated).
struct SassInstruction {
  std::string Function; ///< Kernel name as exported ("k_copy").
  /// Which profiled launch of Function this is, from 1 in export order.
  unsigned Launch = 1;
  std::string File;     ///< Source file the instruction is attributed to.
  unsigned Line = 0;    ///< Source line it is attributed to.
  std::string Address;  ///< PC, e.g. "0x7f6d677a3190".
  std::string Sass;     ///< Instruction text, e.g. "LDG.E R3, desc[UR4][R2.64]".
  MemOp Op = MemOp::Load;
  /// Shared for LDS/STS/ATOMS (and LDSM); Global for the rest, LDGSTS
  /// included (its global side is the load).
  MemSpace Space = MemSpace::Global;
  unsigned AccessBits = 0;   ///< "Access Size" (32 for a float, 128 for float4).
  double Executed = 0;       ///< Warp-level executions = requests.
  /// What the requests cost in the instruction's space: "L2 Theoretical
  /// Sectors Global", or for shared memory "L1 Wavefronts Shared".
  double Sectors = 0;
  /// The same for an access without waste: "L2 Theoretical Sectors Global
  /// Ideal" or "L1 Wavefronts Shared Ideal".
  double IdealSectors = 0;
};

/// The parsed source page.
struct SourcePage {
  /// Global- and shared-memory instructions (local memory, textures,
  /// constants left out).
  std::vector<SassInstruction> Instructions;
  /// Every function that appears, with the sum of "Instructions Executed"
  /// over its SASS rows (0 when it never ran), over all its launches.
  std::map<std::string, double> FunctionInstructions;
  /// How many launches (results) of each function the export holds.
  std::map<std::string, unsigned> Launches;
};

/// Parses a source-page export. Returns false and sets \p Error when the
/// text has no recognizable block.
bool parseSourcePage(const std::string &Csv, SourcePage &Out,
                     std::string &Error);

/// Kernel-level global-memory counters (sums over launches of one kernel).
struct KernelCounters {
  double LoadSectors = 0, LoadRequests = 0;
  double StoreSectors = 0, StoreRequests = 0;
  double RedSectors = 0, RedRequests = 0;
  double AtomSectors = 0, AtomRequests = 0;
};

/// The metrics coalesce-verify asks the metrics pass for (comma-separated,
/// for `ncu --metrics`).
const char *counterMetricList();

/// Parses a metrics-pass export, keyed by kernel name. Lines that are not
/// CSV rows of the table (profiler messages, program output) are skipped.
bool parseMetrics(const std::string &Csv,
                  std::map<std::string, KernelCounters> &Out,
                  std::string &Error);

/// The base name of a kernel as exported or spelled: drops a return type, a
/// parameter list, template arguments and qualifiers ("void ns::k<float>(float
/// *)" -> "k"); unqualifiedKernelName() (KernelName.h).
std::string kernelBaseName(const std::string &Name);

/// The file name part of a path ("/a/b/k.cu" -> "k.cu").
std::string fileBaseName(const std::string &Path);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_NCUREPORT_H
