//===- WarpPicture.h - One warp's lanes against its sectors -----*- C++ -*-===//
///
/// \file
/// The model behind the pictures of --format=html and --explain-access: for
/// one warp request of an access, the bytes each lane touches, the distinct
/// 32-byte sectors they fall in, and per sector the bytes some lane uses
/// against the 32 fetched. Plain data; the writers draw it.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_WARPPICTURE_H
#define COALESCE_OUTPUT_WARPPICTURE_H

#include "coalesce/Report.h"
#include "coalesce/SectorCounter.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// One lane of the pictured warp.
struct PictureLane {
  unsigned Index = 0;  ///< Lane number, 0..31.
  bool Active = false; ///< It executes the access.
  int64_t Address = 0; ///< Its first byte (when active).
};

/// One 32-byte sector the request touches.
struct PictureSector {
  int64_t Address = 0; ///< Its first byte: a multiple of SectorBytes.
  /// Bit B set: byte Address + B is accessed by some active lane.
  uint32_t UsedMask = 0;
  /// Bytes some lane uses (the bits of UsedMask).
  unsigned usedBytes() const;
};

/// One warp request, drawn lane by lane against its sectors.
struct WarpPicture {
  unsigned AccessBytes = 4;
  std::vector<PictureLane> Lanes;     ///< In lane order.
  std::vector<PictureSector> Sectors; ///< Distinct, ascending.
  unsigned ActiveLanes = 0;
  /// Sectors the request costs, from the sector counter (countRequestSectors:
  /// more than Sectors.size() for float atomics to one address).
  unsigned RequestSectors = 0;
  /// Nsight Compute's ideal for the active lanes (idealSectors()).
  unsigned IdealSectors = 0;
  uint64_t RequestedBytes = 0; ///< ActiveLanes * AccessBytes.
  uint64_t UsedBytes = 0;      ///< Distinct bytes the lanes access.
  uint64_t FetchedBytes = 0;   ///< Sectors.size() * SectorBytes.
  /// Which request it is: "warp 0, blockIdx.x = 0"; empty when built from
  /// bare addresses.
  std::string Where;

  /// UsedBytes / FetchedBytes (0 when nothing is fetched).
  double efficiency() const;
  /// Index in Sectors of the sector holding byte \p Address, or -1.
  int sectorOf(int64_t Address) const;
  /// The bytes of \p Sector lane \p L accesses, as a mask like UsedMask.
  uint32_t laneMask(const PictureLane &L, const PictureSector &Sector) const;
};

/// The picture of one request in which lane L accesses \p AccessBytes bytes
/// at LaneAddresses[L] (nullopt: the lane is inactive).
WarpPicture
buildWarpPicture(const std::vector<std::optional<int64_t>> &LaneAddresses,
                 unsigned AccessBytes, AtomicKind Atomic = AtomicKind::None);

/// The picture of the representative request of \p A's prediction, or
/// nullopt when it has none (indirect or unknown accesses).
std::optional<WarpPicture> warpPictureOf(const AccessRecord &A);

} // namespace coalesce

#endif // COALESCE_OUTPUT_WARPPICTURE_H
