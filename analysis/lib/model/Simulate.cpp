//===- Simulate.cpp - Lane-by-lane evaluation of one access ---------------===//
//
// Every sample of the varying symbols, every warp of the block, every lane:
// evaluate the predicate and the address, then count the request's sectors.
// Both are LanePrograms: their lane-free parts are evaluated once per sample.
// A ranged loop (a triangular one) is walked per warp over the stretches of
// its range where the active lanes stay the same, one period each, weighed.
// One walk over the requests serves the totals and the choice of the request
// a picture shows.
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"
#include "coalesce/BankCounter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

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
  /// The ranged loop's iteration (when the plan has one).
  int64_t Iteration;
  /// Requests this one stands for (the same iteration residue of a stretch
  /// of a ranged loop where the active lanes do not change; else 1).
  uint64_t Weight;
};

/// What walkRequests() met besides requests.
struct WalkFlags {
  bool AddressUnknown = false; ///< Stopped: an address could not be evaluated.
  bool ActiveUnknown = false;  ///< Some predicate could not (taken as active).
};

/// Walks a plan's requests: every sample, every warp, and for a ranged loop
/// the iterations that stand for its whole range.
template <typename Visitor> class RequestWalk {
public:
  /// \p ForReuse: the samples may come in any order; the symbols that the
  /// fewest lane steps depend on change fastest, so that the warps' rows
  /// are reused most (else the plan's order, the first symbol fastest).
  RequestWalk(LaneProgram &AddressFn, LaneProgram &ActiveFn,
              const BlockShape &Block, const SamplingPlan &Plan, Visitor &Visit,
              bool ForReuse)
      : AddressFn(AddressFn), ActiveFn(ActiveFn), Plan(Plan), Visit(Visit),
        Values(Plan.Symbols.size(), 0), Order(Plan.Symbols.size()) {
    std::iota(Order.begin(), Order.end(), 0);
    if (ForReuse) {
      std::vector<size_t> Cost;
      for (const Symbol &S : Plan.Symbols)
        Cost.push_back(AddressFn.dependentLaneSteps(S) +
                       ActiveFn.dependentLaneSteps(S));
      std::stable_sort(Order.begin(), Order.end(),
                       [&](size_t A, size_t B) { return Cost[A] < Cost[B]; });
    }
    for (unsigned W = 0; W < Block.warps(); ++W)
      Warps.push_back(lanesOfWarp(Block, W));
    Addresses.reserve(WarpSize);
    if (Plan.Ranged)
      for (const RangedLoop::Bound &B : Plan.Ranged->Bounds)
        BoundFns.emplace_back(B.AtZero);
  }

  /// \p Base binds symbols the programs still hold besides the plan's.
  WalkFlags run(const Bindings &Base) {
    Bindings B = Base; // Each sample sets every symbol of the plan.
    std::vector<size_t> Hints(Values.size(), 0);
    const std::vector<unsigned> &Limits =
        Plan.Distinct.empty() ? Plan.Periods : Plan.Distinct;
    uint64_t N = Plan.distinctSize();
    Repeat = Plan.size() / N;
    for (uint64_t Sample = 0; Sample < N; ++Sample) {
      for (size_t I = 0; I < Values.size(); ++I)
        B.set(Plan.Symbols[I], Values[I], Hints[I]);
      if (!(Plan.Ranged ? rangedSample(B) : sample(B)))
        return Flags;
      // Next combination (odometer).
      for (size_t I : Order) {
        if (++Values[I] < Limits[I])
          break;
        Values[I] = 0;
      }
    }
    return Flags;
  }

private:
  bool sample(const Bindings &B) {
    AddressFn.prepare(B);
    ActiveFn.prepare(B);
    for (unsigned W = 0; W < Warps.size(); ++W)
      if (!warp(W, 0, Repeat))
        return false;
    return true;
  }

  /// Per warp: each lane's range of the loop from the bounds, the stretches
  /// between the points where a range starts or ends, and one period of
  /// iterations from each, weighed by how often its residue recurs there.
  bool rangedSample(const Bindings &B) {
    const RangedLoop &R = *Plan.Ranged;
    for (LaneProgram &F : BoundFns)
      F.prepare(B);
    int64_t AtZero[WarpSize];
    Bindings At = B; // B and the ranged loop's iteration.
    size_t IterHint = 0;
    for (unsigned W = 0; W < Warps.size(); ++W) {
      const std::vector<Lane> &Lanes = Warps[W];
      Ranges.assign(Lanes.size(), {0, MaxIteration});
      uint32_t Defined = (Lanes.size() == WarpSize)
                             ? ~uint32_t(0)
                             : (uint32_t(1) << Lanes.size()) - 1;
      for (size_t I = 0; I < BoundFns.size(); ++I) {
        Defined &= BoundFns[I].atWarp(W, Lanes, AtZero);
        // Neighbouring lanes often share the bound (a warp-uniform one):
        // the same range and value narrow to the same range.
        std::pair<int64_t, int64_t> Unnarrowed; // Lane L - 1's, before.
        for (unsigned L = 0; L < Lanes.size(); ++L) {
          if (L > 0 && AtZero[L] == AtZero[L - 1] && Ranges[L] == Unnarrowed) {
            Ranges[L] = Ranges[L - 1];
            continue;
          }
          Unnarrowed = Ranges[L];
          narrowRange(R.Bounds[I], AtZero[L], Ranges[L].first,
                      Ranges[L].second);
        }
      }
      // A lane whose bound is undefined runs wherever its predicate is
      // (taken as true, as everywhere): it adds no stretch of its own.
      Points.clear();
      const std::pair<int64_t, int64_t> *Last = nullptr;
      for (unsigned L = 0; L < Lanes.size(); ++L)
        if (((Defined >> L) & 1) && Ranges[L].first < Ranges[L].second &&
            !(Last && *Last == Ranges[L])) {
          Points.push_back(Ranges[L].first);
          Points.push_back(Ranges[L].second);
          Last = &Ranges[L];
        }
      std::sort(Points.begin(), Points.end());
      Points.erase(std::unique(Points.begin(), Points.end()), Points.end());
      for (size_t P = 0; P + 1 < Points.size(); ++P) {
        int64_t From = Points[P], To = Points[P + 1];
        bool AnyLane = false;
        for (unsigned L = 0; L < Lanes.size() && !AnyLane; ++L)
          AnyLane = ((Defined >> L) & 1) && Ranges[L].first <= From &&
                    To <= Ranges[L].second;
        if (!AnyLane)
          continue;
        int64_t Length = To - From;
        for (int64_t K = 0; K < std::min<int64_t>(R.Period, Length); ++K) {
          At.set(R.Iter, From + K, IterHint);
          AddressFn.prepare(At);
          ActiveFn.prepare(At);
          if (!warp(W, From + K,
                    Repeat * uint64_t((Length - K - 1) / R.Period + 1)))
            return false;
        }
      }
    }
    return true;
  }

  /// Evaluates warp \p W of the prepared programs and visits its request.
  bool warp(unsigned W, int64_t Iteration, uint64_t Weight) {
    const std::vector<Lane> &Lanes = Warps[W];
    Addresses.clear();
    uint32_t OnDefined = ActiveFn.atWarp(W, Lanes, On);
    uint32_t Mask = 0;
    for (unsigned I = 0; I < Lanes.size(); ++I) {
      if (!((OnDefined >> I) & 1))
        Flags.ActiveUnknown = true; // Taken as active.
      else if (On[I] == 0)
        continue;
      Mask |= uint32_t(1) << I;
    }
    if (!Mask)
      return true;
    uint32_t AddressDefined = AddressFn.atWarp(W, Lanes, Address);
    if (Mask & ~AddressDefined) {
      Flags.AddressUnknown = true;
      return false;
    }
    uint32_t LaneMask = 0; // By lane number (Lanes are in lane order).
    for (unsigned I = 0; I < Lanes.size(); ++I)
      if ((Mask >> I) & 1) {
        Addresses.push_back(Address[I]);
        LaneMask |= uint32_t(1) << Lanes[I].Index;
      }
    RequestView R{Addresses, LaneMask, Lanes.size(), W,
                  Values,    Iteration, Weight};
    return Visit(R);
  }

  /// Iterations past this are not told apart (a bound the lanes never meet).
  static constexpr int64_t MaxIteration = int64_t(1) << 40;

  LaneProgram &AddressFn, &ActiveFn;
  const SamplingPlan &Plan;
  Visitor &Visit;
  std::vector<std::vector<Lane>> Warps;
  std::vector<LaneProgram> BoundFns;
  std::vector<unsigned> Values;
  std::vector<size_t> Order; ///< Odometer digits, fastest first.
  /// The samples each visited one stands for (SamplingPlan::Distinct).
  uint64_t Repeat = 1;
  std::vector<int64_t> Addresses;
  /// rangedSample()'s per-warp buffers: each lane's range of iterations,
  /// and the points where a range starts or ends.
  std::vector<std::pair<int64_t, int64_t>> Ranges;
  std::vector<int64_t> Points;
  int64_t On[WarpSize], Address[WarpSize];
  WalkFlags Flags;
};

