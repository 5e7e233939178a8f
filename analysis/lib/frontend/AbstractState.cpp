//===- AbstractState.cpp - What a name holds at a point of the walk -------===//
//
// The walker's abstract state is an environment from storage slots to
// abstract values (VarValue):
//   a local variable or parameter        Frame::Env[decl]
//   a field of an object held by value   VarValue::Object->Fields[field]
//   a field of `this`                    Frame::ThisObject (by value) or a
//                                        memory address (Frame::ThisPointer)
// nameValue() answers "what does this name hold here", once for the whole
// evaluator: a slot of the state, a reference bound to memory, a global, or
// a value fixed for the launch (launchValue()). heldValue() answers "what
// does this lvalue hold here" for every slot that is not memory; an lvalue
// that is memory (a[i], p->x, a __constant__ or __device__ variable) is not
// a slot: reading it is a load, and the loaded value is described by
// loadedValue()/resolvePointer(). heldSlot() is the
// same lookup for writing. Objects are copied on write, so copies made by
// branches, calls by value and `Params q = p;` never alias.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

const RecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType();
  if (const auto *RT = T->getAs<RecordType>())
    return RT->getDecl();
  return nullptr;
}

const clang::Expr *slotExpr(const clang::Expr *LV) {
  while (true) {
    LV = LV->IgnoreParens();
    if (const clang::Expr *Same = identityCallArgument(LV)) {
      LV = Same; // std::forward<T>(x), std::move(x)
      continue;
    }
    const auto *CE = dyn_cast<CastExpr>(LV);
    if (!CE || !(isa<ImplicitCastExpr>(CE) || isa<CXXStaticCastExpr>(CE) ||
                 isa<CStyleCastExpr>(CE)))
      return LV;
    CastKind K = CE->getCastKind();
    if (K != CK_NoOp && K != CK_UncheckedDerivedToBase &&
        K != CK_DerivedToBase && K != CK_BaseToDerived)
      return LV;
    LV = CE->getSubExpr();
  }
}

bool isThis(const clang::Expr *E) { return isa<CXXThisExpr>(slotExpr(E)); }

bool isKernelParameter(const ValueDecl *D) {
  const auto *P = dyn_cast<ParmVarDecl>(D);
  const auto *Fn = P ? dyn_cast<FunctionDecl>(P->getDeclContext()) : nullptr;
  return Fn && Fn->hasAttr<CUDAGlobalAttr>();
}

ObjectValue &ownObject(VarValue &V) {
  if (!V.Object)
    V.Object = std::make_shared<ObjectValue>();
  else if (V.Object.use_count() > 1)
    V.Object = std::make_shared<ObjectValue>(*V.Object);
  return *V.Object;
}

bool sameSlot(const VarValue &A, const VarValue &B) {
  if (A.Int != B.Int || A.Object != B.Object || A.Origin != B.Origin ||
      A.Uninitialized != B.Uninitialized ||
      A.UntracedMemory != B.UntracedMemory || A.Elements != B.Elements ||
      A.Pointer.has_value() != B.Pointer.has_value())
    return false;
  return !A.Pointer || *A.Pointer == *B.Pointer;
}

bool bindsSlot(QualType RefType, const VarValue &V) {
  // A reference's value is either the address of memory it is bound to
  // (Pointer, for a non-pointer referee) or a copy of the slot it is bound
  // to (an integer, an object, or a pointer for a reference to a pointer).
  QualType Referee = RefType.getNonReferenceType();
  if (V.Object)
    return true;
  if (Referee->isPointerType())
    return V.Pointer.has_value();
  return V.Int.has_value();
}

namespace {
/// The variable with local storage (a parameter included) \p E names.
const VarDecl *namedLocal(const clang::Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() ? VD : nullptr;
}
} // namespace

