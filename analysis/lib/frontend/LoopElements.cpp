//===- LoopElements.cpp - Local arrays across a loop ----------------------===//
//
// What a loop does to the local arrays whose elements it stores
// (VarValue::Elements): before it, the elements its passes read are
// unknown, except where the loop's syntax shows more:
// - a loop whose passes each use only their own element (`for (i = 0; i <
//   N; ++i) B_ptr[i] += d;`) reads there what the stores before it left;
//   storing element k at pass k of as many passes as the array has
//   elements leaves every element known after it;
// - an array of pointers the loop only moves by amounts the same in every
//   lane (marlin's pipeline: `B_ptr[i] += b_sh_stride - ...` in its main
//   loop) holds, at every pass and after the loop, its pointers moved by a
//   uniform number of elements (a symbol of its own): where each lane
//   points relative to the others is unchanged.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// The stores into elements of \p VD in \p Body (`VD[i] op= e`), and
/// whether \p Body uses an element of it otherwise than read or stored.
struct ElementStores : RecursiveASTVisitor<ElementStores> {
  const VarDecl *VD = nullptr;
  llvm::SmallVector<const BinaryOperator *, 4> Stores;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (const auto *ASE =
            dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens()))
      if (localVariable(ASE->getBase()) == VD)
        Stores.push_back(BO);
    return true;
  }
};

/// Does \p E name only variables held before the loop (in \p F, or global)
/// that the loop does not change?
bool invariantOperands(
    const clang::Expr *E, const Frame &F,
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Modified) {
  struct Names : RecursiveASTVisitor<Names> {
    const Frame *F;
    const llvm::SmallPtrSetImpl<const ValueDecl *> *Modified;
    bool Ok = true;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return true;
      Ok &= !Modified->count(VD) &&
            (VD->hasGlobalStorage() || F->Env.count(VD) != 0);
      return Ok;
    }
  } N;
  N.F = &F;
  N.Modified = &Modified;
  N.TraverseStmt(const_cast<clang::Expr *>(E));
  return N.Ok;
}

/// \p L with every pointer's byte offset moved by \p Shift.
std::shared_ptr<const LocalElements> shifted(const LocalElements &L,
                                             const Expr &Shift) {
  auto Out = std::make_shared<LocalElements>(L);
  for (LocalElements::Store &S : Out->Stores)
    if (S.Value.Pointer)
      S.Value.Pointer->ByteOffset = S.Value.Pointer->ByteOffset + Shift;
  return Out;
}

} // namespace

LoopArrays KernelWalker::openLoopElements(
    const Stmt *Loop, const llvm::SmallPtrSetImpl<const VarDecl *> &Stored,
    const llvm::SmallPtrSetImpl<const VarDecl *> &PerPass,
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Modified, const Stmt *Body,
    Frame &F) {
  LoopArrays A;
  A.Loc = Loop->getBeginLoc();
  for (const VarDecl *VD : Stored) {
    A.Stored.push_back(VD);
    auto It = F.Env.find(VD);
    if (It == F.Env.end() || !It->second.Elements)
      continue;
    if (PerPass.count(VD)) {
      A.Kept[VD] = It->second.Elements->Stores.size();
      continue;
    }
    std::shared_ptr<const LocalElements> Before = It->second.Elements;
    if (std::optional<std::pair<Expr, Expr>> Shift =
            uniformShift(VD, Modified, Body, A.Loc, F)) {
      A.Shifted.try_emplace(VD, LoopArrays::Shift{Before, Shift->second});
      It->second.Elements = shifted(*Before, Shift->first);
      continue;
    }
    auto L = std::make_shared<LocalElements>();
    L->OlderUnknown = true;
    It->second.Elements = std::move(L);
  }
  return A;
}

std::optional<std::pair<Expr, Expr>> KernelWalker::uniformShift(
    const VarDecl *VD, const llvm::SmallPtrSetImpl<const ValueDecl *> &Modified,
    const Stmt *Body, clang::SourceLocation Loc, const Frame &F) {
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  if (!AT || !AT->getElementType()->isPointerType())
    return std::nullopt;
  auto It = F.Env.find(VD);
  if (It == F.Env.end() || !It->second.Elements ||
      It->second.Elements->OlderUnknown)
    return std::nullopt;
  ElementStores Finder;
  Finder.VD = VD;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  // Each store `p[k] += d` made some number of times: d times a count of
  // its own (a uniform symbol of the store and the loop, one for a pass and
  // one for after the loop; its name, the array's and the store's line,
  // for printing only).
  auto Count = [&](const BinaryOperator *BO, bool After) {
    return symbol(
        {SymbolKind::UniformValue,
         fmt::format("{}_moves{}@{}", VD->getName(), After ? "_after" : "",
                     toLocation(SM, BO->getExprLoc()).Line),
         mixKeys(mixKeys(locationKey(Loc), locationKey(BO)), After)});
  };
  Expr AtPass = Expr::constant(0), AfterLoop = Expr::constant(0);
  for (const BinaryOperator *BO : Finder.Stores) {
    if (BO->getOpcode() != BO_AddAssign && BO->getOpcode() != BO_SubAssign)
      return std::nullopt;
    if (!invariantOperands(BO->getRHS(), F, Modified))
      return std::nullopt;
    Expr By = translate(BO->getRHS(), F);
    if (By.isLaneDependent() || By.isIndirect())
      return std::nullopt;
    bool Add = BO->getOpcode() == BO_AddAssign;
    AtPass =
        Add ? AtPass + By * Count(BO, false) : AtPass - By * Count(BO, false);
    AfterLoop = Add ? AfterLoop + By * Count(BO, true)
                    : AfterLoop - By * Count(BO, true);
  }
  Expr Bytes = Expr::constant(sizeOf(AT->getElementType()->getPointeeType()));
  return std::make_pair(AtPass * Bytes, AfterLoop * Bytes);
}

void KernelWalker::closeLoopElements(const LoopArrays &A, Frame &F,
                                     const std::optional<Symbol> &Iter,
                                     std::optional<int64_t> Trips,
                                     bool LeavesEarly) {
  for (const VarDecl *VD : A.Stored) {
    auto It = F.Env.find(VD);
    if (It == F.Env.end() || !It->second.Elements)
      continue;
    const LocalElements &L = *It->second.Elements;
    if (auto S = A.Shifted.find(VD); S != A.Shifted.end()) {
      // Moved by other counts of the same stores after the loop.
      It->second.Elements = shifted(*S->second.Before, S->second.After);
      continue;
    }
    const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
    // One store per pass, at the pass's own element, over the whole array
    // (after the stores before the loop, kept for a per-pass array).
    size_t Before = A.Kept.lookup(VD);
    bool Whole = Iter && Trips && !LeavesEarly && AT &&
                 uint64_t(*Trips) == AT->getSize().getZExtValue() &&
                 L.Stores.size() == Before + 1 && !L.Stores.back().Over &&
                 L.Stores.back().Index == symbol(*Iter);
    auto Out = std::make_shared<LocalElements>();
    if (Whole)
      Out->Stores.push_back(
          {L.Stores.back().Index, L.Stores.back().Value, *Iter});
    else
      Out->OlderUnknown = true;
    It->second.Elements = std::move(Out);
  }
}

} // namespace frontend
} // namespace coalesce
