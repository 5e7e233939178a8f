//===- LoopCarried.cpp - Values a loop carries from one iteration on ------===//
//
// A slot a loop changes other than by a syntactic induction step (`i += s`)
// is followed leaf by leaf (LeafPath: an integer, a pointer's offset, the
// fields of an object, of its fields, ...):
//   1. one probed pass of the body with every leaf of every changed slot a
//      fresh symbol tells what one pass adds; a loop-invariant, warp-uniform
//      difference is a step and the leaf is start + step * iter;
//   2. a leaf without such a closed form (`last += stride; if (last == end)
//      { last -= 2 * stride; stride = -stride; }`, strides swapped under a
//      per-lane condition) is evaluated exactly: the body is applied to the
//      entry state once per sampled iteration, each pass building on the
//      Expr values of the one before (shared subtrees, no re-translation),
//      and the leaf at iteration k is select(iter == 0, V0, select(iter == 1,
//      V1, ...)); the loop is then sampled over those iterations;
//   3. a leaf whose samples grow past MaxCarriedNodes distinct nodes, or
//      that cannot be sampled, becomes an opaque symbol whose reason is kept
//      for the accesses that use it.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
using LeafKey = std::pair<const ValueDecl *, LeafPath>;

/// The assigned value on path \p P of \p V (fields as held, not by name);
/// null when not there.
const VarValue *slotIn(const VarValue &V, const LeafPath &P) {
  const VarValue *Slot = &V;
  for (const FieldDecl *FD : P.Fields) {
    if (!Slot->Object)
      return nullptr;
    const VarValue *Next = nullptr;
    for (const auto &[Field, Value] : Slot->Object->Fields)
      if (Field == FD)
        Next = &Value;
    if (!Next)
      return nullptr;
    Slot = Next;
  }
  return Slot;
}

/// The allocation a pointer leaf of \p V points into ("" for an integer
/// leaf or no pointer).
std::string leafBase(const VarValue &V, const LeafPath &P) {
  const VarValue *Slot = P.Pointer ? slotIn(V, P) : nullptr;
  return Slot && Slot->Pointer ? Slot->Pointer->BaseName : "";
}

/// The byte offset every sampled value of pointer leaf \p P holds into its
/// allocation (whichever it is), when that is one constant.
std::optional<int64_t> sameConstantOffset(const std::vector<VarValue> &Samples,
                                          const LeafPath &P) {
  std::optional<int64_t> Same;
  for (const VarValue &S : Samples) {
    const VarValue *Slot = slotIn(S, P);
    if (!Slot || !Slot->Pointer)
      return std::nullopt;
    std::optional<int64_t> C = Slot->Pointer->ByteOffset.asConstant();
    if (!C || (Same && *Same != *C))
      return std::nullopt;
    Same = C;
  }
  return Same;
}

/// A pointer whose passes move it from one allocation to another
/// (worklists swapped at the end of each pass: `tmp = in; in = out; out =
/// tmp;`): at iteration k, the k-th of \p Samples (the last from then on),
/// joined as paths join pointers (joinPointers); nullopt when the samples
/// all point into one allocation (their offsets are the leaf's values) or
/// do not join.
std::optional<PointerValue>
alternatingPointer(const std::vector<VarValue> &Samples,
                   llvm::function_ref<Expr()> Iter) {
  if (Samples.size() < 2)
    return std::nullopt;
  std::vector<std::string> Bases;
  for (const VarValue &S : Samples) {
    if (!S.Pointer || S.Object)
      return std::nullopt;
    if (!llvm::is_contained(Bases, S.Pointer->BaseName))
      Bases.push_back(S.Pointer->BaseName);
  }
  if (Bases.size() < 2)
    return std::nullopt;
  std::string Name = llvm::join(Bases, " or ");
  Expr I = Iter();
  std::optional<PointerValue> R = Samples.back().Pointer;
  for (size_t K = Samples.size() - 1; R && K-- > 0;)
    R = joinPointers(Expr::eq(I, Expr::constant(int64_t(K))),
                     *Samples[K].Pointer, *R, Name);
  return R;
}

} // namespace

