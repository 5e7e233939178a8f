//===- Report.cpp - Counting and ordering the result model ----------------===//

#include "coalesce/Report.h"

#include <algorithm>
#include <tuple>

namespace coalesce {

unsigned Report::compileErrorCount() const {
  unsigned N = 0;
  for (const FileResult &F : Files)
    N += F.Errors.size();
  return N;
}

unsigned Report::censusEntryCount() const {
  unsigned N = 0;
  for (const KernelRecord &K : Kernels)
    N += K.CensusEntries;
  return N;
}

unsigned Report::censusMissCount() const {
  unsigned N = 0;
  for (const KernelRecord &K : Kernels)
    N += K.CensusMisses.size();
  return N;
}

unsigned Report::accessCount() const {
  unsigned N = 0;
  for (const KernelRecord &K : Kernels)
    N += K.Accesses.size();
  return N;
}

namespace {
/// std::stable_sort for records that are expensive to move: nothing moves
/// when \p V is already in order (the usual case: walks record in source
/// order, and a merged report was sorted per part), and otherwise each
/// record moves once, after the order is found on indices.
template <typename T, typename Less>
void stableSortRecords(std::vector<T> &V, Less L) {
  if (std::is_sorted(V.begin(), V.end(), L))
    return;
  std::vector<size_t> Order(V.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return L(V[A], V[B]); });
  std::vector<T> Sorted;
  Sorted.reserve(V.size());
  for (size_t I : Order)
    Sorted.push_back(std::move(V[I]));
  V = std::move(Sorted);
}
} // namespace

void Report::sort() {
  auto KernelKey = [](const KernelRecord &K) {
    return std::tie(K.Loc.File, K.Loc.Line, K.Loc.Column, K.Name,
                    K.Instantiation);
  };
  auto AccessKey = [](const AccessRecord &A) {
    return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column, A.Kernel,
                    A.EndLoc.Line, A.EndLoc.Column, A.Expression);
  };
  for (KernelRecord &K : Kernels)
    stableSortRecords(K.Accesses,
                      [&](const AccessRecord &A, const AccessRecord &B) {
                        return AccessKey(A) < AccessKey(B);
                      });
  stableSortRecords(Kernels,
                    [&](const KernelRecord &A, const KernelRecord &B) {
                      return KernelKey(A) < KernelKey(B);
                    });
}

} // namespace coalesce
