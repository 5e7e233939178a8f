//===- Simulate.cpp - Lane-by-lane evaluation of one access ---------------===//
//
// Every sample of the varying symbols, every warp of the block, every lane:
// evaluate the predicate and the address, then count the request's sectors.
// Both are LanePrograms: their lane-free parts are evaluated once per sample.
// One walk over the requests serves the totals and the choice of the request
// a picture shows.
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace coalesce {
namespace predictor {
namespace {

/// One warp request met by walkRequests().
struct RequestView {
  /// The active lanes' addresses, in lane order.
  std::vector<int64_t> &Addresses;
  /// Bit L set: lane L is active (Addresses holds its address, in order).
  uint32_t ActiveMask;
  /// Lanes of the warp (32, fewer for a partial last warp).
  size_t WarpLanes;
  unsigned Warp;
  /// The sample's values, in Plan.Symbols order.
  const std::vector<unsigned> &Values;
};

/// What walkRequests() met besides requests.
struct WalkFlags {
  bool AddressUnknown = false; ///< Stopped: an address could not be evaluated.
  bool ActiveUnknown = false;  ///< Some predicate could not (taken as active).
};

/// Calls \p Visit(RequestView &) for every warp request with an active lane,
/// sample by sample, warp by warp, until it returns false.
/// \p Base binds symbols the programs still hold besides the plan's.
template <typename Visitor>
WalkFlags walkRequests(LaneProgram &AddressFn, LaneProgram &ActiveFn,
                       const Bindings &Base, const BlockShape &Block,
                       const SamplingPlan &Plan, Visitor Visit) {
  WalkFlags Flags;
  std::vector<std::vector<Lane>> Warps;
  for (unsigned W = 0; W < Block.warps(); ++W)
    Warps.push_back(lanesOfWarp(Block, W));

  std::vector<unsigned> Values(Plan.Symbols.size(), 0);
  std::vector<int64_t> Addresses;
  Addresses.reserve(WarpSize);
  int64_t On[WarpSize], Address[WarpSize];
  for (uint64_t Sample = 0, N = Plan.size(); Sample < N; ++Sample) {
    Bindings B = Base;
    for (size_t I = 0; I < Values.size(); ++I)
      B.set(Plan.Symbols[I], Values[I]);
    AddressFn.prepare(B);
    ActiveFn.prepare(B);

    for (unsigned W = 0; W < Warps.size(); ++W) {
      const std::vector<Lane> &Lanes = Warps[W];
      Addresses.clear();
      uint32_t OnDefined = ActiveFn.atWarp(Lanes, On);
      uint32_t Mask = 0;
      for (unsigned I = 0; I < Lanes.size(); ++I) {
        if (!((OnDefined >> I) & 1))
          Flags.ActiveUnknown = true; // Taken as active.
        else if (On[I] == 0)
          continue;
        Mask |= uint32_t(1) << I;
      }
      if (!Mask)
        continue;
      uint32_t AddressDefined = AddressFn.atWarp(Lanes, Address);
      if (Mask & ~AddressDefined) {
        Flags.AddressUnknown = true;
        return Flags;
      }
      uint32_t LaneMask = 0; // By lane number (Lanes are in lane order).
      for (unsigned I = 0; I < Lanes.size(); ++I)
        if ((Mask >> I) & 1) {
          Addresses.push_back(Address[I]);
          LaneMask |= uint32_t(1) << Lanes[I].Index;
        }
      RequestView R{Addresses, LaneMask, Lanes.size(), W, Values};
      if (!Visit(R))
        return Flags;
    }

    // Next combination (odometer).
    for (size_t I = 0; I < Values.size(); ++I) {
      if (++Values[I] < Plan.Periods[I])
        break;
      Values[I] = 0;
    }
  }
  return Flags;
}

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

Totals simulate(LaneProgram &AddressFn, LaneProgram &ActiveFn,
                const Bindings &Base, unsigned AccessBytes, AtomicKind Atomic,
                const BlockShape &Block, const SamplingPlan &Plan) {
  Totals T;
  WalkFlags Flags = walkRequests(
      AddressFn, ActiveFn, Base, Block, Plan, [&](RequestView &R) {
        addRequest(T, R.Addresses, R.WarpLanes, AccessBytes, Atomic);
        return true;
      });
  T.AddressUnknown = Flags.AddressUnknown;
  T.ActiveUnknown = Flags.ActiveUnknown;
  return T;
}

Totals simulate(const Expr &Address, const Expr &Active, unsigned AccessBytes,
                AtomicKind Atomic, const BlockShape &Block,
                const SamplingPlan &Plan) {
  LaneProgram AddressFn(Address), ActiveFn(Active);
  return simulate(AddressFn, ActiveFn, Bindings(), AccessBytes, Atomic, Block,
                  Plan);
}

std::optional<WarpRequest>
representativeRequest(const Expr &Address, const Expr &Active,
                      unsigned AccessBytes, AtomicKind Atomic,
                      const BlockShape &Block, const SamplingPlan &Plan,
                      double MeanSectors) {
  std::optional<WarpRequest> Best;
  double BestDistance = 0;
  std::vector<int64_t> Sorted;
  LaneProgram AddressFn(Address), ActiveFn(Active);
  WalkFlags Flags = walkRequests(
      AddressFn, ActiveFn, Bindings(), Block, Plan, [&](RequestView &R) {
        Sorted = R.Addresses;
        std::sort(Sorted.begin(), Sorted.end());
        unsigned Sectors =
            countSortedRequestSectors(Sorted, AccessBytes, Atomic);
        double Distance = std::fabs(double(Sectors) - MeanSectors);
        if (Best && Distance >= BestDistance)
          return true;
        WarpRequest W;
        W.Warp = R.Warp;
        for (size_t I = 0; I < Plan.Symbols.size(); ++I) {
          const Symbol &S = Plan.Symbols[I];
          W.At.push_back(S.Kind == SymbolKind::LoopIter
                             ? fmt::format("iteration {} of the loop over {}",
                                           R.Values[I], S.Name)
                             : fmt::format("{} = {}", S.Name, R.Values[I]));
        }
        W.LaneAddresses.resize(R.WarpLanes);
        size_t Next = 0;
        for (size_t L = 0; L < R.WarpLanes; ++L)
          if (R.ActiveMask & (uint32_t(1) << L))
            W.LaneAddresses[L] = R.Addresses[Next++];
        W.Sectors = Sectors;
        Best = std::move(W);
        BestDistance = Distance;
        // Nearest the mean that a whole number of sectors can be.
        return BestDistance > 0.5;
      });
  if (Flags.AddressUnknown)
    return std::nullopt;
  return Best;
}

} // namespace predictor
} // namespace coalesce
