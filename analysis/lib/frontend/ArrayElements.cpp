//===- ArrayElements.cpp - Arrays of pointers, element by element ---------===//
//
// A class that keeps pointers in an array field and picks one by a field
// (TransformerEngine's double-buffered RawAsyncLoader: `T *buf_[2]` set in
// the constructor, `buf_[phase_]` read, `phase_ ^= 1` to flip): the
// elements the constructors store are part of the object's abstract value
// (ObjectValue::Elements), so that a read through the array reaches shared
// or global memory instead of "cannot follow the pointer". Only arrays that
// no other method writes are kept, so the elements never go stale.
//
// A local array of pointers a function fills and reads back (cub's
// BlockRadixRank: `digit_counters[ITEM] = &counters[lane][tid][sub]` in one
// loop over the keys, `*digit_counters[ITEM]` there and in the next): the
// stores are part of the variable's abstract value (VarValue::Elements),
// and a loop storing element k at pass k of as many passes as the array
// has elements leaves every element known after it.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallSet.h"

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
  auto [It, New] = Memo.ConstructorSetArrays.try_emplace(FD, false);
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
  if (storeLocalElement(Store, F))
    return;
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
  if (std::optional<VarValue> V = localElement(LV, F))
    return V->Pointer;
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

namespace {
/// The local array variable whose element \p LV names (`p[i]`), with the
/// subscript; null when it is not one.
const VarDecl *localArrayElement(const clang::Expr *LV,
                                 const ArraySubscriptExpr *&ASE) {
  ASE = dyn_cast<ArraySubscriptExpr>(LV->IgnoreParens());
  return ASE ? localVariable(ASE->getBase()) : nullptr;
}

/// \p V with the symbol \p S replaced by \p By in its integer and pointer.
VarValue substituted(const VarValue &V, const Symbol &S, const Expr &By) {
  std::map<Symbol, Expr> Map{{S, By}};
  VarValue R = V;
  if (R.Int)
    R.Int = R.Int->substitute(Map);
  if (R.Pointer) {
    R.Pointer->ByteOffset = R.Pointer->ByteOffset.substitute(Map);
    if (R.Pointer->GlobalWhere)
      R.Pointer->GlobalWhere = R.Pointer->GlobalWhere->substitute(Map);
  }
  return R;
}
} // namespace

bool KernelWalker::elementWiseArray(const VarDecl *VD) {
  auto [It, New] = ElementWiseArrays.try_emplace(VD, false);
  if (!New)
    return It->second;
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(VD->getDeclContext());
  QualType Element = AT ? AT->getElementType() : QualType();
  return It->second = AT &&
                      (Element->isPointerType() ||
                       Element->isIntegralOrEnumerationType()) &&
                      Fn &&
                      Fn->getBody() &&
                      elementUses(VD, Fn->getBody()).elementWise();
}

bool KernelWalker::storeLocalElement(const BinaryOperator *Store, Frame &F) {
  const ArraySubscriptExpr *ASE = nullptr;
  const VarDecl *VD = localArrayElement(Store->getLHS(), ASE);
  if (!VD || !elementWiseArray(VD) || !F.Env.count(VD))
    return false;
  Expr Index = translate(ASE->getIdx(), F);
  VarValue Stored;
  BinaryOperatorKind Op = Store->getOpcode();
  if (Op == BO_Assign) {
    if (Store->getType()->isPointerType())
      Stored.Pointer = resolvePointer(Store->getRHS(), F, nullptr);
    else
      Stored.Int = translate(Store->getRHS(), F);
  } else if (std::optional<VarValue> Old = localElement(Store->getLHS(), F)) {
    // `p[i] op= d`: the element's value combined with d (marlin's
    // `B_ptr[i] += b_gl_rd_delta_o`); unknown when it was.
    Expr By = translate(Store->getRHS(), F);
    if (Old->Int) {
      Stored.Int = combineValues(Op, *Old->Int, By, Store);
    } else if (Old->Pointer) {
      Stored.Pointer = movedPointer(*Old->Pointer, Op, By,
                                    sizeOf(Store->getType()->getPointeeType()));
    }
  }
  VarValue &Slot = F.Env[VD];
  auto L = Slot.Elements ? std::make_shared<LocalElements>(*Slot.Elements)
                         : std::make_shared<LocalElements>();
  // The element the store replaces is no longer there to be read.
  llvm::erase_if(L->Stores, [&](const LocalElements::Store &S) {
    return !S.Over && S.Index == Index;
  });
  L->Stores.push_back({Index, std::move(Stored), std::nullopt});
  Slot.Elements = std::move(L);
  return true;
}

