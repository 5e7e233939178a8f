//===- ObjectValues.cpp - The values initializers give slots and objects -===//
//
// valueOf(): the value an initializer gives a slot (for a reference, the
// memory or the slot it is bound to). recordValue(): the value of an object
// held by value (VarValue::Object) that an initializer makes: a constructor
// run on the object, a braced list, a closure's captures, a copy of a slot
// or of memory. construct(): what a constructor call does to its object,
// inherited and base-class constructors included.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace coalesce {
namespace frontend {

const clang::Expr *temporaryOf(const clang::Expr *E) {
  E = E->IgnoreParens();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return MTE->getSubExpr();
  return E;
}

const clang::Expr *copySource(const clang::Expr *Init) {
  const clang::Expr *E = Init->IgnoreParenImpCasts();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    E = EWC->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    E = MTE->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    E = BTE->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *FCE = dyn_cast<CXXFunctionalCastExpr>(E))
    E = FCE->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Ctor = CCE->getConstructor();
    if (Ctor && Ctor->isCopyOrMoveConstructor() && CCE->getNumArgs() >= 1)
      return copySource(CCE->getArg(0));
  }
  return E;
}

std::optional<VarValue> KernelWalker::recordValue(const clang::Expr *Init,
                                                  Frame &F) {
  const clang::Expr *E = copySource(Init);
  if (std::optional<VarValue> Tuple = madeTuple(E, F))
    return Tuple;
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    VarValue V;
    V.Object = std::make_shared<ObjectValue>();
    construct(CCE, V, F);
    return V;
  }
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    // A closure: what it captures, for calls of it away from here.
    auto Captures =
        std::make_shared<llvm::DenseMap<const clang::ValueDecl *, VarValue>>();
    for (const LambdaCapture &C : LE->captures()) {
      if (isInitCapture(C)) {
        // `[s = scale[blockIdx.x]]`: the value its initializer has here.
        const auto *VD = cast<VarDecl>(C.getCapturedVar());
        if (std::optional<VarValue> V =
                valueOf(VD->getType(), VD->getInit(), F, VD))
          Captures->try_emplace(VD, std::move(*V));
        continue;
      }
      if (C.capturesVariable())
        if (auto It = F.Env.find(C.getCapturedVar()); It != F.Env.end())
          Captures->try_emplace(C.getCapturedVar(), It->second);
    }
    VarValue V;
    V.Object = std::make_shared<ObjectValue>();
    V.Object->Captures = std::move(Captures);
    return V;
  }
  if (isa<InitListExpr>(E)) {
    const auto *ILE = cast<InitListExpr>(E);
    VarValue V;
    V.Object = std::make_shared<ObjectValue>();
    const RecordDecl *RD = recordOf(ILE->getType());
    if (!RD)
      return V;
    unsigned I = 0;
    // An aggregate's bases come first (`T0 e{{p}}` with `struct T0 : E0`):
    // their fields are fields of the same object.
    if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD))
      for (const CXXBaseSpecifier &B : CRD->bases()) {
        if (I >= ILE->getNumInits())
          break;
        std::optional<VarValue> BV = recordValue(ILE->getInit(I++), F);
        if (BV && BV->Object)
          for (const auto &[FD, FV] : BV->Object->Fields)
            fieldSlot(V, FD) = FV;
      }
    for (const FieldDecl *FD : RD->fields()) {
      if (I >= ILE->getNumInits())
        break;
      if (std::optional<VarValue> FV =
              valueOf(FD->getType(), ILE->getInit(I++), F))
        fieldSlot(V, FD) = *FV;
    }
    return V;
  }
  if (std::optional<VarValue> Held = heldValue(E, F)) {
    // A copy of a local variable takes what its arrays hold along.
    if (const VarDecl *VD = localVariable(E); VD && Held->Object)
      if (unsigned Bits = LocalContents.lookup(VD);
          Bits && (Held->Object->Contents | Bits) != Held->Object->Contents)
        ownObject(*Held).Contents |= Bits;
    return Held;
  }
  // (An object a walked call returned is a held value, above.)
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (std::optional<VarValue> Special = specialObject(CE, F))
      return Special;
  // A copy of an object in memory (`Particle p = ps[i]`): its fields are
  // data, the same for the warp only when every lane reads one address.
  // An element of the thread's own array (`return data[i];` of an
  // array_t's operator[] const) differs per lane at any index.
  if (E->isGLValue())
    if (std::optional<AddressInfo> A = resolveAddress(E, F, nullptr)) {
      if (std::optional<SymbolKind> Own = threadArrayElement(E, *A, F))
        return namedObject(sourceText(Ctx, E->getSourceRange()), *Own);
      bool Lane = A->Ptr.ByteOffset.isLaneDependent();
      // `c ? u : v` of two objects, chosen per lane: what the lanes copy
      // differs where the objects do, at any offset.
      const auto *CO = dyn_cast<ConditionalOperator>(E->IgnoreParens());
      bool PerLaneChoice = CO && translate(CO->getCond(), F).isLaneDependent();
      return namedObject(sourceText(Ctx, E->getSourceRange()),
                         Lane            ? SymbolKind::IndirectValue
                         : PerLaneChoice ? SymbolKind::LaneValue
                                         : SymbolKind::UniformValue);
    }
  // Not followed: its fields are lost, per lane where what it is computed
  // from is (CuTe's `idx2crd(threadIdx.x, shape)`).
  VarValue Unknown;
  Unknown.Object = std::make_shared<ObjectValue>();
  Unknown.Object->LostVaries =
      computedPerLane(E, Facts.laneIdentity(), F.Env, F.ThisObject);
  return Unknown;
}

