//===- WarpReductionTest.cpp - Butterfly reductions apart from Clang ------===//
//
// WarpExchanges: `v op shfl_xor(v, c)` is the same in lanes l and l ^ c and
// wherever v was; the five bits of a warp, in any order, with any mix of
// commutative operations, give one value for every lane; a shuffle of
// another value, or two shuffles combined, give nothing (the caller's value
// per lane).
//
//===----------------------------------------------------------------------===//
#include "frontend/WarpReduction.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::frontend;

namespace {

/// A name for combine(), asked for only when the result needs one.
auto named(const char *S) {
  return [S] { return std::string(S); };
}

Expr loaded() {
  return testSymbol({SymbolKind::IndirectValue, "cnt[threadIdx.x]", 7});
}

/// Applies `v = v op shfl_xor(v, c)` for each c of \p Steps to \p V.
std::optional<Expr> reduce(WarpExchanges &W, Expr V, Combine Op,
                           std::initializer_list<unsigned> Steps) {
  for (unsigned C : Steps) {
    Expr S = W.shuffled(V, C, "shfl");
    std::optional<Expr> Next = W.combine(Op, V, S, named("site"));
    if (!Next)
      return std::nullopt;
    V = *Next;
  }
  return V;
}

TEST(WarpReductionTest, FiveBitsInAnyOrderAreUniform) {
  for (auto Steps : {std::initializer_list<unsigned>{16, 8, 4, 2, 1},
                     std::initializer_list<unsigned>{1, 4, 16, 2, 8}}) {
    WarpExchanges W(testExprs());
    std::optional<Expr> V = reduce(W, loaded(), Combine::Add, Steps);
    ASSERT_TRUE(V);
    EXPECT_FALSE(V->isLaneDependent());
    EXPECT_EQ(V->str(), "the warp's sum of cnt[threadIdx.x]");
  }
}

TEST(WarpReductionTest, FewerBitsStayPerLaneData) {
  WarpExchanges W(testExprs());
  std::optional<Expr> V = reduce(W, loaded(), Combine::Max, {16, 8});
  ASSERT_TRUE(V);
  EXPECT_TRUE(V->isLaneDependent());
  EXPECT_TRUE(V->isIndirect());
  EXPECT_EQ(V->str(), "max of cnt[threadIdx.x] over lanes lane ^ {8, 16}");
  // The partner may come first: `shfl_xor(v, c) + v`.
  Expr S = W.shuffled(*V, 4, "shfl");
  std::optional<Expr> Next = W.combine(Combine::Max, S, *V, named("site"));
  ASSERT_TRUE(Next);
  EXPECT_EQ(Next->str(),
            "max of cnt[threadIdx.x] over lanes lane ^ {4, 8, 16}");
}

TEST(WarpReductionTest, SameStepsGiveTheSameValue) {
  WarpExchanges W(testExprs());
  std::optional<Expr> A = reduce(W, loaded(), Combine::Add, {16, 8});
  std::optional<Expr> B = reduce(W, loaded(), Combine::Add, {16, 8});
  std::optional<Expr> C = reduce(W, loaded(), Combine::Or, {16, 8});
  ASSERT_TRUE(A && B && C);
  EXPECT_TRUE(*A == *B);
  EXPECT_FALSE(*A == *C); // Another operation is another value.
  EXPECT_TRUE((*A - *B).isConstant());
}

TEST(WarpReductionTest, MixedOperationsStillSpanTheWarp) {
  WarpExchanges W(testExprs());
  std::optional<Expr> Half = reduce(W, loaded(), Combine::Add, {16});
  ASSERT_TRUE(Half);
  // A bit combined twice: still the same in lanes l and l ^ 16.
  std::optional<Expr> Twice = W.combine(
      Combine::Add, *Half, W.shuffled(*Half, 16, "s"), named("twice"));
  ASSERT_TRUE(Twice);
  EXPECT_TRUE(Twice->isLaneDependent());
  EXPECT_EQ(Twice->str(), "twice"); // Not a plain sum over the lanes.
  std::optional<Expr> Mixed = reduce(W, *Twice, Combine::Mul, {8, 4, 2});
  ASSERT_TRUE(Mixed);
  EXPECT_TRUE(Mixed->isLaneDependent());
  std::optional<Expr> All = reduce(W, *Mixed, Combine::Max, {1});
  ASSERT_TRUE(All);
  EXPECT_FALSE(All->isLaneDependent());
  EXPECT_EQ(All->str(), "site");
}

TEST(WarpReductionTest, NotAStep) {
  WarpExchanges W(testExprs());
  Expr V = loaded();
  Expr Other = testSymbol({SymbolKind::IndirectValue, "w", 1});
  // A shuffle of another value.
  EXPECT_FALSE(
      W.combine(Combine::Add, V, W.shuffled(Other, 16, "s"), named("x")));
  // Two shuffled values combined.
  EXPECT_FALSE(W.combine(Combine::Add, W.shuffled(V, 2, "a"),
                         W.shuffled(V, 4, "b"), named("x")));
  // A plain value with a plain value.
  EXPECT_FALSE(W.combine(Combine::Add, V, Other, named("x")));
}

} // namespace
