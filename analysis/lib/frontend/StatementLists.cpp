//===- StatementLists.cpp - Blocks, switch arms and the jumps out of them -===//
//
// A block's statements run in order, each where no statement before it
// jumped away: `if (c) { if (d) return; }` leaves the rest of the block to
// the lanes where !(c && d). A jump is recorded where it is walked (the
// frame's Left, relative to the start of the statement being walked) and
// taken back by the construct it leaves: a switch its `break`s (the values
// at each one joined where the switch ends), a loop its `break`s and
// `continue`s, a function its returns, a block its gotos forward to its
// labels (the values at each goto joined at the label). This is the control
// flow of the CFG for structured code and forward gotos; a backward goto
// (a loop) is not followed, and a switch with a goto makes what it changes
// opaque.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "JumpNesting.h"
#include "ModificationFinder.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

bool isFalse(const Expr &E) {
  std::optional<int64_t> C = E.asConstant();
  return C && *C == 0;
}

bool isTrue(const Expr &E) {
  std::optional<int64_t> C = E.asConstant();
  return C && *C != 0;
}

/// The value of a `case v:` label, when it is one integer constant (not a
/// GNU range, not dependent).
std::optional<int64_t> caseValue(const CaseStmt *CS, const ASTContext &Ctx) {
  clang::Expr::EvalResult R;
  if (CS->getLHS()->isValueDependent() || CS->getRHS() ||
      !CS->getLHS()->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// Whether the statement \p Label marks lies inside \p S (a goto to it
/// does not leave S); false when the label has no statement.
bool labelWithin(const LabelDecl *Label, const Stmt *S,
                 const SourceManager &SM) {
  const Stmt *L = Label->getStmt();
  return L &&
         SM.isPointWithin(L->getBeginLoc(), S->getBeginLoc(), S->getEndLoc());
}

/// Whether \p S, in switch body \p Body, holds a jump the walk does not
/// follow there: a goto to a label inside the body (one out of it goes on
/// like any goto), a computed goto, a co_return.
bool hasUnmodelledJump(const Stmt *S, const Stmt *Body,
                       const SourceManager &SM) {
  if (!S)
    return false;
  if (const auto *GS = dyn_cast<GotoStmt>(S))
    return !GS->getLabel()->getStmt() || labelWithin(GS->getLabel(), Body, SM);
  if (isa<IndirectGotoStmt>(S) || isa<CoreturnStmt>(S))
    return true;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return hasUnmodelledJump(C, Body, SM);
  });
}

/// The statements of one list (a block, a switch arm) walked in order:
/// each from a fresh point of its own (the frame's Since and Left reset),
/// its jumps then folded into the predicate of the statements after it.
/// The lanes that continue keep the values they had at their `continue`:
/// at the list's end, F's values become those there where they continued
/// (KernelWalker::mergeBranches).
class StatementList {
public:
  StatementList(Frame &F, KernelWalker &W)
      : F(F), W(W), OuterSince(F.Since), OuterLeft(F.Left),
        StartActive(F.Active) {}
  /// Before a statement labeled \p Label: the lanes that took a goto to it
  /// in this list resume there, with the values they had at their goto.
  void land(const clang::LabelDecl *Label) {
    PendingGoto G = Mine.land(Label);
    if (!G.any())
      return;
    Stay = orElse(Stay, G.Taken);
    F.Active = Expr::logicalAnd(StartActive, Stay);
    for (const JumpFrame &J : G.At)
      W.mergeBranches(J.At->Active, F, *J.At, F);
  }
  /// Before a statement of the list.
  void enter() {
    F.Since = Expr::constant(1);
    F.Left = Jumps();
  }
  /// After it: the jumps it took (relative to its start); the statements
  /// after it run where none was taken.
  Jumps leave() {
    Jumps Taken = F.Left;
    if (Taken.any()) {
      Mine.add(Stay, Taken);
      Expr Stays = Expr::logicalNot(Taken.all());
      Stay = andAlso(Stay, Stays);
      F.Active = Expr::logicalAnd(F.Active, Stays);
      // Every lane gone, all by one kind of jump: that kind, whatever the
      // branches it was taken in (`if (c) return; ...; return;` returns).
      if (isFalse(Stay) && Mine.Gotos.empty()) {
        JumpSet *Kinds[] = {&Mine.Return, &Mine.Break, &Mine.Continue};
        if (llvm::count_if(Kinds, [](JumpSet *K) { return K->any(); }) == 1)
          for (JumpSet *K : Kinds)
            if (K->any())
              K->Taken = Expr::constant(1);
      }
    }
    return Taken;
  }
  /// Whether every lane that entered the list has jumped away.
  bool leftWhole() const { return isFalse(Stay); }
  /// At the end of the list: the frame's point as it was before, with the
  /// list's jumps added to it.
  void finish() {
    // Latest first: where an earlier continue was taken, its values.
    for (auto It = Mine.Continue.At.rbegin(); It != Mine.Continue.At.rend();
         ++It)
      W.mergeBranches(It->Where, F, *It->At, F);
    F.Since = OuterSince;
    F.Left = OuterLeft;
    F.Left.add(OuterSince, Mine);
  }

private:
  Frame &F;
  KernelWalker &W;
  Expr OuterSince;
  Jumps OuterLeft;
  Expr StartActive;
  Expr Stay = Expr::constant(1); // Where no statement so far jumped.
  Jumps Mine;                    // The list's jumps, from its start.
};

} // namespace

