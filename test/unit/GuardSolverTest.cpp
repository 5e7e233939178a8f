//===- GuardSolverTest.cpp - Tests of the search for guard values -------===//
//
// solveGuards on hand-built predicates, then predict() on the idioms whose
// defaults switch every lane off, with the stated assumption.
//
//===----------------------------------------------------------------------===//

#include "coalesce/Predictor.h"
#include "model/PredictInternal.h"

#include "GuardProblems.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::predictor;
using namespace coalesce::predictor::testing;

namespace {


/// True when \p Active holds for some lane of a 256-thread block and some
/// value of blockIdx.x in First..First+7 under \p Values.
bool someLaneRuns(const Expr &Active, const ValueMap &Values, int64_t First) {
  for (int64_t B = First; B < First + 8; ++B)
    for (int64_t L = 0; L < 256; ++L) {
      Bindings Bind;
      for (const auto &[S, V] : Values)
        Bind.set(S, V);
      Bind.set(Symbol::threadIdx(0), L);
      Bind.set(Symbol::blockIdx(0), B);
      std::optional<int64_t> R = Active.evaluate(Bind);
      if (R && *R)
        return true;
    }
  return false;
}

TEST(GuardSolverTest, EqualityOnAParameterTakesItsRoot) {
  // if (choice == 2): the root of 2 - choice.
  std::optional<GuardSolution> S =
      solveGuards(problem(Expr::eq(C(2), param("choice")), {p("choice")}));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Values, (ValueMap{{p("choice"), 2}}));
  EXPECT_TRUE(S->Starts.empty());
}

TEST(GuardSolverTest, FlagBitTakesTheMaskConstant) {
  // if (mask & 16): not linear; 16 is a constant of the guard. Never
  // negative (-1 has every bit set too).
  std::optional<GuardSolution> S = solveGuards(
      problem(Expr::ne(C(0), Expr::bitAnd(C(16), param("mask"))), {p("mask")}));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Values, (ValueMap{{p("mask"), 16}}));
}

TEST(GuardSolverTest, LastBlockMovesTheSamplesNotTheGrid) {
  // if (blockIdx.x == gridDim.x - 1) with gridDim.x = 1024 and blocks 0..7
  // sampled: start the samples at 1023 rather than change gridDim.x.
  Symbol Grid = Symbol::gridDim(0);
  GuardProblem P = problem(Expr::eq(bx(), testSymbol(Grid) - C(1)), {Grid},
                           {{Symbol::blockIdx(0), 8}});
  std::optional<GuardSolution> S = solveGuards(P);
  ASSERT_TRUE(S);
  EXPECT_TRUE(S->Values.empty());
  EXPECT_EQ(S->Starts, (ValueMap{{Symbol::blockIdx(0), 1023}}));
}

TEST(GuardSolverTest, LaneEqualityFindsALaneInTheBlock) {
  // if (threadIdx.x == df - 1): lane 1023 does not exist in a block of 256.
  Expr Active = Expr::eq(tx(), param("df") - C(1));
  std::optional<GuardSolution> S = solveGuards(problem(Active, {p("df")}));
  ASSERT_TRUE(S);
  ASSERT_TRUE(S->Values.count(p("df")));
  int64_t Df = S->Values.at(p("df"));
  EXPECT_GE(Df, 1);
  EXPECT_LE(Df, 256);
}

TEST(GuardSolverTest, TwoValuesAtOnce) {
  // The scalar tail of a float4 scan: i < n && !(full || i + 3 < n) with
  // i = 4 * (256 * blockIdx.x + threadIdx.x). full = 0 alone or n alone
  // runs no lane; the descent from the best first move (n = 2^20) is stuck,
  // the one from full = 0 is not.
  Expr I = C(4) * (C(256) * bx() + tx());
  Expr Active = Expr::logicalAnd(
      Expr::lt(I, param("n")),
      Expr::eq(C(0),
               Expr::logicalOr(param("full"), Expr::lt(I + C(3), param("n")))));
  std::optional<GuardSolution> S = solveGuards(
      problem(Active, {p("full"), p("n")}, {{Symbol::blockIdx(0), 8}}));
  ASSERT_TRUE(S);
  ValueMap Values{{p("full"), 1024}, {p("n"), 1024}};
  for (const auto &[Sym, V] : S->Values)
    Values[Sym] = V;
  EXPECT_EQ(Values.at(p("full")), 0);
  EXPECT_NE(Values.at(p("n")) % 4, 0);
  int64_t First = S->Starts.count(Symbol::blockIdx(0))
                      ? S->Starts.at(Symbol::blockIdx(0))
                      : 0;
  EXPECT_TRUE(someLaneRuns(Active, Values, First));
}

