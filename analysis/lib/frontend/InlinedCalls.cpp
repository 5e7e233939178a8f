//===- InlinedCalls.cpp - Calls the walker follows into ------------------===//
//
// A call of a function whose body the walker enters (user code, the library
// code whose accesses are the user's) is walked inline: arguments bound to
// its parameters, `*this` to the object, its returned value and what it left
// in reference parameters handed back, memory's version carried through.
// Calls it does not enter are CUDA builtins and intrinsics, known by name
// from one table (CudaFunctions.def; their values in CudaLibraryValues.cpp),
// or library calls (LibraryCalls.cpp).
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

void KernelWalker::walkCall(const CallExpr *CE, Frame &F) {
  if (PreWalked.erase(CE))
    return; // Walked before the access that uses its value.
  const FunctionDecl *Callee = CE->getDirectCallee();
  // A host function called through a pointer that holds a known function
  // (a launcher passed as an argument).
  if (!Callee && F.Host && !isa<CXXMemberCallExpr>(CE) &&
      CE->getCallee()->getType()->isFunctionPointerType())
    Callee = functionHeld(CE->getCallee(), F);
  CudaFunction Fn = cudaFunction(CE);
  if (F.Host && OnLaunch && isLaunchCall(CE)) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      walkExpr(CE->getArg(I), F);
    if (!F.Probe) // A loop probe's values are not the launch's.
      OnLaunch(CE, F);
    return;
  }
  if (isa<CUDAKernelCallExpr>(CE))
    return;

  if (Fn.is(CudaRole::Atomic) && CE->getNumArgs() >= 1) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      walkExpr(CE->getArg(I), F);
    const clang::Expr *Ptr = CE->getArg(0);
    recordPointerAccess(Ptr, AccessOp::Atomic,
                        atomicKindOf(Ptr->getType()->getPointeeType()), F,
                        nullptr);
    return;
  }
  // `num_matches->fetch_add(n)` of a cuda::atomic: an atomic of the object
  // (through the pointer it is called through, or the lvalue itself).
  if (Fn.is(CudaRole::AtomicMethod) && isLibraryAtomic(Callee))
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
      if (const clang::Expr *Obj = MCE->getImplicitObjectArgument()) {
        for (unsigned I = 0; I < CE->getNumArgs(); ++I)
          walkExpr(CE->getArg(I), F);
        QualType Value = CE->getNumArgs() ? CE->getArg(0)->getType()
                                          : Callee->getReturnType();
        AtomicKind Kind = atomicKindOf(Value.getNonReferenceType());
        if (Obj->getType()->isPointerType()) {
          walkExpr(Obj, F);
          recordPointerAccess(Obj, AccessOp::Atomic, Kind, F, nullptr);
        } else {
          recordAccess(Obj, AccessOp::Atomic, Kind, F, nullptr);
          walkAddressOperands(Obj, F);
        }
        return;
      }
  bool CacheLoad = Fn.is(CudaRole::CacheLoad);
  if ((CacheLoad || Fn.is(CudaRole::CacheStore)) && CE->getNumArgs() >= 1) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      walkExpr(CE->getArg(I), F);
    recordPointerAccess(CE->getArg(0),
                        CacheLoad ? AccessOp::Load
                                              : AccessOp::Store,
                        AtomicKind::None, F, nullptr);
    return;
  }

  // Arguments are evaluated in the caller.
  bool OperatorMethod = isOperatorMethodCall(CE, Callee);
  for (unsigned I = OperatorMethod ? 1 : 0; I < CE->getNumArgs(); ++I) {
    const clang::Expr *Arg = CE->getArg(I);
    unsigned P = OperatorMethod ? I - 1 : I;
    // A reference parameter binds to the lvalue: no load at the call.
    if (Callee && P < Callee->getNumParams() &&
        Callee->getParamDecl(P)->getType()->isReferenceType()) {
      walkBound(Arg, F);
      continue;
    }
    walkExpr(Arg, F);
  }
  if (OperatorMethod)
    walkBound(CE->getArg(0), F);
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    if (const clang::Expr *Obj = MCE->getImplicitObjectArgument())
      walkBound(Obj, F);

  if (!F.Host && modelLibraryCall(CE, Callee, F))
    return;
  const FunctionDecl *Def = nullptr;
  bool Walked = Callee && Callee->hasBody(Def) && !Def->isVariadic() &&
                walksInto(Def);
  if (Walked) {
    inlineCall(CE, Def, F);
    return;
  }
  // A call the walker does not enter (wmma::load_matrix_sync,
  // curand_init(&state[id]), a function defined in another file) that is
  // handed global memory: reported as unknown, never lost.
  if (Fn.is(CudaRole::TextOutput))
    return exclude(CE, AccessOp::Load, F,
                   "printf reads its arguments as text to print");
  if (isPointerIdentityBuiltin(CE))
    return exclude(CE, AccessOp::Load, F,
                   "returns its pointer argument and accesses nothing");
  // std::forward<T>(x), std::move(x) name x and access nothing: what is
  // done with the call is done with x (walkRead).
  if (identityCallArgument(CE))
    return;
  if (Fn.is(CudaRole::AddressConversion))
    return exclude(CE, AccessOp::Load, F,
                   "converts or inspects its pointer's address and accesses "
                   "nothing");
  if (!Callee || F.Host || isLaunchCall(CE))
    return;
  recordBoundLValues(CE, Callee, F);
  // The object of a method called through a pointer
  // (`num_matches->fetch_add(n)` on a cuda::atomic in global memory, cuco's
  // multimap count) is memory handed to the call, like a pointer argument.
  llvm::SmallVector<const clang::Expr *, 8> Handed(CE->arguments());
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    if (const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens());
        ME && ME->isArrow() && MCE->getImplicitObjectArgument())
      Handed.push_back(MCE->getImplicitObjectArgument());
  for (const clang::Expr *Arg : Handed) {
    QualType T = Arg->getType();
    if (!T->isPointerType() || T->getPointeeType()->isFunctionType())
      continue;
    std::optional<PointerValue> P = resolvePointer(Arg, F, nullptr);
    QualType Pointee = T->getPointeeType();
    AccessOp Op = Pointee.isConstQualified() ? AccessOp::Load
                                             : AccessOp::LoadStore;
    const clang::Expr *Anchor = addressOfOperand(Arg);
    if (!Anchor)
      Anchor = Arg->IgnoreParenImpCasts();
    if (isa<StringLiteral>(Anchor) || isa<PredefinedExpr>(Anchor) ||
        Arg->isNullPointerConstant(Ctx, clang::Expr::NPC_ValueDependentIsNotNull))
      continue;
    if (!P) {
      recordUnknown(Anchor, sizeOf(Pointee), Op, F, Anchor,
                    fmt::format("memory passed to '{}', which the tool does "
                                "not walk, through a pointer it cannot follow",
                                Callee->getQualifiedNameAsString()));
      continue;
    }
    if (P->Space != MemorySpace::Global) {
      excludeSpace(Anchor, Op, F, P->Space);
      continue;
    }
    size_t Before = Kernel.Accesses.size();
    emit(Anchor, AddressInfo{*P, std::nullopt}, sizeOf(Pointee), Op,
         AtomicKind::None, F, Anchor, LaneOriginInfo());
    if (Kernel.Accesses.size() > Before)
      Kernel.Accesses.back().Pattern.UnknownReason = fmt::format(
          "memory passed to '{}', which the tool does not walk",
          Callee->getQualifiedNameAsString());
  }
}

