//===- Classifier.cpp - From sector counts to a class of access -----------===//

#include "model/PredictInternal.h"

#include "coalesce/BankCounter.h"

#include <cstdlib>

namespace coalesce {

const char *accessOpName(AccessOp Op) {
  switch (Op) {
  case AccessOp::Load:
    return "load";
  case AccessOp::Store:
    return "store";
  case AccessOp::LoadStore:
    return "load+store";
  case AccessOp::Atomic:
    return "atomic";
  }
  return "load";
}

const char *accessSpaceName(AccessSpace S) {
  return S == AccessSpace::Shared ? "shared" : "global";
}

const char *costUnitName(AccessSpace S) {
  return S == AccessSpace::Shared ? "wavefront" : "sector";
}

unsigned costUnitBytes(AccessSpace S) {
  return S == AccessSpace::Shared ? BankCount * BankBytes : SectorBytes;
}

const char *classificationName(Classification C) {
  switch (C) {
  case Classification::Coalesced:
    return "coalesced";
  case Classification::Misaligned:
    return "misaligned";
  case Classification::Strided:
    return "strided";
  case Classification::AoS:
    return "aos";
  case Classification::Transposed:
    return "transposed";
  case Classification::Uniform:
    return "uniform";
  case Classification::Indirect:
    return "indirect";
  case Classification::Unknown:
    return "unknown";
  case Classification::ConflictFree:
    return "conflict-free";
  case Classification::BankConflict:
    return "bank-conflict";
  }
  return "unknown";
}

namespace predictor {

static bool hasMagnitude(const std::optional<int64_t> &V, int64_t Bytes) {
  return V && std::llabs(*V) == Bytes;
}

Classification classify(const ClassifyInput &In) {
  const AccessPattern &Access = *In.Access;
  const Totals &T = *In.Base;
  const Prediction &P = *In.Numbers;
  const int64_t Bytes = Access.AccessBytes;

  // One address per warp: nothing to coalesce (same-address float atomics
  // keep their serialized cost in the numbers).
  if (!Access.Address.isLaneDependent() || (T.AllWarpUniform && T.AnyMultiLane))
    return Classification::Uniform;

  double Ideal = *P.IdealSectorsPerRequest;
  bool AboveIdeal = *P.SectorsPerRequest > Ideal + Epsilon;
  // Shared memory: a shift of the offset moves every lane to another bank
  // together, so only conflicts matter.
  if (Access.Space == AccessSpace::Shared)
    return AboveIdeal ? Classification::BankConflict
                      : Classification::ConflictFree;
  bool WorstAboveIdeal =
      P.WorstSectorsPerRequest && *P.WorstSectorsPerRequest > Ideal + Epsilon;
  if (!AboveIdeal)
    return WorstAboveIdeal ? Classification::Misaligned
                           : Classification::Coalesced;

  // A unit lane stride only means contiguous when no lane is switched off
  // (tid % 2 == 0 leaves a stride of 2 elements between active lanes).
  std::optional<int64_t> Stride = P.LaneStrideBytesValue;
  bool Contiguous =
      T.AllContiguous || (hasMagnitude(Stride, Bytes) && T.AllLanesActive);
  if (Contiguous)
    return Classification::Misaligned;

  if (Access.RecordBytes && Stride && *Stride == int64_t(*Access.RecordBytes))
    return Classification::AoS;

  bool OtherDimIsFast =
      (In.Block.Y > 1 && hasMagnitude(P.RowStrideBytesValue, Bytes)) ||
      (In.Block.Z > 1 && hasMagnitude(In.DepthStrideBytesValue, Bytes));
  if (Stride && std::llabs(*Stride) > Bytes && OtherDimIsFast)
    return Classification::Transposed;

  return Classification::Strided;
}

} // namespace predictor
} // namespace coalesce
