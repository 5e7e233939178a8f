//===- CensusMatch.cpp - The census against the walker's records ----------===//
//
// An entry is accounted for when records of the kernel (its accesses and its
// exclusions) stand at one of its anchors (a call's entry: anywhere inside
// it) and cover every operation it performs.
//
//===----------------------------------------------------------------------===//
#include "census/Census.h"

#include <tuple>

namespace coalesce {
namespace census {
namespace {

unsigned maskOf(AccessOp Op) {
  switch (Op) {
  case AccessOp::Load:
    return LoadOp;
  case AccessOp::Store:
    return StoreOp;
  case AccessOp::LoadStore:
  case AccessOp::Atomic:
    return LoadOp | StoreOp;
  }
  return LoadOp | StoreOp;
}

bool before(const SourceLocation &A, const SourceLocation &B) {
  return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
}

const char *operationName(unsigned Ops) {
  switch (Ops) {
  case LoadOp:
    return "load";
  case StoreOp:
    return "store";
  case LoadOp | StoreOp:
    return "load+store";
  default:
    return "access";
  }
}

} // namespace

std::vector<CensusMiss> unmatchedEntries(const std::vector<Entry> &Census,
                                         const KernelRecord &K) {
  std::vector<std::pair<SourceLocation, unsigned>> Records;
  for (const AccessRecord &A : K.Accesses)
    Records.push_back({A.Loc, maskOf(A.Pattern.Op)});
  for (const ExcludedAccess &X : K.Excluded)
    Records.push_back({X.Loc, maskOf(X.Op)});
  std::vector<CensusMiss> Misses;
  for (const Entry &En : Census) {
    unsigned Covered = 0;
    bool Any = false;
    for (const auto &[Loc, Mask] : Records) {
      bool At = false;
      if (En.Anchors.empty())
        At = Loc.File == En.Begin.File && !before(Loc, En.Begin) &&
             !before(En.End, Loc);
      else
        for (const SourceLocation &A : En.Anchors)
          At |= Loc.File == A.File && Loc.Line == A.Line &&
                Loc.Column == A.Column;
      if (At) {
        Any = true;
        Covered |= Mask;
      }
    }
    if (Any && (Covered & En.Ops) == En.Ops)
      continue;
    Misses.push_back(
        CensusMiss{En.Begin, En.Expression, operationName(En.Ops), En.Rule});
  }
  return Misses;
}

} // namespace census
} // namespace coalesce
