//===- CensusUses.cpp - What each use of a memory lvalue does -------------===//
//
// The census's BodyVisitor: the outermost memory lvalue of each chain, the
// operation its use performs (read, write, both, none), the calls that
// reach further code or take a pointer, lambdas, inline assembly.
//
//===----------------------------------------------------------------------===//
#include "census/CensusInternal.h"

namespace coalesce {
namespace census {
namespace detail {

bool BodyVisitor::TraverseLambdaExpr(LambdaExpr *LE) {
  // A lambda held in a variable (`auto matmul_a8 = [&](int k) {...}` of
  // Marlin's kernels) runs where it is called: its body is reached through
  // those calls (VisitCallExpr), and not at all in an instantiation that
  // calls it only in a discarded `if constexpr` branch. Its init-captures
  // are evaluated here. A lambda used in place (an argument, often of a
  // library primitive that calls it) is scanned where it is written.
  const Stmt *P = parent(LE);
  while (P && (isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
               isa<CXXBindTemporaryExpr>(P) || isa<ExprWithCleanups>(P) ||
               isa<CXXConstructExpr>(P)))
    P = parent(P);
  if (!P || !isa<DeclStmt>(P))
    return RecursiveASTVisitor::TraverseLambdaExpr(LE);
  for (unsigned I = 0; I < LE->capture_size(); ++I)
    if (LE->capture_begin()[I].capturesVariable() &&
        LE->capture_begin()[I].getCapturedVar()->isInitCapture())
      TraverseStmt(LE->capture_init_begin()[I]);
  return true;
}

bool BodyVisitor::VisitExpr(Expr *E) {
  const char *Rule = B.rootRule(E, FD);
  if (!Rule || isa<ParenExpr>(E))
    return true;
  // Climb to the outermost lvalue of the chain; if it holds another
  // memory lvalue (`p[i]` in `p[i].a[j]`), that one is the entry.
  const Expr *L = E;
  for (;;) {
    const Stmt *P = parent(L);
    const auto *PE = dyn_cast_or_null<Expr>(P);
    if (!PE)
      break;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(PE)) {
      CastKind K = ICE->getCastKind();
      if (K == CK_NoOp || K == CK_DerivedToBase ||
          K == CK_UncheckedDerivedToBase) {
        L = ICE;
        continue;
      }
      if (K == CK_ArrayToPointerDecay)
        if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(parent(ICE));
            ASE && ASE->getBase() == ICE) {
          if (B.rootRule(ASE, FD))
            return true;
          L = ASE;
          continue;
        }
      break;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(PE);
        ME && !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl())) {
      L = ME;
      continue;
    }
    // std::move(x), std::forward<T>(x) name x: what is done to the call
    // is done to x.
    if (const auto *CE = dyn_cast<CallExpr>(PE); CE && namesItsArgument(CE)) {
      L = CE;
      continue;
    }
    // An lvalue seen as another type (`reinterpret_cast<T &>(*this)`).
    if (const auto *ECE = dyn_cast<ExplicitCastExpr>(PE);
        ECE && ECE->isGLValue()) {
      L = ECE;
      continue;
    }
    // `c ? a[i] : b[j]` as an lvalue: what is done to it is done to an arm.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(PE);
        CO && CO->isGLValue() && CO->getCond()->IgnoreParens() != L) {
      L = CO;
      continue;
    }
    break;
  }
  if (L->getType()->isArrayType())
    return true; // Decays to an address, or is bound whole.
  if (std::optional<unsigned> Ops = useOf(L))
    B.addEntry(E, L, *Ops, Rule);
  return true;
}

std::optional<unsigned> BodyVisitor::useOf(const Expr *L) {
  const Stmt *P = parent(L);
  // The end of a full expression that destroys temporaries (`v +=
  // cw_mul(a, b)` of Warp's solid_angle.h) is where L is used.
  while (P && isa<FullExpr>(P))
    P = parent(P);
  if (!P)
    return std::nullopt;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
    switch (ICE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_LValueToRValueBitCast:
    case CK_AtomicToNonAtomic:
      return LoadOp;
    case CK_ArrayToPointerDecay:
    case CK_FunctionToPointerDecay:
      return std::nullopt;
    default:
      return AnyOp;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf)
      return std::nullopt;
    if (UO->isIncrementDecrementOp())
      return LoadOp | StoreOp;
    return AnyOp;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->getLHS()->IgnoreParens() != L)
      return AnyOp;
    if (BO->getOpcode() == BO_Assign)
      return StoreOp;
    if (BO->isCompoundAssignmentOp())
      return LoadOp | StoreOp;
    if (BO->getOpcode() == BO_Comma)
      return std::nullopt;
    return AnyOp;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    // A static data member or an enumerator named through an object
    // (`elh.numBins` of cuBQL's builders): the object is not read.
    if (isa<VarDecl, EnumConstantDecl>(ME->getMemberDecl()))
      return std::nullopt;
    // The object of a method call.
    if (const auto *MCE = dyn_cast_or_null<CXXMemberCallExpr>(parent(ME));
        MCE && MCE->getCallee()->IgnoreParens() == ME)
      return argumentUse(L, MCE, 0, /*Object=*/true);
    return AnyOp;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (CE->getArg(I)->IgnoreParens() == L)
        return argumentUse(L, CE, I, /*Object=*/false);
    return AnyOp;
  }
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(P)) {
    // A copy (or a constructor taking a reference).
    const CXXConstructorDecl *Ctor = CCE->getConstructor();
    const FunctionDecl *Def = B.userDefinition(Ctor);
    for (unsigned I = 0; I < CCE->getNumArgs(); ++I)
      if (CCE->getArg(I)->IgnoreParens() == L) {
        bool ByReference = I < Ctor->getNumParams() &&
                           Ctor->getParamDecl(I)->getType()->isReferenceType();
        if (Def && ByReference) {
          B.markParam(Def, I);
          return std::nullopt;
        }
        // A library object keeping a reference (cub's TempStorage &) does
        // its accesses in the calls made on it; a copy reads.
        if (!Def && ByReference && !Ctor->isCopyOrMoveConstructor())
          return std::nullopt;
        return LoadOp;
      }
    return LoadOp;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && VD->getType()->isReferenceType())
        return std::nullopt; // Its uses are the entries.
    return AnyOp;
  }
  if (isa<ReturnStmt>(P))
    return FD->getReturnType()->isReferenceType()
               ? std::nullopt
               : std::optional<unsigned>(AnyOp);
  if (isa<CompoundStmt>(P) || isa<NullStmt>(P))
    return std::nullopt; // A discarded lvalue: not read.
  if (isa<MaterializeTemporaryExpr>(P) || isa<InitListExpr>(P) ||
      isa<CXXStdInitializerListExpr>(P))
    return LoadOp;
  return AnyOp;
}

