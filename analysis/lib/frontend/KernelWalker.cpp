//===- KernelWalker.cpp - Interpreting a kernel body statement by statement ===//
//
// Statements update the environment (local variable -> symbolic value) and
// the predicate under which later code runs:
//   if (c) S1 else S2      S1 under Active && c, S2 under Active && !c; a
//                          variable assigned in a branch becomes select(c,..)
//   if (c) return;         the rest of the block runs under Active && !c
//   for (i = a; c; i += s) i == a + s * iter, iter a LoopIter symbol; the
//                          body runs under Active && c
// Blocks, switches and the jumps out of them (a return, break or continue
// anywhere in a statement) are walked in StatementLists.cpp; loops in
// LoopWalk.cpp; other values a loop carries get closed forms where one pass
// adds a step, else exact values over the first iterations
// (LoopCarried.cpp).
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "JumpNesting.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// Does \p S always leave the function (a return, a throw, a call of a
/// noreturn function such as exit(), or a block ending in one)?
bool alwaysReturns(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<CXXThrowExpr>(S))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      return Callee->isNoReturn();
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && alwaysReturns(CS->body_back());
  return false;
}

} // namespace

std::shared_ptr<llvm::DenseMap<const ValueDecl *, VarValue>>
KernelWalker::launchedCaptures(const CXXRecordDecl *Closure,
                               SymbolKind Scalar) const {
  // A closure passed to a kernel (moderngpu's cta_launch, thrust's
  // for_each): what it captured by copy on the host, fixed for the launch
  // and named after the captured variables, so that it goes with the
  // closure wherever the kernel hands it (`forward(f, tid, cta)`).
  auto Captures =
      std::make_shared<llvm::DenseMap<const ValueDecl *, VarValue>>();
  for (const LambdaCapture &C : Closure->captures()) {
    if (!C.capturesVariable())
      continue;
    const ValueDecl *Var = C.getCapturedVar();
    QualType T = Var->getType().getNonReferenceType();
    std::string Name = Var->getName().str();
    VarValue V;
    if (T->isPointerType())
      V.Pointer = PointerValue{Name, MemorySpace::Global, Expr::constant(0)};
    else if (T->isIntegralOrEnumerationType())
      V.Int = symbol({Scalar, Name});
    else if (isRecordValueType(T))
      V = namedObject(Name, Scalar);
    else
      continue;
    // A closure that captured another (moderngpu's scan wraps the user's
    // lambda in its own): the inner one's captures too.
    if (const CXXRecordDecl *Inner = T->getAsCXXRecordDecl();
        Inner && Inner->isLambda() && V.Object && Inner != Closure)
      V.Object->Captures = launchedCaptures(Inner, Scalar);
    Captures->try_emplace(Var, std::move(V));
  }
  return Captures;
}

void KernelWalker::walkEntry(const FunctionDecl *FD, bool Host) {
  LocalContents.clear();
  ReturnedContents.clear();
  Exchanges = WarpExchanges(Facts.exprs());
  Frame F;
  F.Fn = FD;
  F.IsKernel = !Host;
  F.Host = Host;
  // Parameters are variables like any other: `p += row * n` or `i += tid`
  // at the top of a kernel must be followed. A kernel's scalars are fixed
  // for the launch (Param symbols, --param gives them); a host function's are
  // unknown run-time values, uniform for the launches it makes. Pointers
  // name allocations of their own.
  SymbolKind Scalar = Host ? SymbolKind::UniformValue : SymbolKind::Param;
  for (const ParmVarDecl *P : FD->parameters()) {
    VarValue V;
    QualType T = P->getType();
    std::string Name = P->getName().str();
    if (T->isPointerType())
      V.Pointer = PointerValue{Name, MemorySpace::Global, Expr::constant(0)};
    else if (T->isIntegralOrEnumerationType())
      V.Int = symbol({Scalar, Name});
    else if (isRecordValueType(T))
      V = namedObject(Name, Scalar); // A struct passed by value.
    else
      continue;
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
        RD && RD->isLambda() && V.Object)
      V.Object->Captures = launchedCaptures(RD, Scalar);
    F.Env[P] = V;
  }
  walkStmt(FD->getBody(), F);
}

