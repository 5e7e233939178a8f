//===- ExprBoundsTest.cpp - Interval bounds and narrowing of Expr ---------===//

#include "coalesce/ExprBounds.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace coalesce;

namespace {

Expr c(int64_t V) { return Expr::constant(V); }
Symbol loop(const char *Name) { return {SymbolKind::LoopIter, Name}; }
Expr sym(const Symbol &S) { return Expr::symbol(S); }

SymbolRanges launch(int64_t Block, int64_t Grid) {
  SymbolRanges R;
  R.set(Symbol::threadIdx(0), {0, Block - 1});
  R.set(Symbol::blockIdx(0), {0, Grid - 1});
  return R;
}

TEST(ExprBounds, PointsAndSums) {
  SymbolRanges R = launch(256, 64);
  Expr I = sym(Symbol::blockIdx(0)) * c(256) + sym(Symbol::threadIdx(0));
  EXPECT_EQ(boundsOf(c(4) * I, R), (Interval{0, 4 * (64 * 256 - 1)}));
  EXPECT_EQ(boundsOf(c(-4) * I + c(8), R), (Interval{8 - 4 * 16383, 8}));
}

TEST(ExprBounds, UnboundedSymbolStaysUnbounded) {
  SymbolRanges R = launch(32, 1);
  Interval I = boundsOf(sym(loop("k")) + sym(Symbol::threadIdx(0)), R);
  EXPECT_FALSE(I.bounded());
  EXPECT_EQ(I.str(), "(-inf, +inf)");
}

// The reported fault: At[(size_t)j * N + i] with j < N, N = 4096. Sampled
// loop counters (0..1023) gave 33652736 bytes; the kernel reaches 64 MiB.
TEST(ExprBounds, LoopConditionBoundsTheCounter) {
  SymbolRanges R = launch(256, 16);
  Symbol J = loop("j"), N = Symbol::param("N");
  R.set(N, Interval::point(4096));
  R.set(J, {0, Interval::PosInf});
  Expr Active = Expr::lt(sym(J), sym(N));
  ASSERT_TRUE(narrowByCondition(Active, R));
  EXPECT_EQ(R.lookup(J), (Interval{0, 4095}));
  Expr I = sym(Symbol::blockIdx(0)) * c(256) + sym(Symbol::threadIdx(0));
  Expr Addr = c(4) * (sym(J) * sym(N) + I);
  Interval B = boundsOf(Addr, R);
  EXPECT_EQ(B.Hi + 4, int64_t(64) << 20); // exactly 64 MiB
}

TEST(ExprBounds, GuardsAndStridedLoops) {
  // for (i = tid; i < n; i += blockDim.x * gridDim.x): i = tid + 16384*it.
  SymbolRanges R = launch(256, 64);
  Symbol It = loop("i");
  R.set(It, {0, Interval::PosInf});
  Expr Tid = sym(Symbol::blockIdx(0)) * c(256) + sym(Symbol::threadIdx(0));
  Expr I = Tid + c(16384) * sym(It);
  ASSERT_TRUE(narrowByCondition(Expr::lt(I, c(100000)), R));
  EXPECT_EQ(R.lookup(It), (Interval{0, 6}));
  EXPECT_LE(boundsOf(I, R).Hi, 100000 + 16384);
  // if (i < n) with a block-sized n narrows blockIdx.
  SymbolRanges G = launch(256, 64);
  ASSERT_TRUE(narrowByCondition(Expr::lt(Tid, c(1000)), G));
  EXPECT_EQ(G.lookup(Symbol::blockIdx(0)), (Interval{0, 3}));
}

TEST(ExprBounds, NegationDisjunctionAndDeadCode) {
  SymbolRanges R = launch(32, 1);
  Symbol K = loop("k");
  R.set(K, {0, Interval::PosInf});
  // do { } while (k < 10): k == 0 || k < 10.
  Expr DoWhile = Expr::logicalOr(Expr::eq(sym(K), c(0)), Expr::lt(sym(K), c(10)));
  ASSERT_TRUE(narrowByCondition(DoWhile, R));
  EXPECT_EQ(R.lookup(K), (Interval{0, 9}));
  // !(k >= 5)
  ASSERT_TRUE(narrowByCondition(Expr::logicalNot(Expr::ge(sym(K), c(5))), R));
  EXPECT_EQ(R.lookup(K), (Interval{0, 4}));
  // threadIdx.x >= 32 never holds in a 32-thread block.
  SymbolRanges D = launch(32, 1);
  EXPECT_FALSE(narrowByCondition(Expr::ge(sym(Symbol::threadIdx(0)), c(32)), D));
}

TEST(ExprBounds, NonPolynomialNodes) {
  SymbolRanges R = launch(256, 1);
  Expr T = sym(Symbol::threadIdx(0));
  EXPECT_EQ(boundsOf(Expr::div(T, c(32)), R), (Interval{0, 7}));
  EXPECT_EQ(boundsOf(Expr::rem(T, c(32)), R), (Interval{0, 31}));
  EXPECT_EQ(boundsOf(Expr::shr(T, c(3)), R), (Interval{0, 31}));
  EXPECT_EQ(boundsOf(Expr::bitAnd(T, c(15)), R), (Interval{0, 15}));
  EXPECT_EQ(boundsOf(Expr::bitXor(T, c(1)), R), (Interval{0, 255}));
  EXPECT_EQ(boundsOf(Expr::min(T, c(100)), R), (Interval{0, 100}));
  // t < 100 ? t : 0 takes the guarded arm's narrowed range.
  Expr Sel = Expr::select(Expr::lt(T, c(100)), T, c(0));
  EXPECT_EQ(boundsOf(Sel, R), (Interval{0, 99}));
}

TEST(ExprBounds, OverflowSaturatesToUnknown) {
  SymbolRanges R;
  R.set(Symbol::param("n"), {0, int64_t(1) << 40});
  Expr E = sym(Symbol::param("n")) * sym(Symbol::param("n")) * c(1 << 20);
  EXPECT_EQ(boundsOf(E, R).Hi, Interval::PosInf);
}

/// Every value of random expressions over random points lies inside the
/// bounds: the evaluator over-approximates.
TEST(ExprBounds, SoundOnRandomExpressions) {
  std::mt19937 Rng(7);
  Symbol S[3] = {Symbol::threadIdx(0), Symbol::blockIdx(0), loop("k")};
  Interval Ranges[3] = {{0, 63}, {-5, 9}, {0, 20}};
  auto Leaf = [&]() {
    return Rng() % 3 ? sym(S[Rng() % 3]) : c(int64_t(Rng() % 17) - 8);
  };
  std::function<Expr(int)> Gen = [&](int Depth) -> Expr {
    if (Depth == 0)
      return Leaf();
    Expr A = Gen(Depth - 1), B = Gen(Depth - 1);
    switch (Rng() % 10) {
    case 0: return A + B;
    case 1: return A * B;
    case 2: return Expr::div(A, B);
    case 3: return Expr::rem(A, B);
    case 4: return Expr::min(A, B);
    case 5: return Expr::max(A, B);
    case 6: return Expr::bitAnd(A, B);
    case 7: return Expr::shr(A, Expr::rem(B, c(5)));
    case 8: return Expr::select(Expr::lt(A, B), A, B);
    default: return A - B;
    }
  };
  SymbolRanges R;
  for (int I = 0; I != 3; ++I)
    R.set(S[I], Ranges[I]);
  for (int Trial = 0; Trial != 400; ++Trial) {
    Expr E = Gen(3);
    Interval B = boundsOf(E, R);
    for (int P = 0; P != 50; ++P) {
      Bindings V;
      for (int I = 0; I != 3; ++I)
        V.set(S[I], Ranges[I].Lo +
                        int64_t(Rng() % uint64_t(Ranges[I].Hi - Ranges[I].Lo + 1)));
      if (std::optional<int64_t> X = E.evaluate(V)) {
        ASSERT_LE(B.Lo, *X) << E.str();
        ASSERT_GE(B.Hi, *X) << E.str();
      }
    }
  }
}

} // namespace