bool JumpSet::any() const { return !isFalse(Taken); }

void JumpSet::add(const Expr &Cond, const JumpSet &Inner) {
  Taken = orElse(Taken, andAlso(Cond, Inner.Taken));
  for (const JumpFrame &J : Inner.At)
    if (llvm::none_of(At, [&](const JumpFrame &X) { return X.At == J.At; }))
      At.push_back({andAlso(Cond, J.Where), J.At});
}

bool Jumps::any() const {
  return Return.any() || Break.any() || Continue.any() || !Gotos.empty();
}

Expr Jumps::all() const {
  Expr All = orElse(orElse(Return.Taken, Break.Taken), Continue.Taken);
  for (const PendingGoto &G : Gotos)
    All = orElse(All, G.Taken);
  return All;
}

namespace {
/// Adds \p G, taken where \p Cond held, to \p Gotos.
void addGoto(std::vector<PendingGoto> &Gotos, const Expr &Cond,
             const PendingGoto &G) {
  auto Same = llvm::find_if(
      Gotos, [&](const PendingGoto &X) { return X.Label == G.Label; });
  if (Same == Gotos.end()) {
    Gotos.push_back(G);
    Gotos.back().Taken = andAlso(Cond, G.Taken);
    return;
  }
  Same->add(Cond, G);
}
} // namespace

PendingGoto Jumps::land(const clang::LabelDecl *Label) {
  PendingGoto Landed;
  Landed.Label = Label;
  auto It = llvm::find_if(
      Gotos, [&](const PendingGoto &X) { return X.Label == Label; });
  if (It != Gotos.end()) {
    Landed = std::move(*It);
    Gotos.erase(It);
  }
  return Landed;
}

Jumps Jumps::join(const Jumps &A, const Jumps &B) {
  auto Either = [](const JumpSet &X, const JumpSet &Y) {
    JumpSet Both = X;
    Both.add(Expr::constant(1), Y);
    if (X.Taken == Y.Taken)
      Both.Taken = X.Taken;
    return Both;
  };
  Jumps J;
  J.Return = Either(A.Return, B.Return);
  J.Break = Either(A.Break, B.Break);
  J.Continue = Either(A.Continue, B.Continue);
  J.Gotos = A.Gotos;
  for (const PendingGoto &G : B.Gotos)
    addGoto(J.Gotos, Expr::constant(1), G);
  return J;
}

void Jumps::add(const Expr &Cond, const Jumps &Inner) {
  Return.add(Cond, Inner.Return);
  Break.add(Cond, Inner.Break);
  Continue.add(Cond, Inner.Continue);
  for (const PendingGoto &G : Inner.Gotos)
    addGoto(Gotos, Cond, G);
}

Expr andAlso(const Expr &A, const Expr &B) {
  if (isTrue(A))
    return B;
  if (isTrue(B))
    return A;
  return Expr::logicalAnd(A, B);
}

Expr orElse(const Expr &A, const Expr &B) {
  if (isFalse(A))
    return B;
  if (isFalse(B))
    return A;
  // The lanes that jumped to a label and those that did not: all of them.
  if (Expr::logicalNot(A) == B || Expr::logicalNot(B) == A)
    return Expr::constant(1);
  return Expr::logicalOr(A, B);
}

