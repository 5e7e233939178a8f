//===- LoopLivenessTest.cpp - Which values a loop carries to a later read -===//

#include "frontend/LoopLiveness.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;

namespace coalesce {
namespace {

/// Parses \p Code (C++) and answers carriedValueRead for variable \p Var at
/// the outermost loop of function \p Fn.
class Fixture {
public:
  explicit Fixture(llvm::StringRef Code)
      : AST(tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"})),
        Liveness(AST->getASTContext()) {}

  bool read(llvm::StringRef Fn, llvm::StringRef Var) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::StringRef Fn, Var;
      const FunctionDecl *F = nullptr;
      const Stmt *Loop = nullptr;
      const VarDecl *V = nullptr;
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (FD->getName() == Fn && FD->hasBody())
          F = FD;
        return true;
      }
      bool VisitStmt(Stmt *S) {
        if (!Loop && F && isa<ForStmt, WhileStmt, DoStmt>(S))
          Loop = S;
        return true;
      }
      bool VisitVarDecl(VarDecl *VD) {
        if (F && VD->getName() == Var && VD->getDeclContext() == F)
          V = VD;
        return true;
      }
    } Find;
    Find.Fn = Fn;
    Find.Var = Var;
    Find.TraverseDecl(AST->getASTContext().getTranslationUnitDecl());
    EXPECT_TRUE(Find.F && Find.Loop && Find.V) << Fn.str() << " " << Var.str();
    if (!Find.F || !Find.Loop || !Find.V)
      return true;
    return Liveness.carriedValueRead(Find.F, Find.Loop, Find.V);
  }

private:
  std::unique_ptr<ASTUnit> AST;
  frontend::LoopLiveness Liveness;
};

TEST(LoopLivenessTest, ValueReadByTheNextPassOrAfterTheLoop) {
  Fixture F(R"cpp(
    int f(const int *a, int n) {
      int s = 0, sum = 0;
      for (int k = 0; k < n; ++k) { sum += a[s]; s = a[s]; }
      return sum;
    }
    int g(const int *a, int n) {
      int last = 0;
      for (int k = 0; k < n; ++k) last = a[k];
      return last;
    }
  )cpp");
  EXPECT_TRUE(F.read("f", "s"));
  EXPECT_TRUE(F.read("f", "sum"));
  // Assigned before any read in each pass, but read after the loop.
  EXPECT_TRUE(F.read("g", "last"));
}

TEST(LoopLivenessTest, ValueEachPassResetsBeforeReading) {
  // Rodinia myocyte's solver: a flag and an inner counter set inside nested
  // loops before any read, never read after the loop.
  Fixture F(R"cpp(
    int solve(const float *err, int steps) {
      int i, j, error = 0;
      for (int k = 0; k < steps; ++k) {
        for (j = 0; j < 12; j++) {
          error = 0;
          for (i = 0; i < 91; i++)
            if (err[i] > 0) error = 1;
          if (error != 1) break;
        }
        if (j >= 12) return -1;
      }
      return 0;
    }
  )cpp");
  EXPECT_FALSE(F.read("solve", "error"));
  EXPECT_FALSE(F.read("solve", "i"));
  EXPECT_FALSE(F.read("solve", "j"));
}

TEST(LoopLivenessTest, VariablesReachedOtherwiseCountAsRead) {
  // What the CFG does not follow: an address taken, a reference bound, a
  // capture, a member.
  Fixture F(R"cpp(
    struct P { int x; };
    void use(int *);
    int addr(int n) {
      int x = 0; int *p = &x;
      for (int k = 0; k < n; ++k) { x = k; use(p); }
      return 0;
    }
    int ref(int n) {
      int x = 0; int &r = x;
      for (int k = 0; k < n; ++k) { x = k; use(&r); }
      return 0;
    }
    int lambda(int n) {
      int x = 0; auto L = [&] { return x; };
      for (int k = 0; k < n; ++k) { x = k; L(); }
      return 0;
    }
    int member(int n) {
      P q; q.x = 0;
      for (int k = 0; k < n; ++k) { q = P{k}; use(&q.x); }
      return 0;
    }
  )cpp");
  EXPECT_TRUE(F.read("addr", "x"));
  EXPECT_TRUE(F.read("ref", "x"));
  EXPECT_TRUE(F.read("lambda", "x"));
  EXPECT_TRUE(F.read("member", "q"));
}

} // namespace
} // namespace coalesce
