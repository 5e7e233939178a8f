//===- AccessCollector.cpp - Finding the global accesses of an expression -===//
//
// An access is a memory lvalue that is actually read or written:
//   LValueToRValue(lv)            load          x = a[i]
//   lv = e                        store         a[i] = x
//   lv op= e, ++lv, lv++          load+store    a[i] += x
//   atomicAdd(&lv, v), ...        atomic
//   __ldg(&lv), __stcg(&lv, v)    load / store
//   T t = lv; lv = t (records)    load / store  float4 v = in[i]
// Only lvalues that resolve to global memory are recorded: __shared__,
// __constant__, local variables and by-value parameters are not.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "ParseFile.h"
#include "coalesce/ExprBounds.h"

#include "llvm/ADT/ScopeExit.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
/// Does \p E call a function (whose value may come from an inlined walk)?
bool containsCall(const clang::Expr *E) {
  if (isa<CallExpr>(E))
    return true;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<clang::Expr>(Child))
      if (containsCall(CE))
        return true;
  return false;
}

} // namespace

const VarDecl *localScalar(const clang::Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!VD->hasGlobalStorage() && !VD->getType()->isReferenceType())
        return VD;
  return nullptr;
}

namespace {

/// The line of \p Loc as text, without the newline.
std::string lineText(const SourceManager &SM, clang::SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(SM.getFileID(Loc), &Invalid);
  if (Invalid)
    return {};
  unsigned Off = SM.getFileOffset(Loc);
  size_t Begin = Buf.rfind('\n', Off);
  Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
  size_t End = Buf.find('\n', Off);
  return Buf.slice(Begin, End).rtrim("\r").str();
}
} // namespace

AtomicKind atomicKindOf(QualType Pointee) {
  return Pointee->isRealFloatingType() || Pointee->isHalfType()
             ? AtomicKind::Float
             : AtomicKind::Integer;
}

bool isOperatorMethodCall(const CallExpr *CE, const FunctionDecl *Callee) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  return Method && !Method->isStatic() && isa<CXXOperatorCallExpr>(CE);
}

bool isLaunchCall(const CallExpr *CE) {
  if (isa<CUDAKernelCallExpr>(CE))
    return true;
  return cudaFunction(CE).is(CudaRole::Launch);
}

bool KernelWalker::walksInto(const FunctionDecl *Def) const {
  return !skipsLibraryBody(Def);
}