void KernelWalker::walkJump(const Stmt *S, Frame &F) {
  JumpSet Here;
  Here.Taken = F.Since;
  if (isa<ReturnStmt>(S)) {
    F.Left.Return.add(Expr::constant(1), Here);
  } else if (isa<ContinueStmt>(S)) {
    // The lanes that continue keep their values here to the pass's end:
    // every statement list the jump leaves joins them at its own end
    // (its statements after the jump do not run for those lanes).
    Here.At.push_back({F.Since, std::make_shared<const Frame>(F)});
    F.Left.Continue.add(Expr::constant(1), Here);
  } else if (const auto *GS = dyn_cast<GotoStmt>(S)) {
    // Forward to a label of an enclosing block, where the lanes that took
    // it resume with the values they have here (StatementList::land).
    PendingGoto G;
    G.Label = GS->getLabel();
    G.Taken = F.Since;
    G.At.push_back({F.Since, std::make_shared<const Frame>(F)});
    addGoto(F.Left.Gotos, Expr::constant(1), G);
  } else if (isa<BreakStmt>(S)) {
    // Leaving a switch: its values here are joined where it ends; leaving
    // a sampled loop's pass: they are the values the lane leaves with.
    if (F.KeepsBreaks)
      Here.At.push_back({F.Since, std::make_shared<const Frame>(F)});
    F.Left.Break.add(Expr::constant(1), Here);
  }
}

void KernelWalker::makeOpaque(const ValueDecl *VD, VarValue &V,
                              const Expr &Active, uint64_t Key,
                              llvm::function_ref<std::string(StringRef)> Why) {
  V.Pointer.reset();
  if (!V.Int)
    return;
  bool Lane = V.Int->isLaneDependent() || Active.isLaneDependent();
  Symbol S{Lane ? SymbolKind::LaneValue : SymbolKind::UniformValue,
           VD->getName().str(), mixKeys(Key, locationKey(VD->getLocation()))};
  if (Lane)
    OpaqueReasons[S] = Why(S.Name);
  V.Int = symbol(S);
}

void KernelWalker::loopedBack(const GotoStmt *GS, Frame &F) {
  // The passes are not followed: what the code from the label to here
  // changed is unknown after it (the lanes that jump back come here again).
  auto Before = LabelFrames.find(GS->getLabel());
  SourceLocation At = toLocation(SM, GS->getBeginLoc());
  for (auto &[VD, V] : F.Env) {
    if (Before != LabelFrames.end())
      if (auto Old = Before->second.Env.find(VD);
          Old != Before->second.Env.end() && sameSlot(Old->second, V))
        continue;
    makeOpaque(VD, V, F.Active, locationKey(GS->getBeginLoc()),
               [&](StringRef Name) {
                 return fmt::format(
                     "{}, changed in the loop the goto at {}:{} makes back "
                     "to label '{}', whose passes are not followed",
                     Name.str(), llvm::sys::path::filename(At.File).str(),
                     At.Line, GS->getLabel()->getName().str());
               });
  }
}

void KernelWalker::leaveLoopByGoto(const PendingGoto &G, const Stmt *Loop,
                                   Frame &F) {
  SourceLocation At = toLocation(SM, Loop->getBeginLoc());
  std::string Where = fmt::format(
      "the loop at {}:{}", llvm::sys::path::filename(At.File).str(), At.Line);
  std::string Label = G.Label->getName().str();
  uint64_t Key = mixKeys(locationKey(Loop->getBeginLoc()),
                         locationKey(G.Label->getLocation()));
  // Which lanes took it (in which pass) is not followed past the loop.
  bool Lane =
      G.Taken.isLaneDependent() || llvm::any_of(G.At, [](const JumpFrame &J) {
        return J.At->Active.isLaneDependent();
      });
  Symbol Took{Lane ? SymbolKind::LaneValue : SymbolKind::UniformValue,
              "goto " + Label, Key};
  if (Lane)
    OpaqueReasons[Took] = fmt::format(
        "which lanes take the goto out of {} to label '{}' (not followed "
        "past the loop)",
        Where, Label);
  // They bring to the label what they had when they took it: the slots the
  // loop leaves as they were are known, the others not.
  auto Exit = std::make_shared<Frame>(F);
  Exit->Active = Expr::logicalAnd(F.Active, symbol(Took));
  Exit->Left = Jumps();
  for (auto &[VD, V] : Exit->Env) {
    if (llvm::all_of(G.At, [&, VD = VD, &V = V](const JumpFrame &J) {
          auto It = J.At->Env.find(VD);
          return It != J.At->Env.end() && sameSlot(It->second, V);
        }))
      continue;
    makeOpaque(VD, V, Exit->Active, Key, [&](StringRef Name) {
      return fmt::format("{}, changed in {}, which a goto to label '{}' "
                         "leaves (the values it leaves with are not followed)",
                         Name.str(), Where, Label);
    });
  }
  PendingGoto Out;
  Out.Label = G.Label;
  Out.Taken = andAlso(F.Since, symbol(Took));
  Out.At.push_back({Out.Taken, std::move(Exit)});
  addGoto(F.Left.Gotos, Expr::constant(1), Out);
}

