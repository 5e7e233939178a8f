//===- LaneModel.h - Threads of a block, warp by warp -----------*- C++ -*-===//
///
/// \file
/// The per-warp lane model: a block shape, its linearization
/// tid = x + y*Bx + z*Bx*By, and the lanes of each warp with their threadIdx
/// coordinates. With blockDim = (16,16) one warp spans two rows.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LANEMODEL_H
#define COALESCE_LANEMODEL_H

#include "coalesce/Expr.h"

#include <string>
#include <vector>

namespace coalesce {

/// Threads per warp on every NVIDIA GPU this tool targets.
constexpr unsigned WarpSize = 32;

/// The dimensions of a thread block.
struct BlockShape {
  unsigned X = 256, Y = 1, Z = 1;

  unsigned threads() const { return X * Y * Z; }
  /// Warps per block (the last one may be partial).
  unsigned warps() const { return (threads() + WarpSize - 1) / WarpSize; }
  /// "256", "16x16" or "8x8x4".
  std::string str() const;
  friend bool operator==(const BlockShape &A, const BlockShape &B) {
    return A.X == B.X && A.Y == B.Y && A.Z == B.Z;
  }
};

/// Where the block shape used for a kernel came from.
enum class BlockShapeSource {
  CommandLine,  ///< --block (global or per kernel).
  LaunchBounds, ///< __launch_bounds__(N): a 1-D block of N threads.
  LaunchSite,   ///< kernel<<<grid, block>>> with constant dimensions.
  Assumed,      ///< Nothing known: a 1-D block that is a multiple of 32.
};

/// Stable lower-case name: "command-line", "launch-bounds", "launch-site",
/// "assumed".
const char *blockShapeSourceName(BlockShapeSource S);

/// One lane of a warp.
struct Lane {
  unsigned Index; ///< Lane number in the warp, 0..31.
  unsigned Tid;   ///< Linear thread index in the block.
  unsigned X, Y, Z;
};

/// The lanes of warp \p Warp of a block of shape \p Shape, in lane order.
/// Fewer than 32 for a partial last warp; empty when Warp >= Shape.warps().
std::vector<Lane> lanesOfWarp(const BlockShape &Shape, unsigned Warp);

/// Binds threadIdx.{x,y,z} to the coordinates of \p L.
void bindLane(Bindings &B, const Lane &L);

/// Binds blockDim.{x,y,z} to \p Shape.
void bindBlockShape(Bindings &B, const BlockShape &Shape);

} // namespace coalesce

#endif // COALESCE_LANEMODEL_H
