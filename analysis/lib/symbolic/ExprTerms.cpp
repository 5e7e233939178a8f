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
#include <cstddef>

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

TermView viewTerm(const Expr &Summand) {
  switch (Summand.getKind()) {
  case K::Constant:
    return {Summand.getConstant(), nullptr, 0};
  case K::Mul: {
    const std::vector<Expr> &Ops = Summand.operands();
    size_t First = !Ops.empty() && Ops.front().isConstant() ? 1 : 0;
    return {First ? Ops.front().getConstant() : 1, Ops.data() + First,
            Ops.size() - First};
  }
  default:
    return {1, &Summand, 1};
  }
}

uint64_t monomialHash(const TermView &T) {
  uint64_t H = 0x84222325cbf29ce4ULL;
  for (size_t I = 0; I < T.NumFactors; ++I)
    H ^= T.Factors[I].hash() + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  return H;
}

bool sameMonomial(const TermView &A, const TermView &B) {
  if (A.NumFactors != B.NumFactors)
    return false;
  for (size_t I = 0; I < A.NumFactors; ++I)
    if (A.Factors[I] != B.Factors[I])
      return false;
  return true;
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
  return buildTerm(Coeff, Factors.data(), Factors.size());
}

Expr buildTerm(int64_t Coeff, const Expr *Factors, size_t NumFactors) {
  if (NumFactors == 0 || Coeff == 0)
    return Expr::constant(NumFactors == 0 ? Coeff : 0);
  // 1*X --> X
  if (Coeff == 1 && NumFactors == 1)
    return Factors[0];
  std::vector<Expr> Ops;
  Ops.reserve(NumFactors + 1);
  // The coefficient comes first; a unit coefficient is left out.
  if (Coeff != 1)
    Ops.push_back(Expr::constant(Coeff));
  Ops.insert(Ops.end(), Factors, Factors + NumFactors);
  return ExprBuilder::makeOp(K::Mul, std::move(Ops));
}

Expr buildSum(std::vector<Term> Terms) {
  std::vector<Expr> Ops;
  Ops.reserve(Terms.size());
  for (Term &T : Terms)
    if (T.Coeff != 0)
      Ops.push_back(buildTerm(T.Coeff, std::move(T.Factors)));
  return sortedSum(std::move(Ops));
}

Expr sortedSum(std::vector<Expr> Ops) {
  // Terms in structural order, the constant term last. Distinct terms are
  // totally ordered, so any way of sorting gives this one order; most sums
  // arrive sorted but for a few terms at the end (a sum plus a term), which
  // are inserted by binary search instead of sorting everything again.
  auto Const = std::find_if(Ops.begin(), Ops.end(),
                            [](const Expr &E) { return E.isConstant(); });
  auto End = Ops.end();
  if (Const != End) {
    std::rotate(Const, Const + 1, End);
    --End;
  }
  constexpr ptrdiff_t MaxInserted = 4;
  auto Sorted = std::is_sorted_until(Ops.begin(), End);
  if (End - Sorted > MaxInserted) {
    std::sort(Sorted, End);
    std::inplace_merge(Ops.begin(), Sorted, End);
  } else {
    for (auto It = Sorted; It != End; ++It)
      std::rotate(std::upper_bound(Ops.begin(), It, *It), It, It + 1);
  }
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
  std::vector<Expr> Summands;
  appendSummands(*this, Summands);
  std::vector<Term> Coeff;
  for (const Expr &Summand : Summands) {
    Term T = termOf(Summand);
    int Occurrences = 0;
    std::vector<Expr> Rest;
    for (Expr &F : T.Factors) {
      if (F.getKind() == Kind::Symbol && F.getSymbol() == S) {
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
