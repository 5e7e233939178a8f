//===- AddressResolver.cpp - Memory lvalues to base + byte offset ---------===//
//
// a[i]        --> base(a) + i * sizeof(*a)
// p[i].x      --> base(p) + i * sizeof(*p) + offsetof(x)
// p->x, *p    --> base(p) + offset
// g[i][j]     --> base(g) + i * sizeof(g[0]) + j * sizeof(g[0][0])
// Pointers are followed through local variables, casts, pointer arithmetic,
// &lvalue, array decay and the parameters of inlined __device__ functions.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
/// The memory space of a variable with global or static storage.
MemorySpace spaceOfVar(const VarDecl *VD) {
  if (VD->hasAttr<CUDASharedAttr>())
    return MemorySpace::Shared;
  if (VD->hasAttr<CUDAConstantAttr>())
    return MemorySpace::Constant;
  if (VD->hasAttr<CUDADeviceAttr>() || VD->hasGlobalStorage())
    return VD->isLocalVarDecl() && !VD->isStaticLocal() ? MemorySpace::Local
                                                        : MemorySpace::Global;
  return MemorySpace::Local;
}

/// The offset in bytes of the base class a derived-to-base cast \p CE
/// converts to, within the object it converts from; nullopt through a
/// virtual base or an incomplete class.
std::optional<int64_t> baseClassOffset(const CastExpr *CE, ASTContext &Ctx) {
  QualType From = CE->getSubExpr()->getType();
  if (From->isPointerType())
    From = From->getPointeeType();
  const CXXRecordDecl *Derived = From->getAsCXXRecordDecl();
  int64_t Offset = 0;
  for (const CXXBaseSpecifier *B : CE->path()) {
    const CXXRecordDecl *Base = B->getType()->getAsCXXRecordDecl();
    if (!Derived || !Base || B->isVirtual() || !Derived->hasDefinition() ||
        Derived->isInvalidDecl() || Derived->isDependentType())
      return std::nullopt;
    Offset +=
        Ctx.getASTRecordLayout(Derived).getBaseClassOffset(Base).getQuantity();
    Derived = Base;
  }
  return Offset;
}
/// Appends the statements \p S runs, in order, to \p Out, with an
/// instantiated `if constexpr` replaced by the branch it keeps (CuTe's
/// `getr`: `if constexpr (N == 0) return s.first_; else return getr<R,
/// N-1>(s.rest_);`).
void keptStatements(const Stmt *S, ASTContext &Ctx,
                    llvm::SmallVectorImpl<const Stmt *> &Out) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      keptStatements(Child, Ctx, Out);
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S);
      If && If->isConstexpr() && !If->getInit()) {
    if (std::optional<const Stmt *> Kept = If->getNondiscardedCase(Ctx)) {
      if (*Kept)
        keptStatements(*Kept, Ctx, Out);
      return;
    }
  }
  Out.push_back(S);
}

/// Whether \p S declares only what runs nothing: `static_assert`, types,
/// using-declarations (CuTe's `get<I>`: `static_assert(I < sizeof...(T));
/// return eso::getv_cr<I>(t);`).
bool declaresNothingRun(const Stmt *S) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  return DS && llvm::all_of(DS->decls(), [](const Decl *D) {
           return isa<StaticAssertDecl, TypeDecl, UsingDecl,
                      UsingDirectiveDecl>(D);
         });
}

/// The return statement of a body that is one `return E;` after statements
/// that cannot change its value: `;`, declarations that run nothing,
/// expressions without side effects
/// (`assert` under NDEBUG is `(void)0`) and an `assert` (Warp's
/// `vec_t::operator[]` asserts its index, then returns the element).
/// Statements after the return are never run.
const ReturnStmt *onlyReturn(const CompoundStmt *Body, ASTContext &Ctx) {
  if (!Body)
    return nullptr;
  llvm::SmallVector<const Stmt *, 8> Kept;
  keptStatements(Body, Ctx, Kept);
  for (const Stmt *S : Kept) {
    if (const auto *Ret = dyn_cast<ReturnStmt>(S))
      return Ret->getRetValue() ? Ret : nullptr;
    if (isa<NullStmt>(S) || declaresNothingRun(S))
      continue;
    const auto *E = dyn_cast<clang::Expr>(S);
    if (!E || E->isValueDependent())
      return nullptr;
    clang::SourceLocation Loc = E->getBeginLoc();
    bool Assertion = Loc.isMacroID() && Lexer::getImmediateMacroName(
                                            Loc, Ctx.getSourceManager(),
                                            Ctx.getLangOpts()) == "assert";
    if (!Assertion && E->HasSideEffects(Ctx))
      return nullptr;
  }
  return nullptr;
}
} // namespace

