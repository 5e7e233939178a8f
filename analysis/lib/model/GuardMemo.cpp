//===- GuardMemo.cpp - solveGuards() once per distinct problem ------------===//
//
// The guard search evaluates the predicate at hundreds of witness points per
// move; accesses of a kernel under one guard ask it the same question. The
// memo answers repeats from the first search (the search is a pure function
// of its GuardProblem).
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

namespace coalesce {
namespace predictor {
namespace {

size_t hashSymbol(const Symbol &S) {
  return hashCombine(std::hash<std::string>()(S.Name), size_t(S.Kind));
}

/// A hash of every field of \p P (cheap: the predicate's hash is cached).
size_t keyOf(const GuardProblem &P) {
  size_t H = hashCombine(P.Active.hash(), P.Free.size());
  for (const auto &[S, V] : P.Fixed)
    H = hashCombine(hashCombine(H, hashSymbol(S)), std::hash<int64_t>()(V));
  for (const Symbol &S : P.Free)
    H = hashCombine(H, hashSymbol(S));
  for (const Symbol &S : P.InAddress)
    H = hashCombine(H, hashSymbol(S));
  for (const auto &[S, Period] : P.Varying)
    H = hashCombine(hashCombine(H, hashSymbol(S)), Period);
  return hashCombine(
      H, hashCombine(P.Block.X, hashCombine(P.Block.Y, P.Block.Z)));
}

bool sameProblem(const GuardProblem &A, const GuardProblem &B) {
  return A.Active == B.Active && A.Fixed == B.Fixed && A.Free == B.Free &&
         A.InAddress == B.InAddress && A.Varying == B.Varying &&
         A.Block == B.Block;
}

} // namespace

std::optional<GuardSolution> GuardMemo::solve(const GuardProblem &P) {
  return Memo.get(
      keyOf(P), [&](const GuardProblem &Kept) { return sameProblem(P, Kept); },
      [&] { return P; }, [&] { return solveGuards(P); });
}

} // namespace predictor
} // namespace coalesce
