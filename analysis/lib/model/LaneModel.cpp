//===- LaneModel.cpp - Threads of a block, warp by warp -------------------===//

#include "coalesce/LaneModel.h"

#include <fmt/format.h>

#include <algorithm>

namespace coalesce {

std::string BlockShape::str() const {
  if (Z > 1)
    return fmt::format("{}x{}x{}", X, Y, Z);
  if (Y > 1)
    return fmt::format("{}x{}", X, Y);
  return fmt::format("{}", X);
}

const char *blockShapeSourceName(BlockShapeSource S) {
  switch (S) {
  case BlockShapeSource::CommandLine:
    return "command-line";
  case BlockShapeSource::LaunchBounds:
    return "launch-bounds";
  case BlockShapeSource::LaunchSite:
    return "launch-site";
  case BlockShapeSource::Assumed:
    return "assumed";
  }
  return "assumed";
}

std::vector<Lane> lanesOfWarp(const BlockShape &Shape, unsigned Warp) {
  std::vector<Lane> Lanes;
  unsigned Threads = Shape.threads();
  if (Shape.X == 0 || Shape.Y == 0 || Warp >= Shape.warps())
    return Lanes;
  unsigned First = Warp * WarpSize;
  unsigned Count = std::min(WarpSize, Threads - First);
  Lanes.reserve(Count);
  // tid = x + y*X + z*X*Y, so x = tid % X, y = (tid / X) % Y, z = tid / (X*Y).
  for (unsigned L = 0; L < Count; ++L) {
    unsigned Tid = First + L;
    Lanes.push_back(Lane{L, Tid, Tid % Shape.X, (Tid / Shape.X) % Shape.Y,
                         Tid / (Shape.X * Shape.Y)});
  }
  return Lanes;
}

void bindLane(Bindings &B, const Lane &L) {
  B.set(Symbol::threadIdx(0), L.X);
  B.set(Symbol::threadIdx(1), L.Y);
  B.set(Symbol::threadIdx(2), L.Z);
}

void bindBlockShape(Bindings &B, const BlockShape &Shape) {
  B.set(Symbol::blockDim(0), Shape.X);
  B.set(Symbol::blockDim(1), Shape.Y);
  B.set(Symbol::blockDim(2), Shape.Z);
}

} // namespace coalesce
