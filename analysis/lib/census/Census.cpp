//===- Census.cpp - Every memory operation a kernel reaches ---------------===//
//
// The census's own rules, on the syntax alone:
//
//  - The code a kernel reaches: its body and, transitively, the bodies of
//    the functions, constructors, operators and lambdas it calls that are
//    defined in the user's files (not system headers). A call into a
//    system header or to a function without a body is a library call.
//  - A memory lvalue: a subscript, a dereference, a member through a
//    pointer (or through `this` in a method some call runs on memory), a
//    use of a reference bound to memory, a variable in device, shared or
//    constant memory. Only the outermost lvalue of a chain counts
//    (`p[i].x`, `a[i][j]`).
//  - Its use gives the operation: read (lvalue-to-rvalue, a copy, a
//    library call's reference parameter), write (assignment), both (compound
//    assignment, increment). Taking the address, binding a reference and
//    unevaluated operands are no operation; an lvalue bound to a user
//    function's reference parameter (or its `this`) makes that parameter a
//    memory reference in the callee.
//  - A library call given a pointer (atomics, intrinsics, memcpy, cub's
//    block primitives, curand), and inline assembly with a pointer operand:
//    an operation whose kind the census cannot see.
//
//===----------------------------------------------------------------------===//
#include "census/CensusInternal.h"

namespace coalesce {
namespace census {
namespace detail {

/// Is \p CE std::move(x), std::forward<T>(x) or a sibling: a call that
/// names its one argument and accesses nothing?
bool namesItsArgument(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || CE->getNumArgs() != 1)
    return false;
  switch (Callee->getBuiltinID()) {
  case Builtin::BImove:
  case Builtin::BImove_if_noexcept:
  case Builtin::BIforward:
  case Builtin::BIforward_like:
  case Builtin::BIas_const:
    return true;
  default:
    return false;
  }
}

coalesce::SourceLocation location(const SourceManager &SM,
                                  clang::SourceLocation Loc) {
  coalesce::SourceLocation Out;
  if (Loc.isInvalid())
    return Out;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.Line = P.getLine();
  Out.Column = P.getColumn();
  return Out;
}

/// The last character of the token at \p Loc's expansion.
coalesce::SourceLocation endLocation(const ASTContext &Ctx,
                                     clang::SourceLocation Loc) {
  const SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation End = SM.getExpansionRange(Loc).getEnd();
  coalesce::SourceLocation Out = location(SM, End);
  if (unsigned Len = Lexer::MeasureTokenLength(End, SM, Ctx.getLangOpts()))
    Out.Column += Len - 1;
  return Out;
}

std::string text(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(R);
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

const Expr *skipParens(const Expr *E) {
  while (const auto *P = dyn_cast<ParenExpr>(E))
    E = P->getSubExpr();
  return E;
}

/// `this`, also converted to a base class (`this->end` of a field of a
/// base, which clang writes as an implicit derived-to-base cast).
bool isThis(const Expr *E) {
  return isa<CXXThisExpr>(E->IgnoreParenImpCasts());
}

/// threadIdx, blockIdx, blockDim, gridDim (and warpSize): declared by the
/// CUDA headers as device variables of special types, read from registers.
bool isCudaBuiltinVariable(const VarDecl *VD) {
  if (const auto *RD = VD->getType()->getAsCXXRecordDecl())
    if (const IdentifierInfo *II = RD->getIdentifier())
      if (II->getName().starts_with("__cuda_builtin_"))
        return true;
  return VD->getName() == "warpSize";
}

const char *CensusBuilder::rootRule(const Expr *E, const FunctionDecl *FD,
                                    unsigned Depth) {
  E = skipParens(E);
  if (isa<ArraySubscriptExpr>(E))
    return E->getType()->isArrayType() ? nullptr : "subscript";
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_Deref || E->getType()->isFunctionType())
      return nullptr;
    if (isThis(UO->getSubExpr()))
      return thisInMemory(FD) ? "dereference of this" : nullptr;
    return "dereference";
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()) || !ME->isArrow() ||
        E->getType()->isArrayType())
      return nullptr;
    if (isThis(ME->getBase()))
      return thisInMemory(FD) ? "member of this" : nullptr;
    return "member through a pointer";
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return nullptr;
    if (VD->getType()->isReferenceType()) {
      if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
        return memoryParam(FD, PVD) ? "reference" : nullptr;
      const Expr *Init = VD->getInit();
      return Init && Depth < 8 && isMemoryLValue(Init, FD, Depth + 1)
                 ? "reference"
                 : nullptr;
    }
    if (VD->getType()->isArrayType())
      return nullptr; // Read through a subscript.
    if (isCudaBuiltinVariable(VD))
      return nullptr; // threadIdx & co.: registers, not memory.
    if (VD->isConstexpr())
      return nullptr; // Folded at compile time.
    if (VD->hasGlobalStorage() &&
        (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDASharedAttr>() ||
         VD->hasAttr<CUDAConstantAttr>() || VD->isStaticLocal()))
      return "variable in device memory";
    return nullptr;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A user function returning a reference into memory.
    const FunctionDecl *Def = userDefinition(CE->getDirectCallee());
    if (!Def || !Def->getReturnType()->isReferenceType() || Depth >= 4)
      return nullptr;
    struct Returns : RecursiveASTVisitor<Returns> {
      std::vector<const Expr *> Values;
      bool VisitReturnStmt(ReturnStmt *RS) {
        if (RS->getRetValue())
          Values.push_back(RS->getRetValue());
        return true;
      }
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    } R;
    R.TraverseStmt(Def->getBody());
    for (const Expr *V : R.Values) {
      const Expr *Ret = skipParens(V->IgnoreImplicit());
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Ret))
        if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
          unsigned I = PVD->getFunctionScopeIndex();
          unsigned Shift = isa<CXXOperatorCallExpr>(CE) &&
                                   isa<CXXMethodDecl>(Def)
                               ? 1
                               : 0;
          if (I + Shift < CE->getNumArgs() &&
              isMemoryLValue(CE->getArg(I + Shift), FD, Depth + 1))
            return "reference returned by a call";
          continue;
        }
      if (rootRule(Ret, Def, Depth + 1) || isMemoryLValue(Ret, Def, Depth + 1))
        return "reference returned by a call";
    }
    return nullptr;
  }
  return nullptr;
}