unsigned KernelWalker::sizeOf(QualType T) const {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType())
    return 1;
  if (T->isVoidType())
    return 1;
  return static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
}

std::optional<PointerValue> KernelWalker::varPointer(const ValueDecl *D,
                                                     const Frame &F) {
  NameValue N = nameValue(D, F);
  if (N.K == NameValue::Kind::Slot || N.K == NameValue::Kind::Memory)
    return N.Held->Pointer;
  return launchValue(D, F).Pointer;
}

const clang::Expr *KernelWalker::singleReturn(const CallExpr *CE,
                                              const Frame &F, Frame &Callee,
                                              LaneOriginInfo *Origin) {
  const FunctionDecl *FD = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  // As deep as inlined calls go (moderngpu's lambdas read `indices[i]` 22
  // calls deep); a recursive function is substituted into itself up to
  // MaxSubstitutionDepth.
  if (!FD || !FD->hasBody(Def) || F.Depth >= MaxCallDepth ||
      (F.Depth >= MaxSubstitutionDepth && F.onCallChain(Def)))
    return nullptr;
  // CUDA and system headers are not substituted: their internals
  // (__nvvm_atom_add_gen_i) mean nothing to the user.
  if (!walksInto(Def))
    return nullptr;
  const auto *Method = dyn_cast<CXXMethodDecl>(Def);
  bool OperatorMethod = isOperatorMethodCall(CE, Def);
  unsigned FirstArg = OperatorMethod ? 1 : 0;
  if (Def->getNumParams() + FirstArg != CE->getNumArgs())
    return nullptr;
  const ReturnStmt *Ret =
      onlyReturn(dyn_cast_or_null<CompoundStmt>(Def->getBody()), Ctx);
  if (!Ret)
    return nullptr;
  if (Method && Method->getParent()->isLambda() && OperatorMethod) {
    Callee.Env = F.Env;
    bindCaptures(CE->getArg(0), F, Callee);
    Callee.IsKernel = F.IsKernel;
  }
  Callee.enterFrom(F, Def);
  Callee.Memory = F.Memory;
  // Calls in the body are those the inlined walk of this call made.
  Callee.CallPath = mixKeys(F.CallPath, reinterpret_cast<uintptr_t>(CE));
  // `this`, read only: the object held by value (copied), or its address.
  if (Method && !Method->isStatic()) {
    const clang::Expr *Obj = nullptr;
    bool Arrow = false;
    if (OperatorMethod) {
      Obj = CE->getArg(0);
    } else if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
      Obj = MCE->getImplicitObjectArgument();
      if (const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens()))
        Arrow = ME->isArrow();
    }
    if (Obj && isThis(Obj)) {
      Callee.ThisObject = F.ThisObject;
      Callee.ThisPointer = F.ThisPointer;
      Callee.ThisLocal = F.ThisLocal;
    } else if (Obj && Arrow) {
      Callee.ThisPointer = resolvePointer(Obj, F, Origin);
    } else if (Obj) {
      if (std::optional<VarValue> Held = heldValue(Obj, F)) {
        Callee.ThisHolder = std::make_shared<VarValue>(std::move(*Held));
        Callee.ThisObject = Callee.ThisHolder.get();
        Callee.ThisLocal = localObject(Obj, F.ThisLocal);
      } else if (std::optional<AddressInfo> A =
                     resolveAddress(Obj, F, nullptr)) {
        Callee.ThisPointer = A->Ptr;
      } else {
        return nullptr;
      }
    }
  }
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const clang::Expr *Arg = CE->getArg(I + FirstArg);
    QualType T = Def->getParamDecl(I)->getType();
    VarValue V;
    if (T->isReferenceType() && !isRecordValueType(T)) {
      // A constant (`const T &M` bound to a constexpr), a slot of the state
      // or a temporary is a value; memory an address.
      if (std::optional<Expr> C = referencedConstant(T, Arg))
        V.Int = *C;
      else if (std::optional<VarValue> Held = heldValue(Arg, F);
          Held && (Held->Int || Held->Pointer))
        V = *Held;
      else if (std::optional<AddressInfo> A = resolveAddress(Arg, F, Origin))
        V.Pointer = A->Ptr;
      else if (T.getNonReferenceType()->isIntegralOrEnumerationType())
        V.Int = translate(Arg, F, Origin);
      else if (T.getNonReferenceType()->isPointerType())
        V.Pointer = resolvePointer(temporaryOf(Arg), F, Origin);
    } else if (isRecordValueType(T)) {
      // A copy of the caller's object is that object, as valueOf() binds
      // it: a reference to an object in memory holds its address (`tpl`
      // of moderngpu's `get<0>(u[i])`); one bound to an object a call
      // returned (`tuple<int> &&` of `get<0>(v[i])`) what its walk returned
      // (a held value).
      const clang::Expr *Src = copySource(Arg);
      if (std::optional<VarValue> Held = heldValue(Src, F)) {
        V = *Held;
      } else if (T->isReferenceType() && Src->isGLValue()) {
        if (std::optional<AddressInfo> A = resolveAddress(Src, F, Origin))
          V.Pointer = A->Ptr;
      } else if (isa<CXXConstructExpr>(Src) || isa<InitListExpr>(Src)) {
        // A temporary built for the call (`packed({kRow, kColumn})` of
        // CUTLASS's layouts): only the walk of the call constructs it; the
        // caller takes what that walk returned.
        return nullptr;
      }
    } else if (Arg->getType()->isPointerType()) {
      V.Pointer = resolvePointer(Arg, F, Origin);
    } else {
      V.Int = translate(Arg, F, Origin);
    }
    Callee.Env[Def->getParamDecl(I)] = V;
  }
  return Ret->getRetValue();
}

