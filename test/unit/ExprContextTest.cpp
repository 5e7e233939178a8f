//===- ExprContextTest.cpp - Hash-consing: one node per structure ---------===//

#include "coalesce/Expr.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace coalesce;

namespace {

Expr C(int64_t V) { return Expr::constant(V); }

/// 4*tid + (n / 8) * blockIdx.x + 3, built from scratch in \p X.
Expr address(const ExprContext &X) {
  Expr T = X.symbol(Symbol::threadIdx(0));
  Expr N = X.symbol(Symbol::param("n"));
  Expr B = X.symbol(Symbol::blockIdx(0));
  return C(4) * T + Expr::div(N, C(8)) * B + C(3);
}

// Structural equality is pointer equality: the same structure built twice,
// in any operand order, is one node.
TEST(ExprContextTest, EqualExpressionsOfOneContextShareTheirNode) {
  ExprContext X;
  Expr A = address(X);
  Expr T = X.symbol(Symbol::threadIdx(0));
  Expr N = X.symbol(Symbol::param("n"));
  Expr B = X.symbol(Symbol::blockIdx(0));
  Expr Reordered = C(3) + B * Expr::div(N, C(8)) + T * C(4);
  EXPECT_EQ(A.identity(), address(X).identity());
  EXPECT_EQ(A.identity(), Reordered.identity());
  EXPECT_EQ(X.symbol(Symbol::param("n")).identity(), N.identity());
  // Unequal expressions are different nodes, and unequal.
  Expr Other = C(4) * T + Expr::div(N, C(4)) * B + C(3);
  EXPECT_NE(A.identity(), Other.identity());
  EXPECT_NE(A, Other);
}

// What counts distinct nodes (the guard search's budget, the lane
// programs' compilation) counts an expression built twice once.
TEST(ExprContextTest, EqualExpressionsBuiltApartCountOnce) {
  ExprContext X;
  Expr A = address(X);
  size_t Nodes = A.distinctNodes(1000);
  EXPECT_EQ(Expr::distinctNodes({A, address(X), address(X)}, 1000), Nodes);
  ExprContext Y; // Another context: its copy counts apart (constants too).
  EXPECT_GT(Expr::distinctNodes({A, address(Y)}, 1000), Nodes);
}

// What a symbol stands for is its identity: two loads of `idx[i]` around a
// store that may change it are two symbols (versions), and their
// difference does not fold to 0 (issue 29's wrong answer).
TEST(ExprContextTest, VersionsOfOneNameAreDifferentSymbols) {
  ExprContext X;
  Expr Before = X.symbol({SymbolKind::IndirectValue, "idx[i]", 1});
  Expr After = X.symbol({SymbolKind::IndirectValue, "idx[i]", 2});
  EXPECT_NE(Before.identity(), After.identity());
  EXPECT_FALSE((After - Before).isConstant());
  EXPECT_TRUE((Before - X.symbol({SymbolKind::IndirectValue, "idx[i]", 1}))
                  .isConstant());
}

// Expressions of two contexts (merged launches of two files) still compare
// structurally, and combine.
TEST(ExprContextTest, ContextsCompareStructurally) {
  ExprContext X, Y;
  Expr A = address(X), B = address(Y);
  EXPECT_NE(A.identity(), B.identity());
  EXPECT_EQ(A, B);
  EXPECT_FALSE(A < B || B < A);
  Expr Mixed = A - B; // Operands of two tables: folds all the same.
  EXPECT_EQ(Mixed.asConstant(), 0);
  Expr Sum = A + B;
  EXPECT_EQ(Sum, C(2) * address(X));
  EXPECT_EQ(ExprContext::of(A).symbol(Symbol::param("n")).identity(),
            X.symbol(Symbol::param("n")).identity());
}

// The table keeps no node alive: what nothing holds leaves it.
TEST(ExprContextTest, NodesLeaveTheTableWithTheirLastHolder) {
  ExprContext X;
  EXPECT_EQ(X.size(), 0u);
  {
    Expr A = address(X);
    EXPECT_GT(X.size(), 4u);
    Expr Again = address(X);
    size_t Kept = X.size();
    Expr Third = address(X);
    EXPECT_EQ(X.size(), Kept); // Built again: nothing new.
  }
  EXPECT_EQ(X.size(), 0u);
}

// The predictions of one file build expressions of its context on several
// threads: each structure still gets one node.
TEST(ExprContextTest, ThreadsBuildingOneStructureGetOneNode) {
  ExprContext X;
  constexpr int Threads = 4;
  // Each thread keeps what it built, so equal nodes are alive together.
  std::vector<std::vector<Expr>> Built(Threads);
  std::vector<std::thread> Pool;
  for (int I = 0; I < Threads; ++I)
    Pool.emplace_back([&, I] {
      for (int Round = 0; Round < 2000; ++Round)
        Built[I].push_back(address(X) + C(Round % 16));
    });
  for (std::thread &T : Pool)
    T.join();
  for (int I = 1; I < Threads; ++I)
    for (int Round = 0; Round < 2000; ++Round)
      ASSERT_EQ(Built[I][Round].identity(), Built[0][Round].identity());
}

} // namespace