void KernelWalker::probeSteps(
    const Stmt *Body, const clang::Expr *Inc, const Frame &F,
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars,
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Carried, unsigned LoopId,
    CarriedState &Out) {
  // Nested probes multiply the work: only the two innermost levels probe.
  if (Vars.empty() || Nest.ProbeDepth >= 2)
    return;
  Out.Probed = true;
  // Every leaf of every slot the body may change (induction variables too,
  // so that a difference using one is not mistaken for a step) gets a fresh
  // symbol; one walk of the body (recording nothing) tells what it becomes.
  // A fresh symbol varies across the warp when the value it replaces does,
  // so that what is loaded through it stays a gather.
  Frame Probe = F;
  Probe.Probe = true;
  std::set<Symbol> Fresh;
  std::map<LeafKey, Expr> Starts;
  for (const ValueDecl *VD : Vars) {
    auto It = Probe.Env.find(VD);
    if (It == Probe.Env.end())
      continue;
    std::string Name = VD->getName().str();
    It->second = mapLeaves(
        It->second,
        [&](const LeafPath &P, const Expr &E) -> std::optional<Expr> {
          Symbol S{E.isLaneDependent() ? SymbolKind::LaneValue
                                       : SymbolKind::UniformValue,
                   fmt::format("@{}{}#{}", P.name(Name), P.Pointer ? "*" : "",
                               LoopId)};
          Fresh.insert(S);
          Expr X = symbol(S);
          Starts.emplace(LeafKey{VD, P}, X);
          return X;
        });
  }
  ++Nest.ProbeDepth;
  walkStmt(Body, Probe);
  if (Inc)
    walkExpr(Inc, Probe);
  --Nest.ProbeDepth;

  // Leaves the pass leaves unchanged are loop-invariant: their fresh symbols
  // stand for their values at the loop's entry (`last += stride` steps by
  // the entry value of `stride`).
  std::map<Symbol, Expr> Invariant;
  for (const auto &[Key, Start] : Starts) {
    auto A = Probe.Env.find(Key.first);
    auto E = F.Env.find(Key.first);
    if (A == Probe.Env.end() || E == F.Env.end())
      continue;
    std::string Base = leafBase(E->second, Key.second);
    std::optional<Expr> After = leafValue(A->second, Key.second, Base);
    std::optional<Expr> Entry = leafValue(E->second, Key.second, Base);
    if (After && Entry && *After == Start)
      Invariant.emplace(Start.getSymbol(), *Entry);
  }
  auto IsFresh = [&](const Symbol &S) { return Fresh.count(S) != 0; };
  // A step is what the pass added, free of every fresh symbol and the same
  // for the whole warp. Leaves the pass assigns first (a field read by its
  // name until then) start from their entry value.
  for (const ValueDecl *VD : Carried) {
    auto A = Probe.Env.find(VD);
    auto E = F.Env.find(VD);
    if (A == Probe.Env.end() || E == F.Env.end())
      continue;
    std::vector<LeafPath> &Leaves = Out.Leaves[VD];
    forEachLeaf(A->second, [&](const LeafPath &P, const VarValue &Slot) {
      Leaves.push_back(P);
      LeafKey Key{VD, P};
      std::string Base = leafBase(E->second, P);
      if (P.Pointer && Slot.Pointer->BaseName != Base)
        return; // Points elsewhere after a pass: no closed form.
      const Expr &After = P.Pointer ? Slot.Pointer->ByteOffset : *Slot.Int;
      if (After.isLaneDependent())
        Out.Lane.insert(Key);
      if (!P.Pointer && After.isIndirect())
        Out.Data.insert(Key);
      std::optional<Expr> Start;
      if (auto S = Starts.find(Key); S != Starts.end())
        Start = S->second;
      else
        Start = leafValue(E->second, P, Base);
      if (!Start)
        return;
      Expr D = (After - *Start).substitute(Invariant);
      if (!D.anySymbol(IsFresh) && !D.isLaneDependent())
        Out.Steps.emplace(Key, D);
    });
  }
}

bool KernelWalker::halvesLaneBits(const clang::Expr *Inc, const Frame &F) {
  const auto *BO =
      Inc ? dyn_cast<BinaryOperator>(Inc->IgnoreParenImpCasts()) : nullptr;
  if (!BO)
    return false;
  std::optional<int64_t> By = translate(BO->getRHS(), F).asConstant();
  BinaryOperatorKind Op = BO->getOpcode();
  if (!(((Op == BO_ShrAssign || Op == BO_ShlAssign) && By == 1) ||
        ((Op == BO_DivAssign || Op == BO_MulAssign) && By == 2)))
    return false;
  std::optional<int64_t> Now = translate(BO->getLHS(), F).asConstant();
  return Now && *Now >= 1 && *Now <= int64_t(WarpSize) &&
         llvm::isPowerOf2_64(*Now);
}

