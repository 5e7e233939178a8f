//===- GuardProblems.h - Guard problems for the guard-solver tests -*- C++ -*-===//
//
// The shorthands and the problem builder GuardSolverTest and GuardMemoTest
// share.
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TEST_GUARDPROBLEMS_H
#define COALESCE_TEST_GUARDPROBLEMS_H

#include "TestExprs.h"
#include "model/PredictInternal.h"

#include <utility>
#include <vector>

namespace coalesce::predictor::testing {

inline Expr C(int64_t V) { return Expr::constant(V); }
inline Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
inline Expr bx() { return testSymbol(Symbol::blockIdx(0)); }
inline Symbol p(const char *Name) { return Symbol::param(Name); }
inline Expr param(const char *Name) { return testSymbol(p(Name)); }

/// A problem over \p Active in which every parameter of \p Free is 1024, on
/// a block of 256 threads.
inline GuardProblem
problem(Expr Active, std::vector<Symbol> Free,
        std::vector<std::pair<Symbol, unsigned>> Varying = {}) {
  GuardProblem P;
  P.Active = std::move(Active);
  P.Block = BlockShape{256, 1, 1};
  for (const Symbol &S : Free)
    P.Fixed[S] = 1024;
  P.Free = std::move(Free);
  P.Varying = std::move(Varying);
  return P;
}

} // namespace coalesce::predictor::testing

#endif