/// Calls \p Visit(RequestView &) for every warp request with an active lane,
/// sample by sample, warp by warp, until it returns false.
/// \p Base binds symbols the programs still hold besides the plan's.
template <typename Visitor>
WalkFlags walkRequests(LaneProgram &AddressFn, LaneProgram &ActiveFn,
                       const Bindings &Base, const BlockShape &Block,
                       const SamplingPlan &Plan, bool ForReuse,
                       Visitor Visit) {
  return RequestWalk<Visitor>(AddressFn, ActiveFn, Block, Plan, Visit,
                              ForReuse)
      .run(Base);
}

/// Adds one request with the active lanes' \p Addresses (in lane order,
/// \p LaneMask their lanes) to \p T.
void addRequest(Totals &T, std::vector<int64_t> &Addresses, uint32_t LaneMask,
                size_t WarpLanes, uint64_t Weight, const CostModel &Cost) {
  const unsigned AccessBytes = Cost.AccessBytes;
  T.Requests += Weight;
  if (Cost.Space == AccessSpace::Shared) {
    // Banks are served by lane groups: counted before the sort below.
    T.Sectors += Weight * countWavefronts(Addresses, LaneMask, AccessBytes);
    T.Ideal += Weight * idealWavefronts(Addresses, LaneMask, AccessBytes);
  }
  // Lanes usually come in address order already.
  if (!std::is_sorted(Addresses.begin(), Addresses.end()))
    std::sort(Addresses.begin(), Addresses.end());
  if (Cost.Space == AccessSpace::Global) {
    T.Sectors +=
        Weight * countSortedRequestSectors(Addresses, AccessBytes, Cost.Atomic);
    T.Ideal += Weight * idealSectors(Addresses.size(), AccessBytes);
  }
  T.ActiveLanes += Weight * Addresses.size();
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
  T.UsedBytes += Weight * Used;
  if (!Contiguous)
    T.AllContiguous = false;
  if (Addresses.front() != Addresses.back())
    T.AllWarpUniform = false;
}

} // namespace

