//===- KernelWalker.cpp - Interpreting a kernel body statement by statement ===//
//
// Statements update the environment (local variable -> symbolic value) and
// the predicate under which later code runs:
//   if (c) S1 else S2      S1 under Active && c, S2 under Active && !c; a
//                          variable assigned in a branch becomes select(c,..)
//   if (c) return;         the rest of the block runs under Active && !c
//   for (i = a; c; i += s) i == a + s * iter, iter a LoopIter symbol; the
//                          body runs under Active && c
// Other values a loop carries get closed forms where one pass adds a step,
// else exact values over the first iterations (LoopCarried.cpp).
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// Does statement \p S end by leaving the function (return)?
bool endsInReturn(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return !CS->body_empty() && endsInReturn(CS->body_back());
  return false;
}

/// Every modification of a local variable inside a statement.
struct Modification {
  const ValueDecl *Var;
  const clang::Expr *Step; ///< For i += s / i -= s / i++: the step (or null).
  int Sign;                ///< +1, -1, or 0 for a non-induction update.
};

class ModificationFinder : public RecursiveASTVisitor<ModificationFinder> {
public:
  std::vector<Modification> Mods;

  static const ValueDecl *localVar(const clang::Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (!VD->hasGlobalStorage())
          return VD;
    return nullptr;
  }

  /// The local variable holding the object whose field \p E names
  /// (`s.x`, `s.inner.y`), if any.
  static const ValueDecl *localObject(const clang::Expr *E) {
    E = E->IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase()->IgnoreParenImpCasts();
    }
    return E == nullptr ? nullptr : localVar(E);
  }

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    // A non-const method may change the object it is called on.
    if (const CXXMethodDecl *M = MCE->getMethodDecl())
      if (!M->isConst())
        if (const ValueDecl *V =
                localObject(MCE->getImplicitObjectArgument()))
          Mods.push_back({V, nullptr, 0});
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      if (const ValueDecl *V = localVar(UO->getSubExpr()))
        Mods.push_back({V, nullptr, UO->isIncrementOp() ? 1 : -1});
      else if (const ValueDecl *Obj = localObject(UO->getSubExpr()))
        Mods.push_back({Obj, nullptr, 0});
    }
    if (UO->getOpcode() == UO_AddrOf)
      if (const ValueDecl *V = localVar(UO->getSubExpr()))
        Mods.push_back({V, nullptr, 0});
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    // Assignment to an object or one of its fields: `b = dim3(..)`.
    if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2)
      if (const ValueDecl *V = localObject(OCE->getArg(0)))
        Mods.push_back({V, nullptr, 0});
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    const ValueDecl *V = localVar(BO->getLHS());
    if (!V) {
      // A field of a local object: the object changes.
      if (const ValueDecl *Obj = localObject(BO->getLHS()))
        Mods.push_back({Obj, nullptr, 0});
      return true;
    }
    if (BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) {
      Mods.push_back({V, BO->getRHS(), BO->getOpcode() == BO_AddAssign ? 1 : -1});
      return true;
    }
    // i = i + s
    if (BO->getOpcode() == BO_Assign)
      if (const auto *Add =
              dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts()))
        if (Add->getOpcode() == BO_Add && localVar(Add->getLHS()) == V) {
          Mods.push_back({V, Add->getRHS(), 1});
          return true;
        }
    Mods.push_back({V, nullptr, 0});
    return true;
  }
};

/// Does \p S name any of \p Vars?
bool referencesAny(const Stmt *S,
                   const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars;
    bool Found = false;
    explicit Finder(const llvm::SmallPtrSetImpl<const ValueDecl *> &V)
        : Vars(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Found |= Vars.count(DRE->getDecl()) != 0;
      return !Found;
    }
  } F(Vars);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// Is \p VD, which the loop's condition does not name, assigned before it