bool CensusBuilder::isMemoryLValue(const Expr *E, const FunctionDecl *FD,
                                   unsigned Depth) {
  if (Depth > 8)
    return false;
  E = skipParens(E->IgnoreImplicit());
  if (rootRule(E, FD, Depth))
    return true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return isMemoryLValue(ASE->getBase(), FD, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isMemoryLValue(ME->getBase(), FD, Depth + 1);
  if (const auto *ECE = dyn_cast<ExplicitCastExpr>(E))
    return ECE->isGLValue() && isMemoryLValue(ECE->getSubExpr(), FD, Depth + 1);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return CO->isGLValue() && (isMemoryLValue(CO->getTrueExpr(), FD, Depth + 1) ||
                               isMemoryLValue(CO->getFalseExpr(), FD, Depth + 1));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getType()->isArrayType() && VD->hasGlobalStorage() &&
             (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDASharedAttr>() ||
              VD->hasAttr<CUDAConstantAttr>() || VD->isStaticLocal());
  return false;
}

void CensusBuilder::addEntry(const Expr *Root, const Expr *Outer, unsigned Ops,
                             const char *Rule) {
  Entry En;
  En.Ops = Ops;
  En.Rule = Rule;
  // Every node from the outermost lvalue down its chain of bases.
  for (const Expr *E = Outer; E;) {
    En.Anchors.push_back(location(SM, E->getBeginLoc()));
    E = skipParens(E) != E ? skipParens(E) : E;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      E = ICE->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
             ASE && E != Root)
      E = ASE->getBase();
    else
      break;
    if (E == Root) {
      En.Anchors.push_back(location(SM, E->getBeginLoc()));
      break;
    }
  }
  En.Anchors.push_back(location(SM, Root->getBeginLoc()));
  En.Begin = En.Anchors.front();
  En.Expression = text(Ctx, Outer->getSourceRange());
  auto Key = std::make_tuple(
      SM.getExpansionLoc(Outer->getBeginLoc()).getRawEncoding(), Ops, Rule);
  if (Seen.insert(Key).second)
    Entries.push_back(std::move(En));
}

void CensusBuilder::addRangeEntry(const Stmt *S, const char *Rule) {
  Entry En;
  En.Begin = location(SM, S->getBeginLoc());
  En.End = endLocation(Ctx, S->getEndLoc());
  En.Rule = Rule;
  En.Expression = text(Ctx, S->getSourceRange());
  auto Key = std::make_tuple(
      SM.getExpansionLoc(S->getBeginLoc()).getRawEncoding(), 0u, Rule);
  if (Seen.insert(Key).second)
    Entries.push_back(std::move(En));
}

void CensusBuilder::scan(const FunctionDecl *FD) {
  auto ScanTree = [&](Stmt *S) {
    if (!S)
      return;
    ParentMap PM(S);
    BodyVisitor V(*this, FD, PM);
    V.TraverseStmt(S);
  };
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() || Init->isAnyMemberInitializer())
        ScanTree(Init->getInit());
  ScanTree(FD->getBody());
}

} // namespace detail

std::vector<Entry> takeCensus(clang::ASTContext &Ctx,
                              const clang::FunctionDecl *Kernel) {
  detail::CensusBuilder B(Ctx);
  return B.run(Kernel);
}

} // namespace census
} // namespace coalesce