std::optional<Expr>
KernelWalker::provenanceOffset(const clang::Expr *E, const Frame &F,
                               std::optional<PointerValue> &Base) {
  E = E->IgnoreParens();
  auto Pointer = [&](const std::optional<PointerValue> &P)
      -> std::optional<Expr> {
    if (!P || P->Space == MemorySpace::Global ||
        P->Space == MemorySpace::Unknown ||
        (Base && Base->BaseName != P->BaseName))
      return std::nullopt;
    Base = P;
    return P->ByteOffset;
  };
  auto Constant = [&](const clang::Expr *C) -> std::optional<int64_t> {
    std::optional<llvm::APSInt> V = C->getIntegerConstantExpr(Ctx);
    if (!V || V->getBitWidth() > 64)
      return std::nullopt;
    // ~size_t(127) as the 64-bit pattern it is.
    return V->isSigned() ? V->getSExtValue()
                         : static_cast<int64_t>(V->getZExtValue());
  };
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    if (CE->getCastKind() == CK_PointerToIntegral)
      return Pointer(resolvePointer(CE->getSubExpr(), F, nullptr));
    if (CE->getCastKind() == CK_IntegralCast || CE->getCastKind() == CK_NoOp ||
        CE->getCastKind() == CK_LValueToRValue)
      return provenanceOffset(CE->getSubExpr(), F, Base);
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const VarValue *Slot = nameValue(DRE->getDecl(), F).slot();
    if (!DRE->getType()->isIntegerType() || !Slot)
      return std::nullopt;
    return Pointer(Slot->Pointer);
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  std::optional<int64_t> L = Constant(BO->getLHS()),
                         R = Constant(BO->getRHS());
  const clang::Expr *Side = R ? BO->getLHS() : BO->getRHS();
  std::optional<int64_t> C = R ? R : L;
  if (!C || (L && R))
    return std::nullopt;
  std::optional<Expr> Off = provenanceOffset(Side, F, Base);
  if (!Off)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case BO_Add:
    return *Off + Expr::constant(*C);
  case BO_Sub:
    return R ? std::optional<Expr>(*Off - Expr::constant(*C)) : std::nullopt;
  case BO_And: {
    // Rounding down to a power of two, `& ~(A - 1)`: exact for a constant
    // offset from a base aligned to A. The base's own alignment moves every
    // lane alike, which changes no bank count. The mask as a bit pattern of
    // its width (~127u is -128).
    std::optional<llvm::APSInt> M =
        (R ? BO->getRHS() : BO->getLHS())->getIntegerConstantExpr(Ctx);
    if (!M || M->getBitWidth() > 64)
      return std::nullopt;
    int64_t Mask = M->sextOrTrunc(64).getSExtValue();
    uint64_t A = ~uint64_t(Mask) + 1;
    std::optional<int64_t> K = Off->asConstant();
    if (!K || A == 0 || (A & (A - 1)) != 0)
      return std::nullopt;
    return Expr::constant(*K & Mask);
  }
  default:
    return std::nullopt;
  }
}

