//===- LoopWalk.cpp - Walking loops: inductions, carried values, passes ---===//
//
//   for (i = a; c; i += s)  i == a + s * iter, iter a LoopIter symbol; the
//                           body runs under Active && c
// The syntax of a loop (what its body changes, whether it leaves early) is
// read once per loop (loopSyntax); values the loop carries get closed forms
// or sampled passes (LoopCarried.cpp).
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "JumpNesting.h"
#include "ModificationFinder.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

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

/// The local arrays whose elements \p Body assigns (`p[k] = q`).
llvm::SmallPtrSet<const VarDecl *, 4> storedArrays(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SmallPtrSet<const VarDecl *, 4> Arrays;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (const auto *ASE =
              dyn_cast<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens()))
        if (const VarDecl *VD = localVariable(ASE->getBase());
            VD && BO->isAssignmentOp())
          Arrays.insert(VD);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Arrays;
}

/// Of \p Arrays, those whose every use in \p Body is the element at index
/// \p Counter (`B_ptr[i]`): each pass reads and writes its own element only,
/// so what the passes read there is what the stores before the loop left.
llvm::SmallPtrSet<const VarDecl *, 4>
perPassArrays(const Stmt *Body, const ValueDecl *Counter,
              const llvm::SmallPtrSetImpl<const VarDecl *> &Arrays) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *Counter;
    llvm::DenseMap<const VarDecl *, int> Uses, AtCounter;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        ++Uses[VD];
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *ASE) {
      const auto *Idx =
          dyn_cast<DeclRefExpr>(ASE->getIdx()->IgnoreParenImpCasts());
      if (const VarDecl *VD = localVariable(ASE->getBase());
          VD && Idx && Idx->getDecl() == Counter)
        ++AtCounter[VD];
      return true;
    }
  } F;
  F.Counter = Counter;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  llvm::SmallPtrSet<const VarDecl *, 4> Out;
  for (const VarDecl *VD : Arrays)
    if (F.Uses.lookup(VD) == F.AtCounter.lookup(VD))
      Out.insert(VD);
  return Out;
}

/// Adds to \p Out the variables \p S changes where a pass of the loop whose
/// body holds it may not get (\p Conditional, or below: a branch of an
/// `if`, a `switch`, an arm of `?:`, the right side of `&&` and `||`, a
/// nested loop, or a statement after one that may end the pass). Such a
/// change is no step of every pass (`if (c) k += 1;`, `for (j...) k++;`).
void conditionalChanges(const Stmt *S, bool Conditional,
                        llvm::SmallPtrSetImpl<const ValueDecl *> &Out) {
  if (!S)
    return;
  if (Conditional ||
      isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S)) {
    ModificationFinder MF;
    MF.TraverseStmt(const_cast<Stmt *>(S));
    for (const Modification &M : MF.Mods)
      Out.insert(M.Var);
    return;
  }
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    bool Later = false; // After a statement that may end the pass.
    for (const Stmt *Child : CS->body()) {
      conditionalChanges(Child, Later, Out);
      Later = Later || leavesEarly(Child, /*OrSkips=*/true);
    }
    return;
  }
  if (const auto *IS = dyn_cast<IfStmt>(S)) {
    conditionalChanges(IS->getInit(), false, Out);
    conditionalChanges(IS->getConditionVariableDeclStmt(), false, Out);
    conditionalChanges(IS->getCond(), false, Out);
    conditionalChanges(IS->getThen(), true, Out);
    conditionalChanges(IS->getElse(), true, Out);
    return;
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
    conditionalChanges(CO->getCond(), false, Out);
    conditionalChanges(CO->getTrueExpr(), true, Out);
    conditionalChanges(CO->getFalseExpr(), true, Out);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    conditionalChanges(BO->getLHS(), false, Out);
    conditionalChanges(BO->getRHS(), true, Out);
    return;
  }
  for (const Stmt *Child : S->children())
    conditionalChanges(Child, false, Out);
}