void KernelWalker::construct(const CXXConstructExpr *CCE, VarValue &Target,
                             Frame &F) {
  const CXXConstructorDecl *Ctor = CCE->getConstructor();
  // An inherited constructor (`using iter_adaptor::iter_adaptor;` of CuTe's
  // gmem_ptr) is the base's, run with the same arguments on the same object.
  while (Ctor && Ctor->isInheritingConstructor())
    Ctor = Ctor->getInheritedConstructor().getConstructor();
  const FunctionDecl *Def = nullptr;
  if (!Ctor || !Ctor->hasBody(Def) || F.Depth >= MaxCallDepth ||
      F.onCallChain(Def))
    return;
  const auto *CtorDef = cast<CXXConstructorDecl>(Def);
  if (CtorDef->getNumParams() != CCE->getNumArgs())
    return;
  // The arguments were walked with the expression that holds the call.
  Frame Inner;
  pushCall(Inner, F, CtorDef, CCE->getBeginLoc());
  Inner.ThisObject = &Target;
  llvm::SmallVector<const clang::Expr *, 8> Args(CCE->arguments());
  bindArguments(CtorDef, Args, 0, F, Inner);
  for (const CXXCtorInitializer *Init : CtorDef->inits()) {
    // A base class's constructor fills the base's fields of the same
    // object (TransformerEngine's VectorizedLoader : VectorizedAccessor).
    if (Init->isBaseInitializer() || Init->isDelegatingInitializer()) {
      const clang::Expr *BaseInit = Init->getInit();
      if (const auto *EWC = dyn_cast_or_null<ExprWithCleanups>(BaseInit))
        BaseInit = EWC->getSubExpr();
      if (const auto *Base = dyn_cast_or_null<CXXConstructExpr>(BaseInit)) {
        // Its arguments, as written, are evaluated here, in this
        // constructor (CUTLASS's `PredicatedTileIteratorParams(
        // layout.stride(0) * ..., ...)`); an implicit copy's are its source.
        if (Init->isWritten())
          for (const clang::Expr *Arg : Base->arguments())
            walkExpr(Arg, Inner);
        construct(Base, Target, Inner);
      }
      continue;
    }
    const FieldDecl *FD = Init->getMember();
    const clang::Expr *Value = Init->getInit();
    if (!FD || !Value)
      continue;
    // A field the constructor does not name takes its default member
    // initializer (cub's BlockExchange: `unsigned lane_id =
    // get_sreg_laneid();`), evaluated for this object.
    bool Written = Init->isWritten();
    if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(Value)) {
      Value = Default->getExpr();
      Written = true;
    }
    // What an initializer the user wrote reads and calls, then the value it
    // gives (an implicit copy constructor's are copies of its source).
    if (Written)
      walkExpr(Value, Inner);
    if (std::optional<VarValue> V = valueOf(FD->getType(), Value, Inner))
      fieldSlot(Target, FD) = *V;
  }
  // Constructors in CUDA and system headers (dim3, vector types) give their
  // fields only; their bodies hold no accesses of the user's.
  if (walksInto(CtorDef))
    walkStmt(CtorDef->getBody(), Inner);
  popCall(F, Inner);
}

/// Whether a reference bound to \p Value is bound to a temporary (an
/// object a call or a conversion made) rather than to an lvalue.
static bool boundToTemporary(const clang::Expr *Value) {
  const clang::Expr *E = Value->IgnoreParenImpCasts();
  if (const auto *FE = dyn_cast<FullExpr>(E))
    E = FE->getSubExpr()->IgnoreParenImpCasts();
  return isa<MaterializeTemporaryExpr>(E) || E->isPRValue();
}

