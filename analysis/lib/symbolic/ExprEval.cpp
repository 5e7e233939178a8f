//===- ExprEval.cpp - Exact evaluation of an Expr with C semantics --------===//
///
/// \file
/// evaluate() walks the nodes recursively with no allocation; an expression
/// whose tree form is large (shared subtrees) evaluates each distinct node
/// once instead. Sums and products wrap as the
/// hardware does; everything C leaves undefined and the engine cannot model
/// (division by zero, INT64_MIN / -1, shifts outside [0, 63]) yields
/// nullopt.
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

#include <unordered_map>
#include <vector>

namespace coalesce {

using K = Expr::Kind;

std::optional<int64_t> evalBinary(K Kind, int64_t A, int64_t B) {
  return Expr::applyOperator(Kind, A, B);
}

namespace {

std::optional<int64_t> evalNode(const Expr::Node &N, const Bindings &B) {
  auto Eval = [&B](const Expr &E) { return evalNode(ExprBuilder::node(E), B); };
  switch (N.K) {
  case K::Constant:
    return N.Value;
  case K::Symbol:
    return B.lookup(N.Sym);
  case K::Add: {
    int64_t Sum = 0;
    for (const Expr &Op : N.Ops) {
      std::optional<int64_t> V = Eval(Op);
      if (!V)
        return std::nullopt;
      Sum = wrapAdd(Sum, *V);
    }
    return Sum;
  }
  case K::Mul: {
    int64_t Product = 1;
    for (const Expr &Op : N.Ops) {
      std::optional<int64_t> V = Eval(Op);
      if (!V)
        return std::nullopt;
      Product = wrapMul(Product, *V);
    }
    return Product;
  }
  case K::Select: {
    // Only the chosen arm is evaluated, as in C.
    std::optional<int64_t> C = Eval(N.Ops[0]);
    if (!C)
      return std::nullopt;
    return Eval(N.Ops[*C != 0 ? 1 : 2]);
  }
  case K::LAnd:
  case K::LOr:
    return Expr::applyLogical(N.K, [&] { return Eval(N.Ops[0]); },
                              [&] { return Eval(N.Ops[1]); });
  default:
    break;
  }
  std::optional<int64_t> X = Eval(N.Ops[0]);
  if (!X)
    return std::nullopt;
  std::optional<int64_t> Y = Eval(N.Ops[1]);
  if (!Y)
    return std::nullopt;
  return evalBinary(N.K, *X, *Y);
}

} // namespace

namespace {
/// evalNode() for expressions whose tree form is large: each distinct node
/// is evaluated once (\p Memo), so shared subtrees cost once, not once per
/// path. Eager on every operand; the C semantics are kept because undefined
/// operands travel as nullopt and only the chosen or deciding ones count.
std::optional<int64_t>
evalShared(const Expr &E, const Bindings &B,
           std::unordered_map<const void *, std::optional<int64_t>> &Memo) {
  const Expr::Node &N = ExprBuilder::node(E);
  if (N.K == K::Constant)
    return N.Value;
  if (N.K == K::Symbol)
    return B.lookup(N.Sym);
  auto It = Memo.find(&N);
  if (It != Memo.end())
    return It->second;
  std::vector<std::optional<int64_t>> Ops;
  Ops.reserve(N.Ops.size());
  for (const Expr &Op : N.Ops)
    Ops.push_back(evalShared(Op, B, Memo));
  std::optional<int64_t> R;
  switch (N.K) {
  case K::Add:
  case K::Mul: {
    int64_t Acc = N.K == K::Add ? 0 : 1;
    bool Defined = true;
    for (const std::optional<int64_t> &V : Ops) {
      if (!V) {
        Defined = false;
        break;
      }
      Acc = N.K == K::Add ? wrapAdd(Acc, *V) : wrapMul(Acc, *V);
    }
    if (Defined)
      R = Acc;
    break;
  }
  case K::Select:
    R = Ops[0] ? Ops[*Ops[0] != 0 ? 1 : 2] : std::nullopt;
    break;
  case K::LAnd:
  case K::LOr:
    R = Expr::applyLogical(N.K, [&] { return Ops[0]; },
                           [&] { return Ops[1]; });
    break;
  default:
    R = Ops[0] && Ops[1] ? evalBinary(N.K, *Ops[0], *Ops[1]) : std::nullopt;
    break;
  }
  Memo.emplace(&N, R);
  return R;
}
} // namespace

namespace {
/// Tree size from which evaluate() walks the DAG through a memo. The plain
/// recursion allocates nothing; it is the fast path for the small
/// expressions that dominate.
constexpr size_t SharedWalkFrom = 512;
} // namespace

size_t Expr::evaluationCost() const {
  return N->TreeSize < SharedWalkFrom ? N->TreeSize
                                      : 16 * distinctNodes(SIZE_MAX);
}

std::optional<int64_t> Expr::evaluate(const Bindings &B) const {
  if (N->TreeSize < SharedWalkFrom)
    return evalNode(*N, B);
  std::unordered_map<const void *, std::optional<int64_t>> Memo;
  return evalShared(*this, B, Memo);
}


} // namespace coalesce