const VarDecl *localVariable(const clang::Expr *E) {
  const VarDecl *VD = namedLocal(E);
  return VD && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

const VarDecl *localObject(const clang::Expr *E, const VarDecl *This) {
  E = stripDotMembers(E);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isThis(ME->getBase()) ? This : nullptr;
  if (isThis(E))
    return This;
  const VarDecl *VD = namedLocal(E);
  return VD && !VD->getType()->isReferenceType() ? VD : nullptr;
}

bool isRecordValueType(QualType T) {
  const RecordDecl *RD = recordOf(T);
  return RD && !RD->isUnion() && RD->getDefinition();
}

VarValue namedObject(std::string Name, SymbolKind ScalarKind) {
  VarValue V;
  V.Object = std::make_shared<ObjectValue>();
  V.Object->Name = std::move(Name);
  V.Object->ScalarKind = ScalarKind;
  return V;
}

VarValue KernelWalker::fieldOf(const VarValue &Obj, const FieldDecl *FD) const {
  if (Obj.Object)
    for (const auto &[Field, Value] : Obj.Object->Fields)
      if (Field == FD)
        return Value;
  VarValue V;
  if (Obj.Object && Obj.Object->Name.empty() && Obj.Object->LostVaries &&
      isRecordValueType(FD->getType())) {
    // A lost object within one whose lost parts are per lane: so are its.
    V.Object = std::make_shared<ObjectValue>();
    V.Object->LostVaries = true;
    return V;
  }
  if (!Obj.Object || Obj.Object->Name.empty())
    return V; // An uninitialized field: unknown.
  // A field nobody assigned: fixed for the launch, named after the object.
  std::string Name = Obj.Object->Name + "." + FD->getName().str();
  QualType T = FD->getType();
  if (T->isPointerType())
    V.Pointer = PointerValue{Name, MemorySpace::Global, Expr::constant(0)};
  else if (T->isIntegralOrEnumerationType() || T->isBooleanType())
    V.Int = symbol({Obj.Object->ScalarKind, Name});
  else if (isRecordValueType(T)) {
    V = namedObject(Name, Obj.Object->ScalarKind);
    // A closure held in a field (an iterator over the user's lambda): its
    // captures, fixed like the object.
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl(); RD && RD->isLambda())
      V.Object->Captures = launchedCaptures(RD, Obj.Object->ScalarKind);
  }
  return V;
}

VarValue &KernelWalker::fieldSlot(VarValue &Obj, const FieldDecl *FD) {
  // Materialize the field first so that a partial write (s.inner.x = 1)
  // keeps the rest of the named value.
  VarValue Current = fieldOf(Obj, FD);
  ObjectValue &O = ownObject(Obj);
  for (auto &[Field, Value] : O.Fields)
    if (Field == FD)
      return Value;
  O.Fields.emplace_back(FD, std::move(Current));
  return O.Fields.back().second;
}

std::string LeafPath::name(llvm::StringRef Slot) const {
  std::string Name = Slot.str();
  for (const FieldDecl *FD : Fields)
    Name += "." + FD->getName().str();
  return Name;
}

void forEachLeaf(
    const VarValue &V,
    llvm::function_ref<void(const LeafPath &, const VarValue &)> Fn) {
  LeafPath Path;
  std::function<void(const VarValue &)> Visit = [&](const VarValue &X) {
    if (X.Int) {
      Path.Pointer = false;
      Fn(Path, X);
    }
    if (X.Pointer) {
      Path.Pointer = true;
      Fn(Path, X);
    }
    if (X.Object)
      for (const auto &[FD, FV] : X.Object->Fields) {
        Path.Fields.push_back(FD);
        Visit(FV);
        Path.Fields.pop_back();
      }
  };
  Visit(V);
}

