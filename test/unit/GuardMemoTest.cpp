//===- GuardMemoTest.cpp - solveGuards() memoized per kernel --------------===//

#include "coalesce/Predictor.h"
#include "model/PredictInternal.h"
#include "model/PredictionCache.h"

#include "GuardProblems.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::predictor;
using namespace coalesce::predictor::testing;

namespace {


bool sameSolution(const std::optional<GuardSolution> &A,
                  const std::optional<GuardSolution> &B) {
  if (!A || !B)
    return !A && !B;
  return A->Values == B->Values && A->Starts == B->Starts;
}

TEST(GuardMemoTest, RepeatsAreAnsweredWithTheSearchsResult) {
  GuardMemo Memo;
  GuardProblem P = problem(Expr::eq(C(2), param("choice")), {p("choice")});
  std::optional<GuardSolution> First = Memo.solve(P);
  std::optional<GuardSolution> Again = Memo.solve(P);
  EXPECT_EQ(Memo.hits(), 1u);
  EXPECT_TRUE(sameSolution(First, solveGuards(P)));
  EXPECT_TRUE(sameSolution(Again, First));
}

TEST(GuardMemoTest, EveryFieldOfTheProblemIsPartOfTheKey) {
  GuardMemo Memo;
  GuardProblem P = problem(Expr::lt(tx(), param("n") - C(1000)), {p("n")});
  Memo.solve(P);
  GuardProblem Active = P, Fixed = P, Free = P, InAddress = P, Varying = P,
               Block = P;
  Active.Active = Expr::lt(tx(), param("n") - C(999));
  Fixed.Fixed[p("n")] = 7;
  Free.Free.clear();
  InAddress.InAddress.insert(p("n"));
  Varying.Varying.emplace_back(Symbol::blockIdx(0), 8);
  Block.Block = BlockShape{128, 1, 1};
  for (const GuardProblem *Q :
       {&Active, &Fixed, &Free, &InAddress, &Varying, &Block})
    EXPECT_TRUE(sameSolution(Memo.solve(*Q), solveGuards(*Q)));
  EXPECT_EQ(Memo.hits(), 0u);
}

TEST(GuardMemoTest, AccessesUnderOneGuardShareTheSearch) {
  // if (tid == k) { out[tid] = ..; in[tid + 1] .. }: the default k = 1024
  // runs no lane of 256; both accesses state the same value of k.
  PredictionCache Cache;
  PredictOptions Opts;
  AccessPattern A;
  A.Active = Expr::eq(tx(), param("k"));
  A.Address = C(4) * tx();
  AccessPattern B = A;
  B.Address = C(4) * tx() + C(4);
  Prediction PA = Cache.get(A, Opts), PB = Cache.get(B, Opts);
  EXPECT_EQ(Cache.hits(), 0u);
  EXPECT_EQ(Cache.guardHits(), 1u);
  EXPECT_EQ(PA.Assumptions, predict(A, Opts).Assumptions);
  EXPECT_EQ(PB.Assumptions, predict(B, Opts).Assumptions);
  EXPECT_EQ(PB.SectorsPerRequest, predict(B, Opts).SectorsPerRequest);
}

} // namespace
