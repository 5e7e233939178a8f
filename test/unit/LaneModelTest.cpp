//===- LaneModelTest.cpp - Tests of the per-warp lane model ---------------===//

#include "coalesce/LaneModel.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

TEST(BlockShapeTest, StrNamesOnlyTheUsedDimensions) {
  EXPECT_EQ((BlockShape{256, 1, 1}.str()), "256");
  EXPECT_EQ((BlockShape{16, 16, 1}.str()), "16x16");
  EXPECT_EQ((BlockShape{8, 8, 4}.str()), "8x8x4");
  // Z > 1 with Y == 1 still needs all three.
  EXPECT_EQ((BlockShape{32, 1, 2}.str()), "32x1x2");
}

TEST(BlockShapeTest, ThreadsAndWarps) {
  EXPECT_EQ((BlockShape{16, 16, 1}.threads()), 256u);
  EXPECT_EQ((BlockShape{16, 16, 1}.warps()), 8u);
  // 48 threads: one full warp and one of 16 lanes.
  EXPECT_EQ((BlockShape{48, 1, 1}.warps()), 2u);
}

TEST(BlockShapeTest, SourceNames) {
  EXPECT_STREQ(blockShapeSourceName(BlockShapeSource::CommandLine),
               "command-line");
  EXPECT_STREQ(blockShapeSourceName(BlockShapeSource::LaunchBounds),
               "launch-bounds");
  EXPECT_STREQ(blockShapeSourceName(BlockShapeSource::LaunchSite),
               "launch-site");
  EXPECT_STREQ(blockShapeSourceName(BlockShapeSource::Assumed), "assumed");
}

TEST(LanesOfWarpTest, OneDimensionalBlock) {
  std::vector<Lane> Lanes = lanesOfWarp(BlockShape{256, 1, 1}, 3);
  ASSERT_EQ(Lanes.size(), 32u);
  // Lane 5 of warp 3: tid = 3*32 + 5 = 101.
  EXPECT_EQ(Lanes[5].Index, 5u);
  EXPECT_EQ(Lanes[5].Tid, 101u);
  EXPECT_EQ(Lanes[5].X, 101u);
  EXPECT_EQ(Lanes[5].Y, 0u);
  EXPECT_EQ(Lanes[5].Z, 0u);
}

TEST(LanesOfWarpTest, SixteenBySixteenWarpSpansTwoRows) {
  BlockShape Shape{16, 16, 1};
  std::vector<Lane> W0 = lanesOfWarp(Shape, 0);
  ASSERT_EQ(W0.size(), 32u);
  // Lane 15: tid 15 -> (15, 0); lane 16: tid 16 -> (0, 1); lane 17 -> (1, 1).
  EXPECT_EQ(W0[15].X, 15u);
  EXPECT_EQ(W0[15].Y, 0u);
  EXPECT_EQ(W0[16].X, 0u);
  EXPECT_EQ(W0[16].Y, 1u);
  EXPECT_EQ(W0[17].X, 1u);
  EXPECT_EQ(W0[17].Y, 1u);
  // Last lane of the last warp: tid 255 -> (15, 15).
  std::vector<Lane> W7 = lanesOfWarp(Shape, 7);
  ASSERT_EQ(W7.size(), 32u);
  EXPECT_EQ(W7[31].Tid, 255u);
  EXPECT_EQ(W7[31].X, 15u);
  EXPECT_EQ(W7[31].Y, 15u);
}

TEST(LanesOfWarpTest, ThreeDimensionalBlock) {
  BlockShape Shape{8, 8, 4};
  std::vector<Lane> W2 = lanesOfWarp(Shape, 2);
  ASSERT_EQ(W2.size(), 32u);
  // Lane 0: tid 64 -> x = 64 % 8 = 0, y = (64 / 8) % 8 = 0, z = 64 / 64 = 1.
  EXPECT_EQ(W2[0].Tid, 64u);
  EXPECT_EQ(W2[0].X, 0u);
  EXPECT_EQ(W2[0].Y, 0u);
  EXPECT_EQ(W2[0].Z, 1u);
  // Lane 9: tid 73 -> x = 1, y = 9 % 8 = 1, z = 1.
  EXPECT_EQ(W2[9].X, 1u);
  EXPECT_EQ(W2[9].Y, 1u);
  EXPECT_EQ(W2[9].Z, 1u);
  // Lane 31: tid 95 -> x = 7, y = 11 % 8 = 3, z = 1.
  EXPECT_EQ(W2[31].X, 7u);
  EXPECT_EQ(W2[31].Y, 3u);
  EXPECT_EQ(W2[31].Z, 1u);
}

TEST(LanesOfWarpTest, PartialLastWarpAndPastTheEnd) {
  BlockShape Shape{48, 1, 1};
  std::vector<Lane> W1 = lanesOfWarp(Shape, 1);
  // Threads 32..47: 16 lanes.
  ASSERT_EQ(W1.size(), 16u);
  EXPECT_EQ(W1.front().Tid, 32u);
  EXPECT_EQ(W1.back().Tid, 47u);
  EXPECT_EQ(W1.back().Index, 15u);
  EXPECT_TRUE(lanesOfWarp(Shape, 2).empty());
}

TEST(LanesOfWarpTest, PartialWarpOfATwoDimensionalBlock) {
  // 10x5 = 50 threads: warp 1 holds tids 32..49; tid 49 -> (9, 4).
  std::vector<Lane> W1 = lanesOfWarp(BlockShape{10, 5, 1}, 1);
  ASSERT_EQ(W1.size(), 18u);
  EXPECT_EQ(W1.back().X, 9u);
  EXPECT_EQ(W1.back().Y, 4u);
}

TEST(BindTest, LaneAndBlockShapeBindings) {
  Bindings B;
  bindBlockShape(B, BlockShape{16, 8, 2});
  bindLane(B, Lane{17, 17, 1, 1, 0});
  EXPECT_EQ(B.lookup(Symbol::blockDim(0)), std::optional<int64_t>(16));
  EXPECT_EQ(B.lookup(Symbol::blockDim(1)), std::optional<int64_t>(8));
  EXPECT_EQ(B.lookup(Symbol::blockDim(2)), std::optional<int64_t>(2));
  // tid = x + y*blockDim.x = 1 + 1*16 = 17.
  Expr Tid = testSymbol(Symbol::threadIdx(0)) +
             testSymbol(Symbol::threadIdx(1)) * testSymbol(Symbol::blockDim(0));
  EXPECT_EQ(Tid.evaluate(B), std::optional<int64_t>(17));
  EXPECT_EQ(B.lookup(Symbol::threadIdx(2)), std::optional<int64_t>(0));
}

} // namespace
