//===- SectorCounterTest.cpp - Tests of the sector model ------------------===//

#include "coalesce/SectorCounter.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// Addresses Base, Base + Stride, ... for \p Lanes lanes.
std::vector<int64_t> run(int64_t Base, int64_t Stride, unsigned Lanes = 32) {
  std::vector<int64_t> A;
  for (unsigned L = 0; L < Lanes; ++L)
    A.push_back(Base + Stride * L);
  return A;
}

TEST(CountSectorsTest, ContiguousFloats) {
  // 32 floats from 0: bytes 0..127 -> sectors 0..3.
  EXPECT_EQ(countSectors(run(0, 4), 4), 4u);
  // From byte 4: bytes 4..131 -> sectors 0..4.
  EXPECT_EQ(countSectors(run(4, 4), 4), 5u);
  // From byte 32: bytes 32..159 -> sectors 1..4, still 4.
  EXPECT_EQ(countSectors(run(32, 4), 4), 4u);
}

TEST(CountSectorsTest, StraddlingAccessTouchesBothSectors) {
  // 8 bytes at 28: bytes 28..35 -> sectors 0 and 1.
  EXPECT_EQ(countSectors({28}, 8), 2u);
  // 4 bytes at 28: bytes 28..31 -> sector 0 only.
  EXPECT_EQ(countSectors({28}, 4), 1u);
  // 16-byte vectors, contiguous: 512 bytes -> 16 sectors.
  EXPECT_EQ(countSectors(run(0, 16), 16), 16u);
}

TEST(CountSectorsTest, NegativeAddressesUseFloorDivision) {
  // Bytes -4..-1 lie in sector -1.
  EXPECT_EQ(countSectors({-4}, 4), 1u);
  // -4 (sector -1) and 0 (sector 0).
  EXPECT_EQ(countSectors({-4, 0}, 4), 2u);
  // 8 floats from -32: bytes -32..-1 -> sector -1 only.
  EXPECT_EQ(countSectors(run(-32, 4, 8), 4), 1u);
  // 4 bytes at -2: bytes -2..1 -> sectors -1 and 0 (truncating division
  // would put both ends in sector 0).
  EXPECT_EQ(countSectors({-2}, 4), 2u);
  // -33 is in sector -2 (floor(-33/32) = -2), -32 in sector -1.
  EXPECT_EQ(countSectors({-33, -32}, 1), 2u);
}

TEST(CountSectorsTest, DuplicatesAndEmpty) {
  // 32 lanes on one address: one sector.
  EXPECT_EQ(countSectors(std::vector<int64_t>(32, 64), 4), 1u);
  EXPECT_EQ(countSectors({}, 4), 0u);
}

TEST(CountRequestSectorsTest, PlainAccessesAreCountSectors) {
  EXPECT_EQ(countRequestSectors(run(4, 4), 4, AtomicKind::None), 5u);
  // Stride 32 bytes: one sector per lane.
  EXPECT_EQ(countRequestSectors(run(0, 32), 4, AtomicKind::None), 32u);
}

TEST(CountRequestSectorsTest, FloatAtomicsToOneAddressAreSerialized) {
  // 1 distinct sector x 32 lanes on the address = 32.
  EXPECT_EQ(
      countRequestSectors(std::vector<int64_t>(32, 0), 4, AtomicKind::Float),
      32u);
  // Distinct addresses behave like stores: 4 sectors, most lanes per
  // address = 1.
  EXPECT_EQ(countRequestSectors(run(0, 4), 4, AtomicKind::Float), 4u);
  // hist[tid % 4]: addresses 0, 4, 8, 12 with 8 lanes each -> 1 sector x 8.
  std::vector<int64_t> Hist;
  for (unsigned L = 0; L < 32; ++L)
    Hist.push_back(4 * (L % 4));
  EXPECT_EQ(countRequestSectors(Hist, 4, AtomicKind::Float), 8u);
}

TEST(CountRequestSectorsTest, IntegerAtomicsToOneAddressAreAggregated) {
  EXPECT_EQ(
      countRequestSectors(std::vector<int64_t>(32, 0), 4, AtomicKind::Integer),
      1u);
  // Distinct addresses: like a store, 4 sectors.
  EXPECT_EQ(countRequestSectors(run(0, 4), 4, AtomicKind::Integer), 4u);
  // out[(tid % 4) * 8] on ints: 4 addresses 32 bytes apart -> 4 sectors.
  std::vector<int64_t> Spread;
  for (unsigned L = 0; L < 32; ++L)
    Spread.push_back(32 * (L % 4));
  EXPECT_EQ(countRequestSectors(Spread, 4, AtomicKind::Integer), 4u);
  EXPECT_EQ(countRequestSectors({}, 4, AtomicKind::Integer), 0u);
}

TEST(IdealSectorsTest, CeilOfBytesOverSectorSize) {
  EXPECT_EQ(idealSectors(32, 4), 4u);   // 128 / 32
  EXPECT_EQ(idealSectors(16, 4), 2u);   // 64 / 32
  EXPECT_EQ(idealSectors(1, 4), 1u);    // ceil(4 / 32)
  EXPECT_EQ(idealSectors(3, 4), 1u);    // ceil(12 / 32)
  EXPECT_EQ(idealSectors(9, 4), 2u);    // ceil(36 / 32)
  EXPECT_EQ(idealSectors(32, 1), 1u);   // 32 / 32
  EXPECT_EQ(idealSectors(32, 2), 2u);   // 64 / 32
  EXPECT_EQ(idealSectors(32, 8), 8u);   // 256 / 32
  EXPECT_EQ(idealSectors(32, 16), 16u); // 512 / 32
  EXPECT_EQ(idealSectors(0, 4), 0u);
}

TEST(CountLinesTest, DistinctLinesOf128Bytes) {
  // 32 floats from 0: bytes 0..127, one line.
  EXPECT_EQ(countLines(run(0, 4), 4), 1u);
  // From 4: bytes 4..131, two lines.
  EXPECT_EQ(countLines(run(4, 4), 4), 2u);
  // Stride 128: one line per lane.
  EXPECT_EQ(countLines(run(0, 128), 4), 32u);
  // Negative: bytes -128..-1 are line -1.
  EXPECT_EQ(countLines(run(-128, 4), 4), 1u);
}

} // namespace
