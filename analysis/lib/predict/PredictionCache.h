//===- PredictionCache.h - predict() memoized per kernel --------*- C++ -*-===//
///
/// \file
/// Accesses of one kernel often share their address and predicate (`out[i]
/// = in[i]`: the same byte offset from two bases), and a prediction depends
/// on nothing else of the access. The cache answers the second one from the
/// first. Accesses that differ but share a guard share its search
/// (predictor::GuardMemo).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_PREDICT_PREDICTIONCACHE_H
#define COALESCE_PREDICT_PREDICTIONCACHE_H

#include "coalesce/Predictor.h"
#include "predict/PredictInternal.h"

#include <cstddef>
#include <utility>

namespace coalesce {

/// predict() with the results of earlier equal inputs kept.
class PredictionCache {
public:
  /// predict(\p Access, \p Opts), computed once per distinct input.
  Prediction get(const AccessPattern &Access, const PredictOptions &Opts);
  /// Calls answered from the cache so far.
  size_t hits() const { return Memo.hits(); }
  /// Guard searches answered from the memo so far.
  size_t guardHits() const { return Guards.hits(); }

private:
  using Input = std::pair<AccessPattern, PredictOptions>;
  HashMemo<Input, Prediction> Memo;
  predictor::GuardMemo Guards;
};

} // namespace coalesce

#endif // COALESCE_PREDICT_PREDICTIONCACHE_H