VarValue mapLeaves(
    const VarValue &V,
    llvm::function_ref<std::optional<Expr>(const LeafPath &, const Expr &)>
        Fn) {
  LeafPath Path;
  std::function<VarValue(const VarValue &)> Map = [&](const VarValue &X) {
    VarValue Out = X;
    if (X.Int) {
      Path.Pointer = false;
      Out.Int = Fn(Path, *X.Int);
    }
    if (X.Pointer) {
      Path.Pointer = true;
      if (std::optional<Expr> Offset = Fn(Path, X.Pointer->ByteOffset))
        Out.Pointer->ByteOffset = *Offset;
      else
        Out.Pointer.reset();
    }
    if (X.Object) {
      auto O = std::make_shared<ObjectValue>();
      O->Name = X.Object->Name;
      O->ScalarKind = X.Object->ScalarKind;
      O->LostVaries = X.Object->LostVaries;
      // Set by constructors only, elements are the same in every iteration.
      O->Elements = X.Object->Elements;
      for (const auto &[FD, FV] : X.Object->Fields) {
        Path.Fields.push_back(FD);
        O->Fields.emplace_back(FD, Map(FV));
        Path.Fields.pop_back();
      }
      Out.Object = std::move(O);
    }
    return Out;
  };
  return Map(V);
}

std::optional<Expr> KernelWalker::leafValue(const VarValue &V,
                                            const LeafPath &P,
                                            llvm::StringRef Base) const {
  VarValue Slot = V;
  for (const FieldDecl *FD : P.Fields) {
    if (!Slot.Object)
      return std::nullopt;
    Slot = fieldOf(Slot, FD);
  }
  if (!P.Pointer)
    return Slot.Int;
  if (!Slot.Pointer || (!Base.empty() && Slot.Pointer->BaseName != Base))
    return std::nullopt;
  return Slot.Pointer->ByteOffset;
}

void KernelWalker::materializeLeaf(VarValue &V, const LeafPath &P) {
  VarValue *Slot = &V;
  for (const FieldDecl *FD : P.Fields) {
    if (!Slot->Object)
      return;
    Slot = &fieldSlot(*Slot, FD);
  }
}

std::optional<VarValue> KernelWalker::heldObject(const MemberExpr *ME,
                                                 const Frame &F) {
  if (ME->isArrow()) {
    if (isThis(ME->getBase()) && F.ThisObject)
      return *F.ThisObject;
    return std::nullopt;
  }
  std::optional<VarValue> Obj = heldValue(ME->getBase(), F);
  return Obj && Obj->Object ? Obj : std::nullopt;
}

std::optional<VarValue> KernelWalker::memberValue(const MemberExpr *ME,
                                                  const Frame &F) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD)
    return std::nullopt;
  if (std::optional<VarValue> Obj = heldObject(ME, F))
    return fieldOf(*Obj, FD);
  if (ME->isArrow())
    return std::nullopt;
  // A field of an object a CUDA header call returns (b.thread_index().x).
  const clang::Expr *B = ME->getBase()->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(B))
    B = MTE->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CallExpr>(B))
    if (std::optional<VarValue> Obj = specialObject(CE, F))
      return fieldOf(*Obj, FD);
  return std::nullopt;
}

std::optional<VarValue> KernelWalker::heldValue(const clang::Expr *LV,
                                                const Frame &F) {
  LV = slotExpr(LV);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV)) {
    if (const VarValue *Slot = nameValue(DRE->getDecl(), F).slot())
      return *Slot;
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LV)) {
    std::optional<VarValue> Field = memberValue(ME, F);
    // A reference member bound to memory (cub's `_TempStorage &temp_storage`)
    // names that memory, not a slot.
    if (Field && ME->getMemberDecl()->getType()->isReferenceType() &&
        !bindsSlot(ME->getMemberDecl()->getType(), *Field))
      return std::nullopt;
    return Field;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LV))
    if (UO->getOpcode() == UO_Deref && isThis(UO->getSubExpr()) &&
        F.ThisObject)
      return *F.ThisObject;
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(LV))
    return heldValue(MTE->getSubExpr(), F);
  // What a walked call returned, where that is an object: the copy of the
  // slot a returned reference is bound to (CuTe's `get<I>(tuple)`, a field
  // of an object held by value), or the object it made.
  if (const auto *CE = dyn_cast<CallExpr>(LV)) {
    // A returned reference holds a copy of the slot it is bound to: an
    // object, or an integer (CuTe's `get<0>(t)` passed on as `T const &`).
    // (A reference to a pointer may hold the pointer or the address it is
    // bound to: not told apart here.)
    QualType Ret = CE->getCallReturnType(Ctx);
    auto Slot = [&](const VarValue &V) {
      return V.Object ||
             (Ret->isReferenceType() && !V.UntracedMemory &&
              !Ret.getNonReferenceType()->isPointerType() && bindsSlot(Ret, V));
    };
    if (const VarValue *R = returnedBy(CE, F); R && Slot(*R))
      return *R;
    // Not walked here (a call in a body substituted for its value, CuTe's
    // `engine().begin()` in Tensor::data()): the slot its one return names.
    Frame Callee;
    if (CE->isGLValue())
      if (const clang::Expr *Ret = singleReturn(CE, F, Callee, nullptr))
        if (std::optional<VarValue> V = heldValue(Ret, Callee); V && Slot(*V))
          return V;
  }
  return std::nullopt;
}