void KernelWalker::emit(const clang::Expr *LV, const AddressInfo &Addr,
                        unsigned Bytes, AccessOp Op, AtomicKind Atomic,
                        Frame &F, const clang::Expr *Anchor,
                        const LaneOriginInfo &Origin) {
  // Every store the walker records changes memory (library calls, wmma,
  // asynchronous copies reach here without recordAccess).
  if (Op != AccessOp::Load)
    F.Memory = mixKeys(F.Memory, locationKey(LV));
  if (!F.records())
    return;
  const clang::Expr *At = Anchor ? Anchor : LV;
  // Code that cannot run (`if (nIsPow2) ... else ...` in the nIsPow2 = true
  // instance) holds no access.
  if (Facts.neverHolds(F.Active))
    return exclude(At, Op, F,
                   F.Active.isConstant()
                       ? "code that cannot run here (its condition is false "
                         "for these values)"
                       : "code that cannot run (its conditions contradict "
                         "each other for every value)");
  // An access inside cub is the user's call's: reported there.
  if (F.LibraryCall)
    At = F.LibraryCall;
  AccessRecord R;
  R.Loc = toLocation(SM, At->getBeginLoc());
  clang::SourceLocation End = SM.getExpansionLoc(At->getEndLoc());
  R.EndLoc = toLocation(SM, End);
  if (unsigned Len = Lexer::MeasureTokenLength(End, SM, Ctx.getLangOpts()))
    R.EndLoc.Column += Len - 1;
  R.Kernel = Kernel.Name;
  R.Expression = sourceText(Ctx, At->getSourceRange());
  R.Base = Addr.Ptr.BaseName;
  R.ElemBytes = Bytes;
  R.SourceLine = lineText(SM, At->getBeginLoc());
  if (Origin.Loc.isValid()) {
    R.LaneSourceLoc = toLocation(SM, Origin.Loc);
    R.LaneSourceName = Origin.Name;
    R.LaneSourceSymbols = Origin.Symbols;
  }
  R.CallChain = F.CallChain;
  R.Pattern.Address = Addr.Ptr.ByteOffset;
  R.Pattern.Space = Addr.Ptr.Space == MemorySpace::Shared ? AccessSpace::Shared
                                                          : AccessSpace::Global;
  if (R.Pattern.Space == AccessSpace::Shared)
    R.SharedArray = Facts.sharedArrays().of(LV);
  R.Pattern.Active = Addr.Ptr.GlobalWhere
                         ? Expr::logicalAnd(F.Active, *Addr.Ptr.GlobalWhere)
                         : F.Active;
  if (R.Pattern.Address.isIndirect() || R.Pattern.Active.isIndirect())
    for (const Expr *E : {&R.Pattern.Address, &R.Pattern.Active})
      for (const Symbol &S : E->symbols())
        if (auto It = LoadAddressOf.find(S); It != LoadAddressOf.end())
          if (llvm::none_of(R.Pattern.LoadAddresses,
                            [&](const auto &L) { return L.first == S; }))
            R.Pattern.LoadAddresses.emplace_back(S, It->second);
  if (F.SampledIter && R.Pattern.Address.symbols().count(*F.SampledIter))
    R.SampledOnly = F.SampledLoop;
  // An address through a loop-carried value the walker gave up on says why;
  // where every such value is a function of others (LaneInputs.h), the
  // prediction may find them the same in a warp's lanes.
  if (!OpaqueReasons.empty() && !R.Pattern.Address.isIndirect())
    collectOpaque(R.Pattern);
  R.Pattern.AccessBytes = Bytes;
  R.Pattern.Loops = Nest.Enclosing;
  // Accesses as the compiler issues them: a struct whose alignment is less
  // than its size (or that is wider than 16 bytes) is moved in pieces of
  // its alignment; naturally aligned vectors up to 16 bytes are one access.
  // A width that is not the type's is an instruction's (inline PTX's
  // `ld.global.v4.u32 [&A[i]]` on a half array: one 16-byte load).
  QualType T = LV->getType();
  if (T->isPointerType() && Anchor && Anchor != LV)
    T = T->getPointeeType();
  if (T->isRecordType() && !T->isIncompleteType() && !T->isDependentType() &&
      Ctx.getTypeSizeInChars(T).getQuantity() == int64_t(Bytes)) {
    unsigned Align =
        static_cast<unsigned>(Ctx.getTypeAlignInChars(T).getQuantity());
    bool PowerOfTwo = Bytes && (Bytes & (Bytes - 1)) == 0;
    if (Align && (Align < Bytes || Bytes > 16 || !PowerOfTwo)) {
      unsigned Piece = std::min(Align, 16u);
      R.Pattern.AccessBytes = Piece;
      R.Pattern.Instructions = (Bytes + Piece - 1) / Piece;
      if (!Addr.RecordBytes)
        R.Pattern.RecordBytes = Bytes;
    }
  }
  R.Pattern.Op = Op;
  R.Pattern.Atomic = Atomic;
  if (Addr.RecordBytes && *Addr.RecordBytes > Bytes) {
    R.Pattern.RecordBytes = Addr.RecordBytes;
    R.Pattern.RecordAlign = Addr.RecordAlign;
    R.Pattern.FieldOffset = Addr.FieldOffset;
  }
  if (R.Pattern.RecordBytes && *R.Pattern.RecordBytes <= R.Pattern.AccessBytes)
    R.Pattern.RecordBytes.reset();
  Kernel.Accesses.push_back(std::move(R));
}