void KernelWalker::walkCompound(const CompoundStmt *CS, Frame &F) {
  Expr Saved = F.Active;
  // The body of the loop whose accesses are being recorded: a break (or
  // return) that every pass reaches also ends the loop's passes, so later
  // accesses count its trips by that condition (`for (e = 0;; ++e) { if
  // (32 * e >= K) break; ... }`).
  bool LoopBody = !Nest.Bodies.empty() && Nest.Bodies.back().Stmt == CS &&
                  Nest.Enclosing.back().Iter;
  bool EveryPass = true; // No earlier statement may end the pass.
  // A loop's probe or sampled pass walks only the statements that may
  // change what it follows (ProbeSlice.h); a skipped store still makes a
  // new version of memory.
  const LoopNest::Slice *Slice = nullptr;
  if (F.Probe && !Nest.Slices.empty())
    if (auto It = Nest.Slices.find(CS); It != Nest.Slices.end())
      Slice = &It->second;
  StatementList List(F, *this);
  unsigned Index = 0;
  size_t BodyAccesses = Kernel.Accesses.size();
  for (const Stmt *Child : CS->body()) {
    size_t Before = Kernel.Accesses.size();
    if (Slice && !(*Slice->Walk)[Index]) {
      if ((*Slice->Effects)[Index++].MayStore)
        F.Memory = mixKeys(F.Memory, locationKey(Child));
      continue;
    }
    ++Index;
    for (const Stmt *S = Child; const auto *LS = dyn_cast<LabelStmt>(S);
         S = LS->getSubStmt())
      List.land(LS->getDecl());
    List.enter();
    walkStmt(Child, F);
    // `if (cond) return;`, `if (cond) break;`, `if (cond) continue;` (or
    // such a jump anywhere inside the statement) guard the rest of the
    // block with !cond (in this pass of a loop).
    Jumps Taken = List.leave();
    Expr Exits = orElse(Taken.Return.Taken, Taken.Break.Taken);
    if (LoopBody)
      for (const PendingGoto &G : Taken.Gotos)
        if (!labelWithin(G.Label, CS, SM))
          Exits = orElse(Exits, G.Taken); // Out of the loop.
    if (LoopBody && EveryPass && !isFalse(Exits)) {
      Nest.Enclosing.back().Condition = Expr::logicalAnd(
          Nest.Enclosing.back().Condition, Expr::logicalNot(Exits));
      leftBefore(Exits, BodyAccesses, Before, F);
    }
    if (LoopBody && EveryPass)
      EveryPass = !mayEndPass(Child);
  }
  List.finish();
  F.Active = Saved;
}

namespace {
/// Whether \p Cond, once true in a pass of the loop counting \p Iter, is
/// true in every later one: it does not read Iter, or compares with a side
/// that grows with it (`i >= t`), or is an && or || of such conditions.
bool staysTrue(const Expr &Cond, const Symbol &Iter) {
  if (!Cond.anySymbol([&](const Symbol &S) { return S == Iter; }))
    return true;
  switch (Cond.getKind()) {
  case Expr::Kind::Lt:
  case Expr::Kind::Le: {
    // A < B: B - A must not shrink from a pass to the next.
    std::optional<Expr> Step =
        (Cond.operands()[1] - Cond.operands()[0]).linearCoefficient(Iter);
    return Step && Step->asConstant() && *Step->asConstant() >= 0;
  }
  case Expr::Kind::LAnd:
  case Expr::Kind::LOr:
    return llvm::all_of(Cond.operands(),
                        [&](const Expr &E) { return staysTrue(E, Iter); });
  default:
    return false;
  }
}
} // namespace

