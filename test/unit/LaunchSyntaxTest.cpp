//===- LaunchSyntaxTest.cpp - Spaced kernel launch brackets ---------------===//
#include "frontend/LaunchSyntax.h"

#include <gtest/gtest.h>

using namespace coalesce::frontend;

namespace {

TEST(LaunchSyntaxTest, JoinsSpacedBracketsKeepingColumns) {
  std::string In = "argmax_kernel << <1, 1024, 0, stream >> > (s->logits, n);";
  std::optional<std::string> Out = joinSpacedLaunches(In);
  ASSERT_TRUE(Out.has_value());
  EXPECT_EQ(*Out, "argmax_kernel <<< 1, 1024, 0, stream >>>  (s->logits, n);");
  EXPECT_EQ(Out->size(), In.size());
  // Several blanks, tabs, and a closer already joined.
  EXPECT_EQ(*joinSpacedLaunches("k<<\t <g, b>>>(x);"),
            "k<<<  g, b>>>(x);");
  // Parentheses and shifts inside the configuration.
  EXPECT_EQ(*joinSpacedLaunches("k<< <dim3(n >> 1), (b >> 2)>> >(x);"),
            "k<<< dim3(n >> 1), (b >> 2)>>> (x);");
  // Two launches in one text.
  EXPECT_EQ(*joinSpacedLaunches("a<< <1, 2>> >();\nb<< <3, 4>> >();"),
            "a<<< 1, 2>>> ();\nb<<< 3, 4>>> ();");
}

TEST(LaunchSyntaxTest, LeavesOtherCodeAlone) {
  EXPECT_FALSE(joinSpacedLaunches("k<<<g, b>>>(x); y = a << 2;").has_value());
  // Nested templates closed with spaces are not launches.
  EXPECT_FALSE(joinSpacedLaunches("A<B<C<int>> > v;").has_value());
  // An explicit template argument list of operator<<.
  EXPECT_FALSE(
      joinSpacedLaunches("return operator<< <char>(os, x);").has_value());
  // No closer before the statement ends.
  EXPECT_FALSE(joinSpacedLaunches("x << <y; z >> > w;").has_value());
  EXPECT_FALSE(joinSpacedLaunches("").has_value());
}

} // namespace
