//===- SuppressionsTest.cpp - NOLINT comments read from source text -------===//

#include "coalesce/Suppressions.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

std::vector<SuppressionComment> parse(llvm::StringRef Text,
                                      std::vector<std::string> *Problems = nullptr) {
  std::vector<std::string> Local;
  return parseSuppressions("k.cu", Text, Problems ? *Problems : Local);
}

TEST(SuppressionsTest, NolintCoversItsLineAndNamedRules) {
  auto C = parse("a[i] = 1; // NOLINT(coalesce-stride, coalesce-aos)\n");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Text, "NOLINT(coalesce-stride, coalesce-aos)");
  EXPECT_EQ(C[0].Column, 14u);
  EXPECT_TRUE(C[0].covers(1, "coalesce-stride"));
  EXPECT_TRUE(C[0].covers(1, "coalesce-aos"));
  EXPECT_FALSE(C[0].covers(1, "coalesce-misaligned"));
  EXPECT_FALSE(C[0].covers(2, "coalesce-stride"));
}

TEST(SuppressionsTest, BareNolintCoversEveryRuleButIsNotListedAsOurs) {
  auto C = parse("x; // NOLINT\n");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_TRUE(C[0].covers(1, "coalesce-indirect"));
  EXPECT_FALSE(C[0].namesCoalesceRules());
}

TEST(SuppressionsTest, NextLineAndGlobs) {
  auto C = parse("// NOLINTNEXTLINE(coalesce-*)\na[i] = 1;\n");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_FALSE(C[0].covers(1, "coalesce-stride"));
  EXPECT_TRUE(C[0].covers(2, "coalesce-stride"));
  EXPECT_TRUE(C[0].covers(2, "coalesce-atomic-contention"));
}

TEST(SuppressionsTest, OtherToolsChecksAreNotOurs) {
  EXPECT_TRUE(parse("x; // NOLINT(bugprone-*)\n").empty());
  EXPECT_TRUE(parse("x; // NOLINTNEXTLINE(readability-magic-numbers)\n").empty());
}

TEST(SuppressionsTest, BeginEndRegionsMatchByRuleList) {
  std::vector<std::string> Problems;
  auto C = parse("// NOLINTBEGIN(coalesce-aos)\n"     // 1
                 "// NOLINTBEGIN(coalesce-stride)\n"  // 2
                 "x;\n"                               // 3
                 "// NOLINTEND(coalesce-stride)\n"    // 4
                 "y;\n"                               // 5
                 "// NOLINTEND(coalesce-aos)\n"       // 6
                 "// NOLINTEND(coalesce-aos)\n",      // 7: unmatched
                 &Problems);
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[0].FirstLine, 1u);
  EXPECT_EQ(C[0].LastLine, 6u);
  EXPECT_TRUE(C[0].covers(5, "coalesce-aos"));
  EXPECT_FALSE(C[0].covers(5, "coalesce-stride"));
  EXPECT_EQ(C[1].FirstLine, 2u);
  EXPECT_EQ(C[1].LastLine, 4u);
  ASSERT_EQ(Problems.size(), 1u);
  EXPECT_EQ(Problems[0], "k.cu:7: unmatched NOLINTEND(coalesce-aos)");
}

TEST(SuppressionsTest, UnclosedBeginSuppressesNothing) {
  std::vector<std::string> Problems;
  auto C = parse("// NOLINTBEGIN(coalesce-aos)\nx;\n", &Problems);
  EXPECT_TRUE(C.empty());
  ASSERT_EQ(Problems.size(), 1u);
  EXPECT_EQ(Problems[0], "k.cu:1: unmatched NOLINTBEGIN(coalesce-aos)");
}

TEST(SuppressionsTest, IgnoreCommentOnTheLineOrAloneAbove) {
  auto C = parse("a[i] = 1; // coalesce-lint: ignore[coalesce-stride]\n"
                 "  // coalesce-lint: ignore\n"
                 "b[i] = 1;\n");
  ASSERT_EQ(C.size(), 2u);
  EXPECT_TRUE(C[0].covers(1, "coalesce-stride"));
  EXPECT_FALSE(C[0].covers(1, "coalesce-aos"));
  EXPECT_FALSE(C[1].covers(2, "coalesce-aos"));
  EXPECT_TRUE(C[1].covers(3, "coalesce-aos"));
  EXPECT_TRUE(C[1].namesCoalesceRules());
}

TEST(SuppressionsTest, UnknownDirectivesAndUnclosedListsAreIgnored) {
  EXPECT_TRUE(parse("x; // NOLINTFOO(coalesce-stride)\n").empty());
  EXPECT_TRUE(parse("x; // NOLINT(coalesce-stride\n").empty());
}

} // namespace