NameValue KernelWalker::nameValue(const ValueDecl *D, const Frame &F) {
  using Kind = NameValue::Kind;
  if (auto It = F.Env.find(D); It != F.Env.end()) {
    // A reference holds a copy of the slot it is bound to, or the address
    // of the memory.
    bool Memory =
        D->getType()->isReferenceType() && !bindsSlot(D->getType(), It->second);
    return {Memory ? Kind::Memory : Kind::Slot, &It->second};
  }
  if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasGlobalStorage())
    return {Kind::Global, globalValue(VD, F)};
  return {Kind::Launch, nullptr};
}

VarValue KernelWalker::launchValue(const ValueDecl *D, const Frame &F) const {
  VarValue V;
  std::string Name = D->getName().str();
  bool Pointer = D->getType()->isPointerType();
  if (isa<ParmVarDecl>(D)) {
    // Only the kernel's own: a device function's or a lambda's parameter
    // the walk did not bind (CuTe's `coord` of crd2idx) is no argument of
    // the launch.
    if (F.IsKernel && isKernelParameter(D)) {
      V.Int = symbol(Symbol::param(Name));
      if (Pointer)
        V.Pointer = PointerValue{Name, MemorySpace::Global, Expr::constant(0)};
    }
    return V;
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (VD && cudaVariable(VD->getName()) == CudaVariable::WarpSize) {
    V.Int = Expr::constant(WarpSize);
  } else if (VD && VD->hasGlobalStorage()) {
    // A __device__ or __constant__ variable read by every lane: uniform; a
    // pointer loaded from it is taken to point into global memory.
    V.Int = symbol({SymbolKind::UniformValue, Name});
    if (Pointer)
      V.Pointer = PointerValue{Name, MemorySpace::Global, Expr::constant(0)};
  }
  return V;
}

const VarValue *KernelWalker::globalValue(const VarDecl *VD, const Frame &F) {
  if (!F.Host || !ModifiedGlobals || !VD->hasGlobalStorage() ||
      VD->isStaticLocal() || VD->getType()->isReferenceType())
    return nullptr;
  VD = VD->getCanonicalDecl();
  if (ModifiedGlobals->count(VD))
    return nullptr;
  auto It = Memo.Globals.find(VD);
  if (It != Memo.Globals.end())
    return It->second ? &*It->second : nullptr;
  Memo.Globals[VD] = std::nullopt; // Guards against initializers naming VD.
  const VarDecl *Def = VD->getDefinition();
  const clang::Expr *Init = Def ? Def->getInit() : nullptr;
  std::optional<VarValue> V;
  if (Init && !Init->isValueDependent()) {
    Frame Empty;
    Empty.Host = true;
    V = valueOf(VD->getType(), Init, Empty, VD);
  }
  std::optional<VarValue> &Held = Memo.Globals[VD];
  Held = std::move(V);
  return Held ? &*Held : nullptr;
}

VarValue *KernelWalker::heldSlot(const clang::Expr *LV, Frame &F) {
  LV = slotExpr(LV);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV)) {
    const ValueDecl *D = DRE->getDecl();
    auto It = F.Env.find(D);
    if (It == F.Env.end())
      return nullptr;
    if (D->getType()->isReferenceType() &&
        !bindsSlot(D->getType(), It->second))
      return nullptr; // A reference to memory: writing it is a store.
    return &It->second;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LV)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return nullptr;
    const clang::Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    if (ME->isArrow()) {
      if (isThis(Base) && F.ThisObject)
        return &fieldSlot(*F.ThisObject, FD);
      return nullptr;
    }
    if (VarValue *Obj = heldSlot(ME->getBase(), F))
      if (Obj->Object || !Obj->Int && !Obj->Pointer)
        return &fieldSlot(*Obj, FD);
    return nullptr;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LV))
    if (UO->getOpcode() == UO_Deref && isThis(UO->getSubExpr()))
      return F.ThisObject;
  return nullptr;
}

