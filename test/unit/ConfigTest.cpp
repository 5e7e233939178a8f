//===- ConfigTest.cpp - Per-kernel lookups in AnalysisConfig --------------===//

#include "coalesce/Config.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

BlockShape shape(unsigned X, unsigned Y = 1, unsigned Z = 1) {
  BlockShape S;
  S.X = X;
  S.Y = Y;
  S.Z = Z;
  return S;
}

} // namespace

TEST(ConfigTest, NoBlockGivenMeansNone) {
  AnalysisConfig C;
  EXPECT_FALSE(C.blockFor("k").has_value());
}

TEST(ConfigTest, GlobalBlockAppliesToEveryKernel) {
  AnalysisConfig C;
  C.Blocks.push_back({"", shape(16, 16)});
  ASSERT_TRUE(C.blockFor("k").has_value());
  EXPECT_EQ(*C.blockFor("k"), shape(16, 16));
  EXPECT_EQ(*C.blockFor("other"), shape(16, 16));
}

TEST(ConfigTest, PerKernelBlockWinsOverGlobalInAnyOrder) {
  AnalysisConfig C;
  C.Blocks.push_back({"transpose", shape(32, 8)});
  C.Blocks.push_back({"", shape(128)});
  EXPECT_EQ(*C.blockFor("transpose"), shape(32, 8));
  EXPECT_EQ(*C.blockFor("copy"), shape(128));
}

TEST(ConfigTest, PerKernelBlockWithoutGlobalLeavesOthersUnset) {
  AnalysisConfig C;
  C.Blocks.push_back({"k", shape(8, 8, 4)});
  EXPECT_EQ(*C.blockFor("k"), shape(8, 8, 4));
  EXPECT_FALSE(C.blockFor("k2").has_value());
}

TEST(ConfigTest, LaterBlockEntryOverridesEarlierOne) {
  AnalysisConfig C;
  C.Blocks.push_back({"", shape(64)});
  C.Blocks.push_back({"", shape(256)});
  C.Blocks.push_back({"k", shape(16, 16)});
  C.Blocks.push_back({"k", shape(32, 32)});
  EXPECT_EQ(*C.blockFor("x"), shape(256));
  EXPECT_EQ(*C.blockFor("k"), shape(32, 32));
}

TEST(ConfigTest, ParamsOverlayPerKernelValuesOnGlobalOnes) {
  AnalysisConfig C;
  C.Params.push_back({"k", "N", 7});
  C.Params.push_back({"", "N", 1024});
  C.Params.push_back({"", "M", 3});
  C.Params.push_back({"other", "M", 99});

  std::map<std::string, int64_t> K = C.paramsFor("k");
  std::map<std::string, int64_t> ExpectedK = {{"M", 3}, {"N", 7}};
  EXPECT_EQ(K, ExpectedK);

  std::map<std::string, int64_t> Other = C.paramsFor("other");
  std::map<std::string, int64_t> ExpectedOther = {{"M", 99}, {"N", 1024}};
  EXPECT_EQ(Other, ExpectedOther);

  std::map<std::string, int64_t> Third = C.paramsFor("third");
  std::map<std::string, int64_t> ExpectedThird = {{"M", 3}, {"N", 1024}};
  EXPECT_EQ(Third, ExpectedThird);
}

TEST(ConfigTest, NoParamsGivesEmptyMap) {
  AnalysisConfig C;
  EXPECT_TRUE(C.paramsFor("k").empty());
  EXPECT_EQ(C.DefaultValue, 1024);
}
