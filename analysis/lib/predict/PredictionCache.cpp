//===- PredictionCache.cpp - predict() memoized per kernel ----------------===//

#include "predict/PredictionCache.h"

#include <functional>

namespace coalesce {
namespace {

size_t combine(size_t Seed, size_t V) {
  return Seed ^ (V + 0x9e3779b97f4a7c15ULL + (Seed << 6) + (Seed >> 2));
}

/// Every field of the access predict() reads, and the options.
size_t keyOf(const AccessPattern &A, const PredictOptions &O) {
  size_t H = combine(A.Address.hash(), A.Active.hash());
  H = combine(H, A.AccessBytes);
  H = combine(H, size_t(A.Atomic));
  H = combine(H, A.RecordBytes ? *A.RecordBytes + 1 : 0);
  H = combine(H, std::hash<std::string>()(A.UnknownReason));
  H = combine(H, combine(O.Block.X, combine(O.Block.Y, O.Block.Z)));
  H = combine(H, std::hash<int64_t>()(O.DefaultValue));
  H = combine(H, O.MaxSamples);
  for (const auto &[Name, Value] : O.Params)
    H = combine(combine(H, std::hash<std::string>()(Name)),
                std::hash<int64_t>()(Value));
  return H;
}

bool sameInput(const AccessPattern &A, const PredictOptions &O,
               const AccessPattern &B, const PredictOptions &P) {
  return A.Address == B.Address && A.Active == B.Active &&
         A.AccessBytes == B.AccessBytes && A.Atomic == B.Atomic &&
         A.RecordBytes == B.RecordBytes && A.UnknownReason == B.UnknownReason &&
         O.Block == P.Block && O.DefaultValue == P.DefaultValue &&
         O.MaxSamples == P.MaxSamples && O.Params == P.Params;
}

} // namespace

Prediction PredictionCache::get(const AccessPattern &Access,
                                const PredictOptions &Opts) {
  size_t Key = keyOf(Access, Opts);
  auto [First, Last] = Entries.equal_range(Key);
  for (auto It = First; It != Last; ++It)
    if (sameInput(Access, Opts, It->second.Access, It->second.Opts)) {
      ++Hits;
      return It->second.Result;
    }
  Prediction P = predictor::predictWith(Access, Opts, Guards);
  Entries.emplace(Key, Entry{Access, Opts, P});
  return P;
}

} // namespace coalesce
