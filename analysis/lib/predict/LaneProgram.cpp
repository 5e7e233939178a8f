//===- LaneProgram.cpp - Fast per-lane evaluation of an Expr --------------===//
//
// The simulation evaluates the same address and predicate for every lane of
// every warp of every sample. A LaneProgram splits the expression once into
// lane-free subtrees (evaluated once per sample with Expr::evaluate) and the
// operations above them, which run per lane on plain integers with the same
// C semantics as Expr::evaluate.
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

#include <climits>

namespace coalesce {
namespace predictor {
namespace {

using K = Expr::Kind;

int64_t wrapAdd(int64_t A, int64_t B) {
  return *Expr::applyOperator(K::Add, A, B);
}

int64_t wrapMul(int64_t A, int64_t B) {
  return *Expr::applyOperator(K::Mul, A, B);
}

} // namespace

LaneProgram::LaneProgram(const Expr &E) { Root = compile(E); }

unsigned LaneProgram::add(Node N) {
  Nodes.push_back(std::move(N));
  return Nodes.size() - 1;
}

/// If \p E == C . threadIdx + U with constant C and lane-free U, fills them.
static bool splitAffine(const Expr &E, int64_t (&Coeff)[3], Expr &Uniform) {
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

unsigned LaneProgram::compile(const Expr &E) {
  Node N;
  if (!E.isLaneDependent()) {
    N.Source = E;
    return add(std::move(N));
  }
  if (splitAffine(E, N.Coeff, N.Source)) {
    N.Type = Node::Affine;
    return add(std::move(N));
  }
  if (E.getKind() == K::Symbol) {
    N.Type = Node::Unbound; // A lane value the engine cannot see.
    return add(std::move(N));
  }
  N.Type = Node::Operation;
  N.Op = E.getKind();
  // Lane-free operands of a sum or product fold into one per-sample leaf.
  bool Folds = N.Op == K::Add || N.Op == K::Mul;
  Expr Free = Expr::constant(N.Op == K::Mul ? 1 : 0);
  bool AnyFree = false;
  for (const Expr &Operand : E.operands()) {
    if (Folds && !Operand.isLaneDependent()) {
      Free =
          N.Op == K::Add ? Expr::add(Free, Operand) : Expr::mul(Free, Operand);
      AnyFree = true;
      continue;
    }
    N.Kids.push_back(compile(Operand));
  }
  if (AnyFree) {
    Node Leaf;
    Leaf.Source = Free;
    N.Kids.push_back(add(std::move(Leaf)));
  }
  return add(std::move(N));
}

void LaneProgram::prepare(const Bindings &Sample) {
  for (Node &N : Nodes)
    if (N.Type == Node::Uniform || N.Type == Node::Affine)
      N.Value = N.Source.evaluate(Sample);
}

std::optional<int64_t> LaneProgram::eval(unsigned Index, const Lane &L) const {
  const Node &N = Nodes[Index];
  switch (N.Type) {
  case Node::Uniform:
    return N.Value;
  case Node::Affine:
    if (!N.Value)
      return std::nullopt;
    return wrapAdd(*N.Value, wrapAdd(wrapMul(N.Coeff[0], L.X),
                                     wrapAdd(wrapMul(N.Coeff[1], L.Y),
                                             wrapMul(N.Coeff[2], L.Z))));
  case Node::Unbound:
    return std::nullopt;
  case Node::Operation:
    break;
  }
  switch (N.Op) {
  case K::Add:
  case K::Mul: {
    int64_t Acc = N.Op == K::Add ? 0 : 1;
    for (unsigned Kid : N.Kids) {
      std::optional<int64_t> V = eval(Kid, L);
      if (!V)
        return std::nullopt;
      Acc = N.Op == K::Add ? wrapAdd(Acc, *V) : wrapMul(Acc, *V);
    }
    return Acc;
  }
  case K::Select: {
    std::optional<int64_t> Cond = eval(N.Kids[0], L);
    if (!Cond)
      return std::nullopt;
    return eval(N.Kids[*Cond != 0 ? 1 : 2], L);
  }
  case K::LAnd:
  case K::LOr:
    return Expr::applyLogical(
        N.Op, [&] { return eval(N.Kids[0], L); },
        [&] { return eval(N.Kids[1], L); });
  default:
    break;
  }
  if (N.Kids.size() != 2)
    return std::nullopt;
  std::optional<int64_t> X = eval(N.Kids[0], L);
  if (!X)
    return std::nullopt;
  std::optional<int64_t> Y = eval(N.Kids[1], L);
  if (!Y)
    return std::nullopt;
  return Expr::applyOperator(N.Op, *X, *Y);
}

} // namespace predictor
} // namespace coalesce
