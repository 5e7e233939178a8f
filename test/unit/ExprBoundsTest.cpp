//===- ExprBoundsTest.cpp - Interval bounds and narrowing of Expr ---------===//

#include "coalesce/ExprBounds.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <random>

using namespace coalesce;

namespace {

Expr c(int64_t V) { return Expr::constant(V); }
Symbol loop(const char *Name) { return {SymbolKind::LoopIter, Name}; }
Expr sym(const Symbol &S) { return testSymbol(S); }

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

// Found by fuzz-expr (docs/fuzzing.md): a divisor whose end point is
// PosInf is still at most INT64_MAX, and INT64_MIN + 1 divided by INT64_MAX
// is -1, not 0. Here -x is [PosInf, PosInf] and x / x was bounded to [0, 0].
TEST(ExprBounds, DivisionByTheLargestDivisor) {
  Symbol X = Symbol::param("x");
  SymbolRanges R;
  R.set(X, Interval::point(INT64_MIN + 1));
  Expr E = Expr::div(sym(X), sym(X));
  ASSERT_EQ(E.evaluate([&] {
    Bindings B;
    B.set(X, INT64_MIN + 1);
    return B;
  }()), 1);
  Interval I = boundsOf(E, R);
  EXPECT_LE(I.Lo, 1);
  EXPECT_GE(I.Hi, 1);
}

// Found by fuzz-expr: a divisor bounded to [-inf, -inf] (a product that
// saturated) took std::abs(INT64_MIN), undefined behaviour (UBSan, the
// COALESCE_SANITIZE build, reports it).
TEST(ExprBounds, RemainderByASaturatedDivisor) {
  Symbol P = Symbol::param("p");
  SymbolRanges R = launch(256, 1);
  R.set(P, Interval::point(int64_t(1) << 40));
  Expr D = -(sym(P) * sym(P));
  ASSERT_EQ(boundsOf(D, R), (Interval{Interval::NegInf, Interval::NegInf}));
  EXPECT_EQ(boundsOf(Expr::rem(sym(Symbol::threadIdx(0)), D), R),
            (Interval{0, 255}));
}

// Found by fuzz-expr: bounding a select narrows by its condition, which
// bounded the selects inside that condition again, each level multiplying
// the work. Seven chained wrap-arounds (`i = i < 0 ? i + n : i;` then
// `i = i >= n ? i - n : i;` ...; the frontend stops at a tree of 4000
// nodes, eight) took 30 s in --emit-harness, now well under a second. The
// bounds stay sound.
TEST(ExprBounds, ChainedSelectsStayFast) {
  Symbol N = Symbol::param("n");
  SymbolRanges R = launch(256, 8);
  R.set(N, Interval::point(1024));
  Expr I = sym(Symbol::blockIdx(0)) * c(256) + sym(Symbol::threadIdx(0)) -
           c(3);
  for (int K = 0; K != 7; ++K)
    I = K % 2 ? Expr::select(Expr::le(sym(N), I), I - sym(N), I)
              : Expr::select(Expr::lt(I, c(0)), I + sym(N), I);
  auto Start = std::chrono::steady_clock::now();
  Interval B = boundsOf(I, R);
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(20));
  for (int64_t Block = 0; Block != 8; ++Block)
    for (int64_t Thread = 0; Thread < 256; Thread += 17) {
      Bindings V;
      V.set(Symbol::blockIdx(0), Block);
      V.set(Symbol::threadIdx(0), Thread);
      V.set(N, 1024);
      std::optional<int64_t> X = I.evaluate(V);
      ASSERT_TRUE(X);
      EXPECT_LE(B.Lo, *X);
      EXPECT_GE(B.Hi, *X);
    }
}

