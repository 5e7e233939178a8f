//===- ArrayElements.cpp - Pointer arrays held in objects -----------------===//
//
// A class that keeps pointers in an array field and picks one by a field
// (TransformerEngine's double-buffered RawAsyncLoader: `T *buf_[2]` set in
// the constructor, `buf_[phase_]` read, `phase_ ^= 1` to flip): the
// elements the constructors store are part of the object's abstract value
// (ObjectValue::Elements), so that a read through the array reaches shared
// or global memory instead of "cannot follow the pointer". Only arrays that
// no other method writes are kept, so the elements never go stale.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
/// The array field an element lvalue `obj.f[i]` / `this->f[i]` names.
const MemberExpr *arrayMember(const clang::Expr *LV) {
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV->IgnoreParens());
  if (!ASE)
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(ASE->getBase()->IgnoreParenImpCasts());
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return nullptr;
  return ME;
}

const VarValue *elementOf(const ObjectValue &O, const FieldDecl *FD,
                          int64_t Index) {
  for (const auto &[Field, I, V] : O.Elements)
    if (Field == FD && I == Index)
      return &V;
  return nullptr;
}
} // namespace

bool KernelWalker::constructorSetArray(const FieldDecl *FD) {
  auto [It, New] = ConstructorSetArrays.try_emplace(FD, false);
  if (!New)
    return It->second;
  const auto *AT = Ctx.getAsConstantArrayType(FD->getType());
  const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
  // Only the class's own code can write a private or protected field.
  if (!AT || !AT->getElementType()->isPointerType() || !RD ||
      FD->getAccess() == AS_public)
    return false;
  // Any write of an element, or the array escaping, outside a constructor.
  struct Writes : RecursiveASTVisitor<Writes> {
    const FieldDecl *Field = nullptr;
    bool Found = false;
    bool names(const clang::Expr *E) const {
      E = E->IgnoreParenImpCasts();
      if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
        E = ASE->getBase()->IgnoreParenImpCasts();
      const auto *ME = dyn_cast<MemberExpr>(E);
      return ME && ME->getMemberDecl() == Field;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->isAssignmentOp() && names(BO->getLHS());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
               names(UO->getSubExpr());
      return !Found;
    }
    bool VisitCallExpr(CallExpr *CE) {
      // Passed by reference or as a pointer to its first element.
      for (const clang::Expr *Arg : CE->arguments())
        Found |= names(Arg) && !Arg->getType()->isPointerType();
      return !Found;
    }
  } Scan;
  Scan.Field = FD;
  for (const CXXMethodDecl *M : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(M) || !M->hasBody(Def))
      continue;
    Scan.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
    if (Scan.Found)
      return false;
  }
  return It->second = true;
}

void KernelWalker::storeElement(const BinaryOperator *Store, Frame &F) {
  const clang::Expr *LHS = Store->getLHS();
  if (!isa_and_nonnull<CXXConstructorDecl>(F.Fn) ||
      !LHS->getType()->isPointerType())
    return;
  const MemberExpr *ME = arrayMember(LHS);
  if (!ME)
    return;
  const auto *FD = cast<FieldDecl>(ME->getMemberDecl());
  VarValue *Holder = nullptr;
  if (ME->isArrow() && isThis(ME->getBase()))
    Holder = F.ThisObject;
  if (!Holder || !constructorSetArray(FD))
    return;
  const auto *ASE = cast<ArraySubscriptExpr>(LHS->IgnoreParens());
  std::optional<int64_t> Index = translate(ASE->getIdx(), F).asConstant();
  std::optional<PointerValue> Stored;
  if (Store->getOpcode() == BO_Assign)
    Stored = resolvePointer(Store->getRHS(), F, nullptr);
  ObjectValue &O = ownObject(*Holder);
  // An element stored at an index that is not a constant: none is known.
  llvm::erase_if(O.Elements, [&](const auto &E) {
    return std::get<0>(E) == FD && (!Index || std::get<1>(E) == *Index);
  });
  if (Index && Stored) {
    VarValue V;
    V.Pointer = std::move(Stored);
    O.Elements.emplace_back(FD, *Index, std::move(V));
  }
}

std::optional<PointerValue> KernelWalker::loadedElement(const clang::Expr *LV,
                                                        const Frame &F) {
  const MemberExpr *ME = arrayMember(LV);
  if (!ME)
    return std::nullopt;
  const auto *FD = cast<FieldDecl>(ME->getMemberDecl());
  std::optional<VarValue> Obj = heldObject(ME, F);
  if (!Obj || !Obj->Object || Obj->Object->Elements.empty() ||
      !constructorSetArray(FD))
    return std::nullopt;
  const ObjectValue &O = *Obj->Object;
  const auto *ASE = cast<ArraySubscriptExpr>(LV->IgnoreParens());
  Expr Index = translate(ASE->getIdx(), F);
  if (std::optional<int64_t> C = Index.asConstant()) {
    const VarValue *V = elementOf(O, FD, *C);
    return V ? V->Pointer : std::nullopt;
  }
  // Not a constant: the element whose index it is, each where it is.
  uint64_t Size = Ctx.getAsConstantArrayType(FD->getType())->getSize().getZExtValue();
  std::optional<PointerValue> Joined;
  std::string Name = sourceText(Ctx, LV->getSourceRange());
  for (uint64_t I = Size; I-- > 0;) {
    const VarValue *V = elementOf(O, FD, I);
    if (!V || !V->Pointer)
      return std::nullopt;
    Joined = Joined ? joinPointers(Expr::eq(Index, Expr::constant(I)),
                                   *V->Pointer, *Joined, Name)
                    : V->Pointer;
    if (!Joined)
      return std::nullopt;
  }
  return Joined;
}

} // namespace frontend
} // namespace coalesce