TEST(GuardSolverTest, ContradictionIsNotSolved) {
  // k < 8 && k == 8 (an iteration past those sampled), and a guard only a
  // negative value satisfies: no answer.
  Symbol K{SymbolKind::LoopIter, "k"};
  Expr Iter = testSymbol(K);
  EXPECT_FALSE(solveGuards(
      problem(Expr::logicalAnd(Expr::lt(Iter, C(8)), Expr::eq(Iter, C(8))), {},
              {{K, 8}})));
  EXPECT_FALSE(
      solveGuards(problem(Expr::lt(tx() + param("off"), C(0)), {p("off")})));
}

TEST(GuardSolverTest, SharedDagIsSolvedByItsDistinctNodes) {
  // A writer's position after 64 passes of `if (next != end) next += w`
  // (a loop's samples): each pass uses the one before three times, so the
  // tree form has about 3^64 nodes and the DAG about 5 per pass. The solver
  // walks and scores the DAG, and finds the value the guard needs.
  Expr End = param("end");
  Expr Next = tx();
  for (int K = 0; K < 64; ++K)
    Next = Expr::select(Expr::ne(Next, End), Next + param("w"), Next);
  Expr Active = Expr::logicalAnd(Expr::ne(Next, End),
                                 Expr::eq(param("choice"), C(2)));
  std::optional<GuardSolution> S =
      solveGuards(problem(Active, {p("choice"), p("end"), p("w")}));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Values.at(p("choice")), 2);
}

TEST(GuardSolverTest, PredictStatesTheFoundValues) {
  // a[i] under if (choice == 2), block 256: 4 sectors, ideal 4, and the
  // value is said.
  AccessPattern A;
  A.Address = C(4) * (bx() * testSymbol(Symbol::blockDim(0)) + tx());
  A.AccessBytes = 4;
  PredictOptions O;
  O.Block = BlockShape{256, 1, 1};
  // Coalesced once some lane runs; the first note states the value found.
  auto RunsWith = [&](const Expr &Active, const std::string &Stated) {
    A.Active = Active;
    Prediction P = predict(A, O);
    EXPECT_TRUE(P.SectorsPerRequest) << Stated;
    if (P.SectorsPerRequest)
      EXPECT_NEAR(*P.SectorsPerRequest, 4, 1e-9) << Stated;
    EXPECT_FALSE(P.Assumptions.empty()) << Stated;
    if (!P.Assumptions.empty())
      EXPECT_EQ(P.Assumptions.front(), Stated);
    return P;
  };
  Prediction P = RunsWith(Expr::eq(param("choice"), C(2)),
                          "assuming choice = 2 so that the access executes");
  EXPECT_EQ(P.AssumedValues["choice"], 2);

  // if (k == 20 + threadIdx.y) in a loop of n iterations: the guard mixes
  // k with a lane, so the iterations are sampled 0..7, not over the trip
  // count; the sampled iterations start at 20 instead (and go on while the
  // loop runs).
  Expr K = testSymbol(Symbol{SymbolKind::LoopIter, "k"});
  Expr Ty = testSymbol(Symbol::threadIdx(1));
  RunsWith(Expr::logicalAnd(Expr::lt(K, param("n")), Expr::eq(K, C(20) + Ty)),
           "assuming k >= 20 so that the access executes");

  // The last block, alone; gridDim.x keeps its default.
  Prediction Q =
      RunsWith(Expr::eq(bx(), testSymbol(Symbol::gridDim(0)) - C(1)),
               "assuming blockIdx.x = 1023 so that the access executes");
  EXPECT_EQ(Q.AssumedValues["gridDim.x"], 1024);
}

} // namespace
