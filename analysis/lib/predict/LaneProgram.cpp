//===- LaneProgram.cpp - Fast per-lane evaluation of an Expr --------------===//
//
// The simulation evaluates the same address and predicate for every lane of
// every warp of every sample. A LaneProgram compiles the expression once into
// steps, one per distinct node: those free of lane values run once per sample,
// the others per lane on plain integers with the same C semantics as
// Expr::evaluate. Expressions built by following a variable through loops and
// branches share subtrees heavily (a loop-carried index used on both arms of
// every select); walking them as trees would cost exponential time.
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

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

LaneProgram::LaneProgram(const Expr &E) {
  Root = compile(E);
  Compiled.clear(); // Only needed while compiling.
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
    return Done->second;
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
  Compiled.emplace(E.identity(), Slot);
  return Slot;
}

void LaneProgram::prepare(const Bindings &Sample) {
  for (const Step &S : UniformSteps) {
    std::optional<int64_t> &V = Values[S.Slot];
    switch (S.Type) {
    case Step::Constant:
      V = S.Value;
      break;
    case Step::Symbol:
      V = Sample.lookup(S.Sym);
      break;
    default:
      V = apply(S);
      break;
    }
  }
}

std::optional<int64_t> LaneProgram::runLane(const Lane &L) {
  for (const Step &S : LaneSteps) {
    std::optional<int64_t> &V = Values[S.Slot];
    switch (S.Type) {
    case Step::Affine: {
      const std::optional<int64_t> &Base = Values[S.Kids[0]];
      V = Base ? std::optional<int64_t>(affine(S, *Base, L)) : std::nullopt;
      break;
    }
    case Step::Operation:
      V = apply(S);
      break;
    default: // Unbound: a lane value the engine cannot see.
      V = std::nullopt;
      break;
    }
  }
  return Values[Root];
}

std::optional<int64_t> LaneProgram::apply(const Step &S) const {
  auto Get = [&](unsigned I) -> const std::optional<int64_t> & {
    return Values[S.Kids[I]];
  };
  switch (S.Op) {
  case K::Add:
  case K::Mul: {
    K Op = S.Op;
    int64_t Acc = Op == K::Add ? 0 : 1;
    for (unsigned Kid : S.Kids) {
      const std::optional<int64_t> &V = Values[Kid];
      if (!V)
        return std::nullopt;
      Acc = *Expr::applyOperator(Op, Acc, *V);
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