/// is read in every pass of a loop with \p Body, so that its value at the
/// start of an iteration is dead (`int i, j; for (j...) { for (i = 0; ...)
/// ... }`)? Only the plain form: a statement at the top level of the body,
/// before any other mention of VD, assigns it (`i = 0;` or a nested
/// `for (i = 0; ...)`) from a value that does not read it.
bool assignedBeforeRead(const Stmt *Body, const ValueDecl *VD) {
  llvm::SmallPtrSet<const ValueDecl *, 1> Only;
  Only.insert(VD);
  auto Assigns = [&](const Stmt *S) {
    const auto *E = dyn_cast_or_null<clang::Expr>(S);
    const auto *BO =
        E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
    if (!BO || BO->getOpcode() != BO_Assign)
      return false;
    const auto *LHS = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    return LHS && LHS->getDecl() == VD && !referencesAny(BO->getRHS(), Only);
  };
  llvm::SmallVector<const Stmt *, 8> Stmts;
  if (const auto *CS = dyn_cast<CompoundStmt>(Body))
    Stmts.append(CS->body_begin(), CS->body_end());
  else
    Stmts.push_back(Body);
  for (const Stmt *S : Stmts) {
    const auto *For = dyn_cast<ForStmt>(S);
    if (Assigns(For ? For->getInit() : S))
      return true;
    if (referencesAny(S, Only))
      return false;
  }
  return false;
}

/// Can \p Body leave its loop other than by the condition (break, return,
/// goto)? A `break` of a nested loop or switch ends that one only (yalm's
/// `switch (ctr_mod)` of cases that each break).
bool leavesEarly(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    using Base = RecursiveASTVisitor<Finder>;
    bool Found = false;
    /// Inside a nested switch or loop, whose own `break` it ends.
    unsigned Nested = 0;
    bool VisitBreakStmt(BreakStmt *) {
      Found |= Nested == 0;
      return !Found;
    }
    bool VisitReturnStmt(ReturnStmt *) { return !(Found = true); }
    bool VisitGotoStmt(GotoStmt *) { return !(Found = true); }
    bool nested(llvm::function_ref<bool()> Traverse) {
      ++Nested;
      bool R = Traverse();
      --Nested;
      return R;
    }
    bool TraverseSwitchStmt(SwitchStmt *S) {
      return nested([&] { return Base::TraverseSwitchStmt(S); });
    }
    bool TraverseForStmt(ForStmt *S) {
      return nested([&] { return Base::TraverseForStmt(S); });
    }
    bool TraverseWhileStmt(WhileStmt *S) {
      return nested([&] { return Base::TraverseWhileStmt(S); });
    }
    bool TraverseDoStmt(DoStmt *S) {
      return nested([&] { return Base::TraverseDoStmt(S); });
    }
    bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
      return nested([&] { return Base::TraverseCXXForRangeStmt(S); });
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

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

/// The variables \p S names.
llvm::SmallPtrSet<const ValueDecl *, 8> namedIn(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SmallPtrSet<const ValueDecl *, 8> Names;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Names.insert(DRE->getDecl());
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Names;
}

/// Whether \p A and \p B hold the same value (what mergeValues() makes of
/// them under any condition).
bool sameSlot(const VarValue &A, const VarValue &B) {
  if (A.Int != B.Int || A.Object != B.Object || A.Origin != B.Origin ||
      A.Uninitialized != B.Uninitialized ||
      A.Pointer.has_value() != B.Pointer.has_value())
    return false;
  return !A.Pointer || *A.Pointer == *B.Pointer;
}

} // namespace

struct KernelWalker::LoopSyntax {
  /// The changes of local variables in the body, the increment and the
  /// condition, in that order.
  std::vector<Modification> Mods;
  /// Per Mods entry: its step names a variable the loop changes.
  std::vector<bool> StepReadsModified;
  /// The variables Mods changes, and those it changes other than by a step.
  llvm::SmallPtrSet<const ValueDecl *, 8> Modified, NonInduction;
  /// The variables the condition names.
  llvm::SmallPtrSet<const ValueDecl *, 8> InCond;
  /// The variables the increment changes, in its order.
  std::vector<const ValueDecl *> Stepped;
  bool LeavesEarly = false;
  const Stmt *Body = nullptr;
  /// deadOnEntry() of the variables asked about.
  llvm::DenseMap<const ValueDecl *, bool> DeadOnEntry;
};