const clang::Expr *pointerOperand(const clang::Expr *LV) {
  LV = LV->IgnoreParenImpCasts();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV))
    return ASE->getBase();
  if (const auto *ME = dyn_cast<MemberExpr>(LV))
    return ME->isArrow() ? ME->getBase() : pointerOperand(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(LV))
    if (UO->getOpcode() == UO_Deref)
      return UO->getSubExpr();
  return nullptr;
}

void KernelWalker::collectOpaque(AccessPattern &P) const {
  std::string Reason;
  bool AllHaveInputs = true;
  std::vector<std::pair<Symbol, Expr>> Entries;
  for (const Expr *E : {&P.Address, &P.Active})
    for (const Symbol &S : E->symbols()) {
      if (S.Kind != SymbolKind::LaneValue)
        continue;
      auto In = OpaqueInputs.find(S);
      bool Inputs = In != OpaqueInputs.end() && !In->second.empty();
      if (Inputs &&
          llvm::none_of(Entries, [&](const auto &L) { return L.first == S; }))
        for (const Expr &V : In->second)
          Entries.emplace_back(S, V);
      if (E != &P.Address)
        continue;
      auto It = OpaqueReasons.find(S);
      if (It != OpaqueReasons.end() && Reason.empty())
        Reason = "address depends on a per-lane value the engine cannot "
                 "model: " +
                 It->second;
      AllHaveInputs = AllHaveInputs && Inputs;
    }
  if (Reason.empty())
    return;
  if (!AllHaveInputs) {
    P.UnknownReason = Reason;
    P.OpaqueReason = std::move(Reason);
    return;
  }
  P.OpaqueReason = std::move(Reason);
  P.LoadAddresses.insert(P.LoadAddresses.end(), Entries.begin(), Entries.end());
}

void KernelWalker::recordUnknown(const clang::Expr *LV, unsigned Bytes,
                                 AccessOp Op, Frame &F,
                                 const clang::Expr *Anchor,
                                 std::string Reason) {
  const clang::Expr *Ptr = pointerOperand(LV);
  std::string Base = sourceText(Ctx, (Ptr ? Ptr : LV)->getSourceRange());
  AddressInfo A{PointerValue{Base, MemorySpace::Global, Expr::constant(0)},
                std::nullopt};
  size_t Before = Kernel.Accesses.size();
  emit(LV, A, Bytes, Op, AtomicKind::None, F, Anchor, LaneOriginInfo());
  if (Kernel.Accesses.size() > Before)
    Kernel.Accesses.back().Pattern.UnknownReason = std::move(Reason);
}

void KernelWalker::prewalkCalls(const clang::Expr *E, Frame &F) {
  E = E->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (PreWalked.count(CE))
      return;
    walkExpr(CE, F);
    PreWalked.insert(CE);
    PreWalkedOrder.push_back(CE);
    return;
  }
  if (isa<LambdaExpr>(E))
    return;
  for (const Stmt *Child : E->children())
    if (const auto *C = dyn_cast_or_null<clang::Expr>(Child))
      prewalkCalls(C, F);
}