void KernelWalker::walkKernel(const FunctionDecl *FD) { walkEntry(FD, false); }

void KernelWalker::walkHost(const FunctionDecl *FD) { walkEntry(FD, true); }

void KernelWalker::walkStmt(const Stmt *S, Frame &F) {
  if (!S)
    return;
  // A call walked ahead of an access is skipped when the statement meets it
  // again; one it does not meet (an access whose address is not walked
  // again) must not stay walked for the next pass over the statement.
  size_t PreWalkedMark = PreWalkedOrder.size();
  auto DropPreWalked = llvm::make_scope_exit([&] {
    for (size_t I = PreWalkedMark; I < PreWalkedOrder.size(); ++I)
      PreWalked.erase(PreWalkedOrder[I]);
    PreWalkedOrder.resize(PreWalkedMark);
  });
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return walkCompound(CS, F);
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        walkDecl(VD, F);
    return;
  }
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return walkIf(IS, F);
  if (const auto *AS = dyn_cast<GCCAsmStmt>(S))
    return walkAsm(AS, F);
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
    // A loop takes back its body's jumps (its breaks and continues; a
    // return inside it is not followed past the loop), and a `break` in it
    // leaves the loop, not a switch around it. A goto out of it goes on to
    // its label (leaveLoopByGoto).
    Jumps Outer = std::move(F.Left);
    bool Keeps = F.KeepsBreaks;
    F.Left = Jumps();
    F.KeepsBreaks = false;
    if (const auto *FS = dyn_cast<ForStmt>(S))
      walkLoop(FS, FS->getInit(), FS->getCond(), FS->getInc(), FS->getBody(),
               F);
    else if (const auto *WS = dyn_cast<WhileStmt>(S))
      walkLoop(WS, nullptr, WS->getCond(), nullptr, WS->getBody(), F);
    else if (const auto *DS = dyn_cast<DoStmt>(S))
      walkLoop(DS, nullptr, DS->getCond(), nullptr, DS->getBody(), F,
               /*CondAfterBody=*/true);
    else
      walkRangeFor(cast<CXXForRangeStmt>(S), F);
    std::vector<PendingGoto> Leaving = std::move(F.Left.Gotos);
    F.Left = std::move(Outer);
    F.KeepsBreaks = Keeps;
    for (const PendingGoto &G : Leaving)
      leaveLoopByGoto(G, S, F);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    walkJump(RS, F);
    const clang::Expr *V = RS->getRetValue();
    if (!V)
      return;
    walkExpr(V, F);
    // An object returned by value takes its local arrays' contents along.
    if (F.Fn && !F.Fn->getReturnType()->isReferenceType() &&
        isRecordValueType(F.Fn->getReturnType()))
      if (unsigned Bits = recordContents(V, F))
        ReturnedContents[F.Fn->getCanonicalDecl()] |= Bits;
    if (!F.Returned)
      return;
    // The call's value: each return's value where it is taken, the later
    // ones chosen where they run (`if (L == 0) return 0; ... return pos;`
    // gives select(L != 0, pos, 0)).
    // A returned reference is bound as a reference variable would be: to
    // memory (its address) or to a slot (a copy of it: CuTe's
    // `return static_cast<S&&>(s).first_;`).
    VarValue New;
    QualType T = F.Fn ? F.Fn->getReturnType() : V->getType();
    if (std::optional<VarValue> R = valueOf(T, V, F, nullptr))
      New = *R;
    bool Earlier = F.Returned->Int || F.Returned->Pointer || F.Returned->Object;
    *F.Returned = Earlier ? mergeValues(F.Active, New, *F.Returned) : New;
    return;
  }
  if (const auto *SS = dyn_cast<SwitchStmt>(S))
    return walkSwitch(SS, F);
  if (const auto *E = dyn_cast<clang::Expr>(S))
    return walkDropped(E, F);
  if (const auto *LS = dyn_cast<LabelStmt>(S)) {
    LabelFrames[LS->getDecl()] = F;
    return walkStmt(LS->getSubStmt(), F);
  }
  if (const auto *GS = dyn_cast<GotoStmt>(S);
      GS && GS->getLabel()->getStmt() &&
      SM.isBeforeInTranslationUnit(GS->getLabel()->getStmt()->getBeginLoc(),
                                   GS->getBeginLoc()))
    return loopedBack(GS, F);
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return walkStmt(AS->getSubStmt(), F);
  if (const auto *CS = dyn_cast<CaseStmt>(S))
    return walkStmt(CS->getSubStmt(), F);
  if (const auto *DS = dyn_cast<DefaultStmt>(S))
    return walkStmt(DS->getSubStmt(), F);
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S))
    return walkJump(S, F);
  // Other statements (null, computed goto): nothing to do.
}