Totals simulate(LaneProgram &AddressFn, LaneProgram &ActiveFn,
                const Bindings &Base, const CostModel &Cost,
                const BlockShape &Block, const SamplingPlan &Plan) {
  Totals T;
  // Sums do not depend on the order of the requests.
  WalkFlags Flags = walkRequests(
      AddressFn, ActiveFn, Base, Block, Plan, /*ForReuse=*/true,
      [&](RequestView &R) {
        addRequest(T, R.Addresses, R.ActiveMask, R.WarpLanes, R.Weight, Cost);
        return true;
      });
  T.AddressUnknown = Flags.AddressUnknown;
  T.ActiveUnknown = Flags.ActiveUnknown;
  return T;
}

std::optional<std::vector<Totals>>
simulateSteps(LaneProgram &AddressAndStepFn, LaneProgram &ActiveFn,
              const Bindings &Base, const CostModel &Cost,
              const BlockShape &Block, const SamplingPlan &Plan,
              const std::vector<int64_t> &Offsets) {
  std::vector<Totals> T(Offsets.size());
  std::vector<int64_t> Moved, Step;
  int64_t Steps[WarpSize];
  bool StepUnknown = false;
  WalkFlags Flags = walkRequests(
      AddressAndStepFn, ActiveFn, Base, Block, Plan, /*ForReuse=*/true,
      [&](RequestView &R) {
        // The warp the walk just evaluated: its active lanes' steps, in the
        // order of R.Addresses (ActiveMask's bits are lane positions).
        uint32_t Defined = AddressAndStepFn.rootAt(1, Steps);
        if ((R.ActiveMask & Defined) != R.ActiveMask) {
          StepUnknown = true;
          return false;
        }
        Step.clear();
        for (unsigned L = 0; L < R.WarpLanes; ++L)
          if ((R.ActiveMask >> L) & 1)
            Step.push_back(Steps[L]);
        for (size_t I = 0; I < Offsets.size(); ++I) {
          Moved = R.Addresses;
          for (size_t L = 0; L < Moved.size(); ++L) // Wraps like the lanes.
            Moved[L] = int64_t(uint64_t(Moved[L]) +
                               uint64_t(Step[L]) * uint64_t(Offsets[I]));
          addRequest(T[I], Moved, R.ActiveMask, R.WarpLanes, R.Weight, Cost);
        }
        return true;
      });
  if (StepUnknown)
    return std::nullopt;
  for (Totals &X : T) {
    X.AddressUnknown = Flags.AddressUnknown;
    X.ActiveUnknown = Flags.ActiveUnknown;
  }
  return T;
}

