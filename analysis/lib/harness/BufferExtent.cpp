//===- BufferExtent.cpp - Bytes a kernel's access reaches over a launch ---===//

#include "BufferExtent.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace coalesce {

namespace {

unsigned dim(const BlockShape &S, int D) {
  return D == 0 ? S.X : D == 1 ? S.Y : S.Z;
}

/// Each symbol's range over the launch before any condition narrows it.
SymbolRanges launchRanges(const AccessRecord &A, const LaunchValues &V) {
  SymbolRanges R;
  std::set<Symbol> Syms = A.Pattern.Address.symbols();
  for (const Symbol &S : A.Pattern.Active.symbols())
    Syms.insert(S);
  for (const Symbol &S : Syms) {
    int D = S.dimension();
    switch (S.Kind) {
    case SymbolKind::ThreadIdx:
      R.set(S, {0, int64_t(dim(V.Block, D)) - 1});
      break;
    case SymbolKind::BlockIdx:
      R.set(S, {0, int64_t(dim(V.Grid, D)) - 1});
      break;
    case SymbolKind::BlockDim:
      R.set(S, Interval::point(dim(V.Block, D)));
      break;
    case SymbolKind::GridDim:
      R.set(S, Interval::point(dim(V.Grid, D)));
      break;
    case SymbolKind::LoopIter:
      R.set(S, {0, Interval::PosInf});
      break;
    case SymbolKind::Param:
    case SymbolKind::UniformValue:
      if (auto It = V.Scalars.find(S.Name); It != V.Scalars.end())
        R.set(S, Interval::point(It->second));
      break;
    case SymbolKind::IndirectValue:
      if (auto It = V.KnownLoads.find(S.Name); It != V.KnownLoads.end())
        R.set(S, Interval::point(It->second));
      else if (V.LoadedValues)
        R.set(S, *V.LoadedValues);
      break;
    case SymbolKind::LaneValue:
      break;
    }
  }
  return R;
}

} // namespace

std::optional<std::pair<int64_t, int64_t>>
accessByteRange(const AccessRecord &A, const LaunchValues &V,
                std::string *WhyNot) {
  if (!A.Pattern.UnknownReason.empty()) {
    if (WhyNot)
      *WhyNot = A.Pattern.UnknownReason;
    return std::nullopt;
  }
  // The samples bound the iterations they cover, not the loop.
  if (!A.SampledOnly.empty()) {
    if (WhyNot)
      *WhyNot = fmt::format("'{}' follows a value known over {} only",
                            A.Expression, A.SampledOnly);
    return std::nullopt;
  }
  SymbolRanges R = launchRanges(A, V);
  if (!narrowByCondition(A.Pattern.Active, R))
    return std::make_pair(int64_t(0), int64_t(0));
  Interval B = boundsOf(A.Pattern.Address, R);
  if (!B.bounded()) {
    if (WhyNot) {
      std::string Names;
      for (const Symbol &S : A.Pattern.Address.symbols())
        if (!R.lookup(S).bounded())
          Names += (Names.empty() ? "" : ", ") + S.Name;
      *WhyNot = fmt::format("{} has no bound in '{}'",
                            Names.empty() ? "the address" : Names,
                            A.Expression);
    }
    return std::nullopt;
  }
  // A struct copied field by field issues several instructions.
  int64_t Reach = std::max<int64_t>(
      {int64_t(std::max(1u, A.Pattern.AccessBytes)) * A.Pattern.Instructions,
       int64_t(A.Pattern.RecordBytes.value_or(0)) - A.Pattern.FieldOffset,
       int64_t(A.Pattern.AccessBytes)});
  return std::make_pair(B.Lo, B.Hi + Reach);
}

} // namespace coalesce