void KernelWalker::walkDecl(const VarDecl *VD, Frame &F) {
  if (VD->hasGlobalStorage())
    return; // __shared__ arrays and static locals: no value to track.
  QualType T = VD->getType();
  if (T->isArrayType()) {
    // `int p[2] = {mp[cta], mp[cta + 1]};`: the initializer's loads run.
    if (const clang::Expr *Init = VD->getInit())
      walkExpr(Init, F);
    VarValue V;
    V.Pointer = PointerValue{VD->getName().str(), MemorySpace::Local,
                             Expr::constant(0)};
    V.Pointer->LocalArray = VD;
    V.Elements = initialElements(VD, F);
    if (const clang::Expr *Init = VD->getInit())
      LocalContents[VD] |= contentKind(Init, F);
    F.Env[VD] = V;
    return;
  }
  const clang::Expr *Init = VD->getInit();
  std::optional<VarValue> V;
  if (Init) {
    V = evaluateAndWalk(T, Init, F, VD);
    if (unsigned Bits = copiedContents(T, Init))
      LocalContents[VD] |= Bits;
  } else if (T->isIntegralOrEnumerationType() || T->isBooleanType()) {
    V.emplace();
    V->Int = symbol({SymbolKind::UniformValue, VD->getName().str(),
                     locationKey(VD->getLocation())});
  } else if (isRecordValueType(T)) {
    V.emplace();
    V->Object = std::make_shared<ObjectValue>(); // Fields not yet known.
  } else if (T->isPointerType()) {
    V.emplace(); // `float *p;`: a slot, assigned later (often per branch).
    V->Uninitialized = true;
  }
  // Host code: a pointer not yet pointing anywhere (`float *d_a;`, `= NULL`)
  // is about to receive an allocation of its own (cudaMalloc(&d_a, ..)).
  if (F.Host && T->isPointerType() && (!V || !V->Pointer)) {
    V.emplace();
    V->Pointer = PointerValue{VD->getName().str(), MemorySpace::Global,
                              Expr::constant(0)};
    V->Uninitialized = false;
  }
  if (V)
    F.Env[VD] = *V;
  if (const auto *DD = dyn_cast<DecompositionDecl>(VD))
    bindDecomposition(DD, F);
}

void KernelWalker::mergeBranches(const Expr &Cond, Frame &F, const Frame &Then,
                                 const Frame &Else) {
  for (const auto &Entry : Then.Env) {
    auto EI = Else.Env.find(Entry.first);
    if (EI == Else.Env.end())
      continue; // Declared inside one branch only: out of scope.
    // Most slots are the same on both sides (and then merge to that value),
    // and often still what F holds.
    if (sameSlot(Entry.second, EI->second)) {
      VarValue &Slot = F.Env[Entry.first];
      if (!sameSlot(Slot, Entry.second))
        Slot = Entry.second;
      continue;
    }
    // (Else may be F itself: the merged value is made before it is stored.)
    VarValue Merged = mergeValues(Cond, Entry.second, EI->second);
    F.Env[Entry.first] = std::move(Merged);
  }
  F.Memory = joinMemory(Then.Memory, Else.Memory);
}

bool KernelWalker::loopNameTaken(const Frame &F, llvm::StringRef Name) const {
  // A loop of a caller the body of which is being walked (its counter is not
  // in this frame's slots: `j` over attempts around a callee's `j` over
  // stages).
  if (llvm::any_of(Nest.Enclosing, [&](const EnclosingLoop &L) {
        return L.Iter && L.Iter->Name == Name;
      }))
    return true;
  for (const auto &Entry : F.Env)
    if (Entry.second.Int &&
        Entry.second.Int->anySymbol([&](const Symbol &S) {
          return S.Kind == SymbolKind::LoopIter && S.Name == Name;
        }))
      return true;
  return false;
}

