//===- ProbeSlice.cpp - The statements a loop's probe passes need ---------===//
//
// See ProbeSlice.h. Everything here reads syntax only.
//
//===----------------------------------------------------------------------===//
#include "ProbeSlice.h"
#include "JumpNesting.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// The local variable or parameter \p DRE names; for a structured binding,
/// the variable it is part of.
const ValueDecl *localNamed(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  if (const auto *BD = dyn_cast<BindingDecl>(D))
    D = BD->getDecomposedDecl();
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  return VD && !VD->hasGlobalStorage() ? VD : nullptr;
}

/// The local variable or parameter whose storage \p E names: itself, a
/// field of an object it holds (`s.x`), an element of an array it holds
/// (`a[i]`, `s.a[i]`). Null for memory (`*p`, `p[i]` of a pointer, `q->x`)
/// and for globals.
const ValueDecl *storageOf(const clang::Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const clang::Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr; // A pointer's element: memory.
      E = Base;
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return localNamed(DRE);
    return nullptr;
  }
}

bool isReference(const ValueDecl *VD) {
  return VD->getType()->isReferenceType();
}

/// Fills the effects of one statement.
class EffectsFinder : public JumpNestingVisitor<EffectsFinder> {
public:
  explicit EffectsFinder(StatementEffects &Out) : Out(Out) {}

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const ValueDecl *VD = localNamed(DRE))
      Out.Reads.insert(VD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (!VD->hasGlobalStorage())
      Out.Writes.insert(VD);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      written(UO->getSubExpr());
    else if (UO->getOpcode() == UO_AddrOf)
      if (const ValueDecl *VD = storageOf(UO->getSubExpr()))
        Out.Writes.insert(VD);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      written(BO->getLHS());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || Callee->isNoReturn()) {
      Out.Keep = true;
      return true;
    }
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE)) {
      OverloadedOperatorKind Op = OCE->getOperator();
      if (Op == OO_Call) {
        Out.Keep = true; // A lambda or another callable object.
        return true;
      }
      if (OCE->isAssignmentOp() || Op == OO_PlusPlus || Op == OO_MinusMinus)
        if (OCE->getNumArgs() >= 1)
          written(OCE->getArg(0));
    }
    if (Callee->hasBody())
      Out.MayStore = true; // The walker follows it: it may store.
    const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
    bool ObjectFirst = isa<CXXOperatorCallExpr>(CE) && Method;
    arguments(Callee, llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()),
              ObjectFirst ? 1 : 0);
    if (ObjectFirst && CE->getNumArgs() >= 1 && !Method->isConst())
      written(CE->getArg(0));
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    const CXXMethodDecl *M = MCE->getMethodDecl();
    if (const clang::Expr *Obj = MCE->getImplicitObjectArgument())
      if (!M || !M->isConst()) {
        if (isa<CXXThisExpr>(Obj->IgnoreParenImpCasts()))
          Out.Keep = true;
        else if (const ValueDecl *VD = storageOf(Obj); VD && !isReference(VD))
          Out.Writes.insert(VD);
        else
          Out.MayStore = true;
      }
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    arguments(CE->getConstructor(),
              llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()), 0);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *) { return keep(); }
  bool VisitLambdaExpr(LambdaExpr *) { return keep(); }
  bool VisitGotoStmt(GotoStmt *) { return keep(); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return keep(); }
  bool VisitLabelStmt(LabelStmt *) { return keep(); }
  bool VisitReturnStmt(ReturnStmt *) { return keep(); }
  bool VisitAsmStmt(AsmStmt *) { return keep(); }
  bool VisitCXXThrowExpr(CXXThrowExpr *) { return keep(); }
  bool VisitCXXNewExpr(CXXNewExpr *) { return store(); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *) { return store(); }
  bool VisitBreakStmt(BreakStmt *) {
    Out.Keep |= breakLeaves();
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *) {
    Out.Keep |= continueLeaves();
    return true;
  }
  bool VisitSwitchCase(SwitchCase *) {
    Out.Keep |= caseOutside(); // A case of a switch around the loop.
    return true;
  }

