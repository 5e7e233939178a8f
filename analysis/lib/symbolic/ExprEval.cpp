//===- ExprEval.cpp - Exact evaluation of an Expr with C semantics --------===//
///
/// \file
/// evaluate() walks the nodes recursively with no allocation: it runs once
/// per lane per access in the lane model. Sums and products wrap as the
/// hardware does; everything C leaves undefined and the engine cannot model
/// (division by zero, INT64_MIN / -1, shifts outside [0, 63]) yields
/// nullopt.
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

namespace coalesce {

using K = Expr::Kind;

std::optional<int64_t> evalBinary(K Kind, int64_t A, int64_t B) {
  switch (Kind) {
  case K::Add:
    return wrapAdd(A, B);
  case K::Mul:
    return wrapMul(A, B);
  case K::Div:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return A / B;
  case K::Rem:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return A % B;
  case K::Shl:
    if (B < 0 || B >= 64)
      return std::nullopt;
    return static_cast<int64_t>(static_cast<uint64_t>(A) << B);
  case K::Shr:
    if (B < 0 || B >= 64)
      return std::nullopt;
    // Arithmetic shift (what every C compiler for the GPU and host does).
    return A >> B;
  case K::And:
    return A & B;
  case K::Or:
    return A | B;
  case K::Xor:
    return A ^ B;
  case K::Min:
    return A < B ? A : B;
  case K::Max:
    return A < B ? B : A;
  case K::Lt:
    return A < B ? 1 : 0;
  case K::Le:
    return A <= B ? 1 : 0;
  case K::Eq:
    return A == B ? 1 : 0;
  case K::Ne:
    return A != B ? 1 : 0;
  case K::LAnd:
    return A != 0 && B != 0 ? 1 : 0;
  case K::LOr:
    return A != 0 || B != 0 ? 1 : 0;
  case K::Constant:
  case K::Symbol:
  case K::Select:
    break;
  }
  return std::nullopt;
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

std::optional<int64_t> Expr::evaluate(const Bindings &B) const {
  return evalNode(*N, B);
}

std::optional<int64_t> Expr::applyOperator(Kind K, int64_t A, int64_t B) {
  return evalBinary(K, A, B);
}

} // namespace coalesce
