//===- TestExprs.h - The context unit tests make symbols in -----*- C++ -*-===//
///
/// \file
/// Expressions of one context compare by node; the tests make theirs in
/// one context, so the same symbol made by two helpers is one node, as in
/// the frontend's walks of a file.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TEST_UNIT_TESTEXPRS_H
#define COALESCE_TEST_UNIT_TESTEXPRS_H

#include "coalesce/Expr.h"

#include <utility>

namespace coalesce {

/// The context of the unit tests' expressions.
inline const ExprContext &testExprs() {
  static const ExprContext Context;
  return Context;
}

/// \p S as an expression of testExprs().
inline Expr testSymbol(Symbol S) { return testExprs().symbol(std::move(S)); }

} // namespace coalesce

#endif // COALESCE_TEST_UNIT_TESTEXPRS_H
