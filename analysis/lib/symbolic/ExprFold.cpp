//===- ExprFold.cpp - Folding factories for bitwise, min/max, comparisons -===//
///
/// \file
/// Factories of the non-polynomial node kinds: constant folding with C
/// semantics, the identities that make them disappear, and sorted operands
/// for commutative kinds so structural equality is order-independent.
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

#include "coalesce/ExprVisitor.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace coalesce {

using K = Expr::Kind;

namespace {

/// Folds two constants with C semantics; nullopt when not both constant or
/// the operation is undefined for them.
std::optional<Expr> foldConstants(K Kind, const Expr &A, const Expr &B) {
  if (!A.isConstant() || !B.isConstant())
    return std::nullopt;
  if (std::optional<int64_t> V =
          evalBinary(Kind, A.getConstant(), B.getConstant()))
    return Expr::constant(*V);
  return std::nullopt;
}

/// A node of a commutative kind, operands in structural order.
Expr makeCommutative(K Kind, const Expr &A, const Expr &B) {
  if (B < A)
    return ExprBuilder::makeOp(Kind, {B, A});
  return ExprBuilder::makeOp(Kind, {A, B});
}

/// True when \p E always evaluates to 0 or 1.
bool isBoolean(const Expr &E) {
  if (E.isConstant())
    return E.getConstant() == 0 || E.getConstant() == 1;
  return isBooleanKind(E.getKind());
}

/// A signature of the non-constant part of the canonical sum \p E that is
/// linear in its terms: the wrapped sum over them of coefficient times a
/// hash of the monomial. Like terms combine by adding coefficients, so
/// linearSignature(X + Y) == linearSignature(X) + linearSignature(Y), and a
/// constant has signature 0: when X + Y is a constant, the signatures of X
/// and Y add up to 0. Reads the nodes in place (no allocation).
uint64_t linearSignature(const Expr &E) {
  auto TermSignature = [](const Expr &Summand) -> uint64_t {
    TermView T = viewTerm(Summand);
    if (T.NumFactors == 0)
      return 0; // The constant term.
    return static_cast<uint64_t>(T.Coeff) * monomialHash(T);
  };
  if (E.getKind() != K::Add)
    return TermSignature(E);
  uint64_t Sum = 0;
  for (const Expr &S : E.operands())
    Sum += TermSignature(S);
  return Sum;
}

/// linearSignature() of belowZero(\p C) for a comparison \p C (A - B and
/// A - B - 1 share their non-constant part), from A and B.
uint64_t comparisonSignature(const Expr &C) {
  return linearSignature(C.operands()[0]) - linearSignature(C.operands()[1]);
}

/// The difference A - B when it is a constant and A, B are not both
/// constants (those fold exactly through foldConstants instead).
std::optional<int64_t> constantDifference(const Expr &A, const Expr &B) {
  if (A.isConstant() && B.isConstant())
    return std::nullopt;
  // Unequal signatures: A - B keeps a non-constant term (nothing to build).
  if (linearSignature(A) != linearSignature(B))
    return std::nullopt;
  return Expr::sub(A, B).asConstant();
}

/// X as a truth value: X != 0.
Expr toBool(const Expr &X) { return Expr::ne(X, Expr::constant(0)); }

/// D such that comparison \p C is D < 0 over the integers (A < B is
/// A - B < 0, A <= B is A - B - 1 < 0); nullopt for other kinds.
std::optional<Expr> belowZero(const Expr &C) {
  if (C.getKind() == K::Lt)
    return Expr::sub(C.operands()[0], C.operands()[1]);
  if (C.getKind() == K::Le)
    return Expr::sub(C.operands()[0], C.operands()[1]) - Expr::constant(1);
  return std::nullopt;
}

/// The conjuncts of \p E (its operands when an &&), at most \p Limit.
void conjuncts(const Expr &E, std::vector<Expr> &Out, size_t Limit) {
  if (Out.size() >= Limit)
    return;
  if (E.getKind() != K::LAnd) {
    if (E.getKind() == K::Lt || E.getKind() == K::Le ||
        E.getKind() == K::Eq || E.getKind() == K::Ne)
      Out.push_back(E);
    return;
  }
  for (const Expr &Op : E.operands())
    conjuncts(Op, Out, Limit);
}

bool isOrdering(const Expr &C) {
  return C.getKind() == K::Lt || C.getKind() == K::Le;
}

/// True when equality tests \p X and \p Y (each an == or a !=) cannot
/// hold together: `V == W` and `V != W` (an aligned fast path and the
/// misaligned fallback it calls, TransformerEngine's Vec::load_from_elts),
/// or `V == C1` and `V == C2` with constants C1 != C2.
bool contradictoryEqualities(const Expr &X, const Expr &Y) {
  const std::vector<Expr> &XO = X.operands(), &YO = Y.operands();
  if (X.getKind() != Y.getKind())
    return XO == YO;
  if (X.getKind() != K::Eq)
    return false;
  for (unsigned I = 0; I < 2; ++I)
    for (unsigned J = 0; J < 2; ++J)
      if (XO[I] == YO[J] && XO[1 - I].isConstant() &&
          YO[1 - J].isConstant() && XO[1 - I] != YO[1 - J])
        return true;
  return false;
}

/// True when some comparison of \p A and one of \p B cannot hold
/// together: X < 0 and Y < 0 with X + Y a constant >= -1 (`c + 16 > K`
/// with `K - c >= 16`, TransformerEngine's vector load under a tail test),
/// or equality tests that contradict each other (contradictoryEqualities).
/// Only pairs whose signatures allow a constant sum are added up (the
/// others cannot be contradictory, so the answer is the same).
bool contradictory(const Expr &A, const Expr &B) {
  constexpr size_t Limit = 12;
  std::vector<Expr> InA, InB;
  conjuncts(A, InA, Limit);
  if (InA.empty())
    return false;
  conjuncts(B, InB, Limit);
  if (InB.empty())
    return false;
  std::vector<uint64_t> SigB;
  SigB.reserve(InB.size());
  for (const Expr &Y : InB)
    SigB.push_back(isOrdering(Y) ? comparisonSignature(Y) : 0);
  for (const Expr &X : InA) {
    bool Ordering = isOrdering(X);
    uint64_t SigX = Ordering ? comparisonSignature(X) : 0;
    for (size_t J = 0; J < InB.size(); ++J) {
      const Expr &Y = InB[J];
      if (Ordering != isOrdering(Y))
        continue;
      if (!Ordering) {
        if (contradictoryEqualities(X, Y))
          return true;
        continue;
      }
      if (SigX + SigB[J] != 0)
        continue; // X + Y keeps a non-constant term.
      std::optional<int64_t> Sum = (*belowZero(X) + *belowZero(Y)).asConstant();
      if (Sum && *Sum >= -1)
        return true;
    }
  }
  return false;
}

} // namespace