std::optional<VarValue> KernelWalker::valueOf(QualType T,
                                              const clang::Expr *Value,
                                              Frame &F,
                                              const ValueDecl *Named) {
  VarValue V;
  if (std::optional<Expr> C = referencedConstant(T, Value)) {
    // `const T2 &M` bound to a constexpr (TransformerEngine's
    // DIVUP_TO_MULTIPLE(M, kScaleColAlign)): the constant.
    V.Int = *C;
  } else if (T->isReferenceType()) {
    // A reference to a slot of the state (a variable, a field held by
    // value) is read as a copy of it (inlined calls write it back); one to
    // memory holds the address it is bound to.
    if (std::optional<VarValue> Held = heldValue(Value, F))
      if (Held->Int || Held->Pointer || Held->Object)
        return Held;
    if (std::optional<AddressInfo> A = resolveAddress(Value, F, nullptr)) {
      V.Pointer = A->Ptr;
    } else {
      // Bound to a temporary (`divRndUp(n, 2)` taking `const int &`,
      // `make_tensor(p + off, layout)` taking `Iterator const &`): the
      // reference is a name for that value. Bound to memory through a
      // pointer or a reference the walker cannot follow: its accesses are
      // unknown (a scalar keeps the value read). Any other lvalue is a slot
      // whose value the walk lost (CuTe's `current`, a tuple element).
      bool Temporary = boundToTemporary(Value);
      V.UntracedMemory =
          !Temporary && (pointerOperand(Value) || untracedReference(Value, F));
      QualType Referee = T.getNonReferenceType();
      if (Referee->isIntegralOrEnumerationType())
        V.Int = translate(Value, F);
      else if (Referee->isPointerType())
        V.Pointer = resolvePointer(temporaryOf(Value), F, nullptr);
      else if (isRecordValueType(Referee) && Temporary)
        // An object the call made (ggml's `get_transposed(get_half2(t))`):
        // the thread's own, like a local.
        return recordValue(Value, F);
    }
  } else if (isRecordValueType(T)) {
    return recordValue(Value, F);
  } else if (T->isFunctionPointerType()) {
    V.Function = functionHeld(Value, F);
  } else if (T->isPointerType()) {
    // A null pointer is never dereferenced where the code runs, so where
    // paths join it is absent, like a declaration's missing initializer:
    // `T *buf = nullptr; if (c) buf = smem + off;`, `return nullptr;`
    // beside a return of memory (a search that may find nothing), a
    // `nullptr` argument (`if (maxp != nullptr)` is false in the callee).
    if (isNullPointer(Value, Ctx))
      V.Uninitialized = true;
    else
      V.Pointer = resolvePointer(Value, F, nullptr);
  } else if (T->isRealFloatingType()) {
    // Only where it comes from, for float-to-int indices.
    V.Int = floatValue(Value, F);
  } else if (T->isIntegralOrEnumerationType() || T->isBooleanType()) {
    LaneOriginInfo Origin;
    V.Int = translate(Value, F, &Origin);
    V.Pointer = integerProvenance(Value, F);
    if (V.Int->isLaneDependent()) {
      bool Known = Origin.Loc.isValid();
      V.Origin = std::make_shared<const LaneOriginInfo>(
          LaneOriginInfo{Known || !Named ? Origin.Loc : Named->getLocation(),
                         Known || !Named ? Origin.Name : Named->getName().str(),
                         Origin.Symbols});
    }
  } else {
    return std::nullopt;
  }
  return V;
}

bool KernelWalker::lostPerLane(const clang::Expr *LV, const Frame &F) {
  // Outward from the lvalue through what it is a part of: a field, an
  // element of an array held by value, what a call returns a reference
  // into (CuTe's `get<0>(coord)`, `t.engine()`).
  const clang::Expr *E = LV;
  for (unsigned Steps = 0; E && Steps < 16; ++Steps) {
    E = E->IgnoreParenImpCasts();
    if (std::optional<VarValue> Held = heldValue(E, F);
        Held && Held->Object && Held->Object->LostVaries)
      return true;
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow() && !isThis(ME->getBase()))
        return false;
      E = ME->getBase();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      // An array held by value, not memory through a pointer.
      const auto *ICE =
          dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
      E = ICE && ICE->getCastKind() == CK_ArrayToPointerDecay
              ? ICE->getSubExpr()
              : nullptr;
    } else if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
      E = MCE->getImplicitObjectArgument();
    } else if (const auto *CE = dyn_cast<CallExpr>(E);
               CE && CE->getNumArgs() > 0 && CE->isGLValue()) {
      E = CE->getArg(0);
    } else if (isa<CXXThisExpr>(E)) {
      return F.ThisObject && F.ThisObject->Object &&
             F.ThisObject->Object->LostVaries;
    } else {
      return false;
    }
  }
  return false;
}

} // namespace frontend
} // namespace coalesce
