//===- CudaBuiltins.cpp - CUDA built-in variables and functions -----------===//
//
// threadIdx & co. are not plain member accesses in clang: `threadIdx.x` is a
// PseudoObjectExpr wrapping an MSPropertyRefExpr on the DeclRefExpr
// 'threadIdx' whose semantic form calls __fetch_builtin_x.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/Basic/Builtins.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace coalesce {
namespace frontend {

coalesce::SourceLocation toLocation(const SourceManager &SM,
                                    clang::SourceLocation Loc) {
  coalesce::SourceLocation Out;
  if (Loc.isInvalid())
    return Out;
  clang::SourceLocation Exp = SM.getExpansionLoc(Loc);
  PresumedLoc P = SM.getPresumedLoc(Exp);
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.Line = P.getLine();
  Out.Column = P.getColumn();
  return Out;
}

const FunctionDecl *namedFunction(const clang::Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(DRE->getDecl());
  return nullptr;
}

bool inSystemHeader(const SourceManager &SM, const Decl *D) {
  // A declaration can begin inside a system header's macro (`__global__`
  // from host_defines.h): judge by the name's location.
  return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
}

std::string sourceText(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(R);
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    Range = SM.getExpansionRange(R);
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

std::optional<Symbol> cudaBuiltinSymbol(const clang::Expr *E) {
  const auto *POE = dyn_cast<PseudoObjectExpr>(E->IgnoreParenImpCasts());
  if (!POE)
    return std::nullopt;
  const auto *Prop =
      dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
  if (!Prop)
    return std::nullopt;
  const auto *Base =
      dyn_cast<DeclRefExpr>(Prop->getBaseExpr()->IgnoreParenImpCasts());
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(Prop->getBaseExpr()))
    Base = dyn_cast<DeclRefExpr>(OVE->getSourceExpr()->IgnoreParenImpCasts());
  if (!Base)
    return std::nullopt;
  int Dim = llvm::StringSwitch<int>(Prop->getPropertyDecl()->getName())
                .Case("x", 0)
                .Case("y", 1)
                .Case("z", 2)
                .Default(-1);
  if (Dim < 0)
    return std::nullopt;
  switch (cudaVariable(Base->getDecl()->getName())) {
  case CudaVariable::ThreadIdx:
    return Symbol::threadIdx(Dim);
  case CudaVariable::BlockIdx:
    return Symbol::blockIdx(Dim);
  case CudaVariable::BlockDim:
    return Symbol::blockDim(Dim);
  case CudaVariable::GridDim:
    return Symbol::gridDim(Dim);
  default:
    return std::nullopt;
  }
}

bool isPointerIdentityBuiltin(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  switch (FD->getBuiltinID()) {
  case Builtin::BI__builtin_assume_aligned:
  case Builtin::BI__builtin_launder:
    return true;
  default:
    return false;
  }
}

const clang::Expr *identityCallArgument(const clang::Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || CE->getNumArgs() != 1)
    return nullptr;
  switch (FD->getBuiltinID()) {
  case Builtin::BImove:
  case Builtin::BImove_if_noexcept:
  case Builtin::BIforward:
  case Builtin::BIforward_like:
  case Builtin::BIas_const:
    return CE->getArg(0);
  default:
    return cudaFunction(plainName(FD)).is(CudaRole::Identity) ? CE->getArg(0)
                                                              : nullptr;
  }
}

} // namespace frontend
} // namespace coalesce