Expr Expr::bitAnd(const Expr &A, const Expr &B) {
  // C1 & C2 --> C3
  if (std::optional<Expr> C = foldConstants(K::And, A, B))
    return *C;
  // X & 0 --> 0
  if (isConstantValue(A, 0) || isConstantValue(B, 0))
    return constant(0);
  // X & -1 --> X
  if (isConstantValue(A, -1))
    return B;
  if (isConstantValue(B, -1))
    return A;
  // X & X --> X
  if (A == B)
    return A;
  return makeCommutative(K::And, A, B);
}

Expr Expr::bitOr(const Expr &A, const Expr &B) {
  // C1 | C2 --> C3
  if (std::optional<Expr> C = foldConstants(K::Or, A, B))
    return *C;
  // X | 0 --> X
  if (isConstantValue(A, 0))
    return B;
  if (isConstantValue(B, 0))
    return A;
  // X | -1 --> -1
  if (isConstantValue(A, -1) || isConstantValue(B, -1))
    return constant(-1);
  // X | X --> X
  if (A == B)
    return A;
  return makeCommutative(K::Or, A, B);
}

Expr Expr::bitXor(const Expr &A, const Expr &B) {
  // C1 ^ C2 --> C3
  if (std::optional<Expr> C = foldConstants(K::Xor, A, B))
    return *C;
  // X ^ 0 --> X
  if (isConstantValue(A, 0))
    return B;
  if (isConstantValue(B, 0))
    return A;
  // X ^ X --> 0
  if (A == B)
    return constant(0);
  return makeCommutative(K::Xor, A, B);
}

Expr Expr::min(const Expr &A, const Expr &B) {
  // min(C1, C2) --> C3
  if (std::optional<Expr> C = foldConstants(K::Min, A, B))
    return *C;
  // min(X, X) --> X, min(X, X + 4) --> X
  if (std::optional<int64_t> D = constantDifference(A, B))
    return *D <= 0 ? A : B;
  return makeCommutative(K::Min, A, B);
}

Expr Expr::max(const Expr &A, const Expr &B) {
  // max(C1, C2) --> C3
  if (std::optional<Expr> C = foldConstants(K::Max, A, B))
    return *C;
  // max(X, X) --> X, max(X, X + 4) --> X + 4
  if (std::optional<int64_t> D = constantDifference(A, B))
    return *D >= 0 ? A : B;
  return makeCommutative(K::Max, A, B);
}

