//===- IntegerOps.cpp - C integer operators over expressions --------------===//
//
// What C's integer operators compute, as Exprs: the binary operators, and
// where the type decides more than the exact model does, conversions to
// narrow types and unsigned operations on values that may be negative
// (IntegerOps.h).
//
//===----------------------------------------------------------------------===//
#include "IntegerOps.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace coalesce {
namespace frontend {

Expr convertInteger(const ASTContext &Ctx, const Expr &V, QualType From,
                    QualType To) {
  if (!To->isIntegerType() || To->isBooleanType() || !From->isIntegerType())
    return V;
  uint64_t Bits = Ctx.getIntWidth(To);
  if (Bits >= 32 || Bits >= Ctx.getIntWidth(From))
    return V;
  Expr Mask = Expr::constant((int64_t(1) << Bits) - 1);
  if (To->isUnsignedIntegerType())
    return Expr::bitAnd(V, Mask);
  Expr Half = Expr::constant(int64_t(1) << (Bits - 1));
  return Expr::bitAnd(V + Half, Mask) - Half;
}

namespace {
/// \p V modulo 2^32: what a 32-bit unsigned operation reads of a value the
/// model keeps exact (its values stay within 32 bits in magnitude).
Expr wrap32(const Expr &V) {
  return Expr::bitAnd(V, Expr::constant((int64_t(1) << 32) - 1));
}
} // namespace

std::optional<Expr> unsignedOperation(BinaryOperatorKind Op, const Expr &L,
                                      const Expr &R, unsigned Bits, bool LNeg,
                                      bool RNeg) {
  if (BinaryOperator::isCompoundAssignmentOp(Op))
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  if ((Op == BO_Div || Op == BO_Rem || Op == BO_Shr) && LNeg && Bits <= 32)
    return applyBinaryOperator(Op, wrap32(L), R);
  if (!BinaryOperator::isRelationalOp(Op) || (!LNeg && !RNeg))
    return std::nullopt;
  // Both may be negative: 32-bit operands wrap; wider ones keep the exact
  // order (the unsigned one where their signs agree).
  if (LNeg && RNeg)
    return Bits <= 32 ? applyBinaryOperator(Op, wrap32(L), wrap32(R))
                      : std::nullopt;
  // A negative side reads as larger than any non-negative one: L < R and
  // L <= R are false when L is the negative side, true when R is.
  const Expr &Neg = LNeg ? L : R;
  Expr Zero = Expr::constant(0);
  Expr Exact = *applyBinaryOperator(Op, L, R);
  if ((Op == BO_LT || Op == BO_LE) == LNeg)
    return Expr::logicalAnd(Expr::le(Zero, Neg), Exact);
  return Expr::logicalOr(Expr::lt(Neg, Zero), Exact);
}

namespace {
/// An address converted to an integer (`(size_t)p`, `(uintptr_t)p + 4`):
/// never negative, whatever the model's form of it (an aligned-down
/// pointer reads `a - a % 32`, which bounds cannot show non-negative).
bool isAddress(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return CE->getCastKind() == CK_PointerToIntegral;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAdditiveOp() &&
           (isAddress(BO->getLHS()) ||
            (BO->getOpcode() == BO_Add && isAddress(BO->getRHS())));
  return false;
}
} // namespace

unsigned unsignedOperationBits(const ASTContext &Ctx, const clang::Expr *Site) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(Site);
  if (!BO || isAddress(BO->getLHS()) || isAddress(BO->getRHS()))
    return 0;
  QualType T = BO->getLHS()->getType();
  if (const auto *CAO = dyn_cast<CompoundAssignOperator>(BO))
    T = CAO->getComputationLHSType();
  if (!T->isUnsignedIntegerType() || T->isBooleanType())
    return 0;
  return static_cast<unsigned>(Ctx.getIntWidth(T));
}

std::optional<Expr> applyBinaryOperator(BinaryOperatorKind Op, const Expr &L,
                                        const Expr &R) {
  // v op= e is v = v op e.
  if (BinaryOperator::isCompoundAssignmentOp(Op))
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  switch (Op) {
  case BO_Add:
    return L + R;
  case BO_Sub:
    return L - R;
  case BO_Mul:
    return L * R;
  case BO_Div:
    return Expr::div(L, R);
  case BO_Rem:
    return Expr::rem(L, R);
  case BO_Shl:
    return Expr::shl(L, R);
  case BO_Shr:
    return Expr::shr(L, R);
  case BO_And:
    return Expr::bitAnd(L, R);
  case BO_Or:
    return Expr::bitOr(L, R);
  case BO_Xor:
    return Expr::bitXor(L, R);
  case BO_LT:
    return Expr::lt(L, R);
  case BO_LE:
    return Expr::le(L, R);
  case BO_GT:
    return Expr::gt(L, R);
  case BO_GE:
    return Expr::ge(L, R);
  case BO_EQ:
    return Expr::eq(L, R);
  case BO_NE:
    return Expr::ne(L, R);
  case BO_LAnd:
    return Expr::logicalAnd(L, R);
  case BO_LOr:
    return Expr::logicalOr(L, R);
  default:
    return std::nullopt;
  }
}

} // namespace frontend
} // namespace coalesce
