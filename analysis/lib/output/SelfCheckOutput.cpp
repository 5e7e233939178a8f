//===- SelfCheckOutput.cpp - What the census found missing ----------------===//
//
// --self-check: every memory operation the census found in a kernel's code
// that the report does not account for, as an error at its location (it
// is a bug in coalesce-lint, not in the user's code), and the totals.
//
//===----------------------------------------------------------------------===//
#include "coalesce/Output.h"

#include <fmt/format.h>

namespace coalesce {

unsigned writeSelfCheck(const Report &R, llvm::raw_ostream &OS) {
  unsigned Misses = 0, Kernels = 0;
  for (const KernelRecord &K : R.Kernels) {
    Kernels += !K.CensusMisses.empty();
    for (const CensusMiss &M : K.CensusMisses) {
      ++Misses;
      OS << fmt::format(
          "{}:{}:{}: error: self-check: {} of '{}' in kernel '{}{}' is "
          "missing from the report (census rule: {})\n",
          M.Loc.File, M.Loc.Line, M.Loc.Column, M.Operation, M.Expression,
          K.Name, K.Instantiation.empty() ? "" : " " + K.Instantiation,
          M.Rule);
    }
  }
  OS << fmt::format("self-check: {} memory operations in the census of {} "
                    "kernels, {} missing from the report{}\n",
                    R.censusEntryCount(), R.Kernels.size(), Misses,
                    Misses ? fmt::format(" (in {} kernels)", Kernels) : "");
  return Misses;
}

} // namespace coalesce
