//===- PredictionCache.cpp - predict() memoized per kernel ----------------===//

#include "model/PredictionCache.h"

#include <functional>

namespace coalesce {
namespace {

/// Every field of the access predict() reads, and the options.
size_t keyOf(const AccessPattern &A, const PredictOptions &O) {
  size_t H = hashCombine(A.Address.hash(), A.Active.hash());
  H = hashCombine(H, A.AccessBytes);
  H = hashCombine(H, size_t(A.Atomic));
  H = hashCombine(H, size_t(A.Space));
  H = hashCombine(H, A.RecordBytes ? *A.RecordBytes + 1 : 0);
  H = hashCombine(H, std::hash<std::string>()(A.UnknownReason));
  H = hashCombine(H, std::hash<std::string>()(A.OpaqueReason));
  H = hashCombine(H, std::hash<std::string>()(A.IssuedAs));
  for (const auto &[S, From] : A.LoadAddresses)
    H = hashCombine(H, From.hash());
  for (const EnclosingLoop &L : A.Loops)
    H = hashCombine(H, L.Condition.hash());
  H = hashCombine(H, hashCombine(O.Block.X, hashCombine(O.Block.Y, O.Block.Z)));
  H = hashCombine(H, std::hash<int64_t>()(O.DefaultValue));
  H = hashCombine(H, O.MaxSamples);
  for (const auto &[Name, Value] : O.Params)
    H = hashCombine(hashCombine(H, std::hash<std::string>()(Name)),
                std::hash<int64_t>()(Value));
  return H;
}

bool sameInput(const AccessPattern &A, const PredictOptions &O,
               const AccessPattern &B, const PredictOptions &P) {
  return A.Address == B.Address && A.Active == B.Active &&
         A.AccessBytes == B.AccessBytes && A.Atomic == B.Atomic &&
         A.Space == B.Space && A.RecordBytes == B.RecordBytes &&
         A.UnknownReason == B.UnknownReason &&
         A.OpaqueReason == B.OpaqueReason && A.IssuedAs == B.IssuedAs &&
         A.LoadAddresses == B.LoadAddresses && A.Loops == B.Loops &&
         O.Block == P.Block && O.DefaultValue == P.DefaultValue &&
         O.MaxSamples == P.MaxSamples && O.Params == P.Params;
}

} // namespace

size_t PredictionCache::add(const AccessPattern &Access,
                            const PredictOptions &Opts) {
  // The memo keeps each input's index; the input itself is kept once, in
  // Inputs (add() is not called from several threads at once).
  return Index.get(
      keyOf(Access, Opts),
      [&](size_t Kept) {
        return sameInput(Access, Opts, Inputs[Kept].first,
                         Inputs[Kept].second);
      },
      [&] { return Inputs.size() - 1; },
      [&] {
        Inputs.emplace_back(Access, Opts);
        Results.emplace_back();
        return Inputs.size() - 1;
      });
}

void PredictionCache::compute(size_t I) {
  if (Results[I])
    return;
  const Input &In = Inputs[I];
  auto Make = [&] {
    return predictor::predictWith(In.first, In.second, Guards);
  };
  if (!Shared) {
    Results[I] = Make();
    return;
  }
  Results[I] = Shared->P->Memo.get(
      keyOf(In.first, In.second),
      [&](const Input &Kept) {
        return sameInput(In.first, In.second, Kept.first, Kept.second);
      },
      [&] { return In; }, Make);
}

SharedPredictions::SharedPredictions() : P(std::make_unique<Impl>()) {}
SharedPredictions::~SharedPredictions() = default;
size_t SharedPredictions::hits() const { return P->Memo.hits(); }

Prediction PredictionCache::get(const AccessPattern &Access,
                                const PredictOptions &Opts) {
  size_t I = add(Access, Opts);
  if (Results[I])
    ++Hits;
  compute(I);
  return *Results[I];
}

} // namespace coalesce
