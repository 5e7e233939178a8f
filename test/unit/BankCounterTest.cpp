//===- BankCounterTest.cpp - Tests of the shared-memory bank model --------===//
//
// Every expectation is a measurement on the H200 (cuda_validation/banks/,
// measured.tsv): L1 Wavefronts Shared and its ideal for one warp request.
//
//===----------------------------------------------------------------------===//

#include "coalesce/BankCounter.h"

#include <gtest/gtest.h>

#include <functional>

using namespace coalesce;

namespace {

struct Request {
  std::vector<int64_t> Addresses;
  uint32_t Mask = 0;
};

/// The request of the lanes \p Active picks, lane L at element Index(L).
Request warp(unsigned Bytes, const std::function<int64_t(unsigned)> &Index,
             const std::function<bool(unsigned)> &Active = nullptr) {
  Request R;
  for (unsigned L = 0; L < 32; ++L) {
    if (Active && !Active(L))
      continue;
    R.Addresses.push_back(Index(L) * int64_t(Bytes));
    R.Mask |= uint32_t(1) << L;
  }
  return R;
}

unsigned waves(unsigned Bytes, const std::function<int64_t(unsigned)> &Index,
               const std::function<bool(unsigned)> &Active = nullptr) {
  Request R = warp(Bytes, Index, Active);
  return countWavefronts(R.Addresses, R.Mask, Bytes);
}

unsigned ideal(unsigned Bytes, const std::function<int64_t(unsigned)> &Index,
               const std::function<bool(unsigned)> &Active = nullptr) {
  Request R = warp(Bytes, Index, Active);
  return idealWavefronts(R.Addresses, R.Mask, Bytes);
}

/// Measured wavefronts of `s[threadIdx.x * S]` for S = 1..33 and 64
/// (load_strides and store_strides measured the same).
const unsigned Char[] = {1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 4, 2,
                         2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 8, 1, 16};
const unsigned Short[] = {1, 1, 2, 2, 2, 1, 2, 4, 2, 1, 2, 2, 2, 1, 2, 8,  2,
                          1, 2, 2, 2, 1, 2, 4, 2, 1, 2, 2, 2, 1, 2, 16, 1, 32};
const unsigned Float[] = {1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1,  16, 1,
                          2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 32, 1, 32};
const unsigned Double[] = {2, 4, 2, 8,  2, 4, 2, 16, 2, 4, 2, 8,  2, 4, 2, 32, 2,
                           4, 2, 8, 2, 4, 2, 16, 2, 4, 2, 8, 2, 4, 2, 32, 2, 32};
const unsigned Vec4[] = {4, 8, 4, 16, 4, 8, 4, 32, 4, 8, 4, 16, 4, 8, 4, 32, 4,
                         8, 4, 16, 4, 8, 4, 32, 4, 8, 4, 16, 4, 8, 4, 32, 4, 32};

void checkStrides(unsigned Bytes, const unsigned (&Measured)[34],
                  unsigned Ideal) {
  for (unsigned I = 0; I < 34; ++I) {
    int64_t S = I < 33 ? I + 1 : 64;
    EXPECT_EQ(waves(Bytes, [&](unsigned L) { return L * S; }), Measured[I])
        << Bytes << "-byte elements at stride " << S;
    EXPECT_EQ(ideal(Bytes, [&](unsigned L) { return L * S; }), Ideal)
        << Bytes << "-byte elements at stride " << S;
  }
}

TEST(BankCounter, StridesOfEveryWidth) {
  checkStrides(1, Char, 1);
  checkStrides(2, Short, 1);
  checkStrides(4, Float, 1);
  checkStrides(8, Double, 2);
  checkStrides(16, Vec4, 4);
}

TEST(BankCounter, WordsBroadcastAndMulticast) {
  // words(): measured lines 106..117 of calibration.cu.
  EXPECT_EQ(waves(4, [](unsigned) { return 0; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L % 2 * 32; }), 2u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L % 4 * 32; }), 4u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L % 16 + L / 16 * 32; }), 2u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L % 16 * 2; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L / 2; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return 31 - L; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L * 7 % 32; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L % 8 * 33; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L / 8 * 32 + L % 8; }), 4u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L ^ 1; }), 1u);
  EXPECT_EQ(waves(4, [](unsigned L) { return L * 32 + L; }), 1u);
  EXPECT_EQ(ideal(4, [](unsigned L) { return L % 4 * 32; }), 1u);
}

TEST(BankCounter, EightByteHalves) {
  // wide(): lines 132..140.
  EXPECT_EQ(waves(8, [](unsigned) { return 0; }), 1u);
  EXPECT_EQ(ideal(8, [](unsigned) { return 0; }), 1u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L % 16; }), 2u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L % 2 * 16 + L / 2; }), 4u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L % 16 * 2; }), 4u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L ^ 16; }), 2u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L / 16 * 16 + L % 16 / 2; }),
            2u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L % 8; }), 2u);
  EXPECT_EQ(ideal(8, [](unsigned L) { return L % 8; }), 2u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L % 16 * 16; }), 32u);
  EXPECT_EQ(waves(8, [](unsigned L) { return L * 16 + L / 16; }), 32u);
}