std::shared_ptr<const LocalElements>
KernelWalker::initialElements(const VarDecl *VD, const Frame &F) {
  const auto *ILE =
      dyn_cast_or_null<InitListExpr>(VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
  if (!ILE || !elementWiseArray(VD))
    return nullptr;
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  bool Pointers = AT->getElementType()->isPointerType();
  auto L = std::make_shared<LocalElements>();
  for (uint64_t I = 0, N = AT->getSize().getZExtValue(); I < N; ++I) {
    VarValue V;
    if (I < ILE->getNumInits()) {
      const clang::Expr *Init = ILE->getInit(I);
      if (Pointers)
        V.Pointer = resolvePointer(Init, F, nullptr);
      else
        V.Int = translate(Init, F);
    } else if (!Pointers) {
      V.Int = Expr::constant(0); // Elements the list leaves out are zero.
    }
    L->Stores.push_back({Expr::constant(int64_t(I)), std::move(V), std::nullopt});
  }
  return L;
}

std::optional<VarValue> KernelWalker::localElement(const clang::Expr *LV,
                                                   const Frame &F) {
  const ArraySubscriptExpr *ASE = nullptr;
  const VarDecl *VD = localArrayElement(LV, ASE);
  if (!VD || !elementWiseArray(VD))
    return std::nullopt;
  auto It = F.Env.find(VD);
  if (It == F.Env.end() || !It->second.Elements)
    return std::nullopt;
  std::shared_ptr<const LocalElements> L = It->second.Elements;
  Expr Index = translate(ASE->getIdx(), F);
  std::string Name = sourceText(Ctx, LV->getSourceRange());
  // Stores at constant indices covering the whole array (an initializer
  // list): an index none of the newer stores holds is the oldest one's.
  llvm::SmallSet<int64_t, 8> Constants;
  for (const LocalElements::Store &S : L->Stores)
    if (std::optional<int64_t> C = S.Index.asConstant())
      Constants.insert(*C);
  const auto *AT = Ctx.getAsConstantArrayType(VD->getType());
  bool Complete = !L->OlderUnknown && Constants.size() == AT->getSize().getZExtValue();
  // Newest first: a store at this index for certain is the value; one at
  // another index for certain is passed over; one that may or may not be
  // at this index is chosen where the indices are equal.
  std::function<std::optional<VarValue>(size_t)> Read =
      [&](size_t N) -> std::optional<VarValue> {
    if (N == 0)
      return std::nullopt;
    const LocalElements::Store &S = L->Stores[N - 1];
    if (N == 1 && Complete && S.Index.asConstant())
      return S.Value;
    if (S.Over)
      return substituted(S.Value, *S.Over, Index);
    if (S.Index == Index)
      return S.Value;
    std::optional<int64_t> Apart = (S.Index - Index).asConstant();
    if (Apart && *Apart != 0)
      return Read(N - 1);
    std::optional<VarValue> Older = Read(N - 1);
    if (!Older)
      return std::nullopt;
    Expr Here = Expr::eq(Index, S.Index);
    VarValue V;
    if (S.Value.Int && Older->Int)
      V.Int = Expr::select(Here, *S.Value.Int, *Older->Int);
    else if (S.Value.Pointer && Older->Pointer)
      V.Pointer = joinPointers(Here, *S.Value.Pointer, *Older->Pointer, Name);
    if (!V.Int && !V.Pointer)
      return std::nullopt;
    return V;
  };
  return Read(L->Stores.size());
}

unsigned KernelWalker::contentKind(const clang::Expr *Value, const Frame &F) {
  if (const auto *ILE = dyn_cast<InitListExpr>(Value->IgnoreImplicit())) {
    unsigned Bits = ILE->getNumInits() == 0 ? ContentOther : 0;
    for (const clang::Expr *Init : ILE->inits())
      Bits |= contentKind(Init, F);
    return Bits;
  }
  // Integers as the walker evaluates them; floating-point values, `half`s
  // and vectors by where they come from (floatValue()); objects by what
  // they are built from.
  QualType T = Value->getType();
  if (T->isPointerType())
    return ContentOther;
  if (isRecordValueType(T)) {
    unsigned Bits = recordContents(Value, F);
    return Bits ? Bits : ContentOther;
  }
  std::optional<Expr> V = T->isIntegralOrEnumerationType()
                              ? translate(Value, F)
                              : floatValue(Value, F);
  return V->isIndirect()          ? ContentData
         : V->isLaneDependent()   ? ContentOther
                                  : ContentUniform;
}

unsigned KernelWalker::copiedContents(QualType T, const clang::Expr *E) const {
  if (!isRecordValueType(T) || T->isReferenceType())
    return 0;
  const clang::Expr *Source = copySource(E);
  if (const VarDecl *VD = localObject(Source, nullptr)) {
    auto It = LocalContents.find(VD);
    return It == LocalContents.end() ? 0 : It->second;
  }
  if (const auto *CE = dyn_cast<CallExpr>(Source->IgnoreParenImpCasts()))
    if (const FunctionDecl *Callee = CE->getDirectCallee()) {
      auto It = ReturnedContents.find(Callee->getCanonicalDecl());
      return It == ReturnedContents.end() ? 0 : It->second;
    }
  return 0;
}

unsigned KernelWalker::recordContents(const clang::Expr *Value,
                                      const Frame &F) {
  if (unsigned Bits = copiedContents(Value->getType(), Value))
    return Bits;
  // Built in place: what its initializers or constructor arguments hold
  // (`pair_t{p[i], q[i]}`, moderngpu's `tuple<...>(args...)`).
  const clang::Expr *Source = copySource(Value);
  if (isa<InitListExpr>(Source))
    return contentKind(Source, F);
  // A copy of an object the walker holds: what its fields hold.
  if (std::optional<VarValue> Held = heldValue(Source, F)) {
    unsigned Bits = 0;
    forEachLeaf(*Held, [&](const LeafPath &P, const VarValue &Slot) {
      Bits |= P.Pointer || !Slot.Int       ? ContentOther
              : Slot.Int->isIndirect()     ? ContentData
              : Slot.Int->isLaneDependent() ? ContentOther
                                            : ContentUniform;
    });
    return Bits;
  }
  // Copied from memory (`reinterpret_cast<int4 &>(local[0]) = in4[i]`):
  // data where the lanes read different addresses.
  if (isMemoryRead(Source)) {
    Expr V = loadedValue(Source, F);
    return V.isIndirect()        ? ContentData
           : V.isLaneDependent() ? ContentOther
                                 : ContentUniform;
  }
  unsigned Bits = 0;
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(Source))
    for (const clang::Expr *Arg : CCE->arguments())
      Bits |= contentKind(Arg, F);
  return Bits;
}

void KernelWalker::noteLocalStore(const clang::Expr *LV,
                                  const clang::Expr *Value, bool Update,
                                  const Frame &F) {
  std::optional<AddressInfo> A = resolveAddress(LV, F, nullptr);
  if (!A || A->Ptr.Space != MemorySpace::Local || !A->Ptr.LocalArray)
    return;
  unsigned Bits = Value ? contentKind(Value, F) : 0;
  // Updated in place (`c[j] += d`, `c[j]++`): data stays data, and what is
  // added may make it data.
  if (Update)
    Bits &= ContentData;
  LocalContents[A->Ptr.LocalArray] |= Bits;
}

} // namespace frontend
} // namespace coalesce