std::optional<unsigned> BodyVisitor::argumentUse(const Expr *L,
                                                 const CallExpr *CE, unsigned I,
                                                 bool Object) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = B.userDefinition(Callee);
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  bool OperatorMethod = isa<CXXOperatorCallExpr>(CE) && Method &&
                        !Method->isStatic() &&
                        !Method->isExplicitObjectMemberFunction();
  bool IsObject = Object || (OperatorMethod && I == 0);
  if (Def) {
    if (IsObject) {
      B.markThis(Def);
      return std::nullopt;
    }
    unsigned P = OperatorMethod ? I - 1 : I;
    if (P < Def->getNumParams() &&
        Def->getParamDecl(P)->getType()->isReferenceType()) {
      B.markParam(Def, P);
      return std::nullopt;
    }
    return LoadOp;
  }
  // Library code or no body: the operation is at the argument.
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE); OCE && I == 0) {
    OverloadedOperatorKind K = OCE->getOperator();
    if (K == OO_Equal)
      return StoreOp;
    if (K == OO_PlusEqual || K == OO_MinusEqual || K == OO_StarEqual ||
        K == OO_SlashEqual || K == OO_PercentEqual || K == OO_CaretEqual ||
        K == OO_AmpEqual || K == OO_PipeEqual || K == OO_LessLessEqual ||
        K == OO_GreaterGreaterEqual || K == OO_PlusPlus || K == OO_MinusMinus)
      return LoadOp | StoreOp;
    if (K == OO_Subscript || K == OO_Arrow || K == OO_Call)
      return AnyOp;
    return LoadOp;
  }
  if (IsObject)
    return Method && Method->isConst() ? LoadOp : AnyOp;
  if (Callee) {
    unsigned P = OperatorMethod ? I - 1 : I;
    if (P < Callee->getNumParams()) {
      QualType T = Callee->getParamDecl(P)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        return AnyOp;
    }
  }
  return LoadOp;
}

/// Is \p Arg a pointer the census counts for a library call (not a string
/// literal, a null pointer or a function)?
bool countedPointer(ASTContext &Ctx, const Expr *Arg) {
  QualType T = Arg->getType();
  if (!T->isPointerType() || T->getPointeeType()->isFunctionType())
    return false;
  const Expr *E = Arg->IgnoreParenImpCasts();
  // String literals and __PRETTY_FUNCTION__ (assert's arguments) are text.
  return !isa<StringLiteral>(E) && !isa<PredefinedExpr>(E) &&
         !Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

bool BodyVisitor::VisitCallExpr(CallExpr *CE) {
  if (isa<CUDAKernelCallExpr>(CE))
    return true;
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (const FunctionDecl *Def = B.userDefinition(Callee)) {
    B.reach(Def);
    return true;
  }
  if (!Callee) {
    // A call through a function pointer or a lambda object: its target
    // is reached where the census can see it (the lambda's operator()).
    return true;
  }
  bool Pointer = false;
  for (const Expr *Arg : CE->arguments())
    Pointer |= countedPointer(B.Ctx, Arg);
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    if (const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens());
        ME && ME->isArrow() &&
        !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Pointer = true;
  if (Pointer)
    B.addRangeEntry(
        CE, Callee->hasBody() || B.SM.isInSystemHeader(B.SM.getExpansionLoc(
                                     Callee->getLocation()))
                ? "library call with a pointer"
                : "call with a pointer to a function without a body");
  return true;
}

bool BodyVisitor::VisitCXXConstructExpr(CXXConstructExpr *CCE) {
  if (const FunctionDecl *Def = B.userDefinition(CCE->getConstructor()))
    B.reach(Def);
  return true;
}

bool BodyVisitor::VisitGCCAsmStmt(GCCAsmStmt *AS) {
  bool Pointer = false;
  for (unsigned I = 0; I < AS->getNumInputs(); ++I)
    Pointer |= countedPointer(B.Ctx, AS->getInputExpr(I));
  for (unsigned I = 0; I < AS->getNumOutputs(); ++I)
    Pointer |= countedPointer(B.Ctx, AS->getOutputExpr(I));
  if (Pointer)
    B.addRangeEntry(AS, "inline assembly with a pointer operand");
  return true;
}

} // namespace detail
} // namespace census
} // namespace coalesce
