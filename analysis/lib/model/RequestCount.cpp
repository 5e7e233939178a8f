//===- RequestCount.cpp - How many requests a launch makes of an access ---===//
//
// What a finding costs is its excess sectors per request times the requests
// a launch makes: the blocks of the grid, the warps of a block in which some
// lane runs the access, and the passes of the loops around it. Counted under
// the values the prediction used (the launch's, --param, the defaults):
//
//   - each loop's trip count: the first pass at which its condition fails
//     in every lane of the first warp that runs the access, the loops
//     outside it at their first pass (exponential search, then bisection:
//     a condition of closed forms turns once);
//   - the fraction of (block, warp, pass) in which some lane runs the
//     access, over 4 blocks spread across the grid, 8 warps spread across
//     the block and passes spread across each loop's trip count (8, 3x3,
//     2x2x...): a guard, a tail, a condition inside the loop each take
//     their share.
//
// A loop whose trip count is not found (no counter, a condition the tool
// cannot evaluate, one that holds past 2^40 passes) leaves the counts per
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

  // The first (block, warp) that runs the access with every loop at its
  // first pass: where the trip counts are read.
  Bindings First = Fixed;
  for (const EnclosingLoop &L : Access.Loops)
    if (L.Iter)
      First.set(*L.Iter, 0);
  const std::vector<Lane> *FirstWarp = nullptr;
  for (uint64_t B : BlockSample) {
    bindBlock(First, B, Grid);
    Active.prepare(First);
    for (const std::vector<Lane> &Lanes : Warps)
      if (anyLane(Active, Lanes)) {
        FirstWarp = &Lanes;
        break;
      }
    if (FirstWarp)
      break;
  }
  if (!FirstWarp)
    return R; // No warp runs it: no requests.

  // Trip counts, outermost first, the outer loops at their first pass.
  std::vector<std::string> Factors;
  if (R.Blocks)
    Factors.push_back(fmt::format("{} block{}", *R.Blocks,
                                  *R.Blocks == 1 ? "" : "s"));
  std::vector<std::pair<Symbol, int64_t>> Trips;
  double PerBlock = Block.warps();
  for (const EnclosingLoop &L : Access.Loops) {
    std::optional<int64_t> T;
    if (L.Iter) {
      LaneProgram Cond(L.Condition);
      T = tripCountOf(Cond, *L.Iter, First, *FirstWarp);
    }
    if (!T) {
      R.PerIterationOf.push_back(L.Where);
      continue;
    }
    Trips.emplace_back(*L.Iter, *T);
    PerBlock *= double(*T);
    Factors.push_back(fmt::format("{} pass{} of {}", *T, *T == 1 ? "" : "es",
                                  L.Where));
  }

  // The share of (block, warp, pass) that runs the access, the passes
  // spread over each trip count (at most 16 combinations).
  std::vector<std::vector<uint64_t>> Passes;
  unsigned PerLoop = Trips.size() <= 1 ? 8 : Trips.size() == 2 ? 3 : 2;
  for (const auto &[Iter, T] : Trips)
    Passes.push_back(spread(uint64_t(std::max<int64_t>(T, 0)), PerLoop));
  uint64_t Runs = 0, Tried = 0;
  std::vector<size_t> Digit(Passes.size(), 0);
  Bindings At = First;
  while (true) {
    for (size_t I = 0; I < Passes.size(); ++I)
      if (!Passes[I].empty())
        At.set(Trips[I].first, int64_t(Passes[I][Digit[I]]));
    for (uint64_t B : BlockSample) {
      bindBlock(At, B, Grid);
      Active.prepare(At);
      for (const std::vector<Lane> &Lanes : Warps) {
        ++Tried;
        Runs += anyLane(Active, Lanes);
      }
    }
    size_t I = 0;
    for (; I < Passes.size(); ++I) {
      if (++Digit[I] < Passes[I].size())
        break;
      Digit[I] = 0;
    }
    if (I == Passes.size())
      break;
  }
  double Share = Tried ? double(Runs) / double(Tried) : 0;
  R.PerBlock = PerBlock * Share;
  std::string WarpText = fmt::format("{} warp{}", Block.warps(),
                                     Block.warps() == 1 ? "" : "s");
  if (Share < 1)
    WarpText = fmt::format("{}% of {}", std::round(Share * 1000) / 10,
                           WarpText);
  Factors.insert(Factors.begin() + (R.Blocks ? 1 : 0), WarpText);
  R.Basis = fmt::format("{}", fmt::join(Factors, " x "));
  return R;
}

} // namespace predictor
} // namespace coalesce