void KernelWalker::bindArguments(const FunctionDecl *Callee,
                                 llvm::ArrayRef<const clang::Expr *> Args,
                                 unsigned FirstArg, Frame &Caller,
                                 Frame &Inner) {
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    if (I + FirstArg >= Args.size())
      break;
    const ParmVarDecl *P = Callee->getParamDecl(I);
    if (std::optional<VarValue> V =
            valueOf(P->getType(), Args[I + FirstArg], Caller, nullptr))
      Inner.Env[P] = *V;
    // An object passed by value takes its local arrays' contents along.
    if (unsigned Bits = copiedContents(P->getType(), Args[I + FirstArg]))
      LocalContents[P] |= Bits;
  }
}

void KernelWalker::bindCaptures(const clang::Expr *Closure,
                                const Frame &Caller, Frame &Inner) {
  std::optional<VarValue> V = heldValue(Closure, Caller);
  if (V && V->Object && V->Object->Captures)
    for (const auto &Entry : *V->Object->Captures)
      Inner.Env.try_emplace(Entry.first, Entry.second);
}

void KernelWalker::bindThis(const clang::Expr *Object, bool Arrow,
                            Frame &Caller, Frame &Inner) {
  const clang::Expr *Obj = Object->IgnoreParenImpCasts();
  if (isThis(Obj)) {
    Inner.ThisObject = Caller.ThisObject;
    Inner.ThisPointer = Caller.ThisPointer;
    Inner.ThisHolder = Caller.ThisHolder;
    Inner.ThisLocal = Caller.ThisLocal;
    return;
  }
  if (Arrow) {
    Inner.ThisPointer = resolvePointer(Object, Caller, nullptr);
    return;
  }
  if (VarValue *Slot = heldSlot(Object, Caller)) {
    Inner.ThisObject = Slot;
    Inner.ThisLocal = localObject(Obj, Caller.ThisLocal);
    return;
  }
  // An object a call returned a reference to (`t.engine().begin()` of CuTe's
  // tensors: a field of an object held by value), read only.
  if (isa<CallExpr>(Obj))
    if (std::optional<VarValue> V = heldValue(Obj, Caller)) {
      Inner.ThisHolder = std::make_shared<VarValue>(std::move(*V));
      Inner.ThisObject = Inner.ThisHolder.get();
      return;
    }
  if (Object->isGLValue() && !isa<MaterializeTemporaryExpr>(Obj))
    if (std::optional<AddressInfo> A = resolveAddress(Object, Caller, nullptr)) {
      Inner.ThisPointer = A->Ptr;
      return;
    }
  // A temporary object.
  if (std::optional<VarValue> V = recordValue(Object, Caller)) {
    Inner.ThisHolder = std::make_shared<VarValue>(std::move(*V));
    Inner.ThisObject = Inner.ThisHolder.get();
  }
}

