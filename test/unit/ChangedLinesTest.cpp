//===- ChangedLinesTest.cpp - Reading unified diffs -----------------------===//
#include "coalesce/ChangedLines.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

ChangedLines parseOrDie(llvm::StringRef Diff) {
  llvm::Expected<ChangedLines> C = ChangedLines::parse(Diff, "/repo");
  EXPECT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  return std::move(*C);
}

TEST(ChangedLinesTest, ZeroContextHunksGiveTheAddedLines) {
  ChangedLines C = parseOrDie("diff --git a/k.cu b/k.cu\n"
                              "--- a/k.cu\n"
                              "+++ b/k.cu\n"
                              "@@ -3 +3 @@ void f() {\n"
                              "-  a[i] = 1;\n"
                              "+  a[i * 2] = 1;\n"
                              "@@ -10,0 +11,2 @@\n"
                              "+  b[i] = 2;\n"
                              "+  c[i] = 3;\n");
  EXPECT_EQ(C.fileCount(), 1u);
  EXPECT_TRUE(C.touches("/repo/k.cu", 3, 3));
  EXPECT_FALSE(C.touches("/repo/k.cu", 2, 2));
  EXPECT_FALSE(C.touches("/repo/k.cu", 4, 10));
  EXPECT_TRUE(C.touches("/repo/k.cu", 11, 11));
  EXPECT_TRUE(C.touches("/repo/k.cu", 12, 12));
  EXPECT_FALSE(C.touches("/repo/k.cu", 13, 20));
  // A multi-line access touches the change if any of its lines does.
  EXPECT_TRUE(C.touches("/repo/k.cu", 9, 11));
  EXPECT_FALSE(C.touches("/repo/other.cu", 3, 3));
}

TEST(ChangedLinesTest, ContextLinesAreCountedButNotChanged) {
  ChangedLines C = parseOrDie("--- a/src/k.cu\n"
                              "+++ b/src/k.cu\n"
                              "@@ -1,5 +1,5 @@\n"
                              " line1\n"
                              " line2\n"
                              "-old3\n"
                              "+new3\n"
                              " line4\n"
                              "\n" // an empty context line (stripped space)
                              "\\ No newline at end of file\n");
  EXPECT_FALSE(C.touches("/repo/src/k.cu", 1, 2));
  EXPECT_TRUE(C.touches("/repo/src/k.cu", 3, 3));
  EXPECT_FALSE(C.touches("/repo/src/k.cu", 4, 5));
}

TEST(ChangedLinesTest, DeletionsAndDeletedFilesChangeNothing) {
  ChangedLines C = parseOrDie("--- a/gone.cu\n"
                              "+++ /dev/null\n"
                              "@@ -1,2 +0,0 @@\n"
                              "-x\n"
                              "-y\n"
                              "--- a/k.cu\n"
                              "+++ b/k.cu\n"
                              "@@ -4,2 +3,0 @@\n"
                              "-a\n"
                              "-b\n");
  EXPECT_EQ(C.fileCount(), 0u);
  EXPECT_FALSE(C.touches("/repo/k.cu", 1, 100));
}

TEST(ChangedLinesTest, LinesThatLookLikeHeadersInsideHunksAreContent) {
  // "+++ x" inside a hunk is an added line "++ x", not a new file.
  ChangedLines C = parseOrDie("--- a/k.cu\n"
                              "+++ b/k.cu\n"
                              "@@ -0,0 +1,2 @@\n"
                              "+++ x;\n"
                              "+int y;\n");
  EXPECT_TRUE(C.touches("/repo/k.cu", 1, 1));
  EXPECT_TRUE(C.touches("/repo/k.cu", 2, 2));
  EXPECT_EQ(C.fileCount(), 1u);
}

TEST(ChangedLinesTest, QuotedNamesTimestampsAndCrlf) {
  ChangedLines C = parseOrDie("--- \"a/my dir/k.cu\"\r\n"
                              "+++ \"b/my dir/k.cu\"\t2026-12-01 10:00:00\r\n"
                              "@@ -1 +1 @@\r\n"
                              "-a\r\n"
                              "+b\r\n");
  EXPECT_TRUE(C.touches("/repo/my dir/k.cu", 1, 1));
}

TEST(ChangedLinesTest, AbsoluteNamesAndNoPrefix) {
  llvm::Expected<ChangedLines> C = ChangedLines::parse(
      "+++ /abs/k.cu\n@@ -1 +1 @@\n+x\n", "/repo", /*StripB=*/false);
  ASSERT_TRUE(static_cast<bool>(C));
  EXPECT_TRUE(C->touches("/abs/k.cu", 1, 1));
}

TEST(ChangedLinesTest, BadHunkHeaderIsAnError) {
  llvm::Expected<ChangedLines> C =
      ChangedLines::parse("+++ b/k.cu\n@@ -1 +x @@\n", "/repo");
  ASSERT_FALSE(static_cast<bool>(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("line 2"), std::string::npos);
}

} // namespace
