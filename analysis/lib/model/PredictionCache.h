//===- PredictionCache.h - predict() memoized per kernel --------*- C++ -*-===//
///
/// \file
/// Accesses of one kernel often share their address and predicate (`out[i]
/// = in[i]`: the same byte offset from two bases), and a prediction depends
/// on nothing else of the access. The cache answers the second one from the
/// first. Accesses that differ but share a guard share its search
/// (predictor::GuardMemo).
///
/// The inputs can also be registered first (add()) and computed later, each
/// on any thread (compute()): the accesses of one large kernel are then
/// predicted in parallel, and every distinct input is still computed once.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_MODEL_PREDICTIONCACHE_H
#define COALESCE_MODEL_PREDICTIONCACHE_H

#include "coalesce/KernelPrediction.h"
#include "coalesce/Predictor.h"
#include "symbolic/HashMemo.h"
#include "model/PredictInternal.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

namespace coalesce {

/// predict() with the results of earlier equal inputs kept.
class PredictionCache {
public:
  /// predict(\p Access, \p Opts), computed once per distinct input.
  Prediction get(const AccessPattern &Access, const PredictOptions &Opts);

  /// Registers an input without computing it: its index, the same for
  /// equal inputs (indices count up from 0).
  size_t add(const AccessPattern &Access, const PredictOptions &Opts);
  /// Distinct inputs registered so far.
  size_t size() const { return Inputs.size(); }
  /// Computes input \p I unless it is already; calls for different inputs
  /// may run on different threads at once (no add() meanwhile).
  void compute(size_t I);
  /// The prediction of input \p I, once computed.
  const Prediction &result(size_t I) const { return *Results[I]; }
  /// Input \p I: the access pattern and the options it is predicted with.
  const std::pair<AccessPattern, PredictOptions> &input(size_t I) const {
    return Inputs[I];
  }

  /// Makes compute() look in, and add to, \p Shared (the run's other
  /// kernels' predictions); before the first compute().
  void share(std::shared_ptr<SharedPredictions> Shared) {
    this->Shared = std::move(Shared);
  }

  /// Calls of get() answered from the cache so far.
  size_t hits() const { return Hits; }
  /// Guard searches answered from the memo so far.
  size_t guardHits() const { return Guards.hits(); }

private:
  using Input = std::pair<AccessPattern, PredictOptions>;
  /// The index in Inputs of each distinct input, by the input's hash.
  HashMemo<size_t, size_t> Index;
  /// Deques: add() never moves what compute() reads or writes.
  std::deque<Input> Inputs;
  std::deque<std::optional<Prediction>> Results;
  size_t Hits = 0;
  predictor::GuardMemo Guards;
  std::shared_ptr<SharedPredictions> Shared;
};

/// The memo behind SharedPredictions.
struct SharedPredictions::Impl {
  HashMemo<std::pair<AccessPattern, PredictOptions>, Prediction> Memo;
};

} // namespace coalesce

#endif // COALESCE_MODEL_PREDICTIONCACHE_H