void KernelWalker::sampleIterations(
    const Stmt *Body, const clang::Expr *Cond, const clang::Expr *Inc,
    const Frame &F, const llvm::SmallPtrSetImpl<const ValueDecl *> &Vars,
    const llvm::SmallPtrSetImpl<const ValueDecl *> &Carried,
    const LoopEnds &Ends, CarriedState &Out) {
  // Inside another loop's probe or samples only a loop of known, fixed trip
  // count (its condition a constant after every pass, `for (r = 2; r < 2 +
  // WIN; r += 2)`) is followed, to its end, and only MaxNestedSampling levels
  // deep: the work is at most MaxLoopSampleCount^levels passes.
  // A butterfly over the lanes of a warp (`for (o = 16; o > 0; o >>= 1)`,
  // WarpReduction.h), at most six passes, is followed at any depth.
  bool Nested = Nest.ProbeDepth > 0;
  if (Nest.ProbeDepth > MaxNestedSampling && !halvesLaneBits(Inc, F)) {
    Out.EndUnknown = fmt::format(
        "its passes are not followed inside the passes of {} enclosing loops",
        Nest.ProbeDepth);
    return;
  }
  // Leaves whose change has no closed form and is not data.
  std::map<const ValueDecl *, std::vector<LeafPath>> Open;
  for (const ValueDecl *VD : Carried) {
    auto It = F.Env.find(VD);
    if (It == F.Env.end())
      continue;
    forEachLeaf(It->second, [&](const LeafPath &P, const VarValue &) {
      LeafKey Key{VD, P};
      if (!Out.Steps.count(Key) && !Out.Data.count(Key))
        Open[VD].push_back(P);
    });
  }
  // (A loop that may break is followed for its exit values all the same.)
  if (Open.empty() && !Ends.Break)
    return;
  // Nested, only a loop whose condition is a known constant after every
  // pass is followed: one not known on entry (`j < max_degree`) is not.
  if (Nested && Cond && !translate(Cond, F).asConstant())
    return;
  // Apply the body to the entry state once per sampled iteration, recording
  // nothing, and keep each slot's value after each pass. A pass after which
  // the loop condition is false for every lane ends the sampling. A loop
  // whose condition is still a known constant after LoopSampleCount passes
  // (`for (j = 0; j < 13; j++)` choosing a stage per iteration) is followed
  // to its end, up to MaxLoopSampleCount passes.
  Frame P = F;
  P.Probe = true;
  for (const auto &[VD, Leaves] : Open)
    Out.Samples[VD].push_back(P.Env.find(VD)->second);
  // Where a break may end a pass, each lane leaves with the values it had
  // at its break, or after the pass whose end its condition failed at:
  // Held has them for the lanes Gone so far; P walks on for all lanes (the
  // lanes still in the loop are the ones its samples are read for).
  std::optional<Frame> Held;
  Expr Gone = Expr::constant(0);
  if (Ends.Break) {
    P.KeepsBreaks = true;
    Held = P;
    if (Cond && !Ends.CondAfterBody)
      Gone = Expr::logicalNot(translate(Cond, P));
  }
  bool CanExit = !Ends.Other;
  ++Nest.ProbeDepth;
  bool CondKnown = true;
  for (unsigned K = 1; K < MaxLoopSampleCount; ++K) {
    if (K >= LoopSampleCount && !CondKnown)
      break;
    P.Left = Jumps(); // Each pass from no jump (its breaks for holdExits).
    walkStmt(Body, P);
    if (Inc)
      walkExpr(Inc, P);
    CondKnown = false;
    std::optional<int64_t> C;
    if (Cond)
      CondKnown = (C = translate(Cond, P).asConstant()).has_value();
    if (Held)
      Gone = holdExits(*Held, Gone, P,
                       Cond ? translate(Cond, P) : Expr::constant(1));
    if (Held && Ends.OnePass)
      Gone = Expr::constant(1); // Whatever the breaks' conditions fold to.
    if ((C && *C == 0) || (Held && Gone.asConstant().value_or(0) != 0)) {
      Out.Iterations = K;
      Out.Ended = true;
      Frame &End = Held ? *Held : P;
      if (CanExit && Nested && !F.records()) {
        // walkLoop takes the whole state: nothing else is needed.
        End.KeepsBreaks = false;
        End.Left.Break.At.clear();
        Out.ExitFrame = std::make_shared<Frame>(std::move(End));
      } else if (CanExit) {
        Out.Exit.emplace();
        for (const ValueDecl *VD : Vars)
          if (auto It = End.Env.find(VD); It != End.Env.end())
            Out.Exit->try_emplace(VD, It->second);
      }
      break;
    }
    if (Nested && !CondKnown)
      break;
    bool AnyLeft = false;
    for (const auto &[VD, Leaves] : Open) {
      auto It = P.Env.find(VD);
      std::vector<VarValue> &Values = Out.Samples[VD];
      Values.push_back(It != P.Env.end() ? It->second : VarValue());
      // Bounded size: a leaf whose values so far exceed the cap (shared
      // subtrees counted once) is given up.
      for (const LeafPath &Leaf : Leaves) {
        LeafKey Key{VD, Leaf};
        if (Out.TooLarge.count(Key))
          continue;
        std::string Base = leafBase(Values.front(), Leaf);
        std::vector<Expr> Exprs;
        for (const VarValue &V : Values)
          if (std::optional<Expr> E = leafValue(V, Leaf, Base))
            Exprs.push_back(*E);
        if (Expr::distinctNodes(Exprs, MaxCarriedNodes + 1) > MaxCarriedNodes)
          Out.TooLarge.insert(Key);
        else
          AnyLeft = true;
      }
    }
    bool Follows = AnyLeft;
    if (Held) {
      // The exit values, bounded like the samples.
      std::vector<Expr> Exprs;
      for (const ValueDecl *VD : Vars)
        if (auto It = Held->Env.find(VD); It != Held->Env.end())
          forEachLeaf(It->second, [&](const LeafPath &P, const VarValue &V) {
            Exprs.push_back(P.Pointer ? V.Pointer->ByteOffset : *V.Int);
          });
      if (Expr::distinctNodes(Exprs, MaxCarriedNodes + 1) > MaxCarriedNodes) {
        Held.reset();
        CanExit = false;
      } else {
        AnyLeft = true;
      }
    }
    if (!AnyLeft)
      break;
    if (K >= LoopSampleCount && Follows)
      Out.Iterations = K + 1; // Iterations 0..K sampled.
  }
  --Nest.ProbeDepth;
  if (Nested && !Out.Ended) {
    // Not followed to a known end: as if not sampled.
    Out.Samples.clear();
    Out.Iterations = LoopSampleCount;
  }
}