TEST(BankCounter, SixteenByteQuarters) {
  // wide(): lines 141..147.
  EXPECT_EQ(waves(16, [](unsigned) { return 0; }), 2u);
  EXPECT_EQ(ideal(16, [](unsigned) { return 0; }), 2u);
  EXPECT_EQ(waves(16, [](unsigned L) { return L % 8; }), 4u);
  EXPECT_EQ(waves(16, [](unsigned L) { return L % 16; }), 4u);
  EXPECT_EQ(waves(16, [](unsigned L) { return L % 2 * 8 + L / 2; }), 8u);
  EXPECT_EQ(waves(16, [](unsigned L) { return L ^ 8; }), 4u);
  EXPECT_EQ(waves(16, [](unsigned L) { return L / 2; }), 2u);
  EXPECT_EQ(ideal(16, [](unsigned L) { return L / 2; }), 2u);
  EXPECT_EQ(waves(16, [](unsigned L) { return L % 8 * 8; }), 32u);
  EXPECT_EQ(ideal(16, [](unsigned L) { return L % 8 * 8; }), 4u);
}

/// Which groups share a wavefront when they fit in 128 bytes, measured in
/// the third H200 run (wide(), lines 149..161): wavefronts and ideal alike.
TEST(BankCounter, GroupsThatShareAWavefront) {
  struct Case {
    unsigned Bytes;
    std::function<int64_t(unsigned)> Index;
    unsigned Measured;
    const char *Source;
  };
  const Case Cases[] = {
      {8, [](unsigned L) { return L / 16; }, 1, "d[l / 16]"},
      {8, [](unsigned L) { return L / 4; }, 1, "d[l / 4]"},
      {8, [](unsigned L) { return L % 16 / 2 + L / 16 * 8; }, 1,
       "d[l % 16 / 2 + l / 16 * 8]"},
      {8, [](unsigned L) { return L % 2; }, 1, "d[l % 2]"},
      {8, [](unsigned L) { return L / 16 * 16; }, 2, "d[l / 16 * 16]"},
      {8, [](unsigned L) { return L < 16 ? 0 : L; }, 2, "d[l < 16 ? 0 : l]"},
      {16, [](unsigned L) { return L / 8; }, 2, "q[l / 8]"},
      {16, [](unsigned L) { return L / 4; }, 2, "q[l / 4]"},
      {16, [](unsigned L) { return L % 8 / 2 + L / 8 * 4; }, 2,
       "q[l % 8 / 2 + l / 8 * 4]"},
      {16, [](unsigned L) { return L % 4; }, 4, "q[l % 4]"},
      {16, [](unsigned L) { return L / 8 * 8; }, 4, "q[l / 8 * 8]"},
      {16, [](unsigned L) { return L / 8 % 2 * 4 + L % 8 / 2; }, 2,
       "q[l / 8 % 2 * 4 + l % 8 / 2]"},
      {16, [](unsigned L) { return L / 16; }, 2, "q[l / 16]"},
  };
  for (const Case &C : Cases) {
    EXPECT_EQ(waves(C.Bytes, C.Index), C.Measured) << C.Source;
    EXPECT_EQ(ideal(C.Bytes, C.Index), C.Measured) << C.Source;
  }
}

TEST(BankCounter, PartialWarps) {
  // dynamic_and_guards(): even lanes of a 32-lane warp at 128 bytes apart.
  EXPECT_EQ(waves(
                4, [](unsigned L) { return L * 32 % 1024; },
                [](unsigned L) { return L % 2 == 0; }),
            16u);
  // The second warp of a 48-thread block: 16 lanes of 8 bytes, one half.
  EXPECT_EQ(waves(
                8, [](unsigned L) { return L; },
                [](unsigned L) { return L < 16; }),
            1u);
  EXPECT_EQ(ideal(
                8, [](unsigned L) { return L; },
                [](unsigned L) { return L < 16; }),
            1u);
  EXPECT_EQ(countWavefronts({}, 0, 4), 0u);
}

TEST(BankCounter, BanksOfNegativeOffsets) {
  EXPECT_EQ(bankOf(0), 0u);
  EXPECT_EQ(bankOf(127), 31u);
  EXPECT_EQ(bankOf(128), 0u);
  EXPECT_EQ(bankOf(-4), 31u);
  EXPECT_EQ(lanesPerWavefrontGroup(2), 32u);
  EXPECT_EQ(lanesPerWavefrontGroup(8), 16u);
  EXPECT_EQ(lanesPerWavefrontGroup(16), 8u);
}

} // namespace