/// The variable a loop's iteration counter is named after.
const ValueDecl *
counterNameVar(const VarDecl *RangeVar,
               llvm::ArrayRef<const ValueDecl *> Stepped,
               const llvm::DenseMap<const ValueDecl *, Expr> &InductionSteps,
               const llvm::SmallPtrSetImpl<const ValueDecl *> &Modified) {
  // Chosen independently of the order sets of pointers iterate in (which
  // changes from run to run): the induction variable the increment steps,
  // else the first induction variable in the source, else the first other
  // variable the loop changes.
  const ValueDecl *NameVar = RangeVar;
  auto Earlier = [](const ValueDecl *A, const ValueDecl *B) {
    return !B || A->getLocation() < B->getLocation() ||
           (A->getLocation() == B->getLocation() &&
            A->getName() < B->getName());
  };
  for (const ValueDecl *VD : Stepped)
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
  return NameVar;
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
  /// The local arrays the body assigns elements of (`p[k] = q`).
  llvm::SmallPtrSet<const VarDecl *, 4> StoredArrays;
  /// Those of them the body uses only at the loop counter's element
  /// (perPassArrays), when the increment alone steps the counter.
  llvm::SmallPtrSet<const VarDecl *, 4> PerPassArrays;
  /// Some pass may skip the rest of the body or leave (continue, break,
  /// return, goto): a store in it is not made by every pass.
  bool SkipsStores = false;
  bool LeavesEarly = false;
  /// A return or goto may leave it (LeavesEarly without its breaks).
  bool LeavesOtherwise = false;
  const Stmt *Body = nullptr;
  /// deadOnEntry() of the variables asked about.
  llvm::DenseMap<const ValueDecl *, bool> DeadOnEntry;
  /// The variables the increment names.
  llvm::SmallPtrSet<const ValueDecl *, 8> InInc;
  /// The variables the condition, the increment and the body name, and
  /// whether they or a function they call read the lane running them
  /// (LaneInputs.h).
  llvm::SmallPtrSet<const ValueDecl *, 8> Named;
  bool ReadsLane = false;
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
  // A step some passes skip or repeat is no induction: the probe follows it.
  conditionalChanges(Body, false, L->NonInduction);
  for (const Modification &M : L->Mods)
    L->StepReadsModified.push_back(M.Step && referencesAny(M.Step, L->Modified));
  if (Cond)
    L->InCond = namedIn(Cond);
  if (Inc)
    L->InInc = namedIn(Inc);
  L->LeavesEarly = leavesEarly(Body);
  L->LeavesOtherwise =
      L->LeavesEarly && leavesEarly(Body, /*OrSkips=*/false, /*ByBreak=*/false);
  L->StoredArrays = storedArrays(Body);
  if (L->Stepped.size() == 1 &&
      llvm::none_of(
          llvm::ArrayRef(L->Mods).take_front(IncBegin),
          [&](const Modification &M) { return M.Var == L->Stepped[0]; }) &&
      L->Mods[IncBegin].Sign != 0)
    L->PerPassArrays = perPassArrays(Body, L->Stepped[0], L->StoredArrays);
  L->SkipsStores = !L->StoredArrays.empty() && leavesEarly(Body, true);
  L->Named = namedIn(Body);
  L->Named.insert(L->InCond.begin(), L->InCond.end());
  L->Named.insert(L->InInc.begin(), L->InInc.end());
  LaneIdentity &Lanes = Facts.laneIdentity();
  L->ReadsLane = Lanes.readBy(Body) || Lanes.readBy(Cond) || Lanes.readBy(Inc);
  L->Body = Body;
  Slot = std::move(L);
  return *Slot;
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
  LoopArrays Arrays =
      openLoopElements(Loop, Syntax.StoredArrays, Syntax.PerPassArrays,
                       Syntax.Modified, Body, F);
  const llvm::SmallPtrSet<const ValueDecl *, 8> &Modified = Syntax.Modified;
  llvm::SmallPtrSet<const ValueDecl *, 8> NonInduction = Syntax.NonInduction;

  llvm::DenseMap<const ValueDecl *, Expr> InductionSteps =
      inductionSteps(Syntax, F, NonInduction);
  llvm::SmallPtrSet<const ValueDecl *, 8> Carried, Sampled;
  carriedSlots(Loop, Syntax, F, NonInduction, Carried, Sampled);

  unsigned LoopId = ++Nest.Counter;
  const ValueDecl *NameVar =
      counterNameVar(RangeVar, Syntax.Stepped, InductionSteps, Modified);
  std::optional<Symbol> Iter;
  auto IterSymbol = [&](const ValueDecl *) {
    // One iteration counter per loop, shared by all its induction
    // variables: the loop is its identity (Symbol::Version, its place in
    // the source); the name, for printing only, is NameVar's, so `4*n*r`
    // reads as "row r", with the loop's line where a live value already
    // prints that name (`k@42`).
    if (!Iter) {
      std::string Name = NameVar ? NameVar->getName().str() : "";
      if (Name.empty() || loopNameTaken(F, Name)) {
        std::string Base =
            fmt::format("{}@{}", Name.empty() ? "iter" : Name,
                        toLocation(SM, Loop->getBeginLoc()).Line);
        Name = Base;
        for (unsigned N = 2; loopNameTaken(F, Name); ++N)
          Name = fmt::format("{}.{}", Base, N);
      }
      Iter = Symbol{SymbolKind::LoopIter, Name, locationKey(Loop)};
    }
    return symbol(*Iter);
  };
  // Loop-carried slots: closed forms where one pass adds a step, else the
  // values of the first iterations (LoopCarried.cpp).
  CarriedState State;
  // The passes walk what may change the slots they follow.
  const auto *Compound = dyn_cast<CompoundStmt>(Body);
  std::optional<llvm::BitVector> Slice =
      Compound ? sliceForPasses(Compound, Syntax, F) : std::nullopt;
  if (Slice)
    Nest.Slices[Compound] = {&*Slice, &Facts.statementEffects(Compound)};
  probeSteps(Body, Inc, F, Modified, Carried, LoopId, State);
  // Fields the body assigns before reading are read by their names until
  // then: hold them, so that every leaf is followed.
  for (const auto &[VD, Leaves] : State.Leaves)
    if (auto It = F.Env.find(VD); It != F.Env.end())
      for (const LeafPath &P : Leaves)
        materializeLeaf(It->second, P);
  LoopEnds Ends{CondAfterBody, Syntax.LeavesEarly && !Syntax.LeavesOtherwise,
                Syntax.LeavesOtherwise};
  if (const auto *C = dyn_cast<CompoundStmt>(Body))
    Ends.OnePass = !C->body_empty() && isa<BreakStmt>(C->body_back()) &&
                   !leavesEarly(Body, /*OrSkips=*/true, /*ByBreak=*/false);
  sampleIterations(Body, Cond, Inc, F, Modified, Sampled, Ends, State);
  if (Syntax.LeavesEarly && State.EndUnknown.empty())
    State.EndUnknown = "a break or return may end it before its condition "
                       "does";
  State.LaneInputs = laneInputs(Syntax.Named, F.Env, Syntax.ReadsLane);
  if (Slice)
    Nest.Slices.erase(Compound);
  if (State.ExitFrame) {
    // Followed to its end inside another loop's probe or samples: the
    // state after the last pass is the state after the loop, and a walk
    // that records nothing needs no other pass.
    bool Probe = F.Probe, Host = F.Host;
    F = std::move(*State.ExitFrame);
    F.Probe = Probe;
    F.Host = Host;
    F.Active = SavedActive;
    return;
  }
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
      // The opaque value of a variable changed in the loop.
      V.Int = symbol({SymbolKind::UniformValue, VD->getName().str()});
      continue;
    }
    V = carriedValue(VD, V, State, [&] { return IterSymbol(VD); }, LoopLoc,
                     F.Host, UsedSamples);
  }

  std::string SavedSampledLoop = F.SampledLoop;
  std::optional<Symbol> SavedSampledIter = F.SampledIter;
  if (UsedSamples && Iter)
    confineToSamples(F, *Iter, State, LoopLoc);
  // The loop's own condition, for the accesses in it (EnclosingLoop).
  Expr LoopCond = Expr::constant(1);
  if (Cond) {
    walkExpr(Cond, F);
    Expr C = translate(Cond, F);
    // do { ... } while (c): the first iteration always runs.
    if (CondAfterBody)
      C = Iter ? Expr::logicalOr(Expr::eq(symbol(*Iter), Expr::constant(0)), C)
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
  std::optional<Expr> Trips;
  if (Cond && !CondAfterBody && Iter && !Syntax.LeavesEarly)
    Trips = tripsOf(translate(Cond, F), *Iter, LoopLoc, TripCount);
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
  Nest.Enclosing.push_back({Iter, LoopCond, LoopName});
  Nest.Bodies.push_back({Body, LoopCond});
  walkStmt(Body, F);
  if (Inc)
    walkExpr(Inc, F);
  Nest.Bodies.pop_back();
  Nest.Enclosing.pop_back();
  F.Active = SavedActive;
  F.SampledLoop = SavedSampledLoop;
  F.SampledIter = SavedSampledIter;

  // After the loop: its exit values where known, else what it does not
  // change; the rest is no longer known.
  std::optional<Expr> End = Trips;
  if (TripCount)
    End = Expr::constant(*TripCount);
  closeLoopElements(Arrays, F, Iter, End ? End->asConstant() : std::nullopt,
                    Syntax.SkipsStores);
  for (const auto &[VD, V] : AtIter)
    if (auto It = F.Env.find(VD); It != F.Env.end())
      It->second = exitValue(VD, V, InductionSteps.count(VD) != 0, State,
                             Iter, End, LoopLoc);
}

