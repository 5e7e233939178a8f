//===- JoinPointersTest.cpp - Pointers where paths join -------------------===//
//
// joinPointers() apart from Clang: the same allocation gives the offset
// chosen per lane; two global allocations the offset within the chosen one,
// named for both; two memories outside global memory "not global"; global
// with local the global pointer for the lanes that chose it; global with
// unknown memory nothing.
//
//===----------------------------------------------------------------------===//
#include "TestExprs.h"
#include "frontend/AbstractValues.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::frontend;

namespace {

Expr lane() { return testSymbol(Symbol::threadIdx(0)); }
Expr cond() { return Expr::lt(lane(), testSymbol(Symbol::param("n"))); }

PointerValue pointer(std::string Name, MemorySpace Space, Expr Offset) {
  return PointerValue{std::move(Name), Space, std::move(Offset)};
}

TEST(JoinPointersTest, SameAllocationSelectsTheOffset) {
  PointerValue A = pointer("a", MemorySpace::Global, lane() * Expr::constant(4));
  PointerValue B = pointer("a", MemorySpace::Global, Expr::constant(64));
  std::optional<PointerValue> J = joinPointers(cond(), A, B, "a or a");
  ASSERT_TRUE(J);
  EXPECT_EQ(J->BaseName, "a");
  EXPECT_EQ(J->Space, MemorySpace::Global);
  EXPECT_EQ(J->ByteOffset, Expr::select(cond(), A.ByteOffset, B.ByteOffset));
  EXPECT_FALSE(J->GlobalWhere);
}

TEST(JoinPointersTest, TwoGlobalAllocationsAreNamedForBoth) {
  PointerValue A = pointer("a", MemorySpace::Global, lane() * Expr::constant(4));
  PointerValue B = pointer("b", MemorySpace::Global, lane() * Expr::constant(4));
  std::optional<PointerValue> J = joinPointers(cond(), A, B, "a or b");
  ASSERT_TRUE(J);
  EXPECT_EQ(J->BaseName, "a or b");
  EXPECT_EQ(J->Space, MemorySpace::Global);
  // The offset is the same in both: the select folds to it.
  EXPECT_EQ(J->ByteOffset, A.ByteOffset);
}

TEST(JoinPointersTest, OutsideGlobalMemoryIsNotGlobal) {
  PointerValue Shared = pointer("smem", MemorySpace::Shared, lane());
  PointerValue Local = pointer("cached", MemorySpace::Local, Expr::constant(0));
  std::optional<PointerValue> J = joinPointers(cond(), Local, Shared, "x");
  ASSERT_TRUE(J);
  EXPECT_EQ(J->Space, MemorySpace::NotGlobal);
  std::optional<PointerValue> S = joinPointers(cond(), Shared, Shared, "x");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Space, MemorySpace::Shared);
}

TEST(JoinPointersTest, GlobalWithLocalIsGlobalWhereChosen) {
  PointerValue KV = pointer("KV", MemorySpace::Global, lane() * Expr::constant(16));
  PointerValue Zero = pointer("zero", MemorySpace::Local, Expr::constant(0));
  std::optional<PointerValue> J = joinPointers(cond(), KV, Zero, "x");
  ASSERT_TRUE(J);
  EXPECT_EQ(J->BaseName, "KV");
  EXPECT_EQ(J->ByteOffset, KV.ByteOffset);
  ASSERT_TRUE(J->GlobalWhere);
  EXPECT_EQ(*J->GlobalWhere, cond());
  // The other way round: where the condition is false; narrowed again by a
  // second join.
  std::optional<PointerValue> K = joinPointers(cond(), Zero, KV, "x");
  ASSERT_TRUE(K && K->GlobalWhere);
  EXPECT_EQ(*K->GlobalWhere, Expr::logicalNot(cond()));
  Expr Other = Expr::lt(lane(), Expr::constant(8));
  std::optional<PointerValue> L = joinPointers(Other, *J, Zero, "x");
  ASSERT_TRUE(L && L->GlobalWhere);
  EXPECT_EQ(*L->GlobalWhere, Expr::logicalAnd(cond(), Other));
}

TEST(JoinPointersTest, GlobalWithUnknownMemoryGivesNothing) {
  PointerValue A = pointer("a", MemorySpace::Global, Expr::constant(0));
  PointerValue U = pointer("u", MemorySpace::Unknown, Expr::constant(0));
  EXPECT_FALSE(joinPointers(cond(), A, U, "x"));
  EXPECT_FALSE(joinPointers(cond(), U, A, "x"));
}

} // namespace