void KernelWalker::pushCall(Frame &Inner, const Frame &Caller,
                            const FunctionDecl *Callee,
                            clang::SourceLocation Site, const CallExpr *Call) {
  Inner.enterFrom(Caller, Callee);
  Inner.Active = Caller.Active;
  Inner.CallChain = Caller.CallChain;
  Inner.CallChain.push_back(toLocation(SM, Site));
  // By the call itself where known: the calls a pack expansion makes
  // (`g(f(get<I>(t))...)`) share one place.
  Inner.CallPath =
      mixKeys(Caller.CallPath,
              Call ? reinterpret_cast<uintptr_t>(Call) : Site.getRawEncoding());
  Inner.Memory = Caller.Memory;
  // What library code does is reported at the user's call into it.
  Inner.LibraryCall = Caller.LibraryCall;
  if (Call && !Inner.LibraryCall &&
      SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    Inner.LibraryCall = Call;
}

void KernelWalker::popCall(Frame &Caller, const Frame &Inner) {
  Caller.Memory = Inner.Memory;
}

void KernelWalker::inlineCall(const CallExpr *CE, const FunctionDecl *Callee,
                              Frame &F) {
  // A method called as an operator (a lambda's operator(), L[i]) takes its
  // object as the first argument; a lambda's body also sees the caller's
  // variables through its captures.
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  bool OperatorMethod = isOperatorMethodCall(CE, Callee);
  bool Lambda = OperatorMethod && Method->getParent()->isLambda();
  unsigned FirstArg = OperatorMethod ? 1 : 0;
  if (F.Depth >= MaxCallDepth)
    return;
  // Only code in user files (and cub): CUDA and system headers are not
  // walked.
  if (!walksInto(Callee))
    return;
  if (F.onCallChain(Callee))
    return; // Recursion: the function's body is walked once per chain.
  if (Callee->getNumParams() + FirstArg != CE->getNumArgs())
    return;
  // Host code: only the functions that lead to launches.
  if (F.Host && (!HostCallees || !HostCallees->count(Callee->getCanonicalDecl())))
    return;

  Frame Inner;
  if (Lambda) {
    Inner.Env = F.Env;
    bindCaptures(CE->getArg(0), F, Inner);
    Inner.IsKernel = F.IsKernel;
    Inner.ThisObject = F.ThisObject;
    Inner.ThisPointer = F.ThisPointer;
    Inner.ThisHolder = F.ThisHolder;
  } else if (OperatorMethod) {
    bindThis(CE->getArg(0), /*Arrow=*/false, F, Inner);
  } else if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    if (Method && !Method->isStatic()) {
      const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens());
      bindThis(MCE->getImplicitObjectArgument(), ME && ME->isArrow(), F,
               Inner);
    }
  }
  pushCall(Inner, F, Callee, CE->getBeginLoc(), CE);
  VarValue Result;
  Inner.Returned = &Result;
  llvm::SmallVector<const clang::Expr *, 8> Args(CE->arguments());
  bindArguments(Callee, Args, FirstArg, F, Inner);
  walkStmt(Callee->getBody(), Inner);
  popCall(F, Inner);
  Returned[{CE, F.CallPath}] = Result;
  // Reference parameters bound to the caller's slots write back what the
  // callee left in them (`mirror(int &d, int n)` changes the caller's d).
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    QualType T = P->getType();
    if (!T->isReferenceType() || T.getNonReferenceType().isConstQualified() ||
        I + FirstArg >= Args.size())
      continue;
    auto It = Inner.Env.find(P);
    if (It == Inner.Env.end())
      continue;
    if (VarValue *Slot = heldSlot(Args[I + FirstArg], F))
      *Slot = It->second;
  }
}

} // namespace frontend
} // namespace coalesce