bool KernelWalker::deadOnEntry(LoopSyntax &Syntax, const ValueDecl *VD) {
  auto [It, New] = Syntax.DeadOnEntry.try_emplace(VD, false);
  if (New)
    It->second =
        !Syntax.InCond.count(VD) && assignedBeforeRead(Syntax.Body, VD);
  return It->second;
}

KernelWalker::LoopSyntax &KernelWalker::loopSyntax(const Stmt *Body,
                                                   const clang::Expr *Cond,
                                                   const clang::Expr *Inc) {
  std::shared_ptr<LoopSyntax> &Slot = LoopSyntaxes[Body];
  if (Slot)
    return *Slot;
  auto L = std::make_shared<LoopSyntax>();
  ModificationFinder MF;
  MF.TraverseStmt(const_cast<Stmt *>(Body));
  size_t IncBegin = MF.Mods.size();
  if (Inc)
    MF.TraverseStmt(const_cast<clang::Expr *>(Inc));
  size_t IncEnd = MF.Mods.size();
  if (Cond)
    MF.TraverseStmt(const_cast<clang::Expr *>(Cond));
  L->Mods = std::move(MF.Mods);
  for (size_t I = IncBegin; I < IncEnd; ++I)
    L->Stepped.push_back(L->Mods[I].Var);
  for (const Modification &M : L->Mods) {
    L->Modified.insert(M.Var);
    if (M.Sign == 0)
      L->NonInduction.insert(M.Var);
  }
  for (const Modification &M : L->Mods)
    L->StepReadsModified.push_back(M.Step && referencesAny(M.Step, L->Modified));
  if (Cond)
    L->InCond = namedIn(Cond);
  L->LeavesEarly = leavesEarly(Body);
  L->Body = Body;
  Slot = std::move(L);
  return *Slot;
}

std::shared_ptr<llvm::DenseMap<const ValueDecl *, VarValue>>
KernelWalker::launchedCaptures(const CXXRecordDecl *Closure,
                               SymbolKind Scalar) {
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
      V.Int = Expr::symbol({Scalar, Name});
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
      V.Int = Expr::symbol({Scalar, Name});
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
  if (const auto *FS = dyn_cast<ForStmt>(S))
    return walkLoop(FS, FS->getInit(), FS->getCond(), FS->getInc(),
                    FS->getBody(), F);
  if (const auto *WS = dyn_cast<WhileStmt>(S))
    return walkLoop(WS, nullptr, WS->getCond(), nullptr, WS->getBody(), F);
  if (const auto *DS = dyn_cast<DoStmt>(S))
    return walkLoop(DS, nullptr, DS->getCond(), nullptr, DS->getBody(), F,
                    /*CondAfterBody=*/true);
  if (const auto *RS = dyn_cast<CXXForRangeStmt>(S))
    return walkRangeFor(RS, F);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    const clang::Expr *V = RS->getRetValue();
    if (!V)
      return;
    walkExpr(V, F);
    if (!F.Returned)
      return;
    // The call's value: each return's value where it is taken, the later
    // ones chosen where they run (`if (L == 0) return 0; ... return pos;`
    // gives select(L != 0, pos, 0)).
    VarValue New;
    if (F.Fn && F.Fn->getReturnType()->isReferenceType()) {
      if (std::optional<AddressInfo> A = resolveAddress(V, F, nullptr))
        New.Pointer = A->Ptr;
    } else if (std::optional<VarValue> R =
                   valueOf(V->getType(), V, F, nullptr)) {
      New = *R;
    }
    bool Earlier = F.Returned->Int || F.Returned->Pointer || F.Returned->Object;
    *F.Returned = Earlier ? mergeValues(F.Active, New, *F.Returned) : New;
    return;
  }
  if (const auto *SS = dyn_cast<SwitchStmt>(S)) {
    if (SS->getInit())
      walkStmt(SS->getInit(), F);
    walkExpr(SS->getCond(), F);
    Frame Body = F;
    walkSwitchBody(SS, Body);
    F.Memory = joinMemory(F.Memory, Body.Memory);
    // Cases are not modelled: what the body changed becomes opaque.
    ModificationFinder MF;
    MF.TraverseStmt(const_cast<Stmt *>(SS->getBody()));
    for (const Modification &M : MF.Mods) {
      auto It = F.Env.find(M.Var);
      if (It == F.Env.end())
        continue;
      VarValue V;
      if (It->second.Int)
        V.Int = Expr::symbol({SymbolKind::LaneValue, M.Var->getName().str(),
                              mixKeys(locationKey(SS->getBeginLoc()),
                                      locationKey(M.Var->getLocation()))});
      F.Env[M.Var] = V;
    }
    return;
  }
  if (const auto *E = dyn_cast<clang::Expr>(S))
    return walkExpr(E, F);
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return walkStmt(LS->getSubStmt(), F);
  if (const auto *AS = dyn_cast<AttributedStmt>(S))
    return walkStmt(AS->getSubStmt(), F);
  if (const auto *CS = dyn_cast<CaseStmt>(S))
    return walkStmt(CS->getSubStmt(), F);
  if (const auto *DS = dyn_cast<DefaultStmt>(S))
    return walkStmt(DS->getSubStmt(), F);
  // Other statements (asm, break, continue, goto, null): nothing to do.
}

