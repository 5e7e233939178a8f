//===- ExprVisitorTest.cpp - Dispatch by kind, fallback by group ----------===//
#include "coalesce/ExprVisitor.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace coalesce;

namespace {

/// Names the visit method each node reached, depth first.
struct Tracer : ExprVisitor<Tracer, std::string> {
  std::string visitConstant(const Expr &) { return "const"; }
  std::string visitDiv(const Expr &E) { return "div(" + children(E) + ")"; }
  std::string visitLeaf(const Expr &) { return "leaf"; }
  std::string visitNary(const Expr &E) { return "nary(" + children(E) + ")"; }
  std::string visitBinary(const Expr &E) { return "bin(" + children(E) + ")"; }
  std::string visitExpr(const Expr &E) { return "expr(" + children(E) + ")"; }
  std::string children(const Expr &E) {
    std::string S;
    for (const Expr &Op : E.operands())
      S += (S.empty() ? "" : ",") + visit(Op);
    return S;
  }
};

TEST(ExprVisitorTest, KindThenGroupThenExpr) {
  Expr N = testSymbol(Symbol::param("N"));
  Expr X = testSymbol(Symbol::threadIdx(0));
  // A kind with its own method (Div), a group (Binary for Rem, Nary for
  // Add), a leaf without its own (Symbol -> visitLeaf), one with (Constant),
  // and Select, whose group Tracer leaves to visitExpr.
  EXPECT_EQ(Tracer().visit(Expr::div(X, N)), "div(leaf,leaf)");
  EXPECT_EQ(Tracer().visit(Expr::rem(X, N)), "bin(leaf,leaf)");
  EXPECT_EQ(Tracer().visit(X + N), "nary(leaf,leaf)");
  EXPECT_EQ(Tracer().visit(Expr::constant(3)), "const");
  EXPECT_EQ(Tracer().visit(Expr::select(Expr::lt(X, N), X, N)),
            "expr(bin(leaf,leaf),leaf,leaf)");
}

TEST(ExprVisitorTest, Depth) {
  // The example of ExprVisitor.h's comment.
  struct Depth : ExprVisitor<Depth, unsigned> {
    unsigned visitLeaf(const Expr &) { return 1; }
    unsigned visitExpr(const Expr &E) {
      unsigned D = 0;
      for (const Expr &Op : E.operands())
        D = std::max(D, visit(Op));
      return D + 1;
    }
  };
  Expr X = testSymbol(Symbol::threadIdx(0));
  EXPECT_EQ(Depth().visit(X), 1u);
  // (x + 1) / 7 (a division by a constant stays a Div node).
  Expr E = Expr::div(X + Expr::constant(1), Expr::constant(7));
  ASSERT_EQ(E.getKind(), Expr::Kind::Div);
  EXPECT_EQ(Depth().visit(E), 3u);
}

TEST(ExprVisitorTest, InfixSpellings) {
  EXPECT_STREQ(infixSpelling(Expr::Kind::Shl), "<<");
  EXPECT_STREQ(infixSpelling(Expr::Kind::LOr), "||");
  EXPECT_STREQ(infixSpelling(Expr::Kind::Ne), "!=");
  EXPECT_STREQ(infixSpelling(Expr::Kind::Min), "");
  EXPECT_STREQ(infixSpelling(Expr::Kind::Select), "");
}

} // namespace