void KernelWalker::recordAccess(const clang::Expr *LV, AccessOp Op,
                                AtomicKind Atomic, Frame &F,
                                const clang::Expr *Anchor) {
  // A call in the address (`out[pick(i, j, c)]`, `at(i) = x`) is walked
  // first: its value is only known once its body has run.
  if (containsCall(LV))
    prewalkCalls(LV, F);
  // The store changes memory after its own address is read.
  auto Stored = llvm::make_scope_exit([&] { noteStore(LV, Op, F); });
  if (!F.records())
    return; // The address is not needed.
  LaneOriginInfo Origin;
  std::optional<AddressInfo> A = resolveAddress(LV, F, &Origin);
  if (!A) {
    // Never silent: memory the walker cannot trace is reported as unknown,
    // unless the lvalue is a slot of the abstract state (not memory).
    const clang::Expr *At = Anchor ? Anchor : LV;
    const clang::Expr *Ptr = pointerOperand(LV);
    if (!Ptr)
      if (const clang::Expr *Ref = untracedReference(LV, F))
        return recordUnknown(
            LV, sizeOf(LV->getType()), Op, F, Anchor,
            fmt::format("cannot follow the reference '{}' to the memory it "
                        "is bound to",
                        sourceText(Ctx, Ref->getSourceRange())));
    if (heldValue(LV, F) || !Ptr)
      return exclude(At, Op, F,
                     "a variable or an object held by value "
                     "(registers or parameter space)");
    if (Ptr->getType()->isPointerType() && isThis(Ptr) && !F.ThisPointer)
      return exclude(At, Op, F, "a field of an object held by value "
                                "(registers or parameter space)");
    recordUnknown(LV, sizeOf(LV->getType()), Op, F, Anchor,
                  unfollowedPointer(Ptr));
    return;
  }
  if (!predictedSpace(A->Ptr.Space))
    return excludeSpace(Anchor ? Anchor : LV, Op, F, A->Ptr.Space);
  emit(LV, *A, sizeOf(LV->getType()), Op, Atomic, F, Anchor, Origin);
}

void KernelWalker::noteStore(const clang::Expr *LV, AccessOp Op, Frame &F) {
  // A variable or an object held by value is a slot of the state, not
  // memory: writing it changes no load's value.
  if (Op == AccessOp::Load || heldValue(LV, F))
    return;
  // Through a pointer, or through a reference bound to memory (`d = v` in
  // `put(int &d, int v)`).
  const auto *DRE = dyn_cast<DeclRefExpr>(LV->IgnoreParenImpCasts());
  bool Reference = DRE && DRE->getDecl()->getType()->isReferenceType();
  if (!pointerOperand(LV) && !Reference)
    return;
  F.Memory = mixKeys(F.Memory, locationKey(LV));
}

const clang::Expr *KernelWalker::untracedReference(const clang::Expr *LV,
                                                   const Frame &F) {
  LV = slotExpr(LV);
  if (const auto *ME = dyn_cast<MemberExpr>(LV))
    return ME->isArrow() ? nullptr : untracedReference(ME->getBase(), F);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LV)) {
    auto It = F.Env.find(DRE->getDecl());
    return DRE->getDecl()->getType()->isReferenceType() && It != F.Env.end() &&
                   It->second.UntracedMemory
               ? DRE
               : nullptr;
  }
  // A call whose walk returned such a reference.
  if (const auto *CE = dyn_cast<CallExpr>(LV))
    if (const VarValue *R = returnedBy(CE, F); R && R->UntracedMemory)
      return CE;
  return nullptr;
}

std::string KernelWalker::unfollowedPointer(const clang::Expr *Ptr) const {
  return fmt::format("cannot follow the pointer '{}' to where it points",
                     sourceText(Ctx, Ptr->getSourceRange()));
}

const clang::Expr *addressOfOperand(const clang::Expr *Ptr) {
  if (const auto *UO = dyn_cast<UnaryOperator>(Ptr->IgnoreParenCasts()))
    if (UO->getOpcode() == UO_AddrOf)
      return UO->getSubExpr()->IgnoreParens();
  return nullptr;
}