void KernelWalker::walkSwitchBody(const SwitchStmt *SS, Frame &F) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(SS->getBody());
  if (!Body)
    return walkStmt(SS->getBody(), F);
  // Each `case v:` runs where the condition equals v (a label's statements
  // up to the next label or break), `default:` where it equals none.
  Expr Cond = translate(SS->getCond(), F);
  Expr NoCase = Expr::constant(1);
  std::optional<Frame> Arm;
  for (const Stmt *Child : Body->body()) {
    const Stmt *Inner = Child;
    std::optional<Expr> Label;
    bool IsLabel = false;
    while (true) {
      if (const auto *CS = dyn_cast<CaseStmt>(Inner)) {
        IsLabel = true;
        clang::Expr::EvalResult R;
        Expr Match = Expr::constant(0);
        if (!CS->getLHS()->isValueDependent() &&
            CS->getLHS()->EvaluateAsInt(R, Ctx)) {
          Expr V = Expr::constant(R.Val.getInt().getExtValue());
          Match = Expr::eq(Cond, V);
          NoCase = Expr::logicalAnd(NoCase, Expr::ne(Cond, V));
        } else {
          // Each label its own unknown: two of them are not equal.
          Match = Expr::symbol(
              {SymbolKind::UniformValue, "case", locationKey(CS->getLHS())});
        }
        Label = Label ? Expr::logicalOr(*Label, Match) : Match;
        Inner = CS->getSubStmt();
        continue;
      }
      if (const auto *DS = dyn_cast<DefaultStmt>(Inner)) {
        IsLabel = true;
        Label = Label ? Expr::logicalOr(*Label, NoCase) : NoCase;
        Inner = DS->getSubStmt();
        continue;
      }
      break;
    }
    // Where an arm ends, memory as it left it joins the others'.
    if (IsLabel) {
      if (Arm)
        F.Memory = joinMemory(F.Memory, Arm->Memory);
      Arm = under(F, *Label);
    }
    if (isa<BreakStmt>(Inner)) {
      if (Arm)
        F.Memory = joinMemory(F.Memory, Arm->Memory);
      Arm.reset();
      continue;
    }
    if (Arm)
      walkStmt(Inner, *Arm);
  }
  if (Arm)
    F.Memory = joinMemory(F.Memory, Arm->Memory);
}