Expr Expr::select(const Expr &Cond, const Expr &T, const Expr &F) {
  // (C ? T : F) --> T or F
  if (std::optional<int64_t> C = Cond.asConstant())
    return *C != 0 ? T : F;
  // (c ? X : X) --> X
  if (T == F)
    return T;
  // (X != 0 ? T : F) --> (X ? T : F)
  if (Cond.getKind() == K::Ne && isConstantValue(Cond.operands()[0], 0))
    return select(Cond.operands()[1], T, F);
  // (b ? 1 : 0) --> b for a boolean b
  if (isBoolean(Cond) && isConstantValue(T, 1) && isConstantValue(F, 0))
    return Cond;
  // (c ? (c ? A : B) : F) --> (c ? A : F), (c ? T : (c ? A : B)) --> (c ? T :
  // B)
  if (T.getKind() == K::Select && T.operands()[0] == Cond)
    return select(Cond, T.operands()[1], F);
  if (F.getKind() == K::Select && F.operands()[0] == Cond)
    return select(Cond, T, F.operands()[2]);
  return ExprBuilder::makeOp(K::Select, {Cond, T, F});
}

Expr Expr::lt(const Expr &A, const Expr &B) {
  // C1 < C2 --> 0 or 1
  if (std::optional<Expr> C = foldConstants(K::Lt, A, B))
    return *C;
  // X < X --> 0, X < X + 1 --> 1
  if (std::optional<int64_t> D = constantDifference(A, B))
    return constant(*D < 0 ? 1 : 0);
  return ExprBuilder::makeOp(K::Lt, {A, B});
}

Expr Expr::le(const Expr &A, const Expr &B) {
  // C1 <= C2 --> 0 or 1
  if (std::optional<Expr> C = foldConstants(K::Le, A, B))
    return *C;
  // X <= X --> 1, X + 1 <= X --> 0
  if (std::optional<int64_t> D = constantDifference(A, B))
    return constant(*D <= 0 ? 1 : 0);
  return ExprBuilder::makeOp(K::Le, {A, B});
}

Expr Expr::eq(const Expr &A, const Expr &B) {
  // C1 == C2 --> 0 or 1
  if (std::optional<Expr> C = foldConstants(K::Eq, A, B))
    return *C;
  // X == X --> 1, X == X + 1 --> 0
  if (std::optional<int64_t> D = constantDifference(A, B))
    return constant(*D == 0 ? 1 : 0);
  // Negations of booleans: (b == 0) --> !b.
  const Expr *Bool = isConstantValue(A, 0)   ? &B
                     : isConstantValue(B, 0) ? &A
                                             : nullptr;
  if (Bool) {
    const std::vector<Expr> &Ops = Bool->operands();
    switch (Bool->getKind()) {
    case K::Lt: // (X < Y) == 0 --> Y <= X
      return le(Ops[1], Ops[0]);
    case K::Le: // (X <= Y) == 0 --> Y < X
      return lt(Ops[1], Ops[0]);
    case K::Eq: // (X == Y) == 0 --> X != Y
      return ne(Ops[0], Ops[1]);
    case K::Ne: // (X != Y) == 0 --> X == Y
      return eq(Ops[0], Ops[1]);
    case K::LOr: // (X || Y) == 0 --> !X && !Y
      return logicalAnd(logicalNot(Ops[0]), logicalNot(Ops[1]));
    default:
      break;
    }
  }
  return makeCommutative(K::Eq, A, B);
}

Expr Expr::ne(const Expr &A, const Expr &B) {
  // C1 != C2 --> 0 or 1
  if (std::optional<Expr> C = foldConstants(K::Ne, A, B))
    return *C;
  // X != X --> 0, X != X + 1 --> 1
  if (std::optional<int64_t> D = constantDifference(A, B))
    return constant(*D != 0 ? 1 : 0);
  // (b != 0) --> b for a boolean b
  if (isConstantValue(B, 0) && isBoolean(A))
    return A;
  if (isConstantValue(A, 0) && isBoolean(B))
    return B;
  return makeCommutative(K::Ne, A, B);
}

Expr Expr::logicalAnd(const Expr &A, const Expr &B) {
  // 0 && X --> 0, C && X --> X != 0 (C != 0)
  if (std::optional<int64_t> C = A.asConstant())
    return *C == 0 ? constant(0) : toBool(B);
  if (std::optional<int64_t> C = B.asConstant())
    return *C == 0 ? constant(0) : toBool(A);
  // X && X --> X != 0
  if (A == B)
    return toBool(A);
  // X < Y && Y <= X --> 0
  if (contradictory(A, B))
    return constant(0);
  return makeCommutative(K::LAnd, A, B);
}

Expr Expr::logicalOr(const Expr &A, const Expr &B) {
  // C || X --> 1 (C != 0), 0 || X --> X != 0
  if (std::optional<int64_t> C = A.asConstant())
    return *C != 0 ? constant(1) : toBool(B);
  if (std::optional<int64_t> C = B.asConstant())
    return *C != 0 ? constant(1) : toBool(A);
  // X || X --> X != 0
  if (A == B)
    return toBool(A);
  return makeCommutative(K::LOr, A, B);
}

Expr Expr::logicalNot(const Expr &A) {
  // !X --> X == 0
  return eq(A, constant(0));
}

} // namespace coalesce
