//===- Simulate.cpp - Lane-by-lane evaluation of one access ---------------===//
//
// Every sample of the varying symbols, every warp of the block, every lane:
// evaluate the predicate and the address, then count the request's sectors.
// Both are LanePrograms: their lane-free parts are evaluated once per sample.
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

#include <algorithm>

namespace coalesce {
namespace predictor {
namespace {

/// Adds one request with the active lanes' \p Addresses to \p T.
void addRequest(Totals &T, std::vector<int64_t> &Addresses, size_t WarpLanes,
                unsigned AccessBytes, AtomicKind Atomic) {
  std::sort(Addresses.begin(), Addresses.end());
  ++T.Requests;
  T.Sectors += countSortedRequestSectors(Addresses, AccessBytes, Atomic);
  T.Ideal += idealSectors(Addresses.size(), AccessBytes);
  T.ActiveLanes += Addresses.size();
  if (Addresses.size() != WarpLanes)
    T.AllLanesActive = false;
  if (Addresses.size() > 1)
    T.AnyMultiLane = true;

  bool Contiguous = true;
  int64_t Used = 0, CoveredTo = Addresses.front();
  for (size_t I = 0; I < Addresses.size(); ++I) {
    int64_t A = Addresses[I];
    if (I > 0 && A - Addresses[I - 1] != int64_t(AccessBytes))
      Contiguous = false;
    // Union of [A, A + AccessBytes) over the sorted addresses.
    int64_t Start = std::max(A, CoveredTo);
    int64_t End = A + int64_t(AccessBytes);
    if (End > Start) {
      Used += End - Start;
      CoveredTo = End;
    }
  }
  T.UsedBytes += Used;
  if (!Contiguous)
    T.AllContiguous = false;
  if (Addresses.front() != Addresses.back())
    T.AllWarpUniform = false;
}

} // namespace

Totals simulate(const Expr &Address, const Expr &Active, unsigned AccessBytes,
                AtomicKind Atomic, const BlockShape &Block,
                const SamplingPlan &Plan) {
  Totals T;
  LaneProgram AddressFn(Address), ActiveFn(Active);
  std::vector<std::vector<Lane>> Warps;
  for (unsigned W = 0; W < Block.warps(); ++W)
    Warps.push_back(lanesOfWarp(Block, W));

  std::vector<unsigned> Values(Plan.Symbols.size(), 0);
  std::vector<int64_t> Addresses;
  Addresses.reserve(WarpSize);
  for (uint64_t Sample = 0, N = Plan.size(); Sample < N; ++Sample) {
    Bindings B;
    for (size_t I = 0; I < Values.size(); ++I)
      B.set(Plan.Symbols[I], Values[I]);
    AddressFn.prepare(B);
    ActiveFn.prepare(B);

    for (const std::vector<Lane> &Lanes : Warps) {
      Addresses.clear();
      for (const Lane &L : Lanes) {
        std::optional<int64_t> On = ActiveFn.at(L);
        if (!On)
          T.ActiveUnknown = true;
        else if (*On == 0)
          continue;
        std::optional<int64_t> A = AddressFn.at(L);
        if (!A) {
          T.AddressUnknown = true;
          return T;
        }
        Addresses.push_back(*A);
      }
      if (!Addresses.empty())
        addRequest(T, Addresses, Lanes.size(), AccessBytes, Atomic);
    }

    // Next combination (odometer).
    for (size_t I = 0; I < Values.size(); ++I) {
      if (++Values[I] < Plan.Periods[I])
        break;
      Values[I] = 0;
    }
  }
  return T;
}

} // namespace predictor
} // namespace coalesce