void KernelWalker::leftBefore(const Expr &Exits, size_t First, size_t Last,
                              Frame &F) {
  const EnclosingLoop &Loop = Nest.Enclosing.back();
  Expr Iter = symbol(*Loop.Iter);
  auto InPass = [&](const Expr &K) {
    return Exits.substitute({{*Loop.Iter, K}});
  };
  // Where no lane left in a pass before this one. A condition the same in
  // every pass, or one that stays true once it holds (`i >= t`): the pass
  // before tells. Else (`i == t % 4`) every earlier pass, where the loop's
  // condition bounds the passes to a few; the statements after the jump
  // then run only there too.
  Expr Stayed =
      Expr::logicalOr(Expr::eq(Iter, Expr::constant(0)),
                      Expr::logicalNot(InPass(Iter - Expr::constant(1))));
  std::optional<int64_t> Passes;
  if (!staysTrue(Exits, *Loop.Iter))
    for (int64_t K = 1; K <= int64_t(MaxLoopSampleCount) && !Passes; ++K)
      if (Nest.Bodies.back()
              .OwnCondition.substitute({{*Loop.Iter, Expr::constant(K)}})
              .asConstant() == 0)
        Passes = K;
  if (Passes) {
    Stayed = Expr::constant(1);
    for (int64_t J = 0; J + 1 < *Passes; ++J)
      Stayed = andAlso(
          Stayed, Expr::logicalOr(Expr::le(Iter, Expr::constant(J)),
                                  Expr::logicalNot(InPass(Expr::constant(J)))));
    F.Active = Expr::logicalAnd(F.Active, Stayed);
  }
  size_t Depth = Nest.Enclosing.size() - 1;
  for (size_t I = First; I < Last; ++I) {
    AccessPattern &P = Kernel.Accesses[I].Pattern;
    P.Active = Expr::logicalAnd(P.Active, Stayed);
    if (Depth < P.Loops.size())
      P.Loops[Depth].Condition =
          Expr::logicalAnd(P.Loops[Depth].Condition, Stayed);
  }
}

void KernelWalker::walkSwitch(const SwitchStmt *SS, Frame &F) {
  if (SS->getInit())
    walkStmt(SS->getInit(), F);
  walkExpr(SS->getCond(), F);
  Frame Body = F;
  Body.KeepsBreaks = true;
  Body.Left.Break = JumpSet();
  std::optional<std::vector<std::pair<Expr, Frame>>> Arms =
      walkSwitchBody(SS, Body);
  std::vector<JumpFrame> Breaks = std::move(Body.Left.Break.At);
  F.Memory = joinMemory(F.Memory, Body.Memory);
  if (Arms) {
    // The arms' labels exclude each other: a value is the one of the arm
    // whose label holds, else what it was (`case 1: s = 32; break; ...`
    // gives `cond == 1 ? 32 : cond == 2 ? 1 : 4`); where a `break` inside
    // an arm's statements held, the value there (after the arm's end, of
    // which it is a part).
    // (Memory was joined over the arms by walkSwitchBody already.)
    uint64_t Memory = F.Memory;
    for (const auto &[Label, Arm] : *Arms)
      mergeBranches(Label, F, Arm, F);
    for (const JumpFrame &Break : Breaks) {
      mergeBranches(Break.At->Active, F, *Break.At, F);
      Memory = joinMemory(Memory, Break.At->Memory);
    }
    F.Memory = Memory;
    // The lanes that returned or continued in an arm leave the code after
    // the switch too; those that broke out resume there.
    Body.Left.Break = F.Left.Break;
    F.Left = Body.Left;
    return;
  }
  // A jump this walk does not model (goto) inside: what the body changed
  // becomes opaque.
  ModificationFinder MF;
  MF.TraverseStmt(const_cast<Stmt *>(SS->getBody()));
  for (const Modification &M : MF.Mods) {
    auto It = F.Env.find(M.Var);
    if (It == F.Env.end())
      continue;
    VarValue V;
    if (It->second.Int)
      V.Int = symbol({SymbolKind::LaneValue, M.Var->getName().str(),
                      mixKeys(locationKey(SS->getBeginLoc()),
                              locationKey(M.Var->getLocation()))});
    F.Env[M.Var] = V;
  }
}