void KernelWalker::recordPointerAccess(const clang::Expr *Ptr, AccessOp Op,
                                       AtomicKind Atomic, Frame &F,
                                       const clang::Expr *Anchor,
                                       unsigned Bytes, int64_t Offset) {
  QualType Pointee = Ptr->getType()->getPointeeType();
  auto Stored = llvm::make_scope_exit([&] {
    if (Op != AccessOp::Load)
      F.Memory = mixKeys(F.Memory, locationKey(Ptr));
  });
  if (Pointee.isNull() || !F.records())
    return;
  // &lv: anchor the access at lv, as a plain subscript would be.
  if (const clang::Expr *LV = addressOfOperand(Ptr))
    Anchor = LV;
  if (Bytes == 0)
    Bytes = sizeOf(Pointee);
  LaneOriginInfo Origin;
  std::optional<PointerValue> P = resolvePointer(Ptr, F, &Origin);
  if (!P) {
    recordUnknown(Anchor ? Anchor : Ptr, Bytes, Op, F,
                  Anchor ? Anchor : Ptr,
                  unfollowedPointer(Ptr));
    return;
  }
  if (!predictedSpace(P->Space))
    return excludeSpace(Anchor ? Anchor : Ptr, Op, F, P->Space);
  P->ByteOffset = P->ByteOffset + Expr::constant(Offset);
  emit(Ptr, AddressInfo{*P, std::nullopt}, Bytes, Op, Atomic, F,
       Anchor ? Anchor : Ptr, Origin);
}

void KernelWalker::walkAddressOperands(const clang::Expr *LV, Frame &F) {
  LV = LV->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(LV))
    return walkAddressOperands(ICE->getSubExpr(), F);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LV)) {
    walkExpr(ASE->getBase(), F);
    walkExpr(ASE->getIdx(), F);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(LV)) {
    walkExpr(UO->getSubExpr(), F);
  } else if (const auto *ME = dyn_cast<MemberExpr>(LV)) {
    if (ME->isArrow())
      walkExpr(ME->getBase(), F);
    else
      walkAddressOperands(ME->getBase(), F);
  } else if (isa<CallExpr>(LV)) {
    // The object a call returns a reference to (`get<1>(t).storage_` of
    // CuTe's tensors) is known once the call has run.
    prewalkCalls(LV, F);
  }
}

const FunctionDecl *KernelWalker::functionHeld(const clang::Expr *E,
                                               Frame &F) {
  if (const FunctionDecl *FD = namedFunction(E))
    return FD;
  if (std::optional<VarValue> Held = heldValue(E->IgnoreParenImpCasts(), F))
    return Held->Function;
  return nullptr;
}

std::optional<VarValue> KernelWalker::evaluateAndWalk(QualType T,
                                                      const clang::Expr *Value,
                                                      Frame &F,
                                                      const ValueDecl *Named) {
  // Objects: the operands are walked first, then the constructor runs (it
  // is part of the value, and walks its own body once).
  if (isRecordValueType(T) && !T->isReferenceType()) {
    walkExpr(Value, F);
    return recordValue(Value, F);
  }
  // The value is what the expression computes before its side effects
  // (`int j = i++` is the old i), except that a call to a longer __device__
  // function is only known once its inlined walk has run.
  bool Calls = containsCall(Value);
  std::optional<VarValue> Before;
  if (!Calls)
    Before = valueOf(T, Value, F, Named);
  walkExpr(Value, F);
  return Calls ? valueOf(T, Value, F, Named) : Before;
}

bool KernelWalker::walkCopySource(const clang::Expr *Src, Frame &F) {
  const clang::Expr *S = Src->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(S))
    S = MTE->getSubExpr()->IgnoreParenImpCasts();
  if (!S->isGLValue())
    return false;
  walkRead(S, F);
  return true;
}