Expr KernelWalker::holdExits(Frame &Held, const Expr &Gone, const Frame &P,
                             const Expr &Cond) {
  // The values this pass leaves: at the break a lane took, else at its end.
  Frame Left = P;
  Expr Broke = Expr::constant(0);
  for (const JumpFrame &B : P.Left.Break.At) {
    mergeBranches(B.At->Active, Left, *B.At, Left);
    Broke = orElse(Broke, B.At->Active);
  }
  // The lanes gone before keep theirs.
  mergeBranches(Gone, Held, Held, Left);
  return orElse(Gone, orElse(Broke, Expr::logicalNot(Cond)));
}

VarValue KernelWalker::carriedValue(const ValueDecl *VD, const VarValue &Entry,
                                    const CarriedState &State,
                                    llvm::function_ref<Expr()> Iter,
                                    clang::SourceLocation Loop, bool Host,
                                    bool &UsedSamples) {
  std::string Name = VD->getName().str();
  auto SI = State.Samples.find(VD);
  // (In host code only the offset matters to a launch: see below.)
  if (SI != State.Samples.end() && !Host)
    if (std::optional<PointerValue> J = alternatingPointer(SI->second, Iter)) {
      VarValue V = Entry;
      V.Pointer = std::move(J);
      UsedSamples = true;
      return V;
    }
  SourceLocation At = toLocation(SM, Loop);
  std::string Where = fmt::format(
      "loop at {}:{}", llvm::sys::path::filename(At.File).str(), At.Line);
  return mapLeaves(Entry, [&](const LeafPath &P,
                              const Expr &Start) -> std::optional<Expr> {
    LeafKey Key{VD, P};
    if (auto St = State.Steps.find(Key); St != State.Steps.end())
      return Start + St->second * Iter();
    if (!P.Pointer && State.Data.count(Key))
      return symbol({SymbolKind::IndirectValue, P.name(Name)});
    std::string Why;
    if (State.TooLarge.count(Key)) {
      Why = fmt::format("its values over the first {} iterations exceed {} "
                        "expression nodes",
                        State.Iterations, MaxCarriedNodes);
    } else if (SI == State.Samples.end()) {
      Why = Nest.ProbeDepth > 0
                ? "it is not sampled inside another loop's samples"
                : "it is not sampled in loops nested this deep";
    } else {
      // Iteration k holds the value after k passes; the last sample holds
      // from then on (the loop is sampled over these iterations only).
      std::string Base = leafBase(Entry, P);
      std::vector<Expr> Values;
      for (const VarValue &S : SI->second)
        if (std::optional<Expr> V = leafValue(S, P, Base))
          Values.push_back(*V);
      if (Values.size() == SI->second.size()) {
        Expr I = Iter();
        Expr R = Values.back();
        for (size_t K = Values.size() - 1; K-- > 0;)
          R = Expr::select(Expr::eq(I, Expr::constant(int64_t(K))),
                           Values[K], R);
        UsedSamples = true;
        return R;
      }
      // Host ping-pong buffers (cuda-samples FDTD3d: `tmp = dst; dst = src;
      // src = tmp` after each launch, both `alloc + padding`): the
      // allocation alternates, the offset into it does not. Only the offset
      // matters to the launch (the alignment it gives the kernel's pointer).
      if (Host && P.Pointer)
        if (std::optional<int64_t> Same = sameConstantOffset(SI->second, P))
          return Expr::constant(*Same);
      Why = "a pass of the loop body leaves it unknown";
    }
    if (P.Pointer)
      return std::nullopt; // A pointer nobody can follow: unknown.
    bool Lane = Start.isLaneDependent() || State.Lane.count(Key);
    Symbol S{Lane ? SymbolKind::LaneValue : SymbolKind::UniformValue,
             P.name(Name)};
    if (Lane) {
      OpaqueReasons[S] = fmt::format(
          "{}, a value carried by the {} without a closed form: {}", S.Name,
          Where, Why);
      recordOpaqueInputs(OpaqueInputs, S, State, LoadAddressOf);
    }
    return symbol(S);
  });
}

