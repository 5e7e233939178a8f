//===- JumpNesting.h - Which loop or switch a jump leaves ------*- C++ -*-===//
//
// A `break` inside a nested loop or switch ends that one only, a `continue`
// inside a nested loop likewise: a visitor that looks for the jumps out of
// a statement (a loop body that leaves early, a statement a probe pass must
// walk) counts the loops and switches it is inside.
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_JUMPNESTING_H
#define COALESCE_FRONTEND_JUMPNESTING_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace coalesce {
namespace frontend {

/// A RecursiveASTVisitor (CRTP, as its base) that knows how many loops and
/// switches below the visited statement it is inside.
template <typename Derived>
class JumpNestingVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  /// Does a `break` met now leave the visited statement?
  bool breakLeaves() const { return Loops == 0 && Switches == 0; }
  /// Does a `continue` met now?
  bool continueLeaves() const { return Loops == 0; }
  /// Is a `case` label met now one of a switch around the statement?
  bool caseOutside() const { return Switches == 0; }

  bool TraverseSwitchStmt(clang::SwitchStmt *S) {
    return nested(Switches, [&] { return Base::TraverseSwitchStmt(S); });
  }
  bool TraverseForStmt(clang::ForStmt *S) {
    return nested(Loops, [&] { return Base::TraverseForStmt(S); });
  }
  bool TraverseWhileStmt(clang::WhileStmt *S) {
    return nested(Loops, [&] { return Base::TraverseWhileStmt(S); });
  }
  bool TraverseDoStmt(clang::DoStmt *S) {
    return nested(Loops, [&] { return Base::TraverseDoStmt(S); });
  }
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt *S) {
    return nested(Loops, [&] { return Base::TraverseCXXForRangeStmt(S); });
  }

private:
  bool nested(unsigned &Depth, llvm::function_ref<bool()> Traverse) {
    ++Depth;
    bool R = Traverse();
    --Depth;
    return R;
  }
  unsigned Loops = 0, Switches = 0;
};

/// Can \p S leave the loop around it other than by the loop's condition
/// (a break outside the loops and switches nested in it, a return, a goto,
/// a co_return), or with \p OrSkips end a pass early (a continue outside
/// the loops nested in it)? A loop body that leaves early; a statement of
/// a body after which a pass may have ended (a goto, wherever it goes).
/// Without \p ByBreak, a break does not count (only the jumps that leave
/// for somewhere else: a goto to a label outside \p S).
inline bool leavesEarly(const clang::Stmt *S, bool OrSkips = false,
                        bool ByBreak = true) {
  struct Finder : JumpNestingVisitor<Finder> {
    bool Found = false;
    bool Skips = false;
    bool Breaks = true;
    bool VisitBreakStmt(clang::BreakStmt *) {
      Found |= Breaks && breakLeaves();
      return !Found;
    }
    bool VisitContinueStmt(clang::ContinueStmt *) {
      Found |= Skips && continueLeaves();
      return !Found;
    }
    bool VisitReturnStmt(clang::ReturnStmt *) { return !(Found = true); }
    // A goto to a label inside S leaves nothing, but may skip the rest of
    // a pass.
    bool VisitGotoStmt(clang::GotoStmt *G) {
      Targets.push_back(G->getLabel());
      return !(Found |= Skips);
    }
    bool VisitLabelStmt(clang::LabelStmt *L) {
      Labels.insert(L->getDecl());
      return true;
    }
    bool VisitIndirectGotoStmt(clang::IndirectGotoStmt *) {
      return !(Found = true);
    }
    bool VisitCoreturnStmt(clang::CoreturnStmt *) { return !(Found = true); }
    llvm::SmallPtrSet<const clang::LabelDecl *, 4> Labels;
    llvm::SmallVector<const clang::LabelDecl *, 4> Targets;
  } F;
  F.Skips = OrSkips;
  F.Breaks = ByBreak;
  F.TraverseStmt(const_cast<clang::Stmt *>(S));
  return F.Found || llvm::any_of(F.Targets, [&](const clang::LabelDecl *L) {
           return !F.Labels.count(L);
         });
}

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_JUMPNESTING_H