void KernelWalker::walkCompound(const CompoundStmt *CS, Frame &F) {
  Expr Saved = F.Active;
  for (const Stmt *Child : CS->body()) {
    walkStmt(Child, F);
    // `if (cond) return;` guards the rest of the block with !cond.
    if (const auto *IS = dyn_cast<IfStmt>(Child))
      if (!IS->getElse() && endsInReturn(IS->getThen()) && IS->getCond())
        F.Active = Expr::logicalAnd(
            F.Active, Expr::logicalNot(translate(IS->getCond(), F)));
  }
  F.Active = Saved;
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
    F.Env[VD] = V;
    return;
  }
  const clang::Expr *Init = VD->getInit();
  std::optional<VarValue> V;
  if (Init && T->isPointerType() &&
      Init->isNullPointerConstant(Ctx, clang::Expr::NPC_ValueDependentIsNotNull)) {
    // `T *buf = nullptr; if (c) buf = smem + off;`: a null pointer is never
    // dereferenced where the code runs, so where paths join the value of a
    // path that assigned it is the value, as for `T *buf;`.
    V.emplace();
    V->Uninitialized = true;
  } else if (Init) {
    V = evaluateAndWalk(T, Init, F, VD);
  } else if (T->isIntegralOrEnumerationType() || T->isBooleanType()) {
    V.emplace();
    V->Int = Expr::symbol({SymbolKind::UniformValue, VD->getName().str(),
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
  if (llvm::any_of(EnclosingLoops, [&](const EnclosingLoop &L) {
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
  return Copy;
}

bool KernelWalker::mayChangeSlots(const Stmt *S) {
  auto [It, New] = ChangesSlots.try_emplace(S, false);
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

void KernelWalker::walkLoop(const Stmt *Loop, const Stmt *Init,
                            const clang::Expr *Cond, const clang::Expr *Inc,
                            const Stmt *Body, Frame &F, bool CondAfterBody,
                            const VarDecl *RangeVar,
                            llvm::ArrayRef<const clang::Expr *> RangeValues) {
  Expr SavedActive = F.Active;
  if (Init)
    walkStmt(Init, F);

  // Variables the loop modifies: induction variables (only ever stepped by a
  // loop-invariant amount) become start + step * iter; others opaque.
  LoopSyntax &Syntax = loopSyntax(Body, Cond, Inc);
  const llvm::SmallPtrSet<const ValueDecl *, 8> &Modified = Syntax.Modified;
  llvm::SmallPtrSet<const ValueDecl *, 8> NonInduction = Syntax.NonInduction;

  // The opaque value of a variable changed in the loop.
  auto Opaque = [&](const ValueDecl *VD, bool Lane) {
    SymbolKind K = Lane ? SymbolKind::LaneValue : SymbolKind::UniformValue;
    return Expr::symbol({K, VD->getName().str()});
  };

  // Syntactic induction variables: every change a loop-invariant, uniform
  // step (`i += s`, `p++`). Every other changed slot is loop-carried.
  llvm::DenseMap<const ValueDecl *, Expr> InductionSteps;
  for (const ValueDecl *VD : Modified) {
    if (NonInduction.count(VD) || !F.Env.count(VD))
      continue;
    QualType T = VD->getType();
    unsigned Scale = T->isPointerType() ? sizeOf(T->getPointeeType()) : 1;
    std::optional<Expr> Step = Expr::constant(0);
    for (size_t I = 0; I < Syntax.Mods.size(); ++I) {
      const Modification &M = Syntax.Mods[I];
      if (M.Var != VD)
        continue;
      Expr S = M.Step ? translate(M.Step, F) : Expr::constant(1);
      // The step must not depend on what the loop changes.
      if (Syntax.StepReadsModified[I] || S.isLaneDependent()) {
        Step.reset();
        break;
      }
      *Step = *Step + S * Expr::constant(M.Sign * static_cast<int64_t>(Scale));
    }
    if (Step)
      InductionSteps.try_emplace(VD, *Step);
    else
      NonInduction.insert(VD);
  }

  // Changed slots whose value at the loop's head nothing reads (an inner
  // loop's counter, a flag each pass resets): not sampled, and after the
  // loop a value no code reads.
  // Floating-point slots are probed (whether a pass leaves them per lane)
  // but not sampled: the engine keeps only where such a value comes from.
  llvm::SmallPtrSet<const ValueDecl *, 8> Carried, Sampled;
  for (const ValueDecl *VD : NonInduction) {
    if (F.Env.count(VD) && !Syntax.InCond.count(VD) &&
        !Facts.liveness().carriedValueRead(F.Fn, Loop, VD))
      continue;
    Carried.insert(VD);
    if (!VD->getType()->isRealFloatingType())
      Sampled.insert(VD);
  }

  unsigned LoopId = ++LoopCounter;
  // The variable the counter is named after, chosen independently of the
  // order sets of pointers iterate in (which changes from run to run): the
  // induction variable the increment steps, else the first induction
  // variable in the source, else the first other variable the loop changes.
  const ValueDecl *NameVar = RangeVar;
  auto Earlier = [](const ValueDecl *A, const ValueDecl *B) {
    return !B || A->getLocation() < B->getLocation() ||
           (A->getLocation() == B->getLocation() &&
            A->getName() < B->getName());
  };
  for (const ValueDecl *VD : Syntax.Stepped)
    if (InductionSteps.count(VD) && Earlier(VD, NameVar))
      NameVar = VD;
  if (!NameVar)
    for (const auto &Entry : InductionSteps)
      if (Earlier(Entry.first, NameVar))
        NameVar = Entry.first;
  if (!NameVar)
    for (const ValueDecl *VD : Modified)
      if (Earlier(VD, NameVar))
        NameVar = VD;
  std::optional<Symbol> Iter;
  auto IterSymbol = [&](const ValueDecl *) {
    // One iteration counter per loop, shared by all its induction
    // variables, named after NameVar so `4*n*r` reads as "row r"; a name
    // an enclosing loop already uses gets the loop's number.
    if (!Iter) {
      std::string Name = NameVar ? NameVar->getName().str() : "";
      if (Name.empty() || loopNameTaken(F, Name))
        Name = (Name.empty() ? "iter" : Name + ".") + std::to_string(LoopId);
      Iter = Symbol{SymbolKind::LoopIter, Name};
    }
    return Expr::symbol(*Iter);
  };
  // Loop-carried slots: closed forms where one pass adds a step, else the
  // values of the first iterations (LoopCarried.cpp).
  CarriedState State;
  probeSteps(Body, Inc, F, Modified, Carried, LoopId, State);
  // Fields the body assigns before reading are read by their names until
  // then: hold them, so that every leaf is followed.
  for (const auto &[VD, Leaves] : State.Leaves)
    if (auto It = F.Env.find(VD); It != F.Env.end())
      for (const LeafPath &P : Leaves)
        materializeLeaf(It->second, P);
  sampleIterations(Body, Cond, Inc, F, Modified, Sampled, !Syntax.LeavesEarly,
                   State);
  clang::SourceLocation LoopLoc =
      Cond ? Cond->getBeginLoc() : Body->getBeginLoc();
  bool UsedSamples = false;
  // Slots whose carried value the body never reads: that value, for after
  // the loop.
  llvm::DenseMap<const ValueDecl *, VarValue> DeadOnEntry;
  for (const ValueDecl *VD : Modified) {
    auto It = F.Env.find(VD);
    if (It == F.Env.end())
      continue; // Declared inside the loop body.
    VarValue &V = It->second;
    if (auto IS = InductionSteps.find(VD); IS != InductionSteps.end()) {
      Expr Offset = IS->second * IterSymbol(VD);
      if (V.Int)
        V.Int = *V.Int + Offset;
      if (V.Pointer)
        V.Pointer->ByteOffset = V.Pointer->ByteOffset + Offset;
      continue;
    }
    // A counter the body resets before use (an inner loop's `i` declared
    // outside): the body never reads its carried value, so that value must
    // not confine the loop to its sampled iterations. It still is the value
    // after the loop (a pass may leave before the reset).
    if (V.Int && !V.Pointer && !V.Object && deadOnEntry(Syntax, VD)) {
      bool Unused = false;
      DeadOnEntry.try_emplace(
          VD, carriedValue(VD, V, State, [&] { return IterSymbol(VD); },
                           LoopLoc, F.Host, Unused));
      V.Int = Opaque(VD, false);
      continue;
    }
    V = carriedValue(VD, V, State, [&] { return IterSymbol(VD); }, LoopLoc,
                     F.Host, UsedSamples);
  }

  std::string SavedSampledLoop = F.SampledLoop;
  std::optional<Symbol> SavedSampledIter = F.SampledIter;
  if (UsedSamples && Iter) {
    F.Active = Expr::logicalAnd(
        F.Active, Expr::lt(Expr::symbol(*Iter),
                           Expr::constant(int64_t(State.Iterations))));
    // Unless the samples reach the loop's end, what the accesses do in the
    // iterations after them is not known (a harness cannot size buffers
    // from the samples).
    if (!State.Ended) {
      SourceLocation At = toLocation(SM, LoopLoc);
      F.SampledLoop = fmt::format(
          "the first {} iterations of the loop at {}:{}", State.Iterations,
          llvm::sys::path::filename(At.File).str(), At.Line);
      F.SampledIter = *Iter;
    }
  }
  // The loop's own condition, for the accesses in it (EnclosingLoop).
  Expr LoopCond = Expr::constant(1);
  if (Cond) {
    walkExpr(Cond, F);
    Expr C = translate(Cond, F);
    // do { ... } while (c): the first iteration always runs.
    if (CondAfterBody)
      C = Iter ? Expr::logicalOr(Expr::eq(Expr::symbol(*Iter), Expr::constant(0)), C)
               : Expr::constant(1);
    F.Active = Expr::logicalAnd(F.Active, C);
    LoopCond = C;
  }
  // The trip count, where the condition ends a loop of closed forms within
  // the sampled iterations for every lane.
  std::optional<int64_t> TripCount;
  if (RangeVar && !RangeValues.empty()) {
    // Iteration k holds element k of the list.
    Expr K = IterSymbol(RangeVar);
    Expr V = translate(RangeValues.back(), F);
    for (size_t I = RangeValues.size() - 1; I-- > 0;)
      V = Expr::select(Expr::eq(K, Expr::constant(int64_t(I))),
                       translate(RangeValues[I], F), V);
    F.Env[RangeVar].Int = V;
    TripCount = int64_t(RangeValues.size());
    F.Active = Expr::logicalAnd(F.Active, Expr::lt(K, Expr::constant(*TripCount)));
    LoopCond = Expr::logicalAnd(LoopCond, Expr::lt(K, Expr::constant(*TripCount)));
  }
  // A condition the same in every lane, in every iteration, with no way out
  // but it: the loop runs the same number of times in every lane, a uniform
  // unknown when not a constant (yalm's unrolled loop over `ctr` before its
  // tail loop over `t`).
  std::optional<Expr> UniformTrips;
  if (Cond && !CondAfterBody && Iter && !Syntax.LeavesEarly) {
    Expr C = translate(Cond, F);
    if (!C.isLaneDependent() && !C.isIndirect()) {
      SourceLocation At = toLocation(SM, LoopLoc);
      UniformTrips = Expr::symbol(
          {SymbolKind::UniformValue,
           fmt::format("trips of the loop at {}:{}",
                       llvm::sys::path::filename(At.File).str(), At.Line),
           locationKey(LoopLoc)});
    }
    for (int64_t K = 0; K <= LoopSampleCount && !TripCount; ++K) {
      std::optional<int64_t> V =
          C.substitute({{*Iter, Expr::constant(K)}}).asConstant();
      if (!V)
        break;
      if (*V == 0)
        TripCount = K;
    }
  }
  llvm::DenseMap<const ValueDecl *, VarValue> AtIter;
  for (const ValueDecl *VD : Modified)
    if (auto It = F.Env.find(VD); It != F.Env.end()) {
      auto Dead = DeadOnEntry.find(VD);
      AtIter.try_emplace(VD, Dead != DeadOnEntry.end() ? Dead->second
                                                       : It->second);
    }
  // Named only where accesses are recorded (not in probes and samples).
  std::string LoopName;
  if (F.records()) {
    SourceLocation LoopAt = toLocation(SM, LoopLoc);
    LoopName = fmt::format("the loop at {}:{}",
                           llvm::sys::path::filename(LoopAt.File).str(),
                           LoopAt.Line);
  }
  EnclosingLoops.push_back({Iter, LoopCond, LoopName});
  walkStmt(Body, F);
  if (Inc)
    walkExpr(Inc, F);
  EnclosingLoops.pop_back();
  F.Active = SavedActive;
  F.SampledLoop = SavedSampledLoop;
  F.SampledIter = SavedSampledIter;

  // After the loop: its exit values where known, else what it does not
  // change; the rest is no longer known.
  std::optional<Expr> IterExpr;
  if (Iter)
    IterExpr = Expr::symbol(*Iter);
  for (const auto &[VD, V] : AtIter) {
    auto It = F.Env.find(VD);
    if (It == F.Env.end())
      continue;
    if (auto IS = InductionSteps.find(VD); IS != InductionSteps.end()) {
      std::optional<Expr> End;
      if (TripCount)
        End = Expr::constant(*TripCount);
      else
        End = UniformTrips;
      bool Known = End && IterExpr;
      VarValue After = V;
      if (Known && After.Int)
        After.Int = After.Int->substitute({{*Iter, *End}});
      if (Known && After.Pointer)
        After.Pointer->ByteOffset =
            After.Pointer->ByteOffset.substitute({{*Iter, *End}});
      if (Known) {
        It->second = After;
        continue;
      }
      CarriedState None;
      It->second = valueAfterLoop(VD, V, None, IterExpr, std::nullopt, LoopLoc);
      continue;
    }
    It->second = valueAfterLoop(VD, V, State, IterExpr, TripCount, LoopLoc);
  }
}

void KernelWalker::walkRangeFor(const CXXForRangeStmt *RS, Frame &F) {
  const VarDecl *Var = RS->getLoopVariable();
  llvm::SmallVector<const clang::Expr *, 8> Values;
  // The range: a braced list (an std::initializer_list made of it) or a
  // local or global array with an initializer list, read only.
  const clang::Expr *Range = RS->getRangeInit();
  while (Range) {
    Range = Range->IgnoreParenImpCasts();
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Range))
      Range = MTE->getSubExpr();
    else if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(Range))
      Range = SIL->getSubExpr();
    else if (const auto *EWC = dyn_cast<ExprWithCleanups>(Range))
      Range = EWC->getSubExpr();
    else
      break;
  }
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Range))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getType().isConstQualified() && VD->getInit())
      Range = VD->getInit()->IgnoreParenImpCasts();
  const auto *List = dyn_cast_or_null<InitListExpr>(Range);
  if (List && Var->getType()->isIntegralOrEnumerationType() &&
      List->getNumInits() > 0 && List->getNumInits() <= LoopSampleCount)
    for (const clang::Expr *Init : List->inits())
      Values.push_back(Init);
  walkLoop(RS, nullptr, nullptr, nullptr, RS->getBody(), F,
           /*CondAfterBody=*/false, Values.empty() ? nullptr : Var, Values);
}

} // namespace frontend
} // namespace coalesce
