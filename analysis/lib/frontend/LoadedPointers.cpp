//===- LoadedPointers.cpp - Pointers read from memory ---------------------===//
//
// A pointer the code loads rather than computes: from a variable or a field
// of an object held by value, from an accessor that returns it by
// reference, from global, constant or parameter memory (a pointer of its
// own allocation), from a kernel argument's array fixed for the launch, or
// from a local array of pointers (not followed element by element).
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

std::optional<PointerValue>
KernelWalker::loadedPointer(const clang::Expr *Sub, const Frame &F,
                            LaneOriginInfo *Origin) {
  Sub = Sub->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
    return varPointer(DRE->getDecl(), F);
  // (c ? a : b) of two pointer variables is an lvalue read as a whole, as
  // is `--sp` (the pointer the variable holds once stepped: a stack in a
  // local array popped by `*--sp`).
  if (isa<ConditionalOperator>(Sub))
    return resolvePointer(Sub, F, Origin);
  if (const auto *UO = dyn_cast<UnaryOperator>(Sub);
      UO && UO->isIncrementDecrementOp())
    return resolvePointer(UO, F, Origin);
  // An element of a pointer array the constructor filled (buf_[phase_]).
  if (std::optional<PointerValue> Element = loadedElement(Sub, F))
    return Element;
  // A pointer field of an object held by value (s.ptr, this->ptr).
  if (std::optional<VarValue> Held = heldValue(Sub, F))
    return Held->Pointer;
  // A pointer an accessor returns by reference (`indices[0]` of Warp's
  // `vec_t<2, const int *>`, whose operator[] returns `c[index]`): read
  // where its one return statement reads it, named after the call.
  if (const auto *CE = dyn_cast<CallExpr>(Sub); CE && CE->isGLValue()) {
    Frame Callee;
    if (const clang::Expr *Ret = singleReturn(CE, F, Callee, Origin))
      if (std::optional<PointerValue> P = loadedPointer(Ret, Callee, Origin)) {
        if (std::optional<std::string> Name = callName(P->BaseName, Ret, CE))
          P->BaseName = std::move(*Name);
        return P;
      }
  }
  // A pointer loaded from global, constant or parameter memory
  // (ptrs[blockIdx.x], s->data, d_common.frame, the tensor list's
  // tl.addresses[2][tensor]): assume it points to a global allocation
  // of its own, aligned like cudaMalloc's.
  if (isa<ArraySubscriptExpr>(Sub) || isa<MemberExpr>(Sub) ||
      isa<UnaryOperator>(Sub))
    if (std::optional<AddressInfo> A = resolveAddress(Sub, F, nullptr))
      if (A->Ptr.Space == MemorySpace::Global ||
          A->Ptr.Space == MemorySpace::Constant ||
          A->Ptr.Space == MemorySpace::Param ||
          (A->Ptr.Space == MemorySpace::Local && launchFixedArray(Sub, F))) {
        std::string Name = sourceText(Ctx, Sub->getSourceRange());
        // Each lane reading its own pointer (rows[threadIdx.x]) reaches
        // a different allocation: a gather, not one base.
        Expr Offset = A->Ptr.ByteOffset.isLaneDependent()
                          ? symbol({SymbolKind::IndirectValue, Name})
                          : Expr::constant(0);
        return PointerValue{Name, MemorySpace::Global, Offset};
      }
  // A pointer kept in a local array is not followed; one the stores aim
  // by loaded data (cub's radix rank: &counters[digit of the key]) makes a
  // data-dependent address, the others an opaque one, with the reason.
  bool DataDependent = false;
  if (std::optional<MemorySpace> S =
          localPointerArraySpace(Sub, F, &DataDependent)) {
    std::string Name = sourceText(Ctx, Sub->getSourceRange());
    Symbol Read{DataDependent ? SymbolKind::IndirectValue
                              : SymbolKind::LaneValue,
                Name};
    if (!DataDependent)
      OpaqueReasons[Read] = fmt::format(
          "'{}' is a pointer read back from a local array of pointers, "
          "which the analysis does not follow element by element",
          Name);
    PointerValue P;
    P.BaseName = Name;
    P.Space = *S;
    P.ByteOffset = symbol(Read);
    return P;
  }
  return std::nullopt;
}

bool KernelWalker::launchFixedArray(const clang::Expr *LV, const Frame &F) {
  const clang::Expr *E = LV->IgnoreParens();
  if (!isa<ArraySubscriptExpr>(E))
    return false;
  while (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    E = ASE->getBase()->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  std::optional<VarValue> Obj = heldObject(ME, F);
  return Obj && Obj->Object && !Obj->Object->Name.empty() &&
         Obj->Object->ScalarKind == SymbolKind::Param;
}

std::optional<MemorySpace>
KernelWalker::localPointerArraySpace(const clang::Expr *Sub, const Frame &F,
                                     bool *DataDependent) {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(Sub->IgnoreParens());
  if (!ASE)
    return std::nullopt;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || VD->hasGlobalStorage() || !VD->getType()->isArrayType() ||
      !ASE->getType()->isPointerType())
    return std::nullopt;
  const auto *Fn = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!Fn || Fn != F.Fn || !Fn->getBody())
    return std::nullopt;
  // Every store into the array, evaluated here: where the pointers point
  // does not depend on the iteration that stored them.
  struct Stores : RecursiveASTVisitor<Stores> {
    const VarDecl *Array = nullptr;
    std::vector<const clang::Expr *> Values;
    bool Other = false; ///< The array escapes or is written otherwise.
    bool VisitBinaryOperator(BinaryOperator *BO) {
      const auto *L =
          dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens());
      const auto *D =
          L ? dyn_cast<DeclRefExpr>(L->getBase()->IgnoreParenImpCasts())
            : nullptr;
      if (D && D->getDecl() == Array)
        BO->getOpcode() == BO_Assign ? Values.push_back(BO->getRHS())
                                     : (void)(Other = true);
      return true;
    }
  } Scan;
  Scan.Array = VD;
  Scan.TraverseStmt(Fn->getBody());
  if (Scan.Other || Scan.Values.empty())
    return std::nullopt;
  std::optional<MemorySpace> Space;
  for (const clang::Expr *V : Scan.Values) {
    std::optional<PointerValue> P = resolvePointer(V, F, nullptr);
    if (!P || P->Space == MemorySpace::Global || (Space && *Space != P->Space))
      return std::nullopt;
    Space = P->Space;
    if (DataDependent && P->ByteOffset.isIndirect())
      *DataDependent = true;
  }
  return Space;
}

} // namespace frontend
} // namespace coalesce