std::optional<std::vector<std::pair<Expr, KernelWalker::Frame>>>
KernelWalker::walkSwitchBody(const SwitchStmt *SS, Frame &F) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(SS->getBody());
  if (!Body) {
    walkStmt(SS->getBody(), F);
    return std::nullopt;
  }
  std::vector<std::pair<Expr, Frame>> Finished;
  bool Modelled = true;
  bool ArmHasStatements = false;
  std::optional<Expr> ArmLabel;
  // Each `case v:` runs where the condition equals v (a label's statements
  // up to the next label or break), `default:` where it equals none of the
  // switch's labels (those after it included).
  Expr Cond = translate(SS->getCond(), F);
  Expr NoCase = Expr::constant(1);
  for (const SwitchCase *SC = SS->getSwitchCaseList(); SC;
       SC = SC->getNextSwitchCase())
    if (const auto *CS = dyn_cast<CaseStmt>(SC))
      if (std::optional<int64_t> V = caseValue(CS, Ctx))
        NoCase = Expr::logicalAnd(NoCase, Expr::ne(Cond, Expr::constant(*V)));
  std::optional<Frame> Arm;
  std::optional<StatementList> List;
  // An arm ends (at a `break` of its own, a label it does not fall into,
  // or the switch's end): its jumps are added to the switch's, its memory
  // joined with the others'.
  // An arm every lane of which jumped away leaves no values of its own
  // (those that broke out left theirs at their `break`), except for the
  // lanes that continue the loop around: their values at the `continue`.
  Jumps Left = F.Left;
  // Where an arm's statements end: its jumps added to the switch's.
  auto CloseList = [&] {
    List->finish();
    Left = Jumps::join(Left, Arm->Left);
  };
  auto EndArm = [&] {
    bool Reached = !List->leftWhole();
    CloseList();
    Reached = Reached || Arm->Left.Continue.any();
    F.Memory = joinMemory(F.Memory, Arm->Memory);
    if (Reached)
      Finished.emplace_back(*ArmLabel, std::move(*Arm));
    Arm.reset();
    List.reset();
  };
  for (const Stmt *Child : Body->body()) {
    const Stmt *Inner = Child;
    std::optional<Expr> Label;
    bool IsLabel = false;
    while (true) {
      if (const auto *CS = dyn_cast<CaseStmt>(Inner)) {
        IsLabel = true;
        // A label that is no constant: its own unknown (two of them are
        // not equal).
        std::optional<int64_t> V = caseValue(CS, Ctx);
        Expr Match = V ? Expr::eq(Cond, Expr::constant(*V))
                       : symbol({SymbolKind::UniformValue, "case",
                                 locationKey(CS->getLHS())});
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
    if (IsLabel) {
      // An arm every lane of which jumped away does not fall through.
      if (Arm && List->leftWhole())
        EndArm();
      if (Arm && ArmHasStatements) {
        // The arm above falls into this label: the code from here runs
        // where either label holds (but not where a lane jumped away), with
        // the values of the path it came by.
        CloseList();
        Frame Entry = under(F, *Label);
        Frame Joined = under(F, Expr::logicalOr(*ArmLabel, *Label));
        if (Arm->Left.any())
          Joined.Active = Expr::logicalAnd(Joined.Active,
                                           Expr::logicalNot(Arm->Left.all()));
        mergeBranches(*ArmLabel, Joined, *Arm, Entry);
        Arm = std::move(Joined);
        ArmLabel = Expr::logicalOr(*ArmLabel, *Label);
      } else {
        if (Arm)
          F.Memory = joinMemory(F.Memory, Arm->Memory);
        Arm = under(F, *Label);
        ArmLabel = Label;
      }
      List.emplace(*Arm, *this);
      ArmHasStatements = false;
    }
    if (isa<BreakStmt>(Inner)) {
      if (Arm)
        EndArm();
      continue;
    }
    if (Arm) {
      Modelled &= !hasUnmodelledJump(Inner, Body, SM);
      ArmHasStatements = true;
      List->enter();
      walkStmt(Inner, *Arm);
      List->leave();
    }
  }
  if (Arm)
    EndArm();
  F.Left = Left;
  if (!Modelled)
    return std::nullopt;
  return Finished;
}

} // namespace frontend
} // namespace coalesce
