//===- SharedArrays.cpp - Statically sized __shared__ arrays --------------===//

#include "SharedArrays.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <utility>

using namespace clang;

namespace coalesce {
namespace frontend {
namespace {

/// Whether some use of \p VD is not the base of a subscript. Parents are
/// looked up in a map of the body of the function being traversed (built
/// per function: ASTContext::getParents would map the whole translation
/// unit, headers included, for the first question).
class EscapeFinder : public DynamicRecursiveASTVisitor {
public:
  explicit EscapeFinder(const VarDecl *VD) : VD(VD) {}

  bool TraverseDecl(Decl *D) override {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD || !FD->doesThisDeclarationHaveABody())
      return DynamicRecursiveASTVisitor::TraverseDecl(D);
    ParentMap Local(FD->getBody());
    const ParentMap *Outer = std::exchange(PM, &Local);
    bool Go = DynamicRecursiveASTVisitor::TraverseDecl(D);
    PM = Outer;
    return Go;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (DRE->getDecl() != VD)
      return true;
    // Up through the implicit array-to-pointer decay and parentheses to
    // the subscript whose base it is.
    const Stmt *Child = DRE;
    while (true) {
      const Stmt *P = parent(Child);
      if (!P) {
        Escapes = true;
        return false;
      }
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P);
          ICE && ICE->getCastKind() == CK_ArrayToPointerDecay) {
        Child = P;
        continue;
      }
      if (isa<ParenExpr>(P)) {
        Child = P;
        continue;
      }
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(P);
          ASE && ASE->getBase()->IgnoreParenImpCasts() ==
                     cast<clang::Expr>(Child)->IgnoreParenImpCasts()) {
        // tile[i] of a 2-D array is itself an array: follow it up too.
        if (ASE->getType()->isArrayType()) {
          Child = P;
          continue;
        }
        // An element's address (`&tile[0][0]`) lets code walk the rows.
        if (takesAddress(ASE)) {
          Escapes = true;
          return false;
        }
        return true;
      }
      Escapes = true;
      return false;
    }
  }

  bool Escapes = false;

private:
  /// The statement \p S is a child of, in the function being traversed;
  /// null at its body's top and outside functions.
  const Stmt *parent(const Stmt *S) const {
    return PM ? PM->getParent(S) : nullptr;
  }

  /// Whether \p E (through parentheses) is the operand of a unary `&`.
  bool takesAddress(const clang::Expr *E) const {
    const Stmt *Child = E;
    while (true) {
      const Stmt *P = parent(Child);
      if (P && isa<ParenExpr>(P)) {
        Child = P;
        continue;
      }
      const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
      return UO && UO->getOpcode() == UO_AddrOf;
    }
  }

  const VarDecl *VD;
  const ParentMap *PM = nullptr;
};

} // namespace

std::optional<SharedArrayDecl> SharedArrays::of(const clang::Expr *LV) {
  const clang::Expr *E = LV->IgnoreParenImpCasts();
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    E = ASE->getBase()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasAttr<CUDASharedAttr>())
    return std::nullopt;
  auto [It, New] = Seen.try_emplace(VD);
  if (New)
    It->second = examine(VD);
  return It->second;
}

std::optional<SharedArrayDecl> SharedArrays::examine(const VarDecl *VD) {
  const auto *Outer = Ctx.getAsConstantArrayType(VD->getType());
  if (!Outer || !isa<ConstantArrayType>(Outer->getElementType()))
    return std::nullopt; // One dimension: nothing to pad between rows.
  TypeSourceInfo *TSI = VD->getTypeSourceInfo();
  if (!TSI)
    return std::nullopt;
  // The innermost dimension as written: the last ArrayTypeLoc.
  ArrayTypeLoc Inner;
  TypeLoc TL = TSI->getTypeLoc().IgnoreParens();
  while (true) {
    ArrayTypeLoc ATL = TL.getAsAdjusted<ArrayTypeLoc>();
    if (!ATL)
      break;
    Inner = ATL;
    TL = ATL.getElementLoc().IgnoreParens();
  }
  if (!Inner || !Inner.getSizeExpr())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Inner.getSizeExpr()->getSourceRange();
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID() ||
      !SM.isWrittenInMainFile(R.getBegin()))
    return std::nullopt; // Written by a macro or in a header: left alone.
  CharSourceRange Chars = CharSourceRange::getTokenRange(R);
  StringRef Text = Lexer::getSourceText(Chars, SM, Ctx.getLangOpts());
  const auto *InnerType = Ctx.getAsConstantArrayType(Outer->getElementType());
  while (const auto *Next =
             Ctx.getAsConstantArrayType(InnerType->getElementType()))
    InnerType = Next;
  SharedArrayDecl A;
  A.Name = VD->getName().str();
  PresumedLoc D = SM.getPresumedLoc(VD->getLocation());
  A.Decl = {D.getFilename(), D.getLine(), D.getColumn()};
  PresumedLoc P = SM.getPresumedLoc(R.getBegin());
  A.DimLoc = {P.getFilename(), P.getLine(), P.getColumn()};
  A.DimOffset = SM.getFileOffset(R.getBegin());
  A.DimLength = unsigned(Text.size());
  A.DimText = Text.str();
  A.Extent = int64_t(InnerType->getSize().getZExtValue());
  // Every use in the function (or the file, for a file-scope array).
  const DeclContext *DC = VD->getParentFunctionOrMethod();
  EscapeFinder Finder(VD);
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(DC))
    Finder.TraverseDecl(const_cast<FunctionDecl *>(FD));
  else
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  A.Escapes = Finder.Escapes;
  return A;
}

} // namespace frontend
} // namespace coalesce
