//===- ExprSharingTest.cpp - Costs linear in distinct nodes, not tree size ===//

#include "TestExprs.h"
#include "coalesce/Expr.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

Expr C(int64_t V) { return Expr::constant(V); }

// Rounds in the style of MD5: every round uses the previous values twice, so
// the tree form doubles each round (2^200 nodes) while the DAG grows by a
// few nodes. symbols() must answer from the memoized sets.
TEST(ExprSharingTest, SymbolsOfASharedDagAreComputedOnce) {
  Expr A = testSymbol(Symbol::param("a"));
  Expr B = testSymbol(Symbol::param("b"));
  Expr T = testSymbol(Symbol::threadIdx(0));
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

/// Rounds in the style of MD5 over \p Rounds rounds (tree form 2^Rounds).
Expr md5Like(int Rounds) {
  Expr A = testSymbol(Symbol::param("a"));
  Expr B = testSymbol(Symbol::param("b"));
  Expr T = testSymbol(Symbol::threadIdx(0));
  for (int Round = 0; Round < Rounds; ++Round) {
    Expr Next = Expr::bitXor(Expr::bitAnd(A, B) + T, Expr::shr(A, C(3)));
    B = A;
    A = Next;
  }
  return A;
}

// Substitution, replacement and evaluation visit each distinct node once,
// and what they build stays shared.
TEST(ExprSharingTest, RewritesAndEvaluationAreLinearInTheDag) {
  Expr E = md5Like(200);
  size_t Nodes = E.distinctNodes(100000);
  EXPECT_LT(Nodes, 2000u);

  Expr Bound = E.substitute({{Symbol::param("b"), C(5)}});
  EXPECT_FALSE(Bound.symbols().count(Symbol::param("b")));
  EXPECT_LE(Bound.distinctNodes(100000), Nodes);

  Expr Replaced = E.replace(testSymbol(Symbol::param("a")), C(9));
  EXPECT_FALSE(Replaced.symbols().count(Symbol::param("a")));
  EXPECT_LE(Replaced.distinctNodes(100000), Nodes);

  // The same value as the tree walk of a smaller instance gives.
  Bindings Values;
  Values.set(Symbol::param("a"), 0x1234567);
  Values.set(Symbol::param("b"), 0x89abcde);
  Values.set(Symbol::threadIdx(0), 5);
  EXPECT_TRUE(E.evaluate(Values).has_value());
  Expr Small = md5Like(4); // A small tree: evaluated by plain recursion.
  ASSERT_LT(Small.treeSize(), 512u);
  // The same value (b != 77) with a tree form past the threshold.
  Expr Big = Small;
  for (int I = 0; I < 6; ++I)
    Big = Expr::select(Expr::eq(testSymbol(Symbol::param("b")), C(77)),
                       Big + C(1), Big);
  ASSERT_GT(Big.treeSize(), 512u);
  ASSERT_TRUE(Small.evaluate(Values).has_value());
  EXPECT_EQ(Big.evaluate(Values), Small.evaluate(Values));
  Values.set(Symbol::param("b"), 77); // Now every select adds 1.
  EXPECT_EQ(*Big.evaluate(Values), *Small.evaluate(Values) + 6);
}

TEST(ExprSharingTest, DistinctNodesCountsSharedNodesOnceAndStopsAtTheLimit) {
  Expr X = testSymbol(Symbol::param("x"));
  Expr S = X + C(1);
  Expr E = Expr::bitAnd(S, Expr::bitOr(S, X));
  // And, Or, Add(x, 1), x, 1.
  EXPECT_EQ(E.distinctNodes(100), 5u);
  EXPECT_EQ(E.distinctNodes(3), 3u);
  EXPECT_EQ(md5Like(200).distinctNodes(50), 50u);
}

TEST(ExprSharingTest, SymbolsOfLeavesAndFoldedExpressions) {
  EXPECT_TRUE(Expr::constant(7).symbols().empty());
  Expr N = testSymbol(Symbol::param("n"));
  // n - n folds to 0: no symbol is left behind.
  EXPECT_TRUE((N - N).symbols().empty());
  EXPECT_EQ((N * Expr::constant(4)).symbols(),
            std::set<Symbol>{Symbol::param("n")});
}

} // namespace