std::optional<PointerValue>
KernelWalker::integerProvenance(const clang::Expr *E, const Frame &F) {
  // The address arithmetic of an align-up (`(a + 127) & ~127`) followed.
  std::optional<PointerValue> Base;
  if (std::optional<Expr> Off = provenanceOffset(E, F, Base)) {
    PointerValue P = *Base;
    P.ByteOffset = *Off;
    return P;
  }
  std::optional<PointerValue> Found;
  bool Conflict = false;
  auto Add = [&](const std::optional<PointerValue> &P) {
    if (!P || P->Space == MemorySpace::Global ||
        P->Space == MemorySpace::Unknown ||
        (Found && Found->BaseName != P->BaseName))
      Conflict = true;
    else
      Found = P;
  };
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Conflict)
      return;
    if (const auto *CE = dyn_cast<CastExpr>(S);
        CE && CE->getCastKind() == CK_PointerToIntegral)
      return Add(resolvePointer(CE->getSubExpr(), F, nullptr));
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getType()->isIntegerType())
        if (const VarValue *Slot = nameValue(DRE->getDecl(), F).slot();
            Slot && Slot->Pointer)
          return Add(Slot->Pointer);
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(E);
  if (Conflict || !Found)
    return std::nullopt;
  std::string Name = sourceText(Ctx, E->getSourceRange());
  return PointerValue{Found->BaseName, Found->Space,
                      symbol({SymbolKind::LaneValue, Name})};
}