std::optional<PointerValue> movedPointer(PointerValue P,
                                         clang::BinaryOperatorKind Op,
                                         const Expr &By, unsigned ElemBytes) {
  if (Op != clang::BO_AddAssign && Op != clang::BO_SubAssign)
    return std::nullopt;
  Expr Step = By * Expr::constant(ElemBytes);
  P.ByteOffset =
      Op == clang::BO_AddAssign ? P.ByteOffset + Step : P.ByteOffset - Step;
  return P;
}

std::optional<PointerValue> joinPointers(const Expr &Cond,
                                         const PointerValue &T,
                                         const PointerValue &E,
                                         std::string Name) {
  if (T.Space != E.Space) {
    auto Outside = [](MemorySpace S) {
      return S != MemorySpace::Global && S != MemorySpace::Unknown;
    };
    // `i < i_sup ? KV + off : zero`: global memory where the lane chose it.
    for (auto [G, O, Where] : {std::tuple{&T, &E, Cond},
                               std::tuple{&E, &T, Expr::logicalNot(Cond)}})
      if (G->Space == MemorySpace::Global && Outside(O->Space)) {
        PointerValue P = *G;
        P.GlobalWhere = P.GlobalWhere ? Expr::logicalAnd(*P.GlobalWhere, Where)
                                      : Where;
        return P;
      }
    if (!Outside(T.Space) || !Outside(E.Space))
      return std::nullopt;
  }
  PointerValue P{T.BaseName == E.BaseName ? T.BaseName : std::move(Name),
                 T.Space == E.Space ? T.Space : MemorySpace::NotGlobal,
                 Expr::select(Cond, T.ByteOffset, E.ByteOffset)};
  if (T.LocalArray == E.LocalArray)
    P.LocalArray = T.LocalArray;
  return P;
}

std::shared_ptr<const LocalElements>
KernelWalker::joinElements(const Expr &Cond,
                           const std::shared_ptr<const LocalElements> &T,
                           const std::shared_ptr<const LocalElements> &E) const {
  // A path that never stored: its elements are undefined where read, so
  // the other path's are what is read.
  if (!T || !E)
    return T ? T : E;
  // The same elements stored on both paths: per element, the value of the
  // path taken. Anything else: not known.
  auto J = std::make_shared<LocalElements>();
  J->OlderUnknown = T->OlderUnknown || E->OlderUnknown;
  bool Alike = T->Stores.size() == E->Stores.size();
  for (size_t I = 0; Alike && I < T->Stores.size(); ++I) {
    const LocalElements::Store &A = T->Stores[I], &B = E->Stores[I];
    Alike = A.Index == B.Index && A.Over == B.Over;
    if (Alike)
      J->Stores.push_back(
          {A.Index, mergeValues(Cond, A.Value, B.Value), A.Over});
  }
  if (!Alike) {
    J->Stores.clear();
    J->OlderUnknown = true;
  }
  return J;
}

