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

unsigned Report::accessCount() const {
  unsigned N = 0;
  for (const KernelRecord &K : Kernels)
    N += K.Accesses.size();
  return N;
}

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
    std::stable_sort(K.Accesses.begin(), K.Accesses.end(),
                     [&](const AccessRecord &A, const AccessRecord &B) {
                       return AccessKey(A) < AccessKey(B);
                     });
  std::stable_sort(Kernels.begin(), Kernels.end(),
                   [&](const KernelRecord &A, const KernelRecord &B) {
                     return KernelKey(A) < KernelKey(B);
                   });
}

} // namespace coalesce