void KernelWalker::walkRead(const clang::Expr *LV, Frame &F) {
  LV = LV->IgnoreParens();
  // std::forward<T>(x), std::move(x) read as a value: x is read
  // (`box<T>{std::forward<T>(x)}` with x bound to memory, a load).
  if (const clang::Expr *Same = identityCallArgument(LV))
    return walkRead(Same, F);
  // Reading the lvalue that ++i, i = e or (e, i) yields: the side effects
  // happen, the variable is read.
  if (const auto *UO = dyn_cast<UnaryOperator>(LV))
    if (UO->isIncrementDecrementOp())
      return walkExpr(LV, F);
  if (const auto *BO = dyn_cast<BinaryOperator>(LV))
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma)
      return walkExpr(LV, F);
  // ...and `a = b` of a struct, a call of its assignment operator.
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(LV))
    if (OCE->isAssignmentOp())
      return walkExpr(LV, F);
  // c ? x[i] : y[j] read as a whole: each arm is read where it is chosen.
  if (const auto *CO = dyn_cast<ConditionalOperator>(LV)) {
    walkExpr(CO->getCond(), F);
    Expr C = translate(CO->getCond(), F);
    for (auto [Arm, Where] :
         {std::pair{CO->getTrueExpr(), C},
          std::pair{CO->getFalseExpr(), Expr::logicalNot(C)}})
      walkUnder(F, Where, Arm, [&](Frame &In) { walkRead(Arm, In); });
    return;
  }
  if (!localScalar(LV))
    recordAccess(LV, AccessOp::Load, AtomicKind::None, F, nullptr);
  walkAddressOperands(LV, F);
}