std::optional<llvm::BitVector>
KernelWalker::sliceForPasses(const CompoundStmt *Body,
                             const LoopSyntax &Syntax, const Frame &F) {
  if (!F.Fn || Facts.aliasedLocals(F.Fn))
    return std::nullopt;
  // What the passes follow: the slots outside the body that it may change,
  // and what the condition and the increment read.
  const std::vector<StatementEffects> &Effects = Facts.statementEffects(Body);
  llvm::SmallPtrSet<const ValueDecl *, 8> Needed;
  for (const StatementEffects &E : Effects)
    for (const ValueDecl *VD : E.Writes)
      if (F.Env.count(VD))
        Needed.insert(VD);
  Needed.insert(Syntax.InCond.begin(), Syntax.InCond.end());
  Needed.insert(Syntax.InInc.begin(), Syntax.InInc.end());
  return probeSlice(Effects, std::move(Needed));
}

void KernelWalker::carriedSlots(
    const Stmt *Loop, const LoopSyntax &Syntax, const Frame &F,
    const llvm::SmallPtrSetImpl<const ValueDecl *> &NonInduction,
    llvm::SmallPtrSetImpl<const ValueDecl *> &Carried,
    llvm::SmallPtrSetImpl<const ValueDecl *> &Sampled) {
  // Changed slots whose value at the loop's head nothing reads (an inner
  // loop's counter, a flag each pass resets): not sampled, and after the
  // loop a value no code reads.
  // Floating-point slots are probed (whether a pass leaves them per lane)
  // but not sampled: the engine keeps only where such a value comes from.
  for (const ValueDecl *VD : NonInduction) {
    if (F.Env.count(VD) && !Syntax.InCond.count(VD) &&
        !Facts.liveness().carriedValueRead(F.Fn, Loop, VD))
      continue;
    Carried.insert(VD);
    if (!VD->getType()->isRealFloatingType())
      Sampled.insert(VD);
  }
}

