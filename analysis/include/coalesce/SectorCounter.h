//===- SectorCounter.h - 32-byte sectors touched by one request -*- C++ -*-===//
///
/// \file
/// The sector model measured on sm_90 (see docs/sector-model.md): one warp
/// request touches the distinct 32-byte sectors covered by the bytes of its
/// active lanes. Float atomics to one address are not merged by the hardware;
/// integer atomics to a warp-uniform address are aggregated by the compiler.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_SECTORCOUNTER_H
#define COALESCE_SECTORCOUNTER_H

#include <cstdint>
#include <vector>

namespace coalesce {

constexpr unsigned SectorBytes = 32;
constexpr unsigned LineBytes = 128;

/// How an access reaches memory, for the parts of the model that differ.
enum class AtomicKind {
  None,    ///< A plain load or store.
  Integer, ///< Integer atomic (atomicAdd on int, atomicOr, atomicCAS, ...).
  Float,   ///< Floating-point atomic (atomicAdd on float or double).
};

/// Distinct 32-byte sectors touched when each address in \p Addresses (one per
/// active lane, byte addresses) is accessed with \p AccessBytes bytes. An
/// access that straddles a sector boundary touches both sectors.
unsigned countSectors(const std::vector<int64_t> &Addresses,
                      unsigned AccessBytes);

/// Sectors one request costs on the hardware, atomics included:
/// - AtomicKind::None: countSectors().
/// - AtomicKind::Float: distinct sectors times the largest number of lanes
///   that hit one address (same-address float atomics are not merged).
/// - AtomicKind::Integer: 1 when all lanes hit one address (the compiler
///   aggregates the warp into one atomic), else like a store.
unsigned countRequestSectors(const std::vector<int64_t> &Addresses,
                             unsigned AccessBytes, AtomicKind Atomic);

/// countRequestSectors() for addresses already sorted in ascending order:
/// linear time, no copy (the simulation's inner loop).
unsigned countSortedRequestSectors(const std::vector<int64_t> &Sorted,
                                   unsigned AccessBytes, AtomicKind Atomic);

/// Nsight Compute's "ideal": the sectors \p ActiveLanes lanes of
/// \p AccessBytes bytes each would need if contiguous and 32-byte aligned.
unsigned idealSectors(unsigned ActiveLanes, unsigned AccessBytes);

/// Distinct 128-byte lines touched (what "L1 Tag Requests Global" counts).
unsigned countLines(const std::vector<int64_t> &Addresses, unsigned AccessBytes);

} // namespace coalesce

#endif // COALESCE_SECTORCOUNTER_H