// A writer's position carried through 64 sampled passes of `if (next !=
// end) next += w` (Rodinia dwt2d): the tree form has about 3^64 nodes, the
// DAG a few per pass. The bounds walk the DAG (a tree walk would not end)
// and contain every value.
TEST(ExprBounds, SharedDagIsBoundedByItsDistinctNodes) {
  SymbolRanges R = launch(64, 4);
  Symbol W = Symbol::param("w"), End = Symbol::param("end");
  R.set(W, Interval::point(1024));
  R.set(End, Interval::point(1 << 20));
  Expr Next = sym(Symbol::blockIdx(0)) * c(64) + sym(Symbol::threadIdx(0));
  for (int K = 0; K != 64; ++K)
    Next = Expr::select(Expr::ne(Next, sym(End)), Next + sym(W), Next);
  ASSERT_GT(Next.treeSize(), size_t(1) << 40);
  Interval B = boundsOf(Next, R);
  // `next` never reaches `end` here: every pass adds w, exactly.
  EXPECT_EQ(B, (Interval{64 * 1024, 255 + 64 * 1024}));
  // With an `end` it may reach, the arms are joined: still sound.
  R.set(End, {0, 1 << 20});
  Interval J = boundsOf(Next, R);
  EXPECT_LE(J.Lo, 0);
  EXPECT_GE(J.Hi, 255 + 64 * 1024);
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

// An unsigned `count < 16` with count = K - c reads `0 <= K - c && K - c
// < 16` (frontend: unsigned comparisons); its negation is a disjunction
// that the case split takes apart: the tail path `c + 16 > K && c < K`
// contradicts it (contradictions.cu).
TEST(ExprBounds, NeverHoldsSplitsNegatedConjunctions) {
  Expr K = sym(Symbol::param("K"));
  Expr C =
      c(128) * sym(Symbol::blockIdx(0)) + c(16) * sym(Symbol::threadIdx(0));
  Expr Count = K - C;
  Expr Short = Expr::logicalAnd(Expr::le(c(0), Count), Expr::lt(Count, c(16)));
  Expr Tail = Expr::logicalAnd(Expr::logicalNot(Expr::le(C + c(16), K)),
                               Expr::lt(C, K));
  EXPECT_TRUE(neverHolds(Expr::logicalAnd(Tail, Expr::logicalNot(Short))));
  EXPECT_FALSE(neverHolds(Expr::logicalAnd(Tail, Short)));
  EXPECT_FALSE(neverHolds(Expr::logicalAnd(Tail, Expr::logicalNot(Short)), 0));
}

// What an unsigned operation must wrap: anything that can be negative when
// indices, iterations, parameters and opaque values are not.
TEST(ExprBounds, ProvablyNonNegative) {
  Expr T = sym(Symbol::threadIdx(0)), N = sym(Symbol::param("n"));
  Expr Opaque = sym({SymbolKind::IndirectValue, "idx[i]"});
  EXPECT_TRUE(provablyNonNegative(T + N * c(4)));
  EXPECT_TRUE(provablyNonNegative(Expr::div(T, c(8)) + Opaque));
  EXPECT_TRUE(provablyNonNegative(sym(Symbol::blockDim(0)) - c(1)));
  EXPECT_TRUE(provablyNonNegative(c(0)));
  EXPECT_FALSE(provablyNonNegative(T - c(16)));
  EXPECT_FALSE(provablyNonNegative(N - c(1) - sym(loop("k"))));
  EXPECT_FALSE(provablyNonNegative(c(-1)));
}

// TransformerEngine's column store: the caller takes the vector store when
// `valid == 4 && aligned`, else calls a fallback whose own vector store
// needs `count >= 4 && aligned` with count = valid = min(rows - row, 4)
// (0 past the end). That store runs for no value; the fallback's element
// stores and the caller's vector store can run.
TEST(ExprBounds, NeverHoldsSplitsCases) {
  Expr Rows = sym(Symbol::param("rows")), Row = sym(loop("row"));
  Expr Aligned = Expr::eq(Expr::rem(sym(Symbol::param("base")), c(16)), c(0));
  Expr Valid = Expr::select(Expr::lt(Row, Rows),
                            Expr::min(Rows - Row, c(4)), c(0));
  Expr Caller = Expr::logicalAnd(Expr::eq(Valid, c(4)), Aligned);
  Expr Fallback = Expr::logicalNot(Caller);
  Expr Inner = Expr::logicalAnd(Expr::le(c(4), Valid), Aligned);
  EXPECT_TRUE(neverHolds(Expr::logicalAnd(Fallback, Inner)));
  EXPECT_FALSE(neverHolds(Caller));
  EXPECT_FALSE(neverHolds(Expr::logicalAnd(Fallback, Expr::logicalNot(Inner))));
  // Without the cases split, the conjunction does not fold to 0.
  EXPECT_FALSE(Expr::logicalAnd(Fallback, Inner).isConstant());
  // With no split left, only what narrowing shows.
  EXPECT_FALSE(neverHolds(Expr::logicalAnd(Fallback, Inner), 0));
  Expr Narrowed = Expr::logicalAnd(Expr::lt(c(2) * Rows, c(4)),
                                   Expr::lt(c(10), Rows));
  EXPECT_FALSE(Narrowed.isConstant());
  EXPECT_TRUE(neverHolds(Narrowed, 0));
  // Iterations count from 0: `12 + 2k < 12` never holds, `8 + 2k < 10`
  // does (k = 0); a parameter may be negative.
  Expr It = sym(loop("k0"));
  EXPECT_TRUE(neverHolds(Expr::lt(c(12) + c(2) * It, c(12))));
  EXPECT_FALSE(neverHolds(Expr::lt(c(8) + c(2) * It, c(10))));
  EXPECT_FALSE(neverHolds(Expr::lt(c(12) + c(2) * Rows, c(12))));
  // A loop condition that allows only iteration 0 pins the counter; put
  // in, `(8 + 32 * it) / 4 % 8 == 0` is 2 == 0 (ggml's loader passes over
  // the partial first chunk of a reversed loop).
  Expr Chunks = Expr::div(c(8) + c(32) * It, c(4));
  Expr Pass = Expr::eq(Expr::rem(Chunks, c(8)), c(0));
  EXPECT_FALSE(Pass.isConstant());
  EXPECT_TRUE(neverHolds(Expr::logicalAnd(Expr::le(It, c(0)), Pass), 0));
  EXPECT_FALSE(neverHolds(
      Expr::logicalAnd(Expr::le(It, c(0)),
                       Expr::eq(Expr::rem(Chunks, c(8)), c(2))),
      0));
}

} // namespace
