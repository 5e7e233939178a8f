//===- ExprTest.cpp - Algebraic laws, folding and evaluation of Expr ------===//

#include "coalesce/Expr.h"
#include "ExprOps.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <random>

using namespace coalesce;

namespace {

//===-- Helpers
//-------------------------------------------------------------===//

::testing::AssertionResult sameExpr(const char *AText, const char *BText,
                                    const Expr &A, const Expr &B) {
  if (A == B)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << AText << "\n    is  " << A.str() << "\n  but " << BText
         << "\n    is  " << B.str();
}
#define EXPECT_SAME(A, B) EXPECT_PRED_FORMAT2(sameExpr, A, B)

Expr c(int64_t V) { return Expr::constant(V); }
Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
Expr ty() { return testSymbol(Symbol::threadIdx(1)); }
Expr bx() { return testSymbol(Symbol::blockIdx(0)); }
Expr param(const char *Name) { return testSymbol(Symbol::param(Name)); }
Symbol loopSym() { return {SymbolKind::LoopIter, "k"}; }
Expr k() { return testSymbol(loopSym()); }

/// Checks the canonical shape of Add and Mul nodes, recursively.
::testing::AssertionResult isCanonical(const Expr &E) {
  auto Fail = [&E](const char *Why) {
    return ::testing::AssertionFailure() << Why << " in " << E.str();
  };
  auto IsAtom = [](const Expr &X) {
    return X.getKind() != Expr::Kind::Add && X.getKind() != Expr::Kind::Mul &&
           !X.isConstant();
  };
  const std::vector<Expr> &Ops = E.operands();
  if (E.getKind() == Expr::Kind::Add) {
    if (Ops.size() < 2)
      return Fail("Add with fewer than two terms");
    for (size_t I = 0; I < Ops.size(); ++I) {
      if (Ops[I].getKind() == Expr::Kind::Add)
        return Fail("nested Add");
      if (Ops[I].isConstant() &&
          (I + 1 != Ops.size() || Ops[I].getConstant() == 0))
        return Fail("constant term not last or zero");
    }
    std::vector<Term> Terms = E.terms();
    for (size_t I = 0; I + 1 < Terms.size(); ++I)
      for (size_t J = I + 1; J < Terms.size(); ++J)
        if (Terms[I].Factors == Terms[J].Factors)
          return Fail("like terms not combined");
    for (size_t I = 0; I + 2 < Ops.size(); ++I)
      if (!(Ops[I] < Ops[I + 1]))
        return Fail("terms not sorted");
  }
  if (E.getKind() == Expr::Kind::Mul) {
    size_t First = 0;
    if (!Ops.empty() && Ops[0].isConstant()) {
      if (Ops[0].getConstant() == 0 || Ops[0].getConstant() == 1)
        return Fail("Mul by 0 or 1");
      First = 1;
    }
    if (Ops.size() - First < 1 || (First == 0 && Ops.size() < 2))
      return Fail("degenerate Mul");
    for (size_t I = First; I < Ops.size(); ++I) {
      if (!IsAtom(Ops[I]))
        return Fail("Mul factor is not an atom");
      if (I > First && Ops[I] < Ops[I - 1])
        return Fail("factors not sorted");
    }
  }
  for (const Expr &Op : Ops)
    if (::testing::AssertionResult R = isCanonical(Op); !R)
      return R;
  return ::testing::AssertionSuccess();
}

/// Random polynomials over symbols and opaque atoms.
class PolyGen {
public:
  explicit PolyGen(unsigned Seed) : Rng(Seed) {}
  int64_t pick(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  }
  Expr atom() {
    switch (pick(0, 7)) {
    case 0:
      return tx();
    case 1:
      return ty();
    case 2:
      return param("N");
    case 3:
      return bx();
    case 4:
      return k();
    case 5:
      return Expr::div(tx(), c(3));
    case 6:
      return Expr::min(param("N"), tx() + c(1));
    default:
      return Expr::rem(bx(), c(8));
    }
  }
  Expr poly() {
    Expr Sum = c(0);
    for (int64_t T = pick(0, 4); T > 0; --T) {
      Expr Product = c(pick(-5, 5));
      for (int64_t F = pick(0, 2); F > 0; --F)
        Product = Product * atom();
      Sum = Sum + Product;
    }
    return Sum;
  }

private:
  std::mt19937 Rng;
};

//===-- Algebraic laws
//------------------------------------------------------===//

TEST(ExprLawsTest, RingLawsOnRandomPolynomials) {
  PolyGen G(12345);
  for (int I = 0; I < 400; ++I) {
    Expr A = G.poly(), B = G.poly(), C = G.poly();
    SCOPED_TRACE("A = " + A.str() + ", B = " + B.str() + ", C = " + C.str());
    EXPECT_SAME(A + B, B + A);
    EXPECT_SAME((A + B) + C, A + (B + C));
    EXPECT_SAME(A * B, B * A);
    EXPECT_SAME((A * B) * C, A * (B * C));
    EXPECT_SAME(A * (B + C), A * B + A * C);
    EXPECT_SAME((A + B) * C, C * B + C * A);
    EXPECT_SAME(A + A, c(2) * A);
    EXPECT_SAME(A - A, c(0));
    EXPECT_SAME(-(-A), A);
    EXPECT_SAME((A + B) - B, A);
    EXPECT_SAME(A - B, A + c(-1) * B);
    EXPECT_SAME(A * c(1), A);
    EXPECT_SAME(A * c(0), c(0));
    EXPECT_SAME(A + c(0), A);
    EXPECT_TRUE(isCanonical(A * B + C));
    EXPECT_TRUE(isCanonical((A + B) * (B - C)));
  }
}

TEST(ExprLawsTest, ConstantOperandsTakeTheFastPathToTheSameForm) {
  // Adding or multiplying by a constant has a fast path (the constant term is
  // last; scaling keeps monomials distinct). Z is a symbol the generator never
  // makes, so E + (Z + C) and E * (Z + C) go through the general path.
  Expr Z = param("Z");
  PolyGen G(777);
  for (int I = 0; I < 400; ++I) {
    Expr A = G.poly();
    int64_t C = G.pick(-6, 6);
    SCOPED_TRACE("A = " + A.str() + ", C = " + std::to_string(C));
    EXPECT_SAME(A + c(C), (A + (Z + c(C))) - Z);
    EXPECT_SAME(c(C) + A, A + c(C));
    EXPECT_SAME(A * c(C), A * (Z + c(C)) - A * Z);
    EXPECT_SAME(c(C) * A, A * c(C));
    EXPECT_TRUE(isCanonical(A + c(C)));
    EXPECT_TRUE(isCanonical(A * c(C)));
  }
  // The constant term cancels: (X + 3) + -3 is X, not an Add of one term.
  EXPECT_SAME((tx() + c(3)) + c(-3), tx());
  EXPECT_SAME((c(2) * tx() + bx() + c(3)) + c(-3), c(2) * tx() + bx());
  // Coefficients wrap like the hardware; a term that wraps to 0 drops out.
  EXPECT_SAME(c(2) * (c(INT64_MIN) * tx()), c(0));
  EXPECT_SAME(c(2) * (c(INT64_MIN) * tx() + bx()), c(2) * bx());
  EXPECT_SAME((tx() + c(INT64_MAX)) + c(1), tx() + c(INT64_MIN));
}

TEST(ExprLawsTest, SumIsIndependentOfOperandOrder) {
  std::vector<Expr> Parts = {c(4) * param("N") * tx(), c(1024) * bx(), c(4),
                             Expr::div(ty(), c(2)),    c(-3) * k(),    tx()};
  std::vector<size_t> Order(Parts.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::optional<Expr> First;
  do {
    Expr Sum = c(0), Product = c(1);
    for (size_t I : Order) {
      Sum = Sum + Parts[I];
      Product = Product * Parts[I];
    }
    if (!First) {
      First = Sum;
      EXPECT_TRUE(isCanonical(Sum));
      continue;
    }
    EXPECT_SAME(Sum, *First);
  } while (std::next_permutation(Order.begin(), Order.end()));
}

TEST(ExprLawsTest, CommutativeNodesAreOrderIndependent) {
  PolyGen G(777);
  using Factory = Expr (*)(const Expr &, const Expr &);
  const std::pair<const char *, Factory> Ops[] = {
      {"and", Expr::bitAnd},   {"or", Expr::bitOr},
      {"xor", Expr::bitXor},   {"min", Expr::min},
      {"max", Expr::max},      {"eq", Expr::eq},
      {"ne", Expr::ne},        {"land", Expr::logicalAnd},
      {"lor", Expr::logicalOr}};
  for (int I = 0; I < 100; ++I) {
    Expr A = G.poly(), B = G.poly();
    for (const auto &[Name, F] : Ops) {
      SCOPED_TRACE(Name);
      EXPECT_SAME(F(A, B), F(B, A));
    }
  }
  // The order-sensitive ones keep their operand order.
  EXPECT_NE(Expr::lt(tx(), param("N")), Expr::lt(param("N"), tx()));
  EXPECT_SAME(Expr::gt(tx(), param("N")), Expr::lt(param("N"), tx()));
  EXPECT_SAME(Expr::ge(tx(), param("N")), Expr::le(param("N"), tx()));
}

TEST(ExprLawsTest, StructuralOrderIsTotalAndStrict) {
  PolyGen G(4242);
  std::vector<Expr> Es;
  for (int I = 0; I < 60; ++I)
    Es.push_back(G.poly());
  for (const Expr &A : Es)
    for (const Expr &B : Es) {
      bool Less = A < B, Greater = B < A, Equal = A == B;
      EXPECT_EQ(Less + Greater + Equal, 1) << A.str() << " vs " << B.str();
    }
  for (const Expr &A : Es)
    for (const Expr &B : Es)
      for (const Expr &C : {Es[0], Es[7], Es[21]})
        if (A < B && B < C) {
          EXPECT_TRUE(A < C) << A.str() << " < " << B.str() << " < " << C.str();
        }
}

//===-- Folding rules
//-------------------------------------------------------===//

TEST(ExprFoldTest, PolynomialCanonicalForms) {
  Expr X = param("X"), Y = param("Y");
  // X + Y + Y --> X + 2*Y
  EXPECT_SAME(X + Y + Y, X + c(2) * Y);
  // 2*(X + 3) --> 2*X + 6
  EXPECT_SAME(c(2) * (X + c(3)), c(2) * X + c(6));
  EXPECT_EQ((c(2) * (X + c(3))).str(), "2*X + 6");
  // (X + 1)*(Y + 2) expands into four monomials.
  Expr P = (X + c(1)) * (Y + c(2));
  EXPECT_SAME(P, X * Y + c(2) * X + Y + c(2));
  EXPECT_EQ(P.terms().size(), 4u) << P.str();
  EXPECT_EQ(P.getKind(), Expr::Kind::Add);
  // X*X stays a power, X*X - X*X --> 0
  EXPECT_EQ((X * X).operands().size(), 2u);
  EXPECT_SAME(X * X - X * X, c(0));
  // Constant term last, coefficient first.
  Expr S = c(7) + X * c(3);
  ASSERT_EQ(S.getKind(), Expr::Kind::Add);
  EXPECT_SAME(S.operands().back(), c(7));
  EXPECT_SAME(S.operands().front().operands().front(), c(3));
}

TEST(ExprFoldTest, DivisionAndRemainderByConstants) {
  Expr X = param("X"), Y = param("Y");
  // (8*X + 16) / 4 --> 2*X + 4
  EXPECT_SAME(Expr::div(c(8) * X + c(16), c(4)), c(2) * X + c(4));
  // (8*X + 16) / -4 --> -2*X - 4
  EXPECT_SAME(Expr::div(c(8) * X + c(16), c(-4)), c(-2) * X + c(-4));
  // Not exact: stays a division.
  EXPECT_EQ(Expr::div(c(8) * X + c(4), c(8)).getKind(), Expr::Kind::Div);
  EXPECT_EQ(Expr::div(X, c(0)).getKind(), Expr::Kind::Div);
  EXPECT_SAME(Expr::div(X, c(1)), X);
  EXPECT_SAME(Expr::div(X, c(-1)), -X);
  // (X / 4) / 8 --> X / 32
  EXPECT_SAME(Expr::div(Expr::div(X, c(4)), c(8)), Expr::div(X, c(32)));
  EXPECT_SAME(Expr::rem(X, c(1)), c(0));
  EXPECT_SAME(Expr::rem(c(8) * X + c(16) * Y, c(4)), c(0));
  EXPECT_EQ(Expr::rem(X, c(8)).getKind(), Expr::Kind::Rem);
  // C semantics on constants.
  EXPECT_SAME(Expr::div(c(-7), c(2)), c(-3));
  EXPECT_SAME(Expr::rem(c(-7), c(2)), c(-1));
  EXPECT_SAME(Expr::rem(c(7), c(-2)), c(1));
  EXPECT_EQ(Expr::div(c(INT64_MIN), c(-1)).getKind(), Expr::Kind::Div);
}

TEST(ExprFoldTest, Shifts) {
  Expr X = param("X");
  // X << 3 --> 8*X
  EXPECT_SAME(Expr::shl(X, c(3)), c(8) * X);
  EXPECT_SAME(Expr::shl(X, c(0)), X);
  EXPECT_SAME(Expr::shl(X + c(1), c(2)), c(4) * X + c(4));
  EXPECT_SAME(Expr::shl(X, c(62)), c(int64_t(1) << 62) * X);
  EXPECT_EQ(Expr::shl(X, c(63)).getKind(), Expr::Kind::Shl);
  EXPECT_EQ(Expr::shl(X, c(-1)).getKind(), Expr::Kind::Shl);
  EXPECT_EQ(Expr::shl(X, k()).getKind(), Expr::Kind::Shl);
  // (8*X) >> 3 --> X, (8*X + 16) >> 3 --> X + 2
  EXPECT_SAME(Expr::shr(c(8) * X, c(3)), X);
  EXPECT_SAME(Expr::shr(c(8) * X + c(16), c(3)), X + c(2));
  EXPECT_EQ(Expr::shr(c(8) * X + c(4), c(3)).getKind(), Expr::Kind::Shr);
  EXPECT_SAME(Expr::shr(X, c(0)), X);
  // (X >> 2) >> 3 --> X >> 5
  EXPECT_SAME(Expr::shr(Expr::shr(X, c(2)), c(3)), Expr::shr(X, c(5)));
  // Shift amounts whose sum passes 63 (or int64) stay two shifts
  // (fuzz-expr: INT64_MAX + 1 overflowed in the check).
  Expr Huge = Expr::shr(X, c(INT64_MAX));
  ASSERT_EQ(Huge.getKind(), Expr::Kind::Shr);
  EXPECT_EQ(Expr::shr(Huge, c(1)).operands()[0].getKind(), Expr::Kind::Shr);
  EXPECT_EQ(Expr::shr(Expr::shr(X, c(60)), c(4)).operands()[0].getKind(),
            Expr::Kind::Shr);
  EXPECT_SAME(Expr::shr(c(-17), c(2)), c(-5));
  EXPECT_SAME(Expr::shl(c(-3), c(4)), c(-48));
}

TEST(ExprFoldTest, BitwiseMinMaxSelectAndLogic) {
  Expr X = param("X"), Y = param("Y");
  EXPECT_SAME(X * c(0), c(0));
  EXPECT_SAME(Expr::bitAnd(X, c(0)), c(0));
  EXPECT_SAME(Expr::bitAnd(X, c(-1)), X);
  EXPECT_SAME(Expr::bitAnd(X, X), X);
  EXPECT_SAME(Expr::bitOr(X, c(0)), X);
  EXPECT_SAME(Expr::bitOr(c(0), X), X);
  EXPECT_SAME(Expr::bitXor(X, c(0)), X);
  EXPECT_SAME(Expr::bitXor(X, X), c(0));
  EXPECT_SAME(Expr::min(X, X), X);
  EXPECT_SAME(Expr::max(X, X), X);
  EXPECT_SAME(Expr::min(X, X + c(4)), X);
  EXPECT_SAME(Expr::max(X, X + c(4)), X + c(4));
  EXPECT_SAME(Expr::min(c(-3), c(5)), c(-3));
  EXPECT_SAME(Expr::select(c(1), X, Y), X);
  EXPECT_SAME(Expr::select(c(0), X, Y), Y);
  EXPECT_SAME(Expr::select(Expr::lt(X, Y), X, X), X);
  EXPECT_SAME(Expr::select(Expr::lt(X, Y), c(1), c(0)), Expr::lt(X, Y));
  // A select inside an arm of one of the same condition takes that arm.
  Expr Lt = Expr::lt(X, Y), Z = X + Y;
  EXPECT_SAME(Expr::select(Lt, Expr::select(Lt, X, Y), Z),
              Expr::select(Lt, X, Z));
  EXPECT_SAME(Expr::select(Lt, Z, Expr::select(Lt, X, Y)),
              Expr::select(Lt, Z, Y));
  EXPECT_SAME(Expr::select(Lt, Expr::select(Lt, X, Y), Expr::select(Lt, Z, X)),
              Expr::select(Lt, X, X) /* = X */);
  EXPECT_SAME(Expr::lt(c(2), c(3)), c(1));
  EXPECT_SAME(Expr::le(c(3), c(3)), c(1));
  EXPECT_SAME(Expr::lt(c(-3), c(-4)), c(0));
  EXPECT_SAME(Expr::eq(X, X), c(1));
  EXPECT_SAME(Expr::ne(X, X), c(0));
  EXPECT_SAME(Expr::eq(X + c(1), X), c(0));
  EXPECT_SAME(Expr::logicalAnd(c(0), X), c(0));
  EXPECT_SAME(Expr::logicalAnd(c(5), X), Expr::ne(X, c(0)));
  EXPECT_SAME(Expr::logicalOr(c(5), X), c(1));
  EXPECT_SAME(Expr::logicalOr(X, c(0)), Expr::ne(X, c(0)));
  EXPECT_SAME(Expr::logicalAnd(c(2), c(3)), c(1));
  EXPECT_SAME(Expr::logicalNot(X), Expr::eq(X, c(0)));
  EXPECT_SAME(Expr::logicalNot(c(0)), c(1));
  EXPECT_SAME(Expr::logicalNot(Expr::lt(X, Y)), Expr::le(Y, X));
  EXPECT_SAME(Expr::logicalNot(Expr::logicalNot(Expr::eq(X, Y))),
              Expr::eq(X, Y));
  // Equality tests that contradict each other, also inside a conjunction:
  // V % 16 != 0 && V % 16 == 0, V == 1 && V == 2.
  Expr M = Expr::rem(X, c(16));
  EXPECT_SAME(Expr::logicalAnd(Expr::ne(M, c(0)), Expr::eq(M, c(0))), c(0));
  EXPECT_SAME(Expr::logicalAnd(Expr::logicalAnd(Expr::lt(Y, X),
                                                Expr::ne(M, c(0))),
                               Expr::logicalNot(Expr::ne(M, c(0)))),
              c(0));
  EXPECT_SAME(Expr::logicalAnd(Expr::eq(X, c(1)), Expr::eq(X, c(2))), c(0));
  // Not contradictions: different tested values, or equal constants.
  EXPECT_NE(Expr::logicalAnd(Expr::eq(X, c(1)), Expr::ne(Y, c(1))), c(0));
  EXPECT_NE(Expr::logicalAnd(Expr::eq(X, c(1)), Expr::eq(Y, c(2))), c(0));
  EXPECT_NE(Expr::logicalAnd(Expr::eq(X, Y), Expr::eq(X, c(2))), c(0));
}

/// The C result of a binary operation on int64, or nullopt where C is
/// undefined (or the engine declines: out-of-range shifts).
std::optional<int64_t> nativeBinary(Expr::Kind K, int64_t A, int64_t B) {
  auto U = [](int64_t V) { return static_cast<uint64_t>(V); };
  switch (K) {
  case Expr::Kind::Add:
    return static_cast<int64_t>(U(A) + U(B));
  case Expr::Kind::Mul:
    return static_cast<int64_t>(U(A) * U(B));
  case Expr::Kind::Div:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return A / B;
  case Expr::Kind::Rem:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return A % B;
  case Expr::Kind::Shl:
    if (B < 0 || B > 63)
      return std::nullopt;
    return static_cast<int64_t>(U(A) << B);
  case Expr::Kind::Shr:
    if (B < 0 || B > 63)
      return std::nullopt;
    return A >> B;
  case Expr::Kind::And:
    return A & B;
  case Expr::Kind::Or:
    return A | B;
  case Expr::Kind::Xor:
    return A ^ B;
  case Expr::Kind::Min:
    return std::min(A, B);
  case Expr::Kind::Max:
    return std::max(A, B);
  case Expr::Kind::Lt:
    return A < B;
  case Expr::Kind::Le:
    return A <= B;
  case Expr::Kind::Eq:
    return A == B;
  case Expr::Kind::Ne:
    return A != B;
  case Expr::Kind::LAnd:
    return A && B;
  case Expr::Kind::LOr:
    return A || B;
  default:
    return std::nullopt;
  }
}

TEST(ExprFoldTest, ConstantFoldingOfEveryKindMatchesC) {
  using K = Expr::Kind;
  using Factory = Expr (*)(const Expr &, const Expr &);
  const std::pair<K, Factory> Ops[] = {
      {K::Add, Expr::add},      {K::Mul, Expr::mul},
      {K::Div, Expr::div},      {K::Rem, Expr::rem},
      {K::Shl, Expr::shl},      {K::Shr, Expr::shr},
      {K::And, Expr::bitAnd},   {K::Or, Expr::bitOr},
      {K::Xor, Expr::bitXor},   {K::Min, Expr::min},
      {K::Max, Expr::max},      {K::Lt, Expr::lt},
      {K::Le, Expr::le},        {K::Eq, Expr::eq},
      {K::Ne, Expr::ne},        {K::LAnd, Expr::logicalAnd},
      {K::LOr, Expr::logicalOr}};
  const int64_t Values[] = {INT64_MIN, INT64_MIN + 1,
                            -100,      -33,
                            -8,        -7,
                            -1,        0,
                            1,         2,
                            3,         7,
                            8,         31,
                            32,        63,
                            64,        100,
                            INT64_MAX};
  Bindings None;
  for (const auto &[Kind, F] : Ops)
    for (int64_t A : Values)
      for (int64_t B : Values) {
        Expr R = F(c(A), c(B));
        std::optional<int64_t> Want = nativeBinary(Kind, A, B);
        if (Want) {
          EXPECT_SAME(R, c(*Want))
              << "kind " << int(Kind) << " on " << A << ", " << B;
        } else {
          EXPECT_FALSE(R.isConstant()) << R.str();
          EXPECT_EQ(R.evaluate(None), std::nullopt) << R.str();
        }
      }
  // Select and logical not on constants.
  EXPECT_SAME(Expr::select(c(-4), c(1), c(2)), c(1));
  EXPECT_SAME(Expr::logicalNot(c(-4)), c(0));
  EXPECT_SAME(Expr::neg(c(INT64_MIN)), c(INT64_MIN));
}

//===-- Evaluation
//----------------------------------------------------------===//

/// A reference expression tree evaluated natively, independent of the
/// engine's folding.
using coalesce::testing::ExprOp;

struct Ref {
  ExprOp O = ExprOp::Const;
  int64_t Value = 0;
  std::vector<Ref> Kids;
};

const Symbol &refSymbol(int64_t I) {
  static const Symbol Syms[] = {Symbol::threadIdx(0), Symbol::blockIdx(0),
                                Symbol::param("N"), loopSym()};
  return Syms[I];
}

class RefGen {
public:
  explicit RefGen(unsigned Seed) : Rng(Seed) {}
  int64_t pick(int64_t Lo, int64_t Hi) {
    return std::uniform_int_distribution<int64_t>(Lo, Hi)(Rng);
  }
  Ref leaf() {
    Ref R;
    if (pick(0, 9) < 3) {
      R.O = ExprOp::Const;
      R.Value = pick(-20, 20);
    } else {
      R.O = ExprOp::Sym;
      R.Value = pick(0, 3);
    }
    return R;
  }
  Ref tree(int Depth) {
    if (Depth == 0 || pick(0, 4) == 0)
      return leaf();
    Ref R;
    R.O = static_cast<ExprOp>(pick(int64_t(ExprOp::Add),
                                   coalesce::testing::NumExprOps - 1));
    int Arity = static_cast<int>(coalesce::testing::arityOf(R.O));
    for (int I = 0; I < Arity; ++I)
      R.Kids.push_back(tree(Depth - 1));
    // Mostly sensible shift amounts, sometimes arbitrary ones.
    if ((R.O == ExprOp::Shl || R.O == ExprOp::Shr) && pick(0, 9) < 7) {
      R.Kids[1] = Ref();
      R.Kids[1].Value = pick(0, 8);
    }
    return R;
  }

private:
  std::mt19937 Rng;
};

Expr build(const Ref &R) {
  if (R.O == ExprOp::Const)
    return c(R.Value);
  if (R.O == ExprOp::Sym)
    return testSymbol(refSymbol(R.Value));
  std::vector<Expr> K;
  for (const Ref &Kid : R.Kids)
    K.push_back(build(Kid));
  return coalesce::testing::applyExprOp(R.O, K);
}

/// Direct C evaluation; nullopt wherever C is undefined (overflow, division
/// by zero, bad shift amounts).
std::optional<int64_t> refEval(const Ref &R, const int64_t *Vars) {
  using O = std::optional<int64_t>;
  auto E = [Vars](const Ref &X) { return refEval(X, Vars); };
  switch (R.O) {
  case ExprOp::Const:
    return R.Value;
  case ExprOp::Sym:
    return Vars[R.Value];
  case ExprOp::Select: {
    O C = E(R.Kids[0]);
    if (!C)
      return std::nullopt;
    return E(R.Kids[*C ? 1 : 2]);
  }
  case ExprOp::LAnd:
  case ExprOp::LOr: {
    O A = E(R.Kids[0]);
    if (!A)
      return std::nullopt;
    if ((*A != 0) == (R.O == ExprOp::LOr))
      return R.O == ExprOp::LOr ? 1 : 0;
    O B = E(R.Kids[1]);
    if (!B)
      return std::nullopt;
    return *B != 0 ? 1 : 0;
  }
  default:
    break;
  }
  O A = E(R.Kids[0]);
  if (!A)
    return std::nullopt;
  int64_t X = *A, Y = 0, Out = 0;
  if (R.O == ExprOp::Neg)
    return X == INT64_MIN ? O() : O(-X);
  if (R.O == ExprOp::LNot)
    return !X;
  O B = E(R.Kids[1]);
  if (!B)
    return std::nullopt;
  Y = *B;
  switch (R.O) {
  case ExprOp::Add:
    return __builtin_add_overflow(X, Y, &Out) ? O() : O(Out);
  case ExprOp::Sub:
    return __builtin_sub_overflow(X, Y, &Out) ? O() : O(Out);
  case ExprOp::Mul:
    return __builtin_mul_overflow(X, Y, &Out) ? O() : O(Out);
  case ExprOp::Div:
    return Y == 0 || (X == INT64_MIN && Y == -1) ? O() : O(X / Y);
  case ExprOp::Rem:
    return Y == 0 || (X == INT64_MIN && Y == -1) ? O() : O(X % Y);
  case ExprOp::Shl:
    if (Y < 0 || Y > 62 || __builtin_mul_overflow(X, int64_t(1) << Y, &Out))
      return std::nullopt;
    return Out;
  case ExprOp::Shr:
    return Y < 0 || Y > 63 ? O() : O(X >> Y);
  case ExprOp::And:
    return X & Y;
  case ExprOp::Or:
    return X | Y;
  case ExprOp::Xor:
    return X ^ Y;
  case ExprOp::Min:
    return X < Y ? X : Y;
  case ExprOp::Max:
    return X < Y ? Y : X;
  case ExprOp::Lt:
    return X < Y;
  case ExprOp::Le:
    return X <= Y;
  case ExprOp::Gt:
    return X > Y;
  case ExprOp::Ge:
    return X >= Y;
  case ExprOp::Eq:
    return X == Y;
  case ExprOp::Ne:
    return X != Y;
  default:
    return std::nullopt;
  }
}

TEST(ExprEvalTest, RandomTreesMatchDirectCEvaluation) {
  RefGen G(20240611);
  std::mt19937 ValueRng(99);
  std::uniform_int_distribution<int64_t> Value(-40, 40);
  int Compared = 0, Total = 0;
  std::vector<int> SeenKinds(int(Expr::Kind::LOr) + 1);
  for (int Tree = 0; Tree < 4000; ++Tree) {
    Ref R = G.tree(4);
    Expr E = build(R);
    ASSERT_TRUE(isCanonical(E));
    std::function<void(const Expr &)> Count = [&](const Expr &X) {
      ++SeenKinds[int(X.getKind())];
      for (const Expr &Op : X.operands())
        Count(Op);
    };
    Count(E);
    for (int Trial = 0; Trial < 4; ++Trial) {
      int64_t Vars[4];
      Bindings B;
      for (int I = 0; I < 4; ++I) {
        Vars[I] = Value(ValueRng);
        B.set(refSymbol(I), Vars[I]);
      }
      ++Total;
      std::optional<int64_t> Want = refEval(R, Vars);
      if (!Want)
        continue;
      ++Compared;
      std::optional<int64_t> Got = E.evaluate(B);
      ASSERT_EQ(Got, Want) << "expr " << E.str()
                           << " with threadIdx.x=" << Vars[0]
                           << " blockIdx.x=" << Vars[1] << " N=" << Vars[2]
                           << " k=" << Vars[3];
    }
  }
  // Most random cases are defined in C, so the comparison is not vacuous,
  // and every node kind survives folding somewhere.
  EXPECT_GT(Compared, Total / 2);
  for (size_t Kind = 0; Kind < SeenKinds.size(); ++Kind)
    EXPECT_GT(SeenKinds[Kind], 0) << "kind " << Kind << " never built";
}

TEST(ExprEvalTest, UndefinedCasesYieldNullopt) {
  Bindings B;
  B.set(Symbol::threadIdx(0), 5);
  Expr X = tx();
  EXPECT_EQ(param("N").evaluate(B), std::nullopt);
  EXPECT_EQ((X + param("N")).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::div(X, c(0)).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::rem(X, X - c(5)).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::shl(X, X - c(6)).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::shl(X, X + c(59)).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::shr(X, X + c(59)).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::shr(X, X + c(58)).evaluate(B), std::optional<int64_t>(0));
  EXPECT_EQ(Expr::div(c(INT64_MIN), X - c(6)).evaluate(B), std::nullopt);
  // Only the chosen arm of a select is evaluated; && and || short-circuit.
  Expr Bad = Expr::div(X, c(0));
  EXPECT_EQ(Expr::select(Expr::lt(X, c(8)), X, Bad).evaluate(B),
            std::optional<int64_t>(5));
  EXPECT_EQ(Expr::select(Expr::lt(c(8), X), X, Bad).evaluate(B), std::nullopt);
  EXPECT_EQ(Expr::logicalAnd(Expr::lt(c(8), X), Bad).evaluate(B),
            std::optional<int64_t>(0));
  EXPECT_EQ(Expr::logicalOr(Bad, Expr::lt(X, c(8))).evaluate(B),
            std::optional<int64_t>(1));
  EXPECT_EQ(Expr::logicalOr(Bad, Expr::lt(c(8), X)).evaluate(B), std::nullopt);
}

TEST(ExprEvalTest, WrapsLikeTheHardware) {
  Bindings B;
  B.set(Symbol::param("N"), INT64_MAX);
  EXPECT_EQ((param("N") + c(1)).evaluate(B), std::optional<int64_t>(INT64_MIN));
  EXPECT_EQ((c(2) * param("N")).evaluate(B), std::optional<int64_t>(-2));
}

//===-- Polynomial view
//-----------------------------------------------------===//

TEST(ExprTermsTest, TermsOfACanonicalSum) {
  Expr N = param("N");
  Expr E = c(4) * N * tx() + c(1024) * bx() + c(4);
  std::vector<Term> T = E.terms();
  ASSERT_EQ(T.size(), 3u) << E.str();
  EXPECT_EQ(T[0].Coeff, 4);
  ASSERT_EQ(T[0].Factors.size(), 2u);
  EXPECT_SAME(T[0].Factors[0], N);
  EXPECT_SAME(T[0].Factors[1], tx());
  EXPECT_EQ(T[1].Coeff, 1024);
  EXPECT_EQ(T[2].Coeff, 4);
  EXPECT_TRUE(T[2].Factors.empty());
  EXPECT_TRUE(c(0).terms().empty());
  ASSERT_EQ(Expr::div(tx(), c(2)).terms().size(), 1u);
  EXPECT_SAME(Expr::div(tx(), c(2)).terms()[0].Factors[0],
              Expr::div(tx(), c(2)));
  EXPECT_SAME(Expr::fromTerms({{3, {tx(), param("N")}}, {2, {}}, {-1, {tx()}}}),
              c(3) * param("N") * tx() + c(2) - tx());
}

TEST(ExprTermsTest, RoundTripAndLaneSplitOnRandomTrees) {
  RefGen G(31337);
  for (int I = 0; I < 1500; ++I) {
    Expr E = build(G.tree(4));
    EXPECT_SAME(Expr::fromTerms(E.terms()), E);
    auto [Lane, Uniform] = E.splitLaneUniform();
    EXPECT_SAME(Lane + Uniform, E);
    for (const Term &T : Lane.terms())
      EXPECT_TRUE(
          std::any_of(T.Factors.begin(), T.Factors.end(),
                      [](const Expr &F) { return F.isLaneDependent(); }))
          << Lane.str();
    EXPECT_FALSE(Uniform.isLaneDependent()) << Uniform.str();
    // A linear coefficient really is the slope in that symbol.
    if (std::optional<Expr> Coeff = E.linearCoefficient(Symbol::threadIdx(0))) {
      Expr Rest = E - *Coeff * tx();
      EXPECT_EQ(Rest.symbols().count(Symbol::threadIdx(0)), 0u)
          << E.str() << " minus (" << Coeff->str() << ")*threadIdx.x";
      EXPECT_EQ(Coeff->symbols().count(Symbol::threadIdx(0)), 0u);
    } else {
      EXPECT_EQ(E.symbols().count(Symbol::threadIdx(0)), 1u) << E.str();
    }
  }
}

TEST(ExprTermsTest, SplitLaneUniform) {
  Expr N = param("N");
  Expr Indirect = testSymbol({SymbolKind::IndirectValue, "idx[i]"});
  Expr E = c(4) * N * tx() + c(1024) * bx() + Expr::rem(ty(), c(8)) +
           c(2) * Indirect + N + c(4);
  auto [Lane, Uniform] = E.splitLaneUniform();
  EXPECT_SAME(Lane, c(4) * N * tx() + Expr::rem(ty(), c(8)) + c(2) * Indirect);
  EXPECT_SAME(Uniform, c(1024) * bx() + N + c(4));
  auto [L2, U2] = (bx() + c(1)).splitLaneUniform();
  EXPECT_SAME(L2, c(0));
  EXPECT_SAME(U2, bx() + c(1));
}

TEST(ExprTermsTest, LinearCoefficient) {
  Expr N = param("N");
  Expr E = c(4) * N * tx() + c(4) * ty() + c(8);
  std::optional<Expr> X = E.linearCoefficient(Symbol::threadIdx(0));
  ASSERT_TRUE(X.has_value());
  EXPECT_SAME(*X, c(4) * N);
  std::optional<Expr> Y = E.linearCoefficient(Symbol::threadIdx(1));
  ASSERT_TRUE(Y.has_value());
  EXPECT_SAME(*Y, c(4));
  std::optional<Expr> Z = E.linearCoefficient(Symbol::threadIdx(2));
  ASSERT_TRUE(Z.has_value());
  EXPECT_SAME(*Z, c(0));
  EXPECT_EQ((tx() * tx()).linearCoefficient(Symbol::threadIdx(0)),
            std::nullopt);
  EXPECT_EQ(
      (Expr::rem(tx(), c(8)) + tx()).linearCoefficient(Symbol::threadIdx(0)),
      std::nullopt);
  // A symbol inside an atom that does not involve S is fine.
  std::optional<Expr> W = (Expr::rem(bx(), c(8)) * tx() + tx())
                              .linearCoefficient(Symbol::threadIdx(0));
  ASSERT_TRUE(W.has_value());
  EXPECT_SAME(*W, Expr::rem(bx(), c(8)) + c(1));
}

TEST(ExprTermsTest, CoefficientGcd) {
  Expr N = param("N");
  EXPECT_EQ(c(0).coefficientGcd(), 0);
  EXPECT_EQ(c(-12).coefficientGcd(), 12);
  EXPECT_EQ((c(4) * N * tx() + c(1024) * bx() + c(4)).coefficientGcd(), 4);
  EXPECT_EQ((c(6) * tx() - c(9) * bx()).coefficientGcd(), 3);
  EXPECT_EQ((c(8) * tx() + c(16) + Expr::div(N, c(3))).coefficientGcd(), 1);
  EXPECT_EQ((c(-32) * tx()).coefficientGcd(), 32);
}

//===-- Printing and queries
//------------------------------------------------===//

TEST(ExprPrintTest, RepresentativeForms) {
  Expr N = param("N"), I = testSymbol({SymbolKind::LoopIter, "i"});
  Expr A = param("a"), B = param("b");
  struct Case {
    Expr E;
    const char *Want;
  } Cases[] = {
      {c(4) * N * tx() + c(1024) * bx() + c(4),
       "4*N*threadIdx.x + 1024*blockIdx.x + 4"},
      {c(31) - tx(), "-threadIdx.x + 31"},
      {tx() - c(1), "threadIdx.x - 1"},
      {c(-5), "-5"},
      {Expr::div(tx(), c(32)), "(threadIdx.x / 32)"},
      {Expr::rem(I, c(8)), "(i % 8)"},
      {Expr::min(A, B), "min(a, b)"},
      {Expr::max(B, A), "max(a, b)"},
      {Expr::select(param("c"), param("x"), param("y")), "(c ? x : y)"},
      {Expr::lt(A, B), "(a < b)"},
      {Expr::le(A, B), "(a <= b)"},
      {Expr::eq(A, B), "(a == b)"},
      {Expr::ne(A, B), "(a != b)"},
      {Expr::logicalAnd(A, B), "(a && b)"},
      {Expr::logicalOr(A, B), "(a || b)"},
      {Expr::bitAnd(A, B), "(a & b)"},
      {Expr::bitOr(A, B), "(a | b)"},
      {Expr::bitXor(A, B), "(a ^ b)"},
      {Expr::shl(A, B), "(a << b)"},
      {Expr::shr(A, B), "(a >> b)"},
      {Expr::div(tx() + c(1), c(2)), "((threadIdx.x + 1) / 2)"},
      {c(2) * Expr::div(tx(), c(3)) * N, "2*N*(threadIdx.x / 3)"},
      {testSymbol({SymbolKind::IndirectValue, "idx[i]"}) * c(4), "4*idx[i]"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(C.E.str(), C.Want);
}

TEST(ExprQueryTest, PredicatesAndSymbols) {
  Expr N = param("N");
  Expr Indirect = testSymbol({SymbolKind::IndirectValue, "idx[i]"});
  EXPECT_TRUE((c(4) * N * tx() + c(3)).isPolynomial());
  EXPECT_FALSE((Expr::div(N, c(3)) + tx()).isPolynomial());
  EXPECT_TRUE((N + tx()).isLaneDependent());
  EXPECT_TRUE(Expr::min(N, tx()).isLaneDependent());
  EXPECT_FALSE((N + bx()).isLaneDependent());
  EXPECT_TRUE((N + Indirect).isIndirect());
  EXPECT_FALSE((N + tx()).isIndirect());
  std::set<Symbol> Want = {Symbol::param("N"), Symbol::threadIdx(0),
                           Symbol::blockIdx(0)};
  EXPECT_EQ((Expr::div(N * tx(), c(3)) + bx()).symbols(), Want);
  EXPECT_TRUE(
      (N + bx()).anySymbol([](const Symbol &S) { return S.isVarying(); }));
  EXPECT_FALSE(
      (N + tx()).anySymbol([](const Symbol &S) { return S.isVarying(); }));
  EXPECT_EQ(c(7).asConstant(), std::optional<int64_t>(7));
  EXPECT_EQ(N.asConstant(), std::nullopt);
  EXPECT_SAME(Expr(), c(0));
  EXPECT_EQ(N.getSymbol(), Symbol::param("N"));
}

TEST(ExprQueryTest, SubstituteRefolds) {
  Expr N = param("N");
  std::map<Symbol, Expr> Map = {{Symbol::threadIdx(0), ty() + c(1)}};
  EXPECT_SAME((c(4) * N * tx() + c(8)).substitute(Map),
              c(4) * N * ty() + c(4) * N + c(8));
  std::map<Symbol, Expr> ToLoop = {{Symbol::threadIdx(0), c(8) * k()}};
  EXPECT_SAME(Expr::div(tx(), c(4)).substitute(ToLoop), c(2) * k());
  std::map<Symbol, Expr> ToConst = {{Symbol::threadIdx(0), c(3)},
                                    {Symbol::param("N"), c(5)}};
  EXPECT_SAME(
      Expr::select(Expr::lt(tx(), N), tx() * N, c(0)).substitute(ToConst),
      c(15));
}

} // namespace

namespace {
/// A DAG of depth \p Depth in which every level uses the one below twice:
/// 2^Depth paths to the leaf, Depth + 1 distinct nodes.
Expr sharedDag(unsigned Depth) {
  Expr E = tx();
  for (unsigned I = 0; I < Depth; ++I)
    E = Expr::bitXor(E, E + Expr::constant(I + 1));
  return E;
}
} // namespace

TEST(ExprLawsTest, EqualDagsBuiltApartCompareInLinearTime) {
  // Two equal expressions with no node in common (built apart, as the
  // walker builds one access per launch shape): comparing them visits each
  // pair of nodes once, not each of the 2^64 paths.
  Expr A = sharedDag(64), B = sharedDag(64);
  EXPECT_TRUE(A == B);
  Expr C = Expr::bitXor(sharedDag(63), sharedDag(63) + Expr::constant(65));
  EXPECT_FALSE(A == C);
}
