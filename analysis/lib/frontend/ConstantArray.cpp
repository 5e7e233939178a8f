//===- ConstantArray.cpp - Reads of arrays of integer constants -----------===//
//
// `int block_sizes[] = {32, 64, 128, 256}; for (j ...) launch(block_sizes[j])`
// is how benchmarks sweep launch shapes, and `const int offs[4] = {...}`
// how kernels hold small lookup tables. Such an array is not memory the
// walker models, but its elements are known: a read of one is the element
// (a select over the index when the index is not a constant), as long as
// no code writes the array or lets it escape.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// Arrays with more elements are left alone (the select would be long).
constexpr uint64_t MaxElements = 32;

} // namespace

ElementUses elementUses(const VarDecl *VD, const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *VD;
    ElementUses Uses;
    bool refersTo(const clang::Expr *E) const {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && DRE->getDecl() == VD;
    }
    const ArraySubscriptExpr *element(const clang::Expr *E) const {
      const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
      return ASE && refersTo(ASE->getBase()) ? ASE : nullptr;
    }
    // sizeof(a) / sizeof(int) reads nothing (an unevaluated operand).
    bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Uses.Refs += DRE->getDecl() == VD;
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
      // An element read: a[i] as an rvalue.
      if (ICE->getCastKind() == CK_LValueToRValue && element(ICE->getSubExpr()))
        ++Uses.Reads;
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() == BO_Assign && element(BO->getLHS()))
        ++Uses.Assigns;
      return true;
    }
    bool VisitCompoundAssignOperator(CompoundAssignOperator *CAO) {
      // `p[i] += d`: an update of the element (it reads it too).
      if (element(CAO->getLHS()))
        ++Uses.Updates;
      return true;
    }
  } F;
  F.VD = VD;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Uses;
}

namespace {
} // namespace

std::optional<Expr> KernelWalker::constantArrayElement(const clang::Expr *LV,
                                                       const Frame &F) {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV->IgnoreParens());
  if (!ASE || !ASE->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  const VarDecl *VD = localVariable(ASE->getBase());
  if (!VD)
    return std::nullopt;
  auto [It, New] = Memo.ConstantArrays.try_emplace(VD);
  if (New) {
    const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
    const auto *ILE = dyn_cast_or_null<InitListExpr>(VD->getInit());
    const auto *Fn = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
    if (AT && ILE && Fn && Fn->getBody() &&
        AT->getSize().getZExtValue() <= MaxElements &&
        elementUses(VD, Fn->getBody()).onlyRead()) {
      std::vector<int64_t> Elements;
      for (unsigned I = 0, N = AT->getSize().getZExtValue(); I < N; ++I) {
        // Elements the list leaves out are zero.
        if (I >= ILE->getNumInits()) {
          Elements.push_back(0);
          continue;
        }
        std::optional<int64_t> V = constantValue(ILE->getInit(I));
        if (!V)
          break;
        Elements.push_back(*V);
      }
      if (Elements.size() == AT->getSize().getZExtValue())
        It->second = std::move(Elements);
    }
  }
  // A copy: translating the index may read another table and grow the map.
  const std::optional<std::vector<int64_t>> Elements = It->second;
  if (!Elements || Elements->empty())
    return std::nullopt;
  Expr Index = translate(ASE->getIdx(), F);
  if (std::optional<int64_t> I = Index.asConstant())
    return *I >= 0 && static_cast<uint64_t>(*I) < Elements->size()
               ? std::optional<Expr>(Expr::constant((*Elements)[*I]))
               : std::nullopt;
  // select(i == 0, e0, select(i == 1, e1, ... e_last)): the last element
  // for the index out of bounds, which is undefined anyway.
  Expr V = Expr::constant(Elements->back());
  for (size_t I = Elements->size() - 1; I-- > 0;)
    V = Expr::select(Expr::eq(Index, Expr::constant(I)),
                     Expr::constant((*Elements)[I]), V);
  return V;
}

} // namespace frontend
} // namespace coalesce
