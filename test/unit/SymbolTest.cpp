//===- SymbolTest.cpp - Symbols and bindings of the symbolic engine -------===//

#include "TestExprs.h"
#include "coalesce/Expr.h"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(SymbolTest, BuiltinNamesAndDimensions) {
  const char *Components[] = {"x", "y", "z"};
  for (unsigned D = 0; D < 3; ++D) {
    Symbol T = Symbol::threadIdx(D), B = Symbol::blockIdx(D);
    Symbol BD = Symbol::blockDim(D), G = Symbol::gridDim(D);
    EXPECT_EQ(T.Name, std::string("threadIdx.") + Components[D]);
    EXPECT_EQ(B.Name, std::string("blockIdx.") + Components[D]);
    EXPECT_EQ(BD.Name, std::string("blockDim.") + Components[D]);
    EXPECT_EQ(G.Name, std::string("gridDim.") + Components[D]);
    EXPECT_EQ(T.Kind, SymbolKind::ThreadIdx);
    EXPECT_EQ(B.Kind, SymbolKind::BlockIdx);
    EXPECT_EQ(BD.Kind, SymbolKind::BlockDim);
    EXPECT_EQ(G.Kind, SymbolKind::GridDim);
    for (const Symbol &S : {T, B, BD, G})
      EXPECT_EQ(S.dimension(), static_cast<int>(D)) << S.Name;
  }
  EXPECT_EQ(Symbol::param("N").dimension(), -1);
  EXPECT_EQ((Symbol{SymbolKind::LoopIter, "x"}).dimension(), -1);
}

TEST(SymbolTest, LaneDependenceAndVariation) {
  struct Case {
    SymbolKind Kind;
    bool Lane, Varying;
    const char *Name;
  } Cases[] = {
      {SymbolKind::ThreadIdx, true, false, "threadIdx"},
      {SymbolKind::BlockDim, false, false, "blockDim"},
      {SymbolKind::BlockIdx, false, true, "blockIdx"},
      {SymbolKind::GridDim, false, false, "gridDim"},
      {SymbolKind::Param, false, false, "param"},
      {SymbolKind::LoopIter, false, true, "loopIter"},
      {SymbolKind::UniformValue, false, false, "uniformValue"},
      {SymbolKind::LaneValue, true, false, "laneValue"},
      {SymbolKind::IndirectValue, true, false, "indirectValue"},
  };
  for (const Case &C : Cases) {
    Symbol S{C.Kind, "s"};
    EXPECT_EQ(S.isLaneDependent(), C.Lane) << C.Name;
    EXPECT_EQ(S.isVarying(), C.Varying) << C.Name;
    EXPECT_STREQ(symbolKindName(C.Kind), C.Name);
  }
}

TEST(SymbolTest, EqualityNeedsKindAndName) {
  Symbol A{SymbolKind::Param, "n"}, B{SymbolKind::LoopIter, "n"};
  EXPECT_NE(A, B);
  EXPECT_EQ(A, Symbol::param("n"));
  EXPECT_TRUE(A < B || B < A);
  EXPECT_FALSE(A < A);
}

// Two loads of `idx[i]` around a store that may change it print alike but
// are different values: they must not cancel (issue 29's wrong answer).
TEST(SymbolTest, VersionsTellApartValuesThatPrintAlike) {
  Symbol Before{SymbolKind::IndirectValue, "idx[i]", 1};
  Symbol After{SymbolKind::IndirectValue, "idx[i]", 2};
  EXPECT_NE(Before, After);
  EXPECT_TRUE(Before < After || After < Before);
  EXPECT_EQ(Before, (Symbol{SymbolKind::IndirectValue, "idx[i]", 1}));
  Expr A = testSymbol(Before), B = testSymbol(After);
  EXPECT_FALSE((B - A).isConstant());
  EXPECT_TRUE((A - testSymbol(Before)).isConstant());
  EXPECT_EQ(A.str(), B.str()); // The version is never printed.
  EXPECT_EQ((A + B + testSymbol(Symbol::param("n")))
                .symbolNames(SymbolKind::IndirectValue),
            std::vector<std::string>{"idx[i]"}); // Named once.
  EXPECT_NE(A.hash(), B.hash());
  // A symbol of another name sorts by its name first, whatever the version:
  // canonical forms (and so printed formulas) do not depend on versions.
  Symbol Early{SymbolKind::IndirectValue, "a[i]", ~uint64_t(0)};
  EXPECT_LT(Early, Before);
  Bindings Values;
  Values.set(Before, 5);
  Values.set(After, 9);
  EXPECT_EQ((B - A).evaluate(Values), 4);
}

TEST(SymbolTest, BindingsLookup) {
  Bindings B;
  Symbol N = Symbol::param("N"), Tx = Symbol::threadIdx(0);
  EXPECT_EQ(B.lookup(N), std::nullopt);
  B.set(N, -7);
  B.set(Tx, 31);
  EXPECT_EQ(B.lookup(N), std::optional<int64_t>(-7));
  EXPECT_EQ(B.lookup(Tx), std::optional<int64_t>(31));
  // Same name, other kind: a different symbol.
  EXPECT_EQ(B.lookup(Symbol{SymbolKind::LoopIter, "N"}), std::nullopt);
  B.set(N, 5);
  EXPECT_EQ(B.lookup(N), std::optional<int64_t>(5));
  B.erase(N);
  EXPECT_EQ(B.lookup(N), std::nullopt);
  EXPECT_EQ(B.size(), 1u);
}
