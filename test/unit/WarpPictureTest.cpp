//===- WarpPictureTest.cpp - Tests of the warp picture model --------------===//

#include "output/WarpPicture.h"
#include "output/TextPicture.h"

#include "TestExprs.h"
#include "coalesce/Predictor.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// Lane L at Base + Stride * L, all 32 lanes active.
std::vector<std::optional<int64_t>> lanes(int64_t Base, int64_t Stride) {
  std::vector<std::optional<int64_t>> A;
  for (unsigned L = 0; L < WarpSize; ++L)
    A.push_back(Base + Stride * L);
  return A;
}

TEST(WarpPictureTest, StrideOneFloatUsesEveryFetchedByte) {
  WarpPicture P = buildWarpPicture(lanes(0, 4), 4);
  ASSERT_EQ(P.Sectors.size(), 4u);
  for (unsigned S = 0; S < 4; ++S) {
    EXPECT_EQ(P.Sectors[S].Address, int64_t(32 * S));
    EXPECT_EQ(P.Sectors[S].UsedMask, 0xFFFFFFFFu);
    EXPECT_EQ(P.Sectors[S].usedBytes(), 32u);
  }
  EXPECT_EQ(P.ActiveLanes, 32u);
  EXPECT_EQ(P.RequestSectors, 4u);
  EXPECT_EQ(P.IdealSectors, 4u);
  EXPECT_EQ(P.RequestedBytes, 128u);
  EXPECT_EQ(P.UsedBytes, 128u);
  EXPECT_EQ(P.FetchedBytes, 128u);
  EXPECT_DOUBLE_EQ(P.efficiency(), 1.0);
  // Lane 9 reads bytes 36..39: the second sector, bytes 4..7 of it.
  EXPECT_EQ(P.sectorOf(P.Lanes[9].Address), 1);
  EXPECT_EQ(P.laneMask(P.Lanes[9], P.Sectors[1]), 0xF0u);
  EXPECT_EQ(P.laneMask(P.Lanes[9], P.Sectors[0]), 0u);
}

TEST(WarpPictureTest, StrideTwoFloatWastesHalf) {
  WarpPicture P = buildWarpPicture(lanes(0, 8), 4);
  ASSERT_EQ(P.Sectors.size(), 8u);
  for (const PictureSector &S : P.Sectors) {
    // Bytes 0-3, 8-11, 16-19, 24-27 of every sector.
    EXPECT_EQ(S.UsedMask, 0x0F0F0F0Fu);
    EXPECT_EQ(S.usedBytes(), 16u);
  }
  EXPECT_EQ(P.RequestSectors, 8u);
  EXPECT_EQ(P.IdealSectors, 4u);
  EXPECT_EQ(P.RequestedBytes, 128u);
  EXPECT_EQ(P.UsedBytes, 128u);
  EXPECT_EQ(P.FetchedBytes, 256u);
  EXPECT_DOUBLE_EQ(P.efficiency(), 0.5);
}

TEST(WarpPictureTest, OffsetByOneFloatTouchesAFifthSector) {
  WarpPicture P = buildWarpPicture(lanes(4, 4), 4);
  ASSERT_EQ(P.Sectors.size(), 5u);
  EXPECT_EQ(P.Sectors.front().UsedMask, 0xFFFFFFF0u); // Bytes 0-3 wasted.
  EXPECT_EQ(P.Sectors[1].UsedMask, 0xFFFFFFFFu);
  EXPECT_EQ(P.Sectors.back().Address, 128);
  EXPECT_EQ(P.Sectors.back().UsedMask, 0x0000000Fu); // Bytes 4-31 wasted.
  EXPECT_EQ(P.RequestSectors, 5u);
  EXPECT_EQ(P.IdealSectors, 4u);
  EXPECT_EQ(P.UsedBytes, 128u);
  EXPECT_EQ(P.FetchedBytes, 160u);
  EXPECT_DOUBLE_EQ(P.efficiency(), 0.8);
}

TEST(WarpPictureTest, InactiveLanesAndSharedAddresses) {
  // Lanes 0-15 read one float; lanes 16-31 do not execute.
  std::vector<std::optional<int64_t>> A(WarpSize);
  for (unsigned L = 0; L < 16; ++L)
    A[L] = 64;
  WarpPicture P = buildWarpPicture(A, 4);
  EXPECT_EQ(P.ActiveLanes, 16u);
  ASSERT_EQ(P.Sectors.size(), 1u);
  EXPECT_EQ(P.Sectors[0].Address, 64);
  EXPECT_EQ(P.RequestedBytes, 64u);
  EXPECT_EQ(P.UsedBytes, 4u);
  EXPECT_EQ(P.FetchedBytes, 32u);
  EXPECT_FALSE(P.Lanes[20].Active);
  EXPECT_EQ(P.laneMask(P.Lanes[20], P.Sectors[0]), 0u);
}

