//===- RequestCountTest.cpp - Requests per launch, apart from Clang -------===//
//
// Accesses built by hand as Exprs with the loops around them; the counts
// are worked out next to each assertion.
//
//===----------------------------------------------------------------------===//

#include "TestExprs.h"
#include "coalesce/Findings.h"
#include "coalesce/Predictor.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

Expr C(int64_t V) { return Expr::constant(V); }
Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
Expr bx() { return testSymbol(Symbol::blockIdx(0)); }
Expr bdx() { return testSymbol(Symbol::blockDim(0)); }
Expr gdx() { return testSymbol(Symbol::gridDim(0)); }
Expr param(const char *Name) { return testSymbol(Symbol::param(Name)); }
const Symbol K{SymbolKind::LoopIter, "k"};
Expr k() { return testSymbol(K); }

PredictOptions launch(unsigned Block, std::optional<unsigned> Grid) {
  PredictOptions O;
  O.Block.X = Block;
  if (Grid)
    O.Params["gridDim.x"] = *Grid;
  return O;
}

EnclosingLoop loopWhile(Expr Cond) {
  EnclosingLoop L;
  L.Iter = K;
  L.Condition = std::move(Cond);
  L.Where = "the loop at f.cu:3";
  return L;
}

TEST(RequestCountTest, GridWarpsAndTripCount) {
  // for (k = 0; k < n; ++k) a[(tid * n + k)] with n = 64, 16 blocks of 256:
  // 16 x 8 x 64 = 8192 requests.
  AccessPattern A;
  Expr Tid = bx() * bdx() + tx();
  A.Address = C(4) * (Tid * param("n") + k());
  A.Active = Expr::lt(k(), param("n"));
  A.Loops = {loopWhile(Expr::lt(k(), param("n")))};
  PredictOptions O = launch(256, 16);
  O.Params["n"] = 64;
  Prediction P = predict(A, O);
  ASSERT_TRUE(P.Requests);
  EXPECT_EQ(P.Requests->Blocks, 16u);
  EXPECT_DOUBLE_EQ(P.Requests->PerBlock, 8 * 64);
  EXPECT_EQ(P.Requests->perLaunch(), 16.0 * 8 * 64);
  EXPECT_EQ(P.Requests->Basis,
            "16 blocks x 8 warps x 64 passes of the loop at f.cu:3");
}

TEST(RequestCountTest, GuardsTakeTheirShare) {
  // if (threadIdx.x < 32): one warp of 8 in every block.
  AccessPattern A;
  A.Address = C(4) * tx();
  A.Active = Expr::lt(tx(), C(32));
  Prediction P = predict(A, launch(256, 100));
  ASSERT_TRUE(P.Requests);
  EXPECT_DOUBLE_EQ(P.Requests->PerBlock, 1);
  EXPECT_EQ(P.Requests->perLaunch(), 100.0);
  EXPECT_EQ(P.Requests->Basis, "100 blocks x 12.5% of 8 warps");

  // Inside a loop of 8 passes, only the even ones: half of them.
  AccessPattern B;
  B.Address = C(4) * tx() + C(128) * k();
  B.Active = Expr::logicalAnd(Expr::lt(k(), C(8)),
                              Expr::eq(Expr::rem(k(), C(2)), C(0)));
  B.Loops = {loopWhile(Expr::lt(k(), C(8)))};
  Prediction Q = predict(B, launch(32, 1));
  ASSERT_TRUE(Q.Requests);
  EXPECT_DOUBLE_EQ(Q.Requests->PerBlock, 4); // 1 warp x 8 passes x 1/2
}

TEST(RequestCountTest, GridStrideLoopEndsPerWarp) {
  // for (i = tid; i < n; i += blockDim.x * gridDim.x) with n = 1 << 20,
  // 64 blocks of 256: 64 passes for every thread.
  AccessPattern A;
  Expr I = bx() * bdx() + tx() + k() * bdx() * gdx();
  A.Address = C(4) * I;
  A.Active = Expr::lt(I, param("n"));
  A.Loops = {loopWhile(Expr::lt(I, param("n")))};
  PredictOptions O = launch(256, 64);
  O.Params["n"] = 1 << 20;
  Prediction P = predict(A, O);
  ASSERT_TRUE(P.Requests);
  EXPECT_EQ(P.Requests->perLaunch(), 64.0 * 8 * 64);
}

TEST(RequestCountTest, TriangularLoopsCountEveryBlocksRows) {
  // for (t2 = 0; t2 <= t; ++t2) with t = blockIdx.x, 4 blocks of one warp:
  // 1 + 2 + 3 + 4 = 10 passes, not 4 x 1 as the first block would say.
  AccessPattern A;
  A.Address = C(4) * tx() + C(128) * k();
  A.Active = Expr::le(k(), bx());
  A.Loops = {loopWhile(Expr::le(k(), bx()))};
  Prediction P = predict(A, launch(32, 4));
  ASSERT_TRUE(P.Requests);
  EXPECT_EQ(P.Requests->perLaunch(), 10.0);
  EXPECT_EQ(P.Requests->Basis,
            "4 blocks x 1 warp x 1 to 4 passes of the loop at f.cu:3");
}

