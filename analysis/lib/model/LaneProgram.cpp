//===- LaneProgram.cpp - Fast per-lane evaluation of an Expr --------------===//
//
// The simulation evaluates the same address and predicate for every lane of
// every warp of every sample. A LaneProgram compiles the expression once into
// steps, one per distinct node: those free of lane values run once per sample,
// the others for a whole warp at a time (a loop over 32 plain integers per
// step, with a mask of the lanes whose value is defined), with the same C
// semantics as Expr::evaluate. Expressions built by following a variable
// through loops and branches share subtrees heavily (a loop-carried index
// used on both arms of every select); walking them as trees would cost
// exponential time.
//
// Consecutive samples often change only some lane-free values (a loop
// iteration, not the block). Each lane-free value records the generation
// (prepare() count) at which it last changed, each lane step the latest of
// its inputs', and a warp evaluated by number keeps its rows with the
// generation they were made at: only the stale steps run again. Several
// expressions can share one program (the guard search's comparisons along
// one carried chain).
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace coalesce {
namespace predictor {
namespace {

using K = Expr::Kind;

/// If \p E == C . threadIdx + U with constant C and lane-free U, fills them.
bool splitAffine(const Expr &E, int64_t (&Coeff)[3], Expr &Uniform) {
  std::map<Symbol, Expr> Zero;
  for (unsigned D = 0; D < 3; ++D) {
    std::optional<Expr> C = E.linearCoefficient(Symbol::threadIdx(D));
    std::optional<int64_t> V = C ? C->asConstant() : std::nullopt;
    if (!V)
      return false;
    Coeff[D] = *V;
    Zero[Symbol::threadIdx(D)] = Expr::constant(0);
  }
  Uniform = E.substitute(Zero);
  return !Uniform.isLaneDependent();
}

} // namespace

LaneProgram::LaneProgram(const Expr &E) : LaneProgram(std::vector<Expr>{E}) {}

LaneProgram::LaneProgram(const std::vector<Expr> &Exprs) {
  for (const Expr &E : Exprs)
    Roots.push_back(compile(E));
  if (Roots.empty()) // Nothing to evaluate: a constant 0.
    Roots.push_back(compile(Expr::constant(0)));
  Root = Roots.front();
  Compiled.clear(); // Only needed while compiling.
  // Everything counts as changed at the first sample (generation 1).
  ChangedAt.assign(Values.size(), 1);
  DependsOn.assign(Values.size(), 0);
  for (const std::vector<Step> *Steps : {&UniformSteps, &LaneSteps})
    for (const Step &S : *Steps) {
      uint64_t &Bits = DependsOn[S.Slot];
      if (S.Type == Step::Symbol) {
        auto It = std::find(SymbolBits.begin(), SymbolBits.end(), S.Sym);
        if (It == SymbolBits.end())
          It = SymbolBits.insert(It, S.Sym);
        Bits |= uint64_t(1) << std::min<size_t>(It - SymbolBits.begin(), 63);
      }
      for (unsigned Kid : S.Kids)
        Bits |= DependsOn[Kid];
    }
  for (unsigned I = 0; I < UniformSteps.size(); ++I)
    if (UniformSteps[I].Type == Step::Symbol)
      SymbolSteps.push_back(I);
  Hints.assign(Values.size(), 0);
  std::vector<bool> IsLane(Values.size(), false);
  for (const Step &S : LaneSteps)
    IsLane[S.Slot] = true;
  std::vector<bool> Read(Values.size(), false);
  for (const Step &S : LaneSteps)
    for (unsigned Kid : S.Kids)
      Read[Kid] = true;
  for (unsigned R : Roots)
    Read[R] = true; // atWarp() and rootAt() read the roots' rows.
  for (unsigned Slot = 0; Slot < Values.size(); ++Slot)
    if (Read[Slot] && !IsLane[Slot])
      Broadcast.push_back(Slot);
  // A predicate `c1 && c2 && ...`: its conjuncts, lane-free ones checked by
  // prepare(), the others by atWarp() as soon as their step has run.
  std::vector<int> StepOf(Values.size(), -1);
  for (size_t I = 0; I < LaneSteps.size(); ++I)
    StepOf[LaneSteps[I].Slot] = int(I);
  // (Several roots are all needed: no step may be skipped.)
  std::vector<unsigned> Chain;
  if (Roots.size() == 1)
    Chain.push_back(Root);
  while (!Chain.empty()) {
    unsigned Slot = Chain.back();
    Chain.pop_back();
    if (StepOf[Slot] < 0)
      continue;
    const Step &S = LaneSteps[StepOf[Slot]];
    if (S.Type != Step::Operation || S.Op != K::LAnd)
      continue;
    for (unsigned Kid : S.Kids) {
      if (!IsLane[Kid]) {
        UniformConjuncts.push_back(Kid);
        continue;
      }
      Chain.push_back(Kid);
      if (Kid != Root)
        LaneConjuncts.emplace_back(unsigned(StepOf[Kid]), Kid);
    }
  }
  std::sort(LaneConjuncts.begin(), LaneConjuncts.end());
}

unsigned LaneProgram::emit(Step S, bool PerLane) {
  S.Slot = Values.size();
  Values.emplace_back();
  (PerLane ? LaneSteps : UniformSteps).push_back(std::move(S));
  return Values.size() - 1;
}

unsigned LaneProgram::compile(const Expr &E) {
  auto Done = Compiled.find(E.identity());
  if (Done != Compiled.end())
    return Done->second.second;
  Step S;
  bool PerLane = E.isLaneDependent();
  if (E.isConstant()) {
    S.Value = E.getConstant();
  } else if (E.getKind() == K::Symbol) {
    S.Type = PerLane ? Step::Unbound : Step::Symbol;
    S.Sym = E.getSymbol();
    // threadIdx alone is affine: 1 * threadIdx.d + 0.
    if (S.Sym.Kind == SymbolKind::ThreadIdx) {
      S.Type = Step::Affine;
      S.Coeff[S.Sym.dimension()] = 1;
      S.Kids.push_back(compile(Expr::constant(0)));
    }
  } else if (Expr Uniform; PerLane && splitAffine(E, S.Coeff, Uniform)) {
    S.Type = Step::Affine;
    S.Kids.push_back(compile(Uniform));
  } else {
    S.Type = Step::Operation;
    S.Op = E.getKind();
    // Lane-free operands of a per-lane sum or product fold into one
    // per-sample step.
    bool Folds = PerLane && (S.Op == K::Add || S.Op == K::Mul);
    Step Free;
    Free.Type = Step::Operation;
    Free.Op = S.Op;
    for (const Expr &Operand : E.operands()) {
      unsigned Kid = compile(Operand);
      (Folds && !Operand.isLaneDependent() ? Free.Kids : S.Kids).push_back(Kid);
    }
    if (Free.Kids.size() == 1)
      S.Kids.push_back(Free.Kids.front());
    else if (!Free.Kids.empty())
      S.Kids.push_back(emit(std::move(Free), /*PerLane=*/false));
  }
  unsigned Slot = emit(std::move(S), PerLane);
  // The entry keeps E alive: the node of a temporary (an affine node's
  // lane-free part) must not be freed and its address reused while
  // compiling.
  Compiled.emplace(E.identity(), std::make_pair(E, Slot));
  return Slot;
}

void LaneProgram::prepare(const Bindings &Sample) {
  ++Generation;
  auto Set = [&](const Step &S, std::optional<int64_t> V) {
    if (V == Values[S.Slot])
      return false;
    Values[S.Slot] = V;
    ChangedAt[S.Slot] = Generation;
    return true;
  };
  if (Generation == 1) {
    for (const Step &S : UniformSteps)
      Set(S, S.Type == Step::Constant ? std::optional<int64_t>(S.Value)
             : S.Type == Step::Symbol ? Sample.lookup(S.Sym, Hints[S.Slot])
                                      : apply(S));
  } else {
    // After the first sample only the steps that depend on a symbol whose
    // value changed run again (a ranged loop's walk changes one symbol).
    uint64_t Changed = 0; // DependsOn bits of the symbols that changed.
    for (unsigned I : SymbolSteps) {
      const Step &S = UniformSteps[I];
      if (Set(S, Sample.lookup(S.Sym, Hints[S.Slot])))
        Changed |= DependsOn[S.Slot];
    }
    if (Changed)
      for (unsigned I : stepsAfter(Changed))
        Set(UniformSteps[I], apply(UniformSteps[I]));
  }
  // A lane-free conjunct that is 0 decides the && for every lane (even one
  // whose other operands are undefined): the sample runs no lane.
  ZeroForAll = false;
  for (unsigned Slot : UniformConjuncts)
    ZeroForAll |= Values[Slot] && *Values[Slot] == 0;
}

const std::vector<unsigned> &LaneProgram::stepsAfter(uint64_t Changed) {
  auto [It, New] = Rerun.try_emplace(Changed);
  if (New)
    for (unsigned I = 0; I < UniformSteps.size(); ++I)
      if (UniformSteps[I].Type == Step::Operation &&
          (DependsOn[UniformSteps[I].Slot] & Changed))
        It->second.push_back(I);
  return It->second;
}

uint32_t LaneProgram::atWarp(const std::vector<Lane> &Lanes, int64_t *Out) {
  return evaluate(Scratch, Lanes, Out, /*Keep=*/false);
}

uint32_t LaneProgram::atWarp(unsigned Warp, const std::vector<Lane> &Lanes,
                             int64_t *Out) {
  // Bounded memory: the warps past MaxKeptRowBytes are evaluated afresh.
  size_t RowBytes = Values.size() * (WarpSize * sizeof(int64_t) +
                                     sizeof(uint32_t) + sizeof(uint64_t));
  if ((size_t(Warp) + 1) * RowBytes > MaxKeptRowBytes)
    return evaluate(Scratch, Lanes, Out, /*Keep=*/false);
  if (Warp >= Warps.size())
    Warps.resize(Warp + 1);
  WarpRows &W = Warps[Warp];
  // Lane is plain unsigneds: compared as bytes.
  static_assert(std::is_trivially_copyable_v<Lane> &&
                sizeof(Lane) == 5 * sizeof(unsigned));
  if (W.Lanes.size() != Lanes.size() ||
      std::memcmp(W.Lanes.data(), Lanes.data(),
                  Lanes.size() * sizeof(Lane)) != 0) {
    W.Lanes = Lanes;
    std::fill(W.DoneAt.begin(), W.DoneAt.end(), 0);
  }
  return evaluate(W, Lanes, Out, /*Keep=*/true);
}

uint32_t LaneProgram::evaluate(WarpRows &W, const std::vector<Lane> &Lanes,
                               int64_t *Out, bool Keep) {
  unsigned N = std::min<size_t>(Lanes.size(), WarpSize);
  uint32_t All = N == WarpSize ? ~uint32_t(0) : (uint32_t(1) << N) - 1;
  LastN = N;
  LastDecided = true;
  if (ZeroForAll) {
    std::fill_n(Out, N, 0);
    return All;
  }
  if (W.DoneAt.empty()) {
    W.Rows.resize(Values.size() * WarpSize);
    W.Defined.resize(Values.size());
    W.DoneAt.assign(Values.size(), 0);
  }
  Cur = &W;
  if (Keep && PropagatedAt != Generation) {
    // A lane step's row is stale where an input changed since it was made.
    for (const Step &S : LaneSteps)
      for (unsigned Kid : S.Kids)
        ChangedAt[S.Slot] = std::max(ChangedAt[S.Slot], ChangedAt[Kid]);
    PropagatedAt = Generation;
  }
  // Only the first N lanes of a row are ever read.
  for (unsigned Slot : Broadcast) {
    if (Keep && W.DoneAt[Slot] >= ChangedAt[Slot])
      continue;
    const std::optional<int64_t> &V = Values[Slot];
    W.Defined[Slot] = V ? ~uint32_t(0) : 0;
    std::fill_n(row(Slot), N, V ? *V : 0);
    W.DoneAt[Slot] = Generation;
  }
  for (unsigned I = 0; I < N; ++I) {
    LaneX[I] = Lanes[I].X;
    LaneY[I] = Lanes[I].Y;
    LaneZ[I] = Lanes[I].Z;
  }
  // A conjunct that is 0 for every lane decides the && for all of them:
  // the steps after it are not needed.
  auto Next = LaneConjuncts.begin();
  for (size_t I = 0; I < LaneSteps.size(); ++I) {
    const Step &S = LaneSteps[I];
    if (!Keep || W.DoneAt[S.Slot] < ChangedAt[S.Slot]) {
      applyWarp(S, N);
      W.DoneAt[S.Slot] = Generation;
    }
    for (; Next != LaneConjuncts.end() && Next->first == I; ++Next) {
      const int64_t *C = row(Next->second);
      if ((W.Defined[Next->second] & All) != All ||
          std::any_of(C, C + N, [](int64_t V) { return V != 0; }))
        continue;
      std::fill_n(Out, N, 0);
      return All;
    }
  }
  LastDecided = false;
  std::copy_n(row(Root), N, Out);
  return W.Defined[Root] & All;
}

uint32_t LaneProgram::rootAt(size_t I, int64_t *Out) {
  unsigned N = LastN;
  uint32_t All = N == WarpSize ? ~uint32_t(0) : (uint32_t(1) << N) - 1;
  if (LastDecided) { // Only for a single root: 0, as atWarp() returned.
    std::fill_n(Out, N, 0);
    return All;
  }
  std::copy_n(row(Roots[I]), N, Out);
  return Cur->Defined[Roots[I]] & All;
}

size_t LaneProgram::dependentLaneSteps(const Symbol &S) const {
  auto It = std::find(SymbolBits.begin(), SymbolBits.end(), S);
  if (It == SymbolBits.end())
    return 0;
  uint64_t Bit = uint64_t(1) << std::min<size_t>(It - SymbolBits.begin(), 63);
  return std::count_if(LaneSteps.begin(), LaneSteps.end(), [&](const Step &X) {
    return (DependsOn[X.Slot] & Bit) != 0;
  });
}

std::optional<int64_t> LaneProgram::at(const Lane &L) {
  int64_t V = 0;
  if (!(atWarp({L}, &V) & 1))
    return std::nullopt;
  return V;
}

void LaneProgram::applyWarp(const Step &S, unsigned N) {
  int64_t *Out = row(S.Slot);
  uint32_t &Def = defined(S.Slot);
  switch (S.Type) {
  case Step::Affine: {
    const std::optional<int64_t> &Base = Values[S.Kids[0]];
    Def = Base ? ~uint32_t(0) : 0;
    // Unsigned arithmetic wraps like Expr::evaluate.
    uint64_t B = Base ? uint64_t(*Base) : 0;
    uint64_t CX = S.Coeff[0], CY = S.Coeff[1], CZ = S.Coeff[2];
    for (unsigned I = 0; I < N; ++I)
      Out[I] = int64_t(B + CX * uint64_t(LaneX[I]) + CY * uint64_t(LaneY[I]) +
                       CZ * uint64_t(LaneZ[I]));
    return;
  }
  case Step::Operation:
    break;
  default: // Unbound: a lane value the engine cannot see.
    Def = 0;
    return;
  }
  const unsigned *Kids = S.Kids.data();
  switch (S.Op) {
  case K::Add:
  case K::Mul: {
    bool IsAdd = S.Op == K::Add;
    std::copy_n(row(Kids[0]), N, Out);
    Def = defined(Kids[0]);
    for (size_t J = 1; J < S.Kids.size(); ++J) {
      const int64_t *In = row(Kids[J]);
      Def &= defined(Kids[J]);
      if (IsAdd)
        for (unsigned I = 0; I < N; ++I)
          Out[I] = int64_t(uint64_t(Out[I]) + uint64_t(In[I]));
      else
        for (unsigned I = 0; I < N; ++I)
          Out[I] = int64_t(uint64_t(Out[I]) * uint64_t(In[I]));
    }
    return;
  }
  case K::Select: {
    const int64_t *C = row(Kids[0]), *T = row(Kids[1]), *F = row(Kids[2]);
    uint32_t Taken = 0;
    for (unsigned I = 0; I < N; ++I) {
      bool On = C[I] != 0;
      Out[I] = On ? T[I] : F[I];
      Taken |= uint32_t(On) << I;
    }
    Def = defined(Kids[0]) &
          ((Taken & defined(Kids[1])) | (~Taken & defined(Kids[2])));
    return;
  }
  case K::LAnd:
  case K::LOr: {
    // A defined deciding operand (0 for &&, non-zero for ||) decides alone.
    bool IsAnd = S.Op == K::LAnd;
    const int64_t *X = row(Kids[0]), *Y = row(Kids[1]);
    uint32_t DX = defined(Kids[0]), DY = defined(Kids[1]), Decided = 0;
    for (unsigned I = 0; I < N; ++I) {
      bool XDecides = ((DX >> I) & 1) && ((X[I] != 0) != IsAnd);
      bool YDecides = ((DY >> I) & 1) && ((Y[I] != 0) != IsAnd);
      Decided |= uint32_t(XDecides || YDecides) << I;
      Out[I] = (XDecides || YDecides) ? !IsAnd : IsAnd;
    }
    Def = Decided | (DX & DY);
    return;
  }
  default:
    break;
  }
  const int64_t *X = row(Kids[0]), *Y = row(Kids[1]);
  Def = defined(Kids[0]) & defined(Kids[1]);
  // The operators defined for every pair of operands, one loop each (the
  // comparisons and bitwise operators of select chains).
  auto Each = [&](auto Op) {
    for (unsigned I = 0; I < N; ++I)
      Out[I] = Op(X[I], Y[I]);
  };
  switch (S.Op) {
  case K::Lt:
    return Each([](int64_t A, int64_t B) { return int64_t(A < B); });
  case K::Le:
    return Each([](int64_t A, int64_t B) { return int64_t(A <= B); });
  case K::Eq:
    return Each([](int64_t A, int64_t B) { return int64_t(A == B); });
  case K::Ne:
    return Each([](int64_t A, int64_t B) { return int64_t(A != B); });
  case K::Min:
    return Each([](int64_t A, int64_t B) { return A < B ? A : B; });
  case K::Max:
    return Each([](int64_t A, int64_t B) { return A < B ? B : A; });
  case K::And:
    return Each([](int64_t A, int64_t B) { return A & B; });
  case K::Or:
    return Each([](int64_t A, int64_t B) { return A | B; });
  case K::Xor:
    return Each([](int64_t A, int64_t B) { return A ^ B; });
  default:
    break;
  }
  for (unsigned I = 0; I < N; ++I) {
    std::optional<int64_t> V = Expr::applyOperator(S.Op, X[I], Y[I]);
    Out[I] = V ? *V : 0;
    if (!V)
      Def &= ~(uint32_t(1) << I);
  }
}

std::optional<int64_t> LaneProgram::apply(const Step &S) const {
  auto Get = [&](unsigned I) -> const std::optional<int64_t> & {
    return Values[S.Kids[I]];
  };
  switch (S.Op) {
  case K::Add:
  case K::Mul: {
    int64_t Acc = S.Op == K::Add ? 0 : 1;
    for (unsigned Kid : S.Kids) {
      const std::optional<int64_t> &V = Values[Kid];
      if (!V)
        return std::nullopt;
      Acc = *Expr::applyOperator(S.Op, Acc, *V);
    }
    return Acc;
  }
  case K::Select: {
    const std::optional<int64_t> &Cond = Get(0);
    if (!Cond)
      return std::nullopt;
    return Get(*Cond != 0 ? 1 : 2);
  }
  case K::LAnd:
  case K::LOr:
    return Expr::applyLogical(
        S.Op, [&] { return Get(0); }, [&] { return Get(1); });
  default:
    break;
  }
  if (S.Kids.size() != 2 || !Get(0) || !Get(1))
    return std::nullopt;
  return Expr::applyOperator(S.Op, *Get(0), *Get(1));
}

} // namespace predictor
} // namespace coalesce
