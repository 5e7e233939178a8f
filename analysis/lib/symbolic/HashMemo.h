//===- HashMemo.h - Results of a pure function kept by input -----*- C++ -*-===//
///
/// \file
/// The memo behind GuardMemo (solveGuards() per guard problem),
/// PredictionCache's index of distinct inputs and the frontend's
/// neverHolds() per condition (SourceFacts): inputs found by a hash, then
/// compared whole, so a hash collision never returns another input's
/// result. Safe to share between threads: the result is computed
/// outside the lock, so two threads that miss the same input at once both
/// compute it (the function is pure: the same result).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_SYMBOLIC_HASHMEMO_H
#define COALESCE_SYMBOLIC_HASHMEMO_H

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace coalesce {

/// Mixes \p V into the hash \p Seed (boost's hash_combine).
inline size_t hashCombine(size_t Seed, size_t V) {
  return Seed ^ (V + 0x9e3779b97f4a7c15ULL + (Seed << 6) + (Seed >> 2));
}

/// Results of a pure function by input \p In.
template <typename In, typename Out> class HashMemo {
public:
  /// The result kept for an input hashed \p Hash that \p Matches (called
  /// with a kept input) accepts; else \p Compute(), kept with \p Input().
  template <typename MatchFn, typename InputFn, typename ComputeFn>
  Out get(size_t Hash, MatchFn Matches, InputFn Input, ComputeFn Compute) {
    {
      std::lock_guard<std::mutex> Lock(M);
      if (const Out *Kept = find(Hash, Matches)) {
        ++Hits;
        return *Kept;
      }
    }
    Out Result = Compute();
    std::lock_guard<std::mutex> Lock(M);
    if (!find(Hash, Matches))
      Entries.emplace(Hash, std::make_pair(Input(), Result));
    return Result;
  }
  /// Calls answered from kept results so far.
  size_t hits() const {
    std::lock_guard<std::mutex> Lock(M);
    return Hits;
  }

private:
  template <typename MatchFn>
  const Out *find(size_t Hash, MatchFn &Matches) const {
    auto [First, Last] = Entries.equal_range(Hash);
    for (auto It = First; It != Last; ++It)
      if (Matches(It->second.first))
        return &It->second.second;
    return nullptr;
  }

  mutable std::mutex M;
  std::unordered_multimap<size_t, std::pair<In, Out>> Entries;
  size_t Hits = 0;
};

} // namespace coalesce

#endif // COALESCE_SYMBOLIC_HASHMEMO_H