void KernelWalker::walkExpr(const clang::Expr *E, Frame &F) {
  if (!E)
    return;
  E = E->IgnoreParens();

  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() == CK_LValueToRValue)
      return walkRead(ICE->getSubExpr(), F);
    return walkExpr(ICE->getSubExpr(), F);
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) {
      const clang::Expr *LHS = BO->getLHS();
      if (heldSlot(LHS, F)) {
        // A variable or a field of an object held by value: the state
        // changes, nothing is stored to memory.
        walkAddressOperands(LHS, F);
        if (BO->getOpcode() == BO_Assign) {
          std::optional<VarValue> V =
              evaluateAndWalk(LHS->getType(), BO->getRHS(), F, nullptr);
          if (VarValue *Slot = heldSlot(LHS, F))
            *Slot = V ? *V : VarValue{};
          return;
        }
        walkExpr(BO->getRHS(), F);
        VarValue *Slot = heldSlot(LHS, F);
        if (Slot && Slot->Int) {
          // v op= e: translate as the binary expression v op e.
          std::optional<Expr> V = combineValues(
              BO->getOpcode(), *Slot->Int, translate(BO->getRHS(), F), BO);
          Slot = heldSlot(LHS, F);
          if (V)
            Slot->Int = *V;
          else
            Slot->Int.reset();
        } else if (Slot && Slot->Pointer) {
          Expr By = translate(BO->getRHS(), F);
          Slot = heldSlot(LHS, F);
          Slot->Pointer =
              movedPointer(*Slot->Pointer, BO->getOpcode(), By,
                           sizeOf(LHS->getType()->getPointeeType()));
        }
        return;
      }
      walkExpr(BO->getRHS(), F);
      storeElement(BO, F);
      noteLocalStore(LHS, BO->getRHS(), BO->getOpcode() != BO_Assign, F);
      AccessOp Op = BO->getOpcode() == BO_Assign ? AccessOp::Store
                                                 : AccessOp::LoadStore;
      recordAccess(LHS->IgnoreParens(), Op, AtomicKind::None, F, nullptr);
      walkAddressOperands(LHS, F);
      return;
    }
    if (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr) {
      walkExpr(BO->getLHS(), F);
      Expr C = translate(BO->getLHS(), F);
      // `a && b` evaluates b only where a holds; `a || b` where it does not.
      walkUnder(F, BO->getOpcode() == BO_LAnd ? C : Expr::logicalNot(C),
                BO->getRHS(), [&](Frame &RHS) { walkExpr(BO->getRHS(), RHS); });
      return;
    }
    walkExpr(BO->getLHS(), F);
    walkExpr(BO->getRHS(), F);
    return;
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp()) {
      const clang::Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (VarValue *Slot = heldSlot(Sub, F)) {
        int64_t D = UO->isIncrementOp() ? 1 : -1;
        if (Slot->Int)
          Slot->Int = *Slot->Int + Expr::constant(D);
        else if (Slot->Pointer)
          Slot->Pointer->ByteOffset =
              Slot->Pointer->ByteOffset +
              Expr::constant(D * sizeOf(Sub->getType()->getPointeeType()));
        return;
      }
      noteLocalStore(Sub, nullptr, /*Update=*/true, F);
      recordAccess(Sub, AccessOp::LoadStore, AtomicKind::None, F, nullptr);
      walkAddressOperands(Sub, F);
      return;
    }
    if (UO->getOpcode() == UO_AddrOf) {
      walkAddressOperands(UO->getSubExpr(), F);
      return;
    }
    return walkExpr(UO->getSubExpr(), F);
  }

  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    walkExpr(CO->getCond(), F);
    Expr C = translate(CO->getCond(), F);
    walkUnder(F, C, CO->getTrueExpr(),
              [&](Frame &T) { walkExpr(CO->getTrueExpr(), T); });
    walkUnder(F, Expr::logicalNot(C), CO->getFalseExpr(),
              [&](Frame &Fa) { walkExpr(CO->getFalseExpr(), Fa); });
    return;
  }

  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E)) {
    // Trivial assignment of a struct/vector type: a store, and a load when
    // the source is memory too.
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2 &&
        heldSlot(OCE->getArg(0), F)) {
      // `b = dim3(..)`, `q = p`: the held object is replaced; copied from
      // memory (`tmp = reinterpret_cast<const float4 *>(&B[k])[0]`), a load.
      if (!walkCopySource(OCE->getArg(1), F))
        walkExpr(OCE->getArg(1), F);
      std::optional<VarValue> V = recordValue(OCE->getArg(1), F);
      if (VarValue *Slot = heldSlot(OCE->getArg(0), F))
        *Slot = V ? *V : VarValue{};
      return;
    }
    // A defaulted assignment (of a struct whose members have assignment
    // operators of their own, ggml's tile<half2>) copies member by member:
    // the same store and load.
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2 &&
        OCE->getArg(0)->getType()->isRecordType() &&
        (!OCE->getDirectCallee() || OCE->getDirectCallee()->isTrivial() ||
         OCE->getDirectCallee()->isDefaulted())) {
      const clang::Expr *L = OCE->getArg(0)->IgnoreParenImpCasts();
      if (!walkCopySource(OCE->getArg(1), F))
        walkDropped(OCE->getArg(1), F);
      noteLocalStore(L, OCE->getArg(1), /*Update=*/false, F);
      if (!localScalar(L))
        recordAccess(L, AccessOp::Store, AtomicKind::None, F, nullptr);
      walkAddressOperands(L, F);
      return;
    }
  }

  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    // Copy of a struct/vector type from memory: float4 v = in[i];
    if (CCE->getNumArgs() == 1 && CCE->getConstructor() &&
        CCE->getConstructor()->isCopyOrMoveConstructor()) {
      if (walkCopySource(CCE->getArg(0), F))
        return;
    }
  }

  if (const auto *CE = dyn_cast<CallExpr>(E))
    return walkCall(CE, F);

  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    // Its init-captures (`[s = scale[blockIdx.x]]`) are evaluated where the
    // lambda is made; its body where it is called.
    for (unsigned I = 0; I < LE->capture_size(); ++I)
      if (isInitCapture(LE->capture_begin()[I]))
        walkExpr(LE->capture_init_begin()[I], F);
    return;
  }
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return;

  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<clang::Expr>(Child))
      walkExpr(CE, F);
}

void KernelWalker::walkDropped(const clang::Expr *E, Frame &F) {
  // A temporary whose constructor does the work (CUTLASS's
  // `global_load<AccessType, 16>(frag, ptr, guard);` is the load): its
  // arguments, then its constructor. A copy is the copy's source.
  walkExpr(E, F);
  const auto *CCE = dyn_cast<CXXConstructExpr>(copySource(E));
  if (CCE && CCE->getConstructor() &&
      !CCE->getConstructor()->isCopyOrMoveConstructor())
    recordValue(E, F);
}

} // namespace frontend
} // namespace coalesce
