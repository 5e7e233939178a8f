//===- SectorCounter.cpp - 32-byte sectors touched by one request ---------===//

#include "coalesce/SectorCounter.h"

#include <algorithm>

namespace coalesce {
namespace {

/// log2 of the unit sizes (both powers of two).
constexpr unsigned SectorShift = 5, LineShift = 7;
static_assert(SectorBytes == 1u << SectorShift, "sectors are 32 bytes");
static_assert(LineBytes == 1u << LineShift, "lines are 128 bytes");

/// floor(A / 2^Shift), also for negative A: the arithmetic shift rounds
/// toward negative infinity where C division truncates toward zero.
int64_t floorDiv(int64_t A, unsigned Shift) { return A >> Shift; }

/// Distinct units of 2^\p Shift bytes covered by accesses of \p AccessBytes
/// bytes at the ascending addresses \p Sorted. An access of B bytes at A
/// covers units floor(A/U) .. floor((A+B-1)/U); with equal sizes both ends
/// grow with A, so one pass that skips already counted units suffices.
unsigned countSortedUnits(const std::vector<int64_t> &Sorted,
                          unsigned AccessBytes, unsigned Shift) {
  int64_t Bytes = std::max<unsigned>(AccessBytes, 1);
  unsigned Count = 0;
  bool Any = false;
  int64_t Last = 0;
  for (int64_t A : Sorted) {
    int64_t First = floorDiv(A, Shift);
    int64_t End = floorDiv(A + Bytes - 1, Shift);
    if (Any && First <= Last)
      First = Last + 1;
    if (End < First)
      continue;
    Count += End - First + 1;
    Last = End;
    Any = true;
  }
  return Count;
}

std::vector<int64_t> sorted(std::vector<int64_t> Addresses) {
  std::sort(Addresses.begin(), Addresses.end());
  return Addresses;
}

} // namespace

unsigned countSectors(const std::vector<int64_t> &Addresses,
                      unsigned AccessBytes) {
  return countSortedUnits(sorted(Addresses), AccessBytes, SectorShift);
}

unsigned countRequestSectors(const std::vector<int64_t> &Addresses,
                             unsigned AccessBytes, AtomicKind Atomic) {
  return countSortedRequestSectors(sorted(Addresses), AccessBytes, Atomic);
}

unsigned countSortedRequestSectors(const std::vector<int64_t> &Sorted,
                                   unsigned AccessBytes, AtomicKind Atomic) {
  if (Sorted.empty())
    return 0;
  unsigned Sectors = countSortedUnits(Sorted, AccessBytes, SectorShift);
  if (Atomic == AtomicKind::None)
    return Sectors;
  // Lanes per address: runs of equal values.
  unsigned MostLanes = 0, Run = 0, Distinct = 0;
  for (size_t I = 0; I < Sorted.size(); ++I) {
    bool NewAddress = I == 0 || Sorted[I] != Sorted[I - 1];
    Run = NewAddress ? 1 : Run + 1;
    Distinct += NewAddress;
    MostLanes = std::max(MostLanes, Run);
  }
  if (Atomic == AtomicKind::Integer)
    // The compiler aggregates a warp-uniform integer atomic into one lane's.
    return Distinct == 1 ? 1 : Sectors;
  // Float atomics to one address are serialized, not merged.
  return Sectors * MostLanes;
}

unsigned idealSectors(unsigned ActiveLanes, unsigned AccessBytes) {
  return (ActiveLanes * AccessBytes + SectorBytes - 1) / SectorBytes;
}

unsigned countLines(const std::vector<int64_t> &Addresses,
                    unsigned AccessBytes) {
  return countSortedUnits(sorted(Addresses), AccessBytes, LineShift);
}

} // namespace coalesce
