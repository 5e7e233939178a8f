//===- WalkOrderTest.cpp - Which kernel of a file to walk first -----------===//
//
// largestFirst() on plain C++ functions standing for kernels: a short
// function that calls a long one in a loop (SHOC's QTC_device) comes before
// a longer one that calls it once, and both before a small one; equal sizes
// keep their order.
//
//===----------------------------------------------------------------------===//

#include "frontend/WalkOrder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;

namespace coalesce {
namespace {

/// The functions of \p Code named in \p Names, in that order.
std::vector<const FunctionDecl *> functions(ASTUnit &AST,
                                            std::vector<std::string> Names) {
  std::vector<const FunctionDecl *> Out;
  for (const std::string &Name : Names)
    for (const Decl *D : AST.getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->getName() == Name && FD->hasBody())
          Out.push_back(FD);
  EXPECT_EQ(Out.size(), Names.size());
  return Out;
}

TEST(WalkOrderTest, CallsInLoopsWeighMost) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      R"(
      int candidate(int *a, int n) {
        int c = 0;
        for (int j = 0; j < n; ++j) { if (a[j] > 0) ++c; if (a[j] < -5) --c; }
        for (int j = 0; j < n; ++j) { if (a[j] > 1) ++c; if (a[j] < -6) --c; }
        return c;
      }
      void tiny(int *a) { a[0] = 1; }
      void once(int *a, int n) {
        int c = candidate(a, n);
        a[1] = c; a[2] = c + 1; a[3] = c + 2; a[4] = c + 3; a[5] = c + 4;
        a[6] = c + 5; a[7] = c + 6; a[8] = c + 7; a[9] = c + 8;
      }
      void looping(int *a, int n) {
        int best = -1;
        for (int i = 0; i < n; ++i) { int c = candidate(a + i, n); if (c > best) best = c; }
        a[0] = best;
      }
      void tiny2(int *a) { a[1] = 1; }
      )",
      {"-std=c++17"});
  ASSERT_TRUE(AST);
  std::vector<size_t> Order = frontend::largestFirst(
      functions(*AST, {"tiny", "once", "looping", "tiny2"}));
  EXPECT_EQ(Order, (std::vector<size_t>{2, 1, 0, 3}));
}

TEST(WalkOrderTest, RecursionEnds) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "int g(int n);\n"
      "int f(int n) { return n ? f(n - 1) + g(n) : 0; }\n"
      "int g(int n) { return n ? f(n - 1) : 1; }\n"
      "int h(int n) { return n; }\n",
      {"-std=c++17"});
  ASSERT_TRUE(AST);
  std::vector<size_t> Order = frontend::largestFirst(functions(*AST, {"h", "f"}));
  EXPECT_EQ(Order, (std::vector<size_t>{1, 0}));
}

} // namespace
} // namespace coalesce