void KernelWalker::confineToSamples(Frame &F, const Symbol &Iter,
                                    const CarriedState &State,
                                    clang::SourceLocation LoopLoc) {
  F.Active = Expr::logicalAnd(
      F.Active,
      Expr::lt(symbol(Iter), Expr::constant(int64_t(State.Iterations))));
  // Unless the samples reach the loop's end, what the accesses do in the
  // iterations after them is not known (a harness cannot size buffers
  // from the samples).
  if (!State.Ended) {
    SourceLocation At = toLocation(SM, LoopLoc);
    F.SampledLoop = fmt::format(
        "the first {} iterations of the loop at {}:{}", State.Iterations,
        llvm::sys::path::filename(At.File).str(), At.Line);
    F.SampledIter = Iter;
  }
}

llvm::DenseMap<const ValueDecl *, Expr>
KernelWalker::inductionSteps(const LoopSyntax &Syntax, const Frame &F,
                             llvm::SmallPtrSetImpl<const ValueDecl *> &NonInduction) {
  // Syntactic induction variables: every change a loop-invariant, uniform
  // step (`i += s`, `p++`). Every other changed slot is loop-carried.
  llvm::DenseMap<const ValueDecl *, Expr> Steps;
  for (const ValueDecl *VD : Syntax.Modified) {
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
      Steps.try_emplace(VD, *Step);
    else
      NonInduction.insert(VD);
  }
  return Steps;
}

