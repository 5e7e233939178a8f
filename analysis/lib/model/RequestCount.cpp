//===- RequestCount.cpp - How many requests a launch makes of an access ---===//
//
// What a finding costs is its excess sectors per request times the requests
// a launch makes: the blocks of the grid, the warps of a block in which some
// lane runs the access, and the passes of the loops around it. Counted under
// the values the prediction used (the launch's, --param, the defaults):
//
//   - the share of (block, warp) in which some lane runs the access with
//     every loop at its first pass, over 4 blocks spread across the grid
//     and 8 warps spread across the block: a guard takes its share;
//   - for up to 8 of those pairs, spread over them: each loop's trip count,
//     the first pass at which its condition fails in every lane of the
//     warp, the loops outside it at their first pass (exponential search,
//     then bisection: a condition of closed forms turns once), and the
//     share of those passes that run the access (spread over each trip
//     count: 8, 3x3, 2x2x...); their mean stands for every pair, so that
//     a triangular loop (causal attention's `t2 <= t`) counts the rows of
//     the blocks and warps read, not only the first.
//
// A loop whose trip count is not found (no counter, a condition the tool
// cannot evaluate, one that holds past 2^40 passes, a bound that rests on a
// default value instead of the launch's or --param) leaves the counts per
// pass of it; without a grid they are per block, counted in the first
// block (its warps, its passes). Nothing is invented.
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace coalesce {
namespace predictor {

namespace {

/// Block (x, y, z) of linear index \p B in a grid of \p Grid.
void bindBlock(Bindings &B, uint64_t Linear, const uint64_t Grid[3]) {
  B.set(Symbol::blockIdx(0), int64_t(Linear % Grid[0]));
  B.set(Symbol::blockIdx(1), int64_t(Linear / Grid[0] % Grid[1]));
  B.set(Symbol::blockIdx(2), int64_t(Linear / (Grid[0] * Grid[1])));
}

/// \p N values spread over [0, Count): 0, Count/N, 2*Count/N, ...
std::vector<uint64_t> spread(uint64_t Count, unsigned N) {
  std::vector<uint64_t> Out;
  for (unsigned I = 0; I < N && I < Count; ++I)
    Out.push_back(Count <= N ? I : I * (Count / N));
  return Out;
}

/// True when some lane of \p Lanes has \p Fn nonzero (or undefined: taken as
/// running, as the simulation does) under the prepared bindings.
bool anyLane(LaneProgram &Fn, const std::vector<Lane> &Lanes) {
  int64_t Out[WarpSize];
  uint32_t Defined = Fn.atWarp(Lanes, Out);
  for (unsigned I = 0; I < Lanes.size(); ++I)
    if (!((Defined >> I) & 1) || Out[I] != 0)
      return true;
  return false;
}

/// The trip count of a loop whose condition is \p Cond (fixed values bound)
/// (not Sampling's tripCount(), which scans lane-free conjuncts of the
/// counter alone up to a sample cap: a grid-stride bound depends on the
/// lanes and runs to millions of passes)
/// with \p Iter its counter, for the lanes \p Lanes under \p At: the first
/// pass at which no lane continues. nullopt when it still runs at 2^40.
std::optional<int64_t> tripCountOf(LaneProgram &Cond, const Symbol &Iter,
                                   Bindings At, const std::vector<Lane> &Lanes) {
  auto Runs = [&](int64_t K) {
    At.set(Iter, K);
    Cond.prepare(At);
    return anyLane(Cond, Lanes);
  };
  if (!Runs(0))
    return 0;
  constexpr int64_t Limit = int64_t(1) << 40;
  int64_t Lo = 0, Hi = 1; // Runs(Lo); Hi unknown.
  while (Runs(Hi)) {
    Lo = Hi;
    Hi *= 2;
    if (Hi > Limit)
      return std::nullopt;
  }
  while (Hi - Lo > 1) { // Runs(Lo), !Runs(Hi).
    int64_t Mid = Lo + (Hi - Lo) / 2;
    (Runs(Mid) ? Lo : Hi) = Mid;
  }
  return Hi;
}

} // namespace

RequestCount countRequests(const Context &Ctx, const AccessPattern &Access) {
  RequestCount R;
  uint64_t Grid[3] = {1, 1, 1};
  bool GridKnown = Ctx.Grid.count(Symbol::gridDim(0)) != 0;
  for (unsigned D = 0; D < 3; ++D)
    if (auto It = Ctx.Grid.find(Symbol::gridDim(D)); It != Ctx.Grid.end())
      Grid[D] = uint64_t(std::max<int64_t>(It->second, 1));
  uint64_t Blocks = Grid[0] * Grid[1] * Grid[2];
  if (GridKnown)
    R.Blocks = Blocks;
  else
    Blocks = 1; // Per block: the first stands for any.

  // Lane-free symbols the prediction bound, then the block and the passes.
  Bindings Fixed;
  for (const auto &[S, V] : Ctx.Fixed)
    Fixed.set(S, V);
  for (const auto &[S, V] : Ctx.Grid)
    Fixed.set(S, V);
  LaneProgram Active(Ctx.Active);
  const BlockShape &Block = Ctx.Block;
  std::vector<std::vector<Lane>> Warps;
  for (uint64_t W : spread(Block.warps(), 8))
    Warps.push_back(lanesOfWarp(Block, unsigned(W)));
  std::vector<uint64_t> BlockSample = spread(Blocks, 4);

  // The (block, warp) pairs that run the access with every loop at its
  // first pass: the share of warps, and where the trip counts are read.
  Bindings First = Fixed;
  for (const EnclosingLoop &L : Access.Loops)
    if (L.Iter)
      First.set(*L.Iter, 0);
  std::vector<std::pair<uint64_t, size_t>> Running;
  for (uint64_t B : BlockSample) {
    bindBlock(First, B, Grid);
    Active.prepare(First);
    for (size_t W = 0; W < Warps.size(); ++W)
      if (anyLane(Active, Warps[W]))
        Running.emplace_back(B, W);
  }
  if (Running.empty())
    return R; // No warp runs it: no requests.
  double WarpShare = double(Running.size()) /
                     double(BlockSample.size() * Warps.size());

  // A bound that rests on a value the user did not give (the default 1024
  // for a parameter no launch sets) is not a trip count: per pass.
  auto UsesDefault = [&](const Expr &E) {
    for (const Symbol &S : E.symbols())
      if (std::find(Ctx.Defaulted.begin(), Ctx.Defaulted.end(), S) !=
          Ctx.Defaulted.end())
        return true;
    return false;
  };
  std::vector<const EnclosingLoop *> Counted;
  std::vector<LaneProgram> Conds;
  for (const EnclosingLoop &L : Access.Loops) {
    if (L.Iter && !UsesDefault(L.Condition)) {
      Counted.push_back(&L);
      Conds.emplace_back(L.Condition);
    } else {
      R.PerIterationOf.push_back(L.Where);
    }
  }

  // Per pair (at most 8, spread over those that run it): each loop's trip
  // count, outer loops at their first pass (a triangular loop's differs
  // from warp to warp and block to block), and the share of those passes
  // in which the access runs (spread over each trip count: 8, 3x3, 2x2x..).
  unsigned PerLoop = Counted.size() <= 1 ? 8 : Counted.size() == 2 ? 3 : 2;
  std::vector<std::vector<int64_t>> TripsOf(Counted.size());
  double PassesSum = 0;
  unsigned Pairs = 0;
  for (uint64_t I : spread(Running.size(), 8)) {
    auto [B, W] = Running[I];
    Bindings At = First;
    bindBlock(At, B, Grid);
    std::vector<int64_t> T;
    bool Ended = true;
    for (size_t L = 0; L < Counted.size() && Ended; ++L) {
      std::optional<int64_t> Trip =
          tripCountOf(Conds[L], *Counted[L]->Iter, At, Warps[W]);
      Ended = Trip.has_value();
      T.push_back(Trip.value_or(0));
    }
    if (!Ended)
      continue; // Still running at 2^40: not counted in this pair.
    std::vector<std::vector<uint64_t>> Passes;
    double Count = 1;
    for (size_t L = 0; L < Counted.size(); ++L) {
      TripsOf[L].push_back(T[L]);
      Count *= double(T[L]);
      Passes.push_back(spread(uint64_t(std::max<int64_t>(T[L], 0)), PerLoop));
    }
    uint64_t Runs = 0, Tried = 0;
    std::vector<size_t> Digit(Passes.size(), 0);
    while (true) {
      for (size_t L = 0; L < Passes.size(); ++L)
        if (!Passes[L].empty())
          At.set(*Counted[L]->Iter, int64_t(Passes[L][Digit[L]]));
      Active.prepare(At);
      ++Tried;
      Runs += anyLane(Active, Warps[W]);
      size_t L = 0;
      for (; L < Passes.size(); ++L) {
        if (++Digit[L] < Passes[L].size())
          break;
        Digit[L] = 0;
      }
      if (L == Passes.size())
        break;
    }
    PassesSum += Count * double(Runs) / double(Tried);
    ++Pairs;
  }
  if (!Pairs) {
    // Every pair's loop still ran at 2^40 passes: per pass of them all.
    for (const EnclosingLoop *L : Counted)
      R.PerIterationOf.push_back(L->Where);
    Counted.clear();
    TripsOf.clear();
    PassesSum = Pairs = 1;
  }
  R.PerBlock = Block.warps() * WarpShare * PassesSum / Pairs;

  // "16 blocks x 12.5% of 8 warps x 64 passes of the loop at f.cu:12"; a
  // trip count that differs between the warps read gives its range.
  std::vector<std::string> Factors;
  if (R.Blocks)
    Factors.push_back(fmt::format("{} block{}", *R.Blocks,
                                  *R.Blocks == 1 ? "" : "s"));
  std::string WarpText = fmt::format("{} warp{}", Block.warps(),
                                     Block.warps() == 1 ? "" : "s");
  if (WarpShare < 1)
    WarpText = fmt::format("{}% of {}", std::round(WarpShare * 1000) / 10,
                           WarpText);
  Factors.push_back(WarpText);
  for (size_t L = 0; L < Counted.size(); ++L) {
    auto [Lo, Hi] = std::minmax_element(TripsOf[L].begin(), TripsOf[L].end());
    std::string N = *Lo == *Hi ? fmt::format("{}", *Lo)
                               : fmt::format("{} to {}", *Lo, *Hi);
    Factors.push_back(fmt::format("{} pass{} of {}", N,
                                  *Hi == 1 ? "" : "es", Counted[L]->Where));
  }
  R.Basis = fmt::format("{}", fmt::join(Factors, " x "));
  return R;
}

} // namespace predictor
} // namespace coalesce