private:
  bool keep() {
    Out.Keep = true;
    return true;
  }
  bool store() {
    Out.MayStore = true;
    return true;
  }
  /// \p LV is written: a slot of the frame, or memory.
  void written(const clang::Expr *LV) {
    const ValueDecl *VD = storageOf(LV);
    if (VD)
      Out.Writes.insert(VD);
    // Memory, or through a reference (which may be bound to memory).
    if (!VD || isReference(VD))
      Out.MayStore = true;
  }
  /// Arguments \p First.. of a call of \p Callee: those bound to a
  /// non-const reference, or local arrays decayed to a pointer, may be
  /// written; a pointer handed over may be stored through.
  void arguments(const FunctionDecl *Callee,
                 llvm::ArrayRef<const clang::Expr *> Args, unsigned First) {
    for (unsigned I = First; I < Args.size(); ++I) {
      const clang::Expr *Arg = Args[I];
      unsigned P = I - First;
      QualType T = P < Callee->getNumParams()
                       ? Callee->getParamDecl(P)->getType()
                       : Arg->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        written(Arg);
      else if (Arg->IgnoreParenImpCasts()->getType()->isArrayType())
        written(Arg);
      else if (T->isPointerType() || T->isReferenceType())
        Out.MayStore = true;
    }
  }

  StatementEffects &Out;
};

/// Finds the locals of a function that another name may reach.
class AliasFinder : public RecursiveASTVisitor<AliasFinder> {
public:
  bool Found = false;

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && storageOf(UO->getSubExpr()))
      Found = true;
    return !Found;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
    SubscriptBases.insert(ASE->getBase()->IgnoreParens());
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_ArrayToPointerDecay &&
        storageOf(ICE->getSubExpr()))
      Decays.push_back(ICE);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() && VD->getInit() &&
        storageOf(VD->getInit()))
      Found = true;
    return !Found;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    if (S->getRangeInit() && storageOf(S->getRangeInit()))
      Found = true;
    return !Found;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.getCaptureKind() == LCK_ByRef)
        Found = true;
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    // An object constructed from a local by reference may keep it.
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    for (unsigned I = 0; I < CE->getNumArgs() && I < Ctor->getNumParams(); ++I)
      if (Ctor->getParamDecl(I)->getType()->isReferenceType() &&
          !Ctor->isCopyOrMoveConstructor() && storageOf(CE->getArg(I)))
        Found = true;
    return !Found;
  }

  /// Decays to a pointer that are not the base of a subscript.
  bool decayEscapes() const {
    return llvm::any_of(
        Decays, [&](const clang::Expr *E) { return !SubscriptBases.count(E); });
  }

private:
  llvm::SmallPtrSet<const clang::Expr *, 16> SubscriptBases;
  llvm::SmallVector<const clang::Expr *, 8> Decays;
};

} // namespace

std::vector<StatementEffects>
statementEffects(const clang::CompoundStmt *Body) {
  std::vector<StatementEffects> Out;
  for (const Stmt *S : Body->body()) {
    StatementEffects &E = Out.emplace_back();
    EffectsFinder(E).TraverseStmt(const_cast<Stmt *>(S));
  }
  return Out;
}

bool hasAliasedLocals(const FunctionDecl *Fn) {
  const Stmt *Body = Fn->getBody();
  if (!Body)
    return true;
  AliasFinder F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found || F.decayEscapes();
}

std::optional<llvm::BitVector>
probeSlice(llvm::ArrayRef<StatementEffects> Effects,
           llvm::SmallPtrSet<const ValueDecl *, 8> Needed) {
  llvm::BitVector Walk(Effects.size());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Effects.size(); ++I) {
      const StatementEffects &E = Effects[I];
      if (Walk[I] ||
          !(E.Keep || llvm::any_of(E.Writes, [&](const ValueDecl *VD) {
              return Needed.count(VD) != 0;
            })))
        continue;
      Walk.set(I);
      Needed.insert(E.Reads.begin(), E.Reads.end());
      Changed = true;
    }
  }
  if (Walk.all())
    return std::nullopt;
  return Walk;
}

} // namespace frontend
} // namespace coalesce
