//===- ExprTerms.cpp - The polynomial view of an Expr ---------------------===//
///
/// \file
/// terms()/fromTerms() and the queries built on them (lane split, linear
/// coefficients, coefficient gcd), plus the term <-> node helpers the Add/Mul
/// factories share.
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

#include <algorithm>
#include <cassert>

namespace coalesce {

using K = Expr::Kind;

Term termOf(const Expr &Summand) {
  switch (Summand.getKind()) {
  case K::Constant:
    return {Summand.getConstant(), {}};
  case K::Mul: {
    const std::vector<Expr> &Ops = Summand.operands();
    Term T;
    T.Coeff = 1;
    auto Begin = Ops.begin();
    if (Begin != Ops.end() && Begin->isConstant())
      T.Coeff = (Begin++)->getConstant();
    T.Factors.assign(Begin, Ops.end());
    return T;
  }
  default:
    return {1, {Summand}};
  }
}

void appendSummands(const Expr &E, std::vector<Expr> &Out) {
  if (E.getKind() == K::Add) {
    Out.insert(Out.end(), E.operands().begin(), E.operands().end());
    return;
  }
  if (E.isConstant() && E.getConstant() == 0)
    return;
  Out.push_back(E);
}

Expr buildTerm(int64_t Coeff, std::vector<Expr> Factors) {
  if (Factors.empty() || Coeff == 0)
    return Expr::constant(Factors.empty() ? Coeff : 0);
  // 1*X --> X
  if (Coeff == 1 && Factors.size() == 1)
    return std::move(Factors.front());
  std::vector<Expr> Ops;
  Ops.reserve(Factors.size() + 1);
  // The coefficient comes first; a unit coefficient is left out.
  if (Coeff != 1)
    Ops.push_back(Expr::constant(Coeff));
  for (Expr &F : Factors)
    Ops.push_back(std::move(F));
  return ExprBuilder::makeOp(K::Mul, std::move(Ops));
}

Expr buildSum(std::vector<Term> Terms) {
  std::vector<Expr> Ops;
  Ops.reserve(Terms.size());
  for (Term &T : Terms)
    if (T.Coeff != 0)
      Ops.push_back(buildTerm(T.Coeff, std::move(T.Factors)));
  // Terms in structural order, the constant term last.
  std::sort(Ops.begin(), Ops.end());
  if (!Ops.empty() && Ops.front().isConstant())
    std::rotate(Ops.begin(), Ops.begin() + 1, Ops.end());
  return sumOfSummands(std::move(Ops));
}

Expr sumOfSummands(std::vector<Expr> Summands) {
  if (Summands.empty())
    return Expr::constant(0);
  if (Summands.size() == 1)
    return std::move(Summands.front());
  return ExprBuilder::makeOp(K::Add, std::move(Summands));
}

std::vector<Term> Expr::terms() const {
  std::vector<Expr> Summands;
  appendSummands(*this, Summands);
  std::vector<Term> Out;
  Out.reserve(Summands.size());
  for (const Expr &S : Summands)
    Out.push_back(termOf(S));
  return Out;
}

Expr Expr::fromTerms(const std::vector<Term> &Terms) {
  // Through the factories, so arbitrary (non-canonical) input is accepted.
  Expr Sum = constant(0);
  for (const Term &T : Terms) {
    Expr Product = constant(T.Coeff);
    for (const Expr &F : T.Factors)
      Product = mul(Product, F);
    Sum = add(Sum, Product);
  }
  return Sum;
}

std::pair<Expr, Expr> Expr::splitLaneUniform() const {
  if (!isLaneDependent())
    return {constant(0), *this};
  std::vector<Expr> Summands;
  appendSummands(*this, Summands);
  std::vector<Term> Lane, Uniform;
  for (const Expr &S : Summands)
    (S.isLaneDependent() ? Lane : Uniform).push_back(termOf(S));
  return {buildSum(std::move(Lane)), buildSum(std::move(Uniform))};
}

std::optional<Expr> Expr::linearCoefficient(const Symbol &S) const {
  Expr SymE = symbol(S);
  std::vector<Expr> Summands;
  appendSummands(*this, Summands);
  std::vector<Term> Coeff;
  for (const Expr &Summand : Summands) {
    Term T = termOf(Summand);
    int Occurrences = 0;
    std::vector<Expr> Rest;
    for (Expr &F : T.Factors) {
      if (F == SymE) {
        ++Occurrences;
        continue;
      }
      // S inside an opaque atom: not linear.
      if (F.getKind() != Kind::Symbol && F.symbols().count(S))
        return std::nullopt;
      Rest.push_back(std::move(F));
    }
    // S*S*...: not linear.
    if (Occurrences > 1)
      return std::nullopt;
    if (Occurrences == 1)
      Coeff.push_back({T.Coeff, std::move(Rest)});
  }
  return buildSum(std::move(Coeff));
}

namespace {
uint64_t gcdU64(uint64_t A, uint64_t B) {
  while (B) {
    uint64_t T = A % B;
    A = B;
    B = T;
  }
  return A;
}
uint64_t absU64(int64_t V) {
  return V < 0 ? 0 - static_cast<uint64_t>(V) : static_cast<uint64_t>(V);
}
} // namespace

int64_t Expr::coefficientGcd() const {
  uint64_t G = 0;
  std::vector<Expr> Summands;
  appendSummands(*this, Summands);
  for (const Expr &S : Summands)
    G = gcdU64(G, absU64(termOf(S).Coeff));
  // |INT64_MIN| does not fit: report it as INT64_MIN, the only such case.
  return static_cast<int64_t>(G);
}

} // namespace coalesce