std::optional<PointerValue>
KernelWalker::resolvePointer(const clang::Expr *P, const Frame &F,
                             LaneOriginInfo *Origin) {
  P = P->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(P)) // ExprWithCleanups, ConstantExpr
    return resolvePointer(FE->getSubExpr(), F, Origin);
  // `T const *p{&A[i]}`: the brace initializer's one value.
  if (const auto *ILE = dyn_cast<InitListExpr>(P);
      ILE && ILE->getType()->isPointerType() && ILE->getNumInits() == 1)
    return resolvePointer(ILE->getInit(0), F, Origin);
  if (const auto *CE = dyn_cast<CastExpr>(P)) {
    switch (CE->getCastKind()) {
    case CK_ArrayToPointerDecay: {
      std::optional<AddressInfo> A = resolveAddress(CE->getSubExpr(), F, Origin);
      if (!A)
        return std::nullopt;
      return A->Ptr;
    }
    case CK_LValueToRValue:
      return loadedPointer(CE->getSubExpr(), F, Origin);
    case CK_NoOp:
    case CK_BitCast:
    case CK_AddressSpaceConversion:
    case CK_UserDefinedConversion:
      return resolvePointer(CE->getSubExpr(), F, Origin);
    case CK_IntegralToPointer:
      return integerProvenance(CE->getSubExpr(), F);
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase: {
      // A pointer to a derived object seen as one to its base (`this` of a
      // base class's method, `q->d_index` of a field the base declares):
      // the base's offset in the object further.
      std::optional<int64_t> Offset = baseClassOffset(CE, Ctx);
      std::optional<PointerValue> Base =
          Offset ? resolvePointer(CE->getSubExpr(), F, Origin) : std::nullopt;
      if (Base && *Offset)
        Base->ByteOffset = Base->ByteOffset + Expr::constant(*Offset);
      return Base;
    }
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf) {
      std::optional<AddressInfo> A = resolveAddress(UO->getSubExpr(), F, Origin);
      if (A)
        return A->Ptr;
      // The address of an object the walker holds by value (`&state` of a
      // local curandState, or of a reference parameter bound to one): local
      // memory, whose accesses are not global ones.
      const clang::Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub))
        if (isRecordValueType(Sub->getType()))
          if (auto It = F.Env.find(DRE->getDecl());
              It != F.Env.end() && It->second.Object && !It->second.Pointer)
            return PointerValue{DRE->getDecl()->getNameAsString(),
                                MemorySpace::Local, Expr::constant(0)};
      return std::nullopt;
    }
    if (UO->isIncrementDecrementOp()) {
      // As translate has them: the walker applies the side effect after the
      // access that uses the value is recorded, so `*--sp` is one element
      // below the pointer held, `*sp++` the pointer held.
      std::optional<PointerValue> Old =
          resolvePointer(UO->getSubExpr(), F, Origin);
      if (Old && UO->isPrefix())
        Old->ByteOffset =
            Old->ByteOffset +
            Expr::constant((UO->isIncrementOp() ? 1 : -1) *
                           int64_t(sizeOf(UO->getType()->getPointeeType())));
      return Old;
    }
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->getOpcode() == BO_Comma)
      return resolvePointer(BO->getRHS(), F, Origin);
    if (BO->isAssignmentOp())
      return resolvePointer(BO->getLHS(), F, Origin);
    if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
      return std::nullopt;
    const clang::Expr *PtrSide = BO->getLHS(), *IntSide = BO->getRHS();
    if (!PtrSide->getType()->isPointerType())
      std::swap(PtrSide, IntSide);
    if (!PtrSide->getType()->isPointerType() ||
        !IntSide->getType()->isIntegerType())
      return std::nullopt;
    std::optional<PointerValue> Base = resolvePointer(PtrSide, F, Origin);
    if (!Base)
      return std::nullopt;
    Expr Step = translate(IntSide, F, Origin) *
                Expr::constant(sizeOf(PtrSide->getType()->getPointeeType()));
    Base->ByteOffset = BO->getOpcode() == BO_Add ? Base->ByteOffset + Step
                                                 : Base->ByteOffset - Step;
    return Base;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
    // An lvalue `c ? L->wq : L->wk` (read as a whole) loads the arm chosen.
    auto ArmPointer = [&](const clang::Expr *Arm) {
      return CO->isGLValue() ? loadedPointer(Arm, F, Origin)
                             : resolvePointer(Arm, F, Origin);
    };
    // `bias ? bias + off : nullptr`: memory is reached through the other
    // arm only (a null pointer is never dereferenced where the code runs).
    for (auto [Arm, Other] : {std::pair{CO->getTrueExpr(), CO->getFalseExpr()},
                              std::pair{CO->getFalseExpr(), CO->getTrueExpr()}})
      if (Arm->isNullPointerConstant(Ctx, clang::Expr::NPC_ValueDependentIsNotNull))
        return ArmPointer(Other);
    // A condition fixed for the code (cub's `MEMOIZE_OUTER_SCAN ?
    // cached_segment : smem_raking_ptr`): the arm it picks.
    if (std::optional<int64_t> C = translate(CO->getCond(), F).asConstant())
      return ArmPointer(*C ? CO->getTrueExpr() : CO->getFalseExpr());
    std::optional<PointerValue> T = ArmPointer(CO->getTrueExpr());
    std::optional<PointerValue> E = ArmPointer(CO->getFalseExpr());
    if (!T || !E)
      return std::nullopt;
    return joinPointers(translate(CO->getCond(), F, Origin), *T, *E,
                        sourceText(Ctx, CO->getSourceRange()));
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(P))
    return varPointer(DRE->getDecl(), F);
  if (isa<CXXThisExpr>(P))
    return F.ThisPointer;
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    // __builtin_assume_aligned(p, 16) is p.
    if (isPointerIdentityBuiltin(CE) && CE->getNumArgs() >= 1)
      return resolvePointer(CE->getArg(0), F, Origin);
    if (const clang::Expr *Same = identityCallArgument(CE)) // std::forward
      return resolvePointer(Same, F, Origin);
    if (std::optional<PointerValue> Special = specialPointer(CE))
      return Special;
    if (std::optional<VarValue> Element = tupleElement(CE, F);
        Element && Element->Pointer)
      return Element->Pointer;
    // `return base + row * pitch;`: substituted.
    Frame Callee;
    if (const clang::Expr *Ret = singleReturn(CE, F, Callee, Origin))
      return resolvePointer(Ret, Callee, Origin);
    // A longer function: what its inlined walk returned.
    if (const VarValue *R = returnedBy(CE, F); R && R->Pointer)
      return R->Pointer;
  }
  return std::nullopt;
}

