//===- UnsignedOperationTest.cpp - Unsigned operations on exact values ----===//
//
// unsignedOperation() apart from Clang: the model keeps index arithmetic
// exact, so `threadIdx.x - 16u` is -16 for lane 0 where the GPU holds
// 2^32 - 16. Comparisons, divisions and right shifts in an unsigned type
// must see the wrapped value; per lane, the result must be what uint32_t
// (or uint64_t) arithmetic gives.
//
//===----------------------------------------------------------------------===//
#include "TestExprs.h"
#include "frontend/IntegerOps.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace coalesce;
using namespace coalesce::frontend;
using clang::BinaryOperatorKind;

namespace {

Expr c(int64_t V) { return Expr::constant(V); }
Expr lane() { return testSymbol(Symbol::threadIdx(0)); }

int64_t at(const Expr &E, int64_t Lane) {
  Bindings B;
  B.set(Symbol::threadIdx(0), Lane);
  return *E.evaluate(B);
}

TEST(UnsignedOperation, ComparisonWithOneNegativeSide) {
  // lane - 16 < 8: lanes 16 to 23, as uint32_t says; stays a conjunction of
  // linear comparisons.
  Expr X = lane() - c(16);
  std::optional<Expr> Lt =
      unsignedOperation(clang::BO_LT, X, c(8), 32, true, false);
  ASSERT_TRUE(Lt);
  EXPECT_EQ(Lt->getKind(), Expr::Kind::LAnd);
  // 5 < lane - 16, lane - 16 >= 3, 20 >= lane - 16 the other ways round.
  std::optional<Expr> Gt =
      unsignedOperation(clang::BO_LT, c(5), X, 32, false, true);
  std::optional<Expr> Ge =
      unsignedOperation(clang::BO_GE, X, c(3), 32, true, false);
  std::optional<Expr> Le =
      unsignedOperation(clang::BO_GE, c(20), X, 32, false, true);
  ASSERT_TRUE(Gt && Ge && Le);
  for (int64_t L = 0; L < 64; ++L) {
    uint32_t U = static_cast<uint32_t>(L) - 16u;
    EXPECT_EQ(at(*Lt, L), U < 8u) << L;
    EXPECT_EQ(at(*Gt, L), 5u < U) << L;
    EXPECT_EQ(at(*Ge, L), U >= 3u) << L;
    EXPECT_EQ(at(*Le, L), 20u >= U) << L;
  }
}

TEST(UnsignedOperation, BothSidesNegative) {
  Expr A = lane() - c(16), B = lane() - c(20);
  std::optional<Expr> Lt32 =
      unsignedOperation(clang::BO_LT, A, B, 32, true, true);
  ASSERT_TRUE(Lt32);
  for (int64_t L = 0; L < 64; ++L)
    EXPECT_EQ(at(*Lt32, L),
              static_cast<uint32_t>(L - 16) < static_cast<uint32_t>(L - 20))
        << L;
  // In 64 bits two negative sides order as the exact values do only when
  // their signs agree; the exact comparison is kept (no wider wrap).
  EXPECT_FALSE(unsignedOperation(clang::BO_LT, A, B, 64, true, true));
}

TEST(UnsignedOperation, QuotientsAndShiftsOfWrappedValues) {
  Expr X = lane() - c(16);
  std::optional<Expr> Div =
      unsignedOperation(clang::BO_Div, X, c(8), 32, true, false);
  std::optional<Expr> Shr =
      unsignedOperation(clang::BO_Shr, X, c(5), 32, true, false);
  std::optional<Expr> Rem =
      unsignedOperation(clang::BO_RemAssign, X, c(7), 32, true, false);
  ASSERT_TRUE(Div && Shr && Rem);
  for (int64_t L = 0; L < 64; ++L) {
    uint32_t U = static_cast<uint32_t>(L) - 16u;
    EXPECT_EQ(at(*Div, L), U / 8u) << L;
    EXPECT_EQ(at(*Shr, L), U >> 5) << L;
    EXPECT_EQ(at(*Rem, L), U % 7u) << L;
  }
}

TEST(UnsignedOperation, ExactWhereNothingWraps) {
  Expr X = lane() - c(16);
  // Non-negative sides, an operation that does not care, 64-bit quotients.
  EXPECT_FALSE(unsignedOperation(clang::BO_LT, lane(), c(8), 32, false, false));
  EXPECT_FALSE(unsignedOperation(clang::BO_Add, X, c(8), 32, true, false));
  EXPECT_FALSE(unsignedOperation(clang::BO_EQ, X, c(8), 32, true, false));
  EXPECT_FALSE(unsignedOperation(clang::BO_Div, X, c(8), 64, true, false));
}

} // namespace