Totals simulate(const Expr &Address, const Expr &Active, const CostModel &Cost,
                const BlockShape &Block, const SamplingPlan &Plan) {
  LaneProgram AddressFn(Address), ActiveFn(Active);
  return simulate(AddressFn, ActiveFn, Bindings(), Cost, Block, Plan);
}

std::optional<WarpRequest>
representativeRequest(const Expr &Address, const Expr &Active,
                      const CostModel &Cost, const BlockShape &Block,
                      const SamplingPlan &Plan, double MeanSectors,
                      const ValueMap &Starts) {
  std::optional<WarpRequest> Best;
  double BestDistance = 0;
  std::vector<int64_t> Sorted;
  LaneProgram AddressFn(Address), ActiveFn(Active);
  // The first request nearest the mean, in the plan's order.
  WalkFlags Flags = walkRequests(
      AddressFn, ActiveFn, Bindings(), Block, Plan, /*ForReuse=*/false,
      [&](RequestView &R) {
        unsigned Sectors;
        if (Cost.Space == AccessSpace::Shared) {
          Sectors = countWavefronts(R.Addresses, R.ActiveMask, Cost.AccessBytes);
        } else {
          Sorted = R.Addresses;
          std::sort(Sorted.begin(), Sorted.end());
          Sectors = countSortedRequestSectors(Sorted, Cost.AccessBytes,
                                              Cost.Atomic);
        }
        double Distance = std::fabs(double(Sectors) - MeanSectors);
        if (Best && Distance >= BestDistance)
          return true;
        WarpRequest W;
        W.Warp = R.Warp;
        // A loop counter the guard search moved counts from its start.
        auto Where = [&](const Symbol &S, int64_t V) {
          if (auto It = Starts.find(S); It != Starts.end())
            V += It->second;
          return S.Kind == SymbolKind::LoopIter
                     ? fmt::format("iteration {} of the loop over {}", V,
                                   S.Name)
                     : fmt::format("{} = {}", S.Name, V);
        };
        for (size_t I = 0; I < Plan.Symbols.size(); ++I)
          W.At.push_back(Where(Plan.Symbols[I], R.Values[I]));
        if (Plan.Ranged)
          W.At.push_back(Where(Plan.Ranged->Iter, R.Iteration));
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
