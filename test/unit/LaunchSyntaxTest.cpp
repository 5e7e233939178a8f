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

TEST(LaunchSyntaxTest, BlanksPragmasInDefinesKeepingColumns) {
  // moderngpu's meta.hxx: nvcc accepts it, clang does not.
  std::string In = "#ifdef __CUDA_ARCH__\n#define PRAGMA_UNROLL #pragma unroll\n"
                   "#endif\n  #pragma unroll\n";
  std::optional<std::string> Out = blankPragmasInDefines(In);
  ASSERT_TRUE(Out.has_value());
  EXPECT_EQ(*Out, "#ifdef __CUDA_ARCH__\n#define PRAGMA_UNROLL               \n"
                  "#endif\n  #pragma unroll\n");
  EXPECT_EQ(Out->size(), In.size());
  // A function-like macro, a continuation line, CRLF line ends.
  EXPECT_EQ(*blankPragmasInDefines("# define LOOP(n) # pragma unroll n\r\n"),
            "# define LOOP(n)                  \r\n");
  EXPECT_EQ(*blankPragmasInDefines("#define L \\\n  #pragma unroll 4 \\\n  for (;;)\n"),
            "#define L \\\n                   \\\n  for (;;)\n");
  // A directive, a pragma outside a define, _Pragma, a later unrelated line.
  EXPECT_FALSE(blankPragmasInDefines("#pragma once\n#pragma unroll\n").has_value());
  EXPECT_FALSE(blankPragmasInDefines("#define P _Pragma(\"unroll\")\n").has_value());
  EXPECT_FALSE(
      blankPragmasInDefines("#define A 1 \\\n  + 2\n#pragma unroll\n").has_value());
  EXPECT_FALSE(blankPragmasInDefines("").has_value());
}

} // namespace
