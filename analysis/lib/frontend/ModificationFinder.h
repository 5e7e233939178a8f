//===- ModificationFinder.h - Local variables a statement changes -*- C++ -*-===//
//
// The walker's syntactic view of changes: which local variables a statement
// (a loop body, an increment) assigns, and by which step when the change is
// an induction (`i += s`, `i++`). Used by the loop walk (which values a loop
// carries) and by the statement walk (what a skipped statement changes).
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_MODIFICATIONFINDER_H
#define COALESCE_FRONTEND_MODIFICATIONFINDER_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <vector>

namespace coalesce {
namespace frontend {

/// Every modification of a local variable inside a statement.
struct Modification {
  const clang::ValueDecl *Var;
  const clang::Expr *Step; ///< For i += s / i -= s / i++: the step (or null).
  int Sign;                ///< +1, -1, or 0 for a non-induction update.
};

/// Collects the Modifications of the statements it visits.
class ModificationFinder : public clang::RecursiveASTVisitor<ModificationFinder> {
public:
  std::vector<Modification> Mods; ///< In visit order.

  static const clang::ValueDecl *localVar(const clang::Expr *E) {
    if (const auto *DRE = llvm::dyn_cast<clang::DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = llvm::dyn_cast<clang::VarDecl>(DRE->getDecl()))
        if (!VD->hasGlobalStorage())
          return VD;
    return nullptr;
  }

  /// The local variable holding the object whose field \p E names
  /// (`s.x`, `s.inner.y`), if any.
  static const clang::ValueDecl *localObject(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = llvm::dyn_cast<clang::MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    return E == nullptr ? nullptr : localVar(E);
  }

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr *MCE) {
    // A non-const method may change the object it is called on.
    if (const clang::CXXMethodDecl *M = MCE->getMethodDecl())
      if (!M->isConst())
        if (const clang::ValueDecl *V =
                localObject(MCE->getImplicitObjectArgument()))
          Mods.push_back({V, nullptr, 0});
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      if (const clang::ValueDecl *V = localVar(UO->getSubExpr()))
        Mods.push_back({V, nullptr, UO->isIncrementOp() ? 1 : -1});
      else if (const clang::ValueDecl *Obj = localObject(UO->getSubExpr()))
        Mods.push_back({Obj, nullptr, 0});
    }
    if (UO->getOpcode() == clang::UO_AddrOf)
      if (const clang::ValueDecl *V = localVar(UO->getSubExpr()))
        Mods.push_back({V, nullptr, 0});
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *OCE) {
    // Assignment to an object or one of its fields: `b = dim3(..)`.
    if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2)
      if (const clang::ValueDecl *V = localObject(OCE->getArg(0)))
        Mods.push_back({V, nullptr, 0});
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    const clang::ValueDecl *V = localVar(BO->getLHS());
    if (!V) {
      // A field of a local object: the object changes.
      if (const clang::ValueDecl *Obj = localObject(BO->getLHS()))
        Mods.push_back({Obj, nullptr, 0});
      return true;
    }
    if (BO->getOpcode() == clang::BO_AddAssign || BO->getOpcode() == clang::BO_SubAssign) {
      Mods.push_back({V, BO->getRHS(), BO->getOpcode() == clang::BO_AddAssign ? 1 : -1});
      return true;
    }
    // i = i + s
    if (BO->getOpcode() == clang::BO_Assign)
      if (const auto *Add =
              llvm::dyn_cast<clang::BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts()))
        if (Add->getOpcode() == clang::BO_Add && localVar(Add->getLHS()) == V) {
          Mods.push_back({V, Add->getRHS(), 1});
          return true;
        }
    Mods.push_back({V, nullptr, 0});
    return true;
  }
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_MODIFICATIONFINDER_H