VarValue KernelWalker::mergeValues(const Expr &Cond, const VarValue &T,
                                   const VarValue &E) const {
  // `float *p; if (c) p = a + i;`: a well-defined program reads p only
  // where it was assigned.
  if (E.Uninitialized)
    return T;
  if (T.Uninitialized)
    return E;
  // A condition known here (`if (MEMOIZE)` on a constant member) takes one
  // side: the other never ran.
  if (std::optional<int64_t> Taken = Cond.asConstant())
    return *Taken ? T : E;
  VarValue Merged = T;
  Merged.UntracedMemory = T.UntracedMemory || E.UntracedMemory;
  if (T.Int && E.Int && *T.Int != *E.Int)
    Merged.Int = Expr::select(Cond, *T.Int, *E.Int);
  else if (!E.Int)
    Merged.Int.reset();
  if (T.Pointer && E.Pointer &&
      !(*T.Pointer == *E.Pointer)) {
    Merged.Pointer = joinPointers(
        Cond, *T.Pointer, *E.Pointer,
        fmt::format("{} or {}", T.Pointer->BaseName, E.Pointer->BaseName));
  } else if (!E.Pointer) {
    Merged.Pointer.reset();
  }
  if (T.Function != E.Function)
    Merged.Function = nullptr;
  if (T.Elements != E.Elements)
    Merged.Elements = joinElements(Cond, T.Elements, E.Elements);
  if (T.Object != E.Object) {
    if (!T.Object || !E.Object) {
      Merged.Object.reset();
    } else {
      // Field by field; the names must agree for unassigned fields.
      auto O = std::make_shared<ObjectValue>();
      O->Name = T.Object->Name == E.Object->Name ? T.Object->Name : "";
      O->ScalarKind = T.Object->ScalarKind;
      // Fields neither side assigned are lost where the names differ: the
      // lanes choose between them where the condition is per lane.
      O->LostVaries =
          T.Object->LostVaries || E.Object->LostVaries ||
          (T.Object->Name != E.Object->Name && Cond.isLaneDependent());
      O->Captures = T.Object->Captures ? T.Object->Captures
                                       : E.Object->Captures;
      llvm::SmallVector<const FieldDecl *, 8> Fields;
      for (const auto *Side : {T.Object.get(), E.Object.get()})
        for (const auto &Entry : Side->Fields)
          if (!llvm::is_contained(Fields, Entry.first))
            Fields.push_back(Entry.first);
      for (const FieldDecl *FD : Fields)
        O->Fields.emplace_back(FD, mergeValues(Cond, fieldOf(T, FD),
                                               fieldOf(E, FD)));
      // Elements known on both sides.
      for (const auto &[FD, I, TV] : T.Object->Elements)
        for (const auto &[EFD, EI, EV] : E.Object->Elements)
          if (FD == EFD && I == EI)
            O->Elements.emplace_back(FD, I, mergeValues(Cond, TV, EV));
      O->Contents = T.Object->Contents | E.Object->Contents;
      Merged.Object = std::move(O);
    }
  }
  // No known origin on the then side: the else side's place and name (the
  // threadIdx components stay the then side's).
  if ((!Merged.Origin || Merged.Origin->Loc.isInvalid()) && E.Origin &&
      E.Origin->Loc.isValid())
    Merged.Origin = std::make_shared<const LaneOriginInfo>(LaneOriginInfo{
        E.Origin->Loc, E.Origin->Name,
        Merged.Origin ? Merged.Origin->Symbols : std::vector<std::string>()});
  return Merged;
}

const clang::Expr *stripDotMembers(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return ME;
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  return E;
}

bool isMemoryRead(const clang::Expr *E) {
  E = E->IgnoreParens();
  return isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E) ||
         (isa<UnaryOperator>(E) &&
          cast<UnaryOperator>(E)->getOpcode() == UO_Deref);
}

/// The values that predicate \p Active fixes (`threads == 512` in the
/// `case 512:` of a switch, or the then-branch of `if (n == 64)`), added to
/// \p Known.
void knownEqualities(const Expr &Active, std::map<Symbol, Expr> &Known) {
  if (Active.getKind() == Expr::Kind::LAnd) {
    for (const Expr &Op : Active.operands())
      knownEqualities(Op, Known);
    return;
  }
  if (Active.getKind() != Expr::Kind::Eq)
    return;
  const Expr &A = Active.operands()[0], &B = Active.operands()[1];
  for (auto [X, C] : {std::pair{&A, &B}, std::pair{&B, &A}})
    if (X->getKind() == Expr::Kind::Symbol && C->isConstant())
      Known.emplace(X->getSymbol(), *C);
}

} // namespace frontend
} // namespace coalesce