TEST(WarpPictureTest, StraddlingVectorsAndNegativeOffsets) {
  // An 8-byte access at -4 covers sectors -32 and 0.
  WarpPicture P = buildWarpPicture({int64_t(-4)}, 8);
  ASSERT_EQ(P.Sectors.size(), 2u);
  EXPECT_EQ(P.Sectors[0].Address, -32);
  EXPECT_EQ(P.Sectors[0].UsedMask, 0xF0000000u);
  EXPECT_EQ(P.Sectors[1].UsedMask, 0x0000000Fu);
  EXPECT_EQ(P.RequestSectors, 2u);
}

TEST(WarpPictureTest, FloatAtomicsToOneAddressCostMore) {
  std::vector<std::optional<int64_t>> A(4, int64_t(0));
  WarpPicture P = buildWarpPicture(A, 4, AtomicKind::Float);
  EXPECT_EQ(P.Sectors.size(), 1u);
  EXPECT_EQ(P.RequestSectors, 4u); // Serialized, not merged.
}

TEST(WarpPictureTest, PredictionKeepsARepresentativeRequest) {
  // a[33 * blockIdx.x + threadIdx.x] on floats, blocks of 32: block b starts
  // 132*b bytes in, 4*b mod 32 into a sector. Block 0 needs 4 sectors,
  // blocks 1..7 need 5 (the period is 8): mean 4.875, and the first request
  // nearest it is block 1's.
  Expr Tx = testSymbol(Symbol::threadIdx(0));
  Expr Bx = testSymbol(Symbol::blockIdx(0));
  AccessPattern A;
  A.Address = Expr::constant(4) * (Expr::constant(33) * Bx + Tx);
  PredictOptions O;
  O.Block = BlockShape{32, 1, 1};
  Prediction P = predict(A, O);
  ASSERT_TRUE(P.SectorsPerRequest);
  EXPECT_DOUBLE_EQ(*P.SectorsPerRequest, 4.875);
  ASSERT_TRUE(P.Representative);
  EXPECT_EQ(P.Representative->Sectors, 5u);
  EXPECT_EQ(P.Representative->Warp, 0u);
  ASSERT_EQ(P.Representative->At.size(), 1u);
  EXPECT_EQ(P.Representative->At[0], "blockIdx.x = 1");
  ASSERT_EQ(P.Representative->LaneAddresses.size(), 32u);
  EXPECT_EQ(P.Representative->LaneAddresses[0], 132);
  EXPECT_EQ(P.Representative->LaneAddresses[31], 132 + 124);

  // The picture of the record rebuilds the same request.
  AccessRecord R;
  R.Pattern = A;
  R.Predicted = P;
  std::optional<WarpPicture> Pic = warpPictureOf(R);
  ASSERT_TRUE(Pic);
  EXPECT_EQ(Pic->Sectors.size(), 5u);
  EXPECT_EQ(Pic->Where, "warp 0, blockIdx.x = 1");
}

TEST(WarpPictureTest, InactiveLanesOfTheRepresentativeRequest) {
  // if (threadIdx.x < 16) a[threadIdx.x]: lanes 16..31 do not execute.
  Expr Tx = testSymbol(Symbol::threadIdx(0));
  AccessPattern A;
  A.Address = Expr::constant(4) * Tx;
  A.Active = Expr::lt(Tx, Expr::constant(16));
  PredictOptions O;
  O.Block = BlockShape{32, 1, 1};
  Prediction P = predict(A, O);
  ASSERT_TRUE(P.Representative);
  const auto &Lanes = P.Representative->LaneAddresses;
  ASSERT_EQ(Lanes.size(), 32u);
  EXPECT_EQ(Lanes[15], 60);
  EXPECT_FALSE(Lanes[16].has_value());
  EXPECT_TRUE(P.Representative->At.empty());

  // Unknown accesses have none.
  AccessPattern U;
  U.UnknownReason = "cannot follow the pointer";
  EXPECT_FALSE(predict(U, O).Representative);
}

TEST(TextPictureTest, StaysWithinTheWidthAndMarksWaste) {
  for (int64_t Stride : {4, 8, 64, 128, 4096}) {
    WarpPicture P = buildWarpPicture(lanes(4, Stride), 4);
    std::string Text = drawTextPicture(P, "a");
    size_t Start = 0;
    while (Start < Text.size()) {
      size_t End = Text.find('\n', Start);
      EXPECT_LE(End - Start, TextPictureWidth) << Text;
      Start = End + 1;
    }
    EXPECT_NE(Text.find("lane 0 "), std::string::npos) << Text;
    EXPECT_NE(Text.find("all lanes"), std::string::npos) << Text;
  }
  // Stride 2 floats at one byte per character is too wide: 4 bytes each.
  std::string Text = drawTextPicture(buildWarpPicture(lanes(0, 8), 4), "a");
  EXPECT_NE(Text.find("one character = 4 bytes"), std::string::npos) << Text;
  EXPECT_NE(Text.find("all lanes   #.#.#.#.|#.#.#.#.|"), std::string::npos)
      << Text;
}

TEST(TextPictureTest, IdenticalLanesShareARow) {
  WarpPicture P = buildWarpPicture(lanes(0, 0), 4);
  std::string Text = drawTextPicture(P, "a");
  EXPECT_NE(Text.find("lanes 0-31"), std::string::npos) << Text;
}

} // namespace
