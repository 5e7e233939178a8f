//===- GuardMemo.cpp - solveGuards() once per distinct problem ------------===//
//
// The guard search evaluates the predicate at hundreds of witness points per
// move; accesses of a kernel under one guard ask it the same question. The
// memo answers repeats from the first search (the search is a pure function
// of its GuardProblem).
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

namespace coalesce {
namespace predictor {
namespace {

size_t combine(size_t Seed, size_t V) {
  return Seed ^ (V + 0x9e3779b97f4a7c15ULL + (Seed << 6) + (Seed >> 2));
}

size_t hashSymbol(const Symbol &S) {
  return combine(std::hash<std::string>()(S.Name), size_t(S.Kind));
}

/// A hash of every field of \p P (cheap: the predicate's hash is cached).
size_t keyOf(const GuardProblem &P) {
  size_t H = combine(P.Active.hash(), P.Free.size());
  for (const auto &[S, V] : P.Fixed)
    H = combine(combine(H, hashSymbol(S)), std::hash<int64_t>()(V));
  for (const Symbol &S : P.Free)
    H = combine(H, hashSymbol(S));
  for (const Symbol &S : P.InAddress)
    H = combine(H, hashSymbol(S));
  for (const auto &[S, Period] : P.Varying)
    H = combine(combine(H, hashSymbol(S)), Period);
  return combine(H, combine(P.Block.X, combine(P.Block.Y, P.Block.Z)));
}

bool sameProblem(const GuardProblem &A, const GuardProblem &B) {
  return A.Active == B.Active && A.Fixed == B.Fixed && A.Free == B.Free &&
         A.InAddress == B.InAddress && A.Varying == B.Varying &&
         A.Block == B.Block;
}

} // namespace

std::optional<GuardSolution> GuardMemo::solve(const GuardProblem &P) {
  size_t Key = keyOf(P);
  auto [First, Last] = Entries.equal_range(Key);
  for (auto It = First; It != Last; ++It)
    if (sameProblem(P, It->second.Problem)) {
      ++Hits;
      return It->second.Result;
    }
  std::optional<GuardSolution> Result = solveGuards(P);
  Entries.emplace(Key, Entry{P, Result});
  return Result;
}

} // namespace predictor
} // namespace coalesce