std::optional<AddressInfo>
KernelWalker::resolveAddress(const clang::Expr *LV, const Frame &F,
                             LaneOriginInfo *Origin) {
  LV = LV->IgnoreParens();
  if (const auto *FE = dyn_cast<FullExpr>(LV))
    return resolveAddress(FE->getSubExpr(), F, Origin);
  if (const auto *CE = dyn_cast<ImplicitCastExpr>(LV))
    if (CE->getCastKind() == CK_NoOp || CE->getCastKind() == CK_UncheckedDerivedToBase ||
        CE->getCastKind() == CK_DerivedToBase)
      return resolveAddress(CE->getSubExpr(), F, Origin);
  // An lvalue seen as another type (`reinterpret_cast<T &>(*this)` of cub's
  // Uninitialized<T>::Alias(), `(float4 &)v[i]`): the same address.
  if (const auto *CE = dyn_cast<ExplicitCastExpr>(LV);
      CE && CE->isGLValue() && CE->getSubExpr()->isGLValue()) {
    std::optional<AddressInfo> A = resolveAddress(CE->getSubExpr(), F, Origin);
    if (A)
      A->RecordBytes.reset();
    return A;
  }

  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV)) {
    // An element of an array field of a struct element (`s[i].v[2]`,
    // `state->v[0]`): a field of the struct at a constant index, so the
    // struct's size and the field's offset are kept (arrays of structures).
    const clang::Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
    if (isa<MemberExpr>(Base) && Base->getType()->isConstantArrayType())
      if (std::optional<int64_t> Idx = translate(ASE->getIdx(), F).asConstant())
        if (std::optional<AddressInfo> A = resolveAddress(Base, F, Origin)) {
          int64_t Bytes = *Idx * sizeOf(ASE->getType());
          A->Ptr.ByteOffset = A->Ptr.ByteOffset + Expr::constant(Bytes);
          if (A->RecordBytes && Bytes >= 0 &&
              A->FieldOffset + Bytes < *A->RecordBytes)
            A->FieldOffset += static_cast<unsigned>(Bytes);
          else
            A->RecordBytes.reset();
          return A;
        }
    std::optional<PointerValue> P = resolvePointer(ASE->getBase(), F, Origin);
    if (!P)
      return std::nullopt;
    P->ByteOffset = P->ByteOffset + translate(ASE->getIdx(), F, Origin) *
                                        Expr::constant(sizeOf(ASE->getType()));
    return AddressInfo{*P, std::nullopt};
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(LV)) {
    if (UO->getOpcode() != UO_Deref)
      return std::nullopt;
    std::optional<PointerValue> P = resolvePointer(UO->getSubExpr(), F, Origin);
    if (!P)
      return std::nullopt;
    return AddressInfo{*P, std::nullopt};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(LV)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return std::nullopt;
    // A reference member of an object held by value: the memory it was
    // bound to (`temp_storage` of cub's block primitives, bound to the
    // user's __shared__ TempStorage).
    if (FD->getType()->isReferenceType()) {
      std::optional<VarValue> V = memberValue(ME, F);
      if (V && bindsSlot(FD->getType(), *V))
        return AddressInfo{PointerValue{FD->getName().str(),
                                        MemorySpace::Local, Expr::constant(0)},
                           std::nullopt};
      if (V && V->Pointer)
        return AddressInfo{*V->Pointer, std::nullopt};
      return std::nullopt;
    }
    uint64_t OffsetBits = Ctx.getFieldOffset(FD);
    // A bit-field (`unsigned i : 31, b : 1;` of Warp's BVH nodes) is read
    // and written as the unit of its declared type that holds it.
    if (FD->isBitField()) {
      uint64_t UnitBits = 8 * std::max(1u, sizeOf(FD->getType()));
      OffsetBits -= OffsetBits % UnitBits;
    }
    QualType RecordType;
    std::optional<AddressInfo> A;
    if (ME->isArrow()) {
      std::optional<PointerValue> P = resolvePointer(ME->getBase(), F, Origin);
      // A field of `*this` held by value (an array member of cub's
      // BlockScanRaking, `cached_segment`): the thread's own memory; of a
      // kernel's by-value argument (`shape.data()` of MLX's
      // `cuda::std::array<int32_t, 8> shape`): parameter space.
      if (!P && isThis(ME->getBase()) &&
          F.ThisObject && !F.ThisPointer) {
        const ObjectValue *Obj = F.ThisObject->Object.get();
        if (Obj && !Obj->Name.empty() && Obj->ScalarKind == SymbolKind::Param) {
          P = PointerValue{Obj->Name, MemorySpace::Param, Expr::constant(0)};
        } else {
          P = PointerValue{FD->getName().str(), MemorySpace::Local,
                           Expr::constant(0)};
          P->LocalArray = F.ThisLocal;
        }
      }
      if (!P)
        return std::nullopt;
      A = AddressInfo{*P, std::nullopt};
      RecordType = ME->getBase()->getType()->getPointeeType();
    } else {
      A = resolveAddress(ME->getBase(), F, Origin);
      if (!A)
        return std::nullopt;
      RecordType = ME->getBase()->getType();
    }
    A->Ptr.ByteOffset =
        A->Ptr.ByteOffset + Expr::constant(static_cast<int64_t>(OffsetBits / 8));
    A->FieldOffset += static_cast<unsigned>(OffsetBits / 8);
    if (!A->RecordBytes) {
      A->RecordBytes = sizeOf(RecordType);
      if (!RecordType->isIncompleteType() && !RecordType->isDependentType())
        A->RecordAlign = static_cast<unsigned>(
            Ctx.getTypeAlignInChars(RecordType).getQuantity());
    }
    return A;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    // A reference bound to memory: `float &r = a[i];`.
    if (VD->getType()->isReferenceType()) {
      NameValue N = nameValue(VD, F);
      // Bound to a variable or an object of the thread (ggml's
      // `const tile<16, 8, half2> &A` of a register tile, read as
      // `(const int *) A.x`): the thread's own memory.
      if (N.K == NameValue::Kind::Slot)
        return AddressInfo{PointerValue{VD->getName().str(),
                                        MemorySpace::Local, Expr::constant(0)},
                           std::nullopt};
      if (N.K == NameValue::Kind::Memory && N.Held->Pointer)
        return AddressInfo{*N.Held->Pointer, std::nullopt};
      return std::nullopt;
    }
    if (isa<ParmVarDecl>(VD) || !VD->hasGlobalStorage()) {
      // A kernel's by-value argument is in parameter space, fixed for the
      // launch; a device function's is the thread's own copy.
      PointerValue P{VD->getName().str(),
                     isKernelParameter(VD) ? MemorySpace::Param
                                           : MemorySpace::Local,
                     Expr::constant(0)};
      if (!isa<ParmVarDecl>(VD) && (VD->getType()->isArrayType() ||
                                    VD->getType()->isRecordType()))
        P.LocalArray = VD;
      return AddressInfo{P, std::nullopt};
    }
    return AddressInfo{
        PointerValue{VD->getName().str(), spaceOfVar(VD), Expr::constant(0)},
        std::nullopt};
  }
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(LV))
    return resolveAddress(MTE->getSubExpr(), F, Origin);
  if (const auto *CO = dyn_cast<ConditionalOperator>(LV)) {
    // `float &r = c ? a[i] : b[j]`: the lvalue chosen per lane.
    std::optional<AddressInfo> T = resolveAddress(CO->getTrueExpr(), F, Origin);
    std::optional<AddressInfo> E = resolveAddress(CO->getFalseExpr(), F, Origin);
    if (!T || !E)
      return std::nullopt;
    std::optional<PointerValue> P =
        joinPointers(translate(CO->getCond(), F, Origin), T->Ptr, E->Ptr,
                     sourceText(Ctx, CO->getSourceRange()));
    if (!P)
      return std::nullopt;
    T->Ptr = std::move(*P);
    return T;
  }
  if (const auto *CE = dyn_cast<CallExpr>(LV)) {
    // std::forward<T>(x) += 1: the object x names.
    if (const clang::Expr *Same = identityCallArgument(CE))
      return resolveAddress(Same, F, Origin);
    // A function returning a reference: `float &at(int i) { return p[i]; }`
    // and accessor operators (`view[i] = x`, `t(i, j)`).
    if (!CE->getType()->isReferenceType() && !CE->isGLValue())
      return std::nullopt;
    Frame Callee;
    if (const clang::Expr *Ret = singleReturn(CE, F, Callee, Origin))
      return resolveAddress(Ret, Callee, Origin);
    if (const VarValue *R = returnedBy(CE, F); R && R->Pointer)
      return AddressInfo{*R->Pointer, std::nullopt};
  }
  return std::nullopt;
}

} // namespace frontend
} // namespace coalesce
