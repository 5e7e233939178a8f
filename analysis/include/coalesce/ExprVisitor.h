//===- ExprVisitor.h - Visiting Expr nodes by kind --------------*- C++ -*-===//
///
/// \file
/// ExprVisitor, in the manner of LLVM's SCEVVisitor: visit() dispatches on
/// the kind of an expression to visitAdd(), visitDiv(), ...; a kind a
/// visitor does not handle falls back to its group (visitLeaf(),
/// visitNary(), visitBinary(), visitTernary()), and every group to
/// visitExpr(). The kinds and their groups are ExprKinds.def's.
/// Also what each kind is: its C spelling, whether its value is boolean.
///
/// \code
///   struct Depth : ExprVisitor<Depth, unsigned> {
///     unsigned visitLeaf(const Expr &) { return 1; }
///     unsigned visitExpr(const Expr &E) {
///       unsigned D = 0;
///       for (const Expr &Op : E.operands())
///         D = std::max(D, visit(Op));
///       return D + 1;
///     }
///   };
/// \endcode
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_EXPRVISITOR_H
#define COALESCE_EXPRVISITOR_H

#include "coalesce/Expr.h"

#include "llvm/Support/ErrorHandling.h"

namespace coalesce {

/// Dispatches on Expr::Kind to the visitX methods of \p SubClass.
template <typename SubClass, typename RetTy = void> class ExprVisitor {
public:
  /// Calls the visit method of \p E's kind.
  RetTy visit(const Expr &E) {
    switch (E.getKind()) {
#define EXPR_KIND(NAME, GROUP, SPELLING)                                       \
  case Expr::Kind::NAME:                                                       \
    return self().visit##NAME(E);
#include "coalesce/ExprKinds.def"
    }
    llvm_unreachable("an Expr kind ExprKinds.def does not list");
  }

  // Each kind falls back to its group, each group to visitExpr().
#define EXPR_KIND(NAME, GROUP, SPELLING)                                       \
  RetTy visit##NAME(const Expr &E) { return self().visit##GROUP(E); }
#include "coalesce/ExprKinds.def"
  /// Constant and Symbol.
  RetTy visitLeaf(const Expr &E) { return self().visitExpr(E); }
  /// Add and Mul: any number of operands.
  RetTy visitNary(const Expr &E) { return self().visitExpr(E); }
  /// Two operands: Div ... LOr.
  RetTy visitBinary(const Expr &E) { return self().visitExpr(E); }
  /// Select.
  RetTy visitTernary(const Expr &E) { return self().visitExpr(E); }
  /// What a visitor that handles neither the kind nor its group does: it
  /// must define this, or every kind it meets.
  RetTy visitExpr(const Expr &) {
    llvm_unreachable("ExprVisitor: a kind its subclass does not handle");
  }

private:
  SubClass &self() { return *static_cast<SubClass *>(this); }
};

/// The C spelling of an infix operator kind ("/", "<<", "&&"); "" for
/// kinds that are not infix (leaves, Min, Max, Select).
inline const char *infixSpelling(Expr::Kind K) {
  switch (K) {
#define EXPR_KIND(NAME, GROUP, SPELLING)                                       \
  case Expr::Kind::NAME:                                                       \
    return SPELLING;
#include "coalesce/ExprKinds.def"
  }
  return "";
}

/// True for the kinds whose value is always 0 or 1: the comparisons (Lt,
/// Le, Eq, Ne) and the logical connectives (LAnd, LOr).
inline bool isBooleanKind(Expr::Kind K) {
  using Kind = Expr::Kind;
  return K == Kind::Lt || K == Kind::Le || K == Kind::Eq || K == Kind::Ne ||
         K == Kind::LAnd || K == Kind::LOr;
}

} // namespace coalesce

#endif // COALESCE_EXPRVISITOR_H