VarValue KernelWalker::valueAfterLoop(const ValueDecl *VD,
                                      const VarValue &AtIter,
                                      const CarriedState &State,
                                      const std::optional<Expr> &Iter,
                                      const std::optional<Expr> &End,
                                      clang::SourceLocation Loop) {
  if (State.Exit)
    if (auto It = State.Exit->find(VD); It != State.Exit->end())
      return It->second;
  std::string Name = VD->getName().str();
  SourceLocation At = toLocation(SM, Loop);
  std::map<Symbol, Expr> AtEnd;
  if (Iter && End)
    AtEnd.emplace(Iter->getSymbol(), *End);
  auto Opaque = [&](const LeafPath &P, const Expr &E) -> std::optional<Expr> {
    if (P.Pointer)
      return std::nullopt;
    // What a loop computed from data (a binary search's position) is data.
    if (E.isIndirect())
      return symbol({SymbolKind::IndirectValue, P.name(Name)});
    bool Lane = E.isLaneDependent();
    Symbol S{Lane ? SymbolKind::LaneValue : SymbolKind::UniformValue,
             P.name(Name)};
    // The passes were followed until the values grew too large, or the
    // number of passes is not known.
    std::string Why =
        State.TooLarge.count({VD, P})
            ? fmt::format("its values over the first {} iterations exceed {} "
                          "expression nodes",
                          State.Iterations, MaxCarriedNodes)
        : !State.EndUnknown.empty() ? State.EndUnknown
                                    : "the trip count is not known";
    if (Lane) {
      OpaqueReasons[S] =
          fmt::format("{}, its value after the loop at {}:{} ({})", S.Name,
                      llvm::sys::path::filename(At.File).str(), At.Line, Why);
      recordOpaqueInputs(OpaqueInputs, S, State, LoadAddressOf);
    }
    return symbol(S);
  };
  if (!State.Probed) {
    // Nothing is known of what the loop changed.
    VarValue V = AtIter;
    if (V.Int)
      V.Int = Opaque(LeafPath(), *V.Int);
    V.Pointer.reset();
    if (V.Object)
      V.Object = std::make_shared<ObjectValue>();
    return V;
  }
  // Per leaf: unchanged by the loop, at the known end of a closed form, or
  // unknown.
  return mapLeaves(AtIter, [&](const LeafPath &P,
                               const Expr &E) -> std::optional<Expr> {
    auto St = State.Steps.find({VD, P});
    if (St != State.Steps.end()) {
      if (St->second.isConstant() && St->second.getConstant() == 0)
        return E;
      if (!AtEnd.empty())
        return E.substitute(AtEnd);
    }
    return Opaque(P, E);
  });
}

} // namespace frontend
} // namespace coalesce