/// The passes of a loop left only by its condition `X < Y` (or `X <= Y`)
/// whose difference D = X - Y (- 1 for <=) grows by the same step each pass
/// (linear in the counter \p Iter, the step free of it): the first pass at
/// which it fails, ceil(-D(0) / step), and 0 where it fails at once. Per
/// lane where D is: `for (; offset < size - last; offset += blockDim.x *
/// ILP)` from `offset = threadIdx.x` (CTranslate2's ilp_reduce). Right for
/// every loop that ends (a step that does not grow D never ends one it
/// enters).
static std::optional<Expr> passesUntilFalse(const Expr &Cond,
                                            const Symbol &Iter) {
  Expr::Kind K = Cond.getKind();
  if (K != Expr::Kind::Lt && K != Expr::Kind::Le)
    return std::nullopt;
  Expr D = Cond.operands()[0] - Cond.operands()[1];
  if (K == Expr::Kind::Le)
    D = D - Expr::constant(1);
  std::optional<Expr> Step = D.linearCoefficient(Iter);
  if (!Step || Step->isIndirect() ||
      (Step->isConstant() && Step->getConstant() <= 0))
    return std::nullopt;
  Expr Zero = Expr::constant(0);
  Expr Start = D.substitute({{Iter, Zero}});
  return Expr::select(Expr::lt(Start, Zero),
                      Expr::div(*Step - Expr::constant(1) - Start, *Step),
                      Zero);
}

std::optional<Expr> KernelWalker::tripsOf(const Expr &Cond, const Symbol &Iter,
                                          clang::SourceLocation LoopLoc,
                                          std::optional<int64_t> &TripCount) {
  // A condition the same in every lane, in every iteration, with no way out
  // but it: the loop runs the same number of times in every lane, a uniform
  // unknown when not a constant (yalm's unrolled loop over `ctr` before its
  // tail loop over `t`). A condition that differs between lanes: the
  // number of passes of each lane where the condition is a bound its
  // counter approaches by a fixed step.
  std::optional<Expr> Trips;
  if (Cond.isLaneDependent() && !Cond.isIndirect())
    Trips = passesUntilFalse(Cond, Iter);
  else if (!Cond.isIndirect()) {
    SourceLocation At = toLocation(SM, LoopLoc);
    Trips =
        symbol({SymbolKind::UniformValue,
                fmt::format("trips of the loop at {}:{}",
                            llvm::sys::path::filename(At.File).str(), At.Line),
                locationKey(LoopLoc)});
  }
  for (int64_t K = 0; K <= LoopSampleCount && !TripCount; ++K) {
    std::optional<int64_t> V =
        Cond.substitute({{Iter, Expr::constant(K)}}).asConstant();
    if (!V)
      break;
    if (*V == 0)
      TripCount = K;
  }
  return Trips;
}

VarValue KernelWalker::exitValue(const ValueDecl *VD, const VarValue &AtIter,
                                 bool Induction, const CarriedState &State,
                                 const std::optional<Symbol> &Iter,
                                 const std::optional<Expr> &End,
                                 clang::SourceLocation LoopLoc) {
  std::optional<Expr> IterExpr;
  if (Iter)
    IterExpr = symbol(*Iter);
  if (!Induction)
    return valueAfterLoop(VD, AtIter, State, IterExpr, End, LoopLoc);
  // An induction variable: its value at the end, where the trip count or a
  // uniform number of trips is known, else where the samples reached it
  // (a loop that may break).
  if (!End || !Iter) {
    if (State.Exit)
      if (auto It = State.Exit->find(VD); It != State.Exit->end())
        return It->second;
    CarriedState None;
    return valueAfterLoop(VD, AtIter, None, IterExpr, std::nullopt, LoopLoc);
  }
  VarValue After = AtIter;
  if (After.Int)
    After.Int = After.Int->substitute({{*Iter, *End}});
  if (After.Pointer)
    After.Pointer->ByteOffset =
        After.Pointer->ByteOffset.substitute({{*Iter, *End}});
  return After;
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