KernelWalker::Frame KernelWalker::under(const Frame &F, const Expr &Cond) {
  Frame Copy = F;
  Copy.Active = Expr::logicalAnd(F.Active, Cond);
  Copy.Since = andAlso(F.Since, Cond);
  return Copy;
}

bool KernelWalker::mayChangeSlots(const Stmt *S) {
  auto [It, New] = Memo.ChangesSlots.try_emplace(S, false);
  if (!New)
    return It->second;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->isAssignmentOp();
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= UO->isIncrementDecrementOp();
      return !Found;
    }
    bool VisitCallExpr(CallExpr *) { return !(Found = true); }
    bool VisitCXXConstructExpr(CXXConstructExpr *) { return !(Found = true); }
    bool VisitStmtExpr(StmtExpr *) { return !(Found = true); }
    bool VisitLambdaExpr(LambdaExpr *) { return !(Found = true); }
  } Find;
  Find.TraverseStmt(const_cast<Stmt *>(S));
  return It->second = Find.Found;
}

void KernelWalker::walkUnder(Frame &F, const Expr &Cond, const Stmt *Code,
                             llvm::function_ref<void(Frame &)> Walk) {
  if (mayChangeSlots(Code)) {
    Frame Copy = under(F, Cond);
    Walk(Copy);
    F.Memory = joinMemory(F.Memory, Copy.Memory);
    return;
  }
  Expr Saved = F.Active;
  F.Active = Expr::logicalAnd(F.Active, Cond);
  Walk(F);
  F.Active = std::move(Saved);
}

bool KernelWalker::mayEndPass(const Stmt *S) {
  auto [It, New] = Memo.EndsPass.try_emplace(S, false);
  if (New)
    It->second = leavesEarly(S, /*OrSkips=*/true);
  return It->second;
}

void KernelWalker::walkIf(const IfStmt *IS, Frame &F) {
  if (IS->getInit())
    walkStmt(IS->getInit(), F);
  if (IS->getConditionVariable())
    walkDecl(IS->getConditionVariable(), F);
  walkExpr(IS->getCond(), F);
  Expr Cond = translate(IS->getCond(), F);
  Frame Then = under(F, Cond);
  // `*this` held by value is the caller's slot, shared by both copies of
  // the frame: each branch starts from the same object, and the results
  // are merged like variables.
  std::optional<VarValue> ThisBefore, ThisThen;
  if (F.ThisObject)
    ThisBefore = *F.ThisObject;
  walkStmt(IS->getThen(), Then);
  if (F.ThisObject) {
    ThisThen = *F.ThisObject;
    *F.ThisObject = *ThisBefore;
  }
  // Without an else the other branch leaves everything as it was: F is
  // that branch's frame (one copy of the frame less per `if`).
  std::optional<Frame> Else;
  if (IS->getElse()) {
    Else = under(F, Expr::logicalNot(Cond));
    walkStmt(IS->getElse(), *Else);
  }
  if (F.ThisObject)
    *F.ThisObject = mergeValues(Cond, *ThisThen, *F.ThisObject);
  mergeBranches(Cond, F, Then, Else ? *Else : F);
  F.Left = Jumps::join(Then.Left, Else ? Else->Left : F.Left);
  // Host code past `if (radius != RADIUS) { ...; return false; }` runs with
  // radius == RADIUS: values computed from it before become constants
  // (Cuda-samples FDTD3d pads its buffers by 32 - radius floats).
  if (F.Host) {
    bool ThenLeaves = alwaysReturns(IS->getThen());
    bool ElseLeaves = alwaysReturns(IS->getElse());
    if (ThenLeaves != ElseLeaves) {
      std::map<Symbol, Expr> Known;
      knownEqualities(ThenLeaves ? Expr::logicalNot(Cond) : Cond, Known);
      if (!Known.empty())
        for (auto &Entry : F.Env)
          Entry.second = mapLeaves(
              Entry.second, [&](const LeafPath &, const Expr &E) {
                return std::optional<Expr>(E.substitute(Known));
              });
    }
  }
}

} // namespace frontend
} // namespace coalesce
