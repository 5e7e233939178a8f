//===- ExprOps.h - The Expr operators as data, for tests and fuzzers -*- C++ -*-===//
///
/// \file
/// The unit tests and fuzz-expr build random expressions twice: as a plain
/// tree they evaluate themselves, and through the Expr factories. This is
/// the one list of those operators, their arities and the factory each one
/// calls.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TEST_SUPPORT_EXPROPS_H
#define COALESCE_TEST_SUPPORT_EXPROPS_H

#include "coalesce/Expr.h"

#include <cassert>
#include <vector>

namespace coalesce {
namespace testing {

/// A leaf (Const, Sym) or an operator of the Expr factories.
enum class ExprOp {
  Const,
  Sym,
  Add,
  Sub,
  Mul,
  Neg,
  Div,
  Rem,
  Shl,
  Shr,
  And,
  Or,
  Xor,
  Min,
  Max,
  Select,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  LAnd,
  LOr,
  LNot,
};

/// Number of ExprOp values.
constexpr unsigned NumExprOps = unsigned(ExprOp::LNot) + 1;

/// Operands of \p O: 0 for leaves, 1, 2, or 3 for Select.
inline unsigned arityOf(ExprOp O) {
  switch (O) {
  case ExprOp::Const:
  case ExprOp::Sym:
    return 0;
  case ExprOp::Neg:
  case ExprOp::LNot:
    return 1;
  case ExprOp::Select:
    return 3;
  default:
    return 2;
  }
}

/// The Expr factory of operator \p O applied to \p A (arityOf(O) operands;
/// not for leaves).
inline Expr applyExprOp(ExprOp O, const std::vector<Expr> &A) {
  assert(arityOf(O) > 0 && A.size() == arityOf(O) && "bad operands");
  switch (O) {
  case ExprOp::Add:
    return A[0] + A[1];
  case ExprOp::Sub:
    return A[0] - A[1];
  case ExprOp::Mul:
    return A[0] * A[1];
  case ExprOp::Neg:
    return -A[0];
  case ExprOp::Div:
    return Expr::div(A[0], A[1]);
  case ExprOp::Rem:
    return Expr::rem(A[0], A[1]);
  case ExprOp::Shl:
    return Expr::shl(A[0], A[1]);
  case ExprOp::Shr:
    return Expr::shr(A[0], A[1]);
  case ExprOp::And:
    return Expr::bitAnd(A[0], A[1]);
  case ExprOp::Or:
    return Expr::bitOr(A[0], A[1]);
  case ExprOp::Xor:
    return Expr::bitXor(A[0], A[1]);
  case ExprOp::Min:
    return Expr::min(A[0], A[1]);
  case ExprOp::Max:
    return Expr::max(A[0], A[1]);
  case ExprOp::Select:
    return Expr::select(A[0], A[1], A[2]);
  case ExprOp::Lt:
    return Expr::lt(A[0], A[1]);
  case ExprOp::Le:
    return Expr::le(A[0], A[1]);
  case ExprOp::Gt:
    return Expr::gt(A[0], A[1]);
  case ExprOp::Ge:
    return Expr::ge(A[0], A[1]);
  case ExprOp::Eq:
    return Expr::eq(A[0], A[1]);
  case ExprOp::Ne:
    return Expr::ne(A[0], A[1]);
  case ExprOp::LAnd:
    return Expr::logicalAnd(A[0], A[1]);
  case ExprOp::LOr:
    return Expr::logicalOr(A[0], A[1]);
  case ExprOp::LNot:
    return Expr::logicalNot(A[0]);
  case ExprOp::Const:
  case ExprOp::Sym:
    break;
  }
  return Expr::constant(0);
}

} // namespace testing
} // namespace coalesce

#endif // COALESCE_TEST_SUPPORT_EXPROPS_H