TEST(RequestCountTest, DefaultedBoundsAreNotTripCounts) {
  // k < n with n given by no launch: the 1024 used for the sectors is not
  // a trip count; the count is per pass.
  AccessPattern A;
  A.Address = C(4) * tx() + C(4) * k();
  A.Active = Expr::lt(k(), param("n"));
  A.Loops = {loopWhile(Expr::lt(k(), param("n")))};
  Prediction P = predict(A, launch(64, 2));
  ASSERT_TRUE(P.Requests);
  EXPECT_FALSE(P.Requests->perLaunch());
  EXPECT_EQ(P.Requests->PerIterationOf,
            std::vector<std::string>{"the loop at f.cu:3"});
  EXPECT_DOUBLE_EQ(P.Requests->PerBlock, 2);
}

TEST(RequestCountTest, UnknownGridOrTripCountIsNeverInvented) {
  // No grid: per block. A loop with no counter: per pass of it.
  AccessPattern A;
  A.Address = C(32) * tx();
  EnclosingLoop Data;
  Data.Where = "the loop at f.cu:9";
  A.Loops = {Data};
  Prediction P = predict(A, launch(128, std::nullopt));
  ASSERT_TRUE(P.Requests);
  EXPECT_FALSE(P.Requests->Blocks);
  EXPECT_FALSE(P.Requests->perLaunch());
  EXPECT_DOUBLE_EQ(P.Requests->PerBlock, 4);
  EXPECT_EQ(P.Requests->PerIterationOf,
            std::vector<std::string>{"the loop at f.cu:9"});

  // A condition that never fails (a loop left by a break): per pass too.
  AccessPattern B;
  B.Address = C(4) * tx() + C(4) * k();
  B.Loops = {loopWhile(C(1))};
  Prediction Q = predict(B, launch(32, 4));
  ASSERT_TRUE(Q.Requests);
  EXPECT_FALSE(Q.Requests->perLaunch());
  EXPECT_EQ(Q.Requests->PerIterationOf.size(), 1u);
}

TEST(RequestCountTest, ExcessBytesAndOrdering) {
  // 32 sectors for an ideal of 4 in 8192 requests: 28 x 32 x 8192 bytes.
  AccessRecord R;
  R.Pattern.Address = C(128) * tx();
  R.Pattern.Instructions = 2;
  R.Predicted.SectorsPerRequest = 32;
  R.Predicted.IdealSectorsPerRequest = 4;
  RequestCount Count;
  Count.PerBlock = 512;
  Count.Blocks = 16;
  R.Predicted.Requests = Count;
  std::optional<Impact> I = impactOf(R, 28);
  ASSERT_TRUE(I);
  EXPECT_EQ(I->Unit, Impact::Per::Launch);
  EXPECT_DOUBLE_EQ(I->ExcessBytes, 28.0 * 32 * 8192 * 2);
  EXPECT_DOUBLE_EQ(I->FetchedBytes, 32.0 * 32 * 8192 * 2);

  // A per-launch figure ranks before a larger per-block one.
  Finding Launch, Block;
  Launch.Cost = I;
  Block.Cost = Impact{Impact::Per::Block, false, 1e12, 1e12, {}, "", {}};
  Launch.WastedSectors = 1;
  Block.WastedSectors = 28;
  EXPECT_TRUE(costlier(Launch, Block));
  EXPECT_FALSE(costlier(Block, Launch));
}

TEST(RequestCountTest, MinImpactValues) {
  llvm::Expected<MinImpact> M = parseMinImpact("1MiB");
  ASSERT_TRUE(bool(M));
  EXPECT_EQ(M->Bytes, 1048576.0);
  EXPECT_FALSE(M->Share);
  M = parseMinImpact(" 512 KiB ");
  ASSERT_TRUE(bool(M));
  EXPECT_EQ(M->Bytes, 524288.0);
  M = parseMinImpact("4096");
  ASSERT_TRUE(bool(M));
  EXPECT_EQ(M->Bytes, 4096.0);
  M = parseMinImpact("5%");
  ASSERT_TRUE(bool(M));
  EXPECT_DOUBLE_EQ(*M->Share, 0.05);
  for (const char *Bad : {"lots", "-1", "150%", "1XiB", ""}) {
    llvm::Expected<MinImpact> E = parseMinImpact(Bad);
    EXPECT_FALSE(bool(E)) << Bad;
    if (!E)
      llvm::consumeError(E.takeError());
  }
}

} // namespace
