//===- ExprSharingTest.cpp - Costs linear in distinct nodes, not tree size ===//

#include "coalesce/Expr.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

// Rounds in the style of MD5: every round uses the previous values twice, so
// the tree form doubles each round (2^200 nodes) while the DAG grows by a
// few nodes. symbols() must answer from the memoized sets.
TEST(ExprSharingTest, SymbolsOfASharedDagAreComputedOnce) {
  Expr A = Expr::symbol(Symbol::param("a"));
  Expr B = Expr::symbol(Symbol::param("b"));
  Expr T = Expr::symbol(Symbol::threadIdx(0));
  for (int Round = 0; Round < 200; ++Round) {
    Expr Next = Expr::bitXor(Expr::bitAnd(A, B), Expr::shr(A, T));
    B = A;
    A = Next;
  }
  std::set<Symbol> Expected = {Symbol::param("a"), Symbol::param("b"),
                               Symbol::threadIdx(0)};
  EXPECT_EQ(A.symbols(), Expected);
  EXPECT_TRUE(A.isLaneDependent());
  EXPECT_TRUE(A.anySymbol([](const Symbol &S) { return S.Name == "b"; }));
}

TEST(ExprSharingTest, SymbolsOfLeavesAndFoldedExpressions) {
  EXPECT_TRUE(Expr::constant(7).symbols().empty());
  Expr N = Expr::symbol(Symbol::param("n"));
  // n - n folds to 0: no symbol is left behind.
  EXPECT_TRUE((N - N).symbols().empty());
  EXPECT_EQ((N * Expr::constant(4)).symbols(),
            std::set<Symbol>{Symbol::param("n")});
}

} // namespace
