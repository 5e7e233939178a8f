//===- NvccSyntaxTest.cpp - Syntax nvcc accepts and clang rejects ---------===//
#include "frontend/NvccSyntax.h"

#include <gtest/gtest.h>

using namespace coalesce::frontend;

namespace {

TEST(NvccSyntaxTest, JoinsSpacedBracketsKeepingColumns) {
  std::string In = "argmax_kernel << <1, 1024, 0, stream >> > (s->logits, n);";
  std::optional<std::string> Out = joinSpacedLaunches(In);
  ASSERT_TRUE(Out.has_value());
  EXPECT_EQ(*Out, "argmax_kernel <<< 1, 1024, 0, stream >>>  (s->logits, n);");
  EXPECT_EQ(Out->size(), In.size());
  // Several blanks, tabs, and a closer already joined.
  EXPECT_EQ(*joinSpacedLaunches("k<<\t <g, b>>>(x);"), "k<<<  g, b>>>(x);");
  // Parentheses and shifts inside the configuration.
  EXPECT_EQ(*joinSpacedLaunches("k<< <dim3(n >> 1), (b >> 2)>> >(x);"),
            "k<<< dim3(n >> 1), (b >> 2)>>> (x);");
  // Two launches in one text.
  EXPECT_EQ(*joinSpacedLaunches("a<< <1, 2>> >();\nb<< <3, 4>> >();"),
            "a<<< 1, 2>>> ();\nb<<< 3, 4>>> ();");
}

TEST(NvccSyntaxTest, LeavesOtherCodeAlone) {
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

TEST(NvccSyntaxTest, BlanksPragmasInDefinesKeepingColumns) {
  // moderngpu's meta.hxx: nvcc accepts it, clang does not.
  std::string In =
      "#ifdef __CUDA_ARCH__\n#define PRAGMA_UNROLL #pragma unroll\n"
      "#endif\n  #pragma unroll\n";
  std::optional<std::string> Out = blankPragmasInDefines(In);
  ASSERT_TRUE(Out.has_value());
  EXPECT_EQ(*Out, "#ifdef __CUDA_ARCH__\n#define PRAGMA_UNROLL               \n"
                  "#endif\n  #pragma unroll\n");
  EXPECT_EQ(Out->size(), In.size());
  // A function-like macro, a continuation line, CRLF line ends.
  EXPECT_EQ(*blankPragmasInDefines("# define LOOP(n) # pragma unroll n\r\n"),
            "# define LOOP(n)                  \r\n");
  EXPECT_EQ(*blankPragmasInDefines(
                "#define L \\\n  #pragma unroll 4 \\\n  for (;;)\n"),
            "#define L \\\n                   \\\n  for (;;)\n");
  // A directive, a pragma outside a define, _Pragma, a later unrelated line.
  EXPECT_FALSE(
      blankPragmasInDefines("#pragma once\n#pragma unroll\n").has_value());
  EXPECT_FALSE(
      blankPragmasInDefines("#define P _Pragma(\"unroll\")\n").has_value());
  EXPECT_FALSE(blankPragmasInDefines("#define A 1 \\\n  + 2\n#pragma unroll\n")
                   .has_value());
  EXPECT_FALSE(blankPragmasInDefines("").has_value());
}

TEST(NvccSyntaxTest, DoublesRegisterPercentsInAsmWithOperands) {
  // The blank after the comma makes room: the line keeps its length.
  llvm::StringRef In = "  asm(\"mov.u32 %0, %laneid;\" : \"=r\"(ret));\nx";
  std::optional<std::string> Out = escapeAsmPercents(In);
  ASSERT_TRUE(Out.has_value());
  EXPECT_EQ(*Out, "  asm(\"mov.u32 %0,%%laneid;\" : \"=r\"(ret));\nx");
  EXPECT_EQ(Out->size(), In.size());
  // Qualifiers, __asm__, two strings, two registers.
  EXPECT_EQ(
      *escapeAsmPercents(
          "__asm__ volatile (\"mov.u32 %0, %smid; \" \"mov.u32 %1, %tid.x;\""
          " : \"=r\"(a), \"=r\"(b));"),
      "__asm__ volatile (\"mov.u32 %0,%%smid; \" \"mov.u32 %1,%%tid.x;\""
      " : \"=r\"(a), \"=r\"(b));");
  // No blank in the string: one after it on the line is taken.
  EXPECT_EQ(*escapeAsmPercents("asm(\"mov.u32\t%0,%clock;\" : \"=r\"(t));"),
            "asm(\"mov.u32\t%0,%%clock;\": \"=r\"(t));");
  // A `%` at the end of the string, or followed by a letter only.
  EXPECT_EQ(*escapeAsmPercents("asm(\"a %\" :: \"r\"(x));"),
            "asm(\"a%%\" :: \"r\"(x));");
}

TEST(NvccSyntaxTest, LeavesValidAndOperandlessAsmAlone) {
  // Escapes clang accepts: %%, %=, %{ %| %}, operands, modifiers, names.
  EXPECT_FALSE(escapeAsmPercents(
                   "asm volatile(\"mov.u32 %0, %%laneid; %= %{%|%} %c1 %[v]\""
                   " : \"=r\"(r) : \"n\"(4), [v] \"r\"(v));")
                   .has_value());
  // Without operands clang reads no escape: nothing to double.
  EXPECT_FALSE(escapeAsmPercents("asm(\"exit; // %laneid\");").has_value());
  EXPECT_FALSE(escapeAsmPercents("asm volatile(\"membar.gl;\" ::: \"memory\");")
                   .has_value());
  // Not the asm keyword, or a string built from macros.
  EXPECT_FALSE(
      escapeAsmPercents("plasma(\"%laneid\" : x); basm(\"%l\":)").has_value());
  EXPECT_FALSE(escapeAsmPercents("asm(STR(%laneid) : \"=r\"(x));").has_value());
  // An escaped quote inside the string does not end it.
  EXPECT_FALSE(
      escapeAsmPercents("asm(\"a \\\"%0\\\"\" : \"=r\"(x));").has_value());
  // No blank anywhere on the line: left for clang to report.
  EXPECT_FALSE(escapeAsmPercents("asm(\"mov.u32\t%0,%laneid;\":\"=r\"(x));")
                   .has_value());
  EXPECT_FALSE(escapeAsmPercents("").has_value());
}

} // namespace
