//===- ExprPolyFold.cpp - Folding factories for sums, products, / % << >> -===//
///
/// \file
/// The factories that keep the polynomial part canonical: flattened n-ary
/// Add and Mul, like terms combined, products distributed over sums, and
/// division and shifts by constants folded where they are exact.
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace coalesce {

using K = Expr::Kind;

namespace {

/// Orders monomials (sorted factor lists) lexicographically.
struct MonomialLess {
  bool operator()(const std::vector<Expr> &A,
                  const std::vector<Expr> &B) const {
    return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end());
  }
};
using PolyMap = std::map<std::vector<Expr>, int64_t, MonomialLess>;

Expr fromPolyMap(PolyMap &Poly) {
  std::vector<Term> Terms;
  Terms.reserve(Poly.size());
  for (auto &[Factors, Coeff] : Poly)
    if (Coeff != 0)
      Terms.push_back({Coeff, Factors});
  return buildSum(std::move(Terms));
}

/// The terms of a sum being formed, like terms combined as they arrive
/// (into the first one's factors, as the polynomial map keeps its first
/// key), read in place from the summands: add()'s polynomial map without
/// its ordered tree of copied factor lists. build() gives what
/// fromPolyMap() gives for the same summands.
class TermCollector {
public:
  /// Adds the summands of the canonical \p E, which must outlive this.
  void add(const Expr &E) {
    if (E.getKind() == K::Add) {
      for (const Expr &S : E.operands())
        addSummand(S);
      return;
    }
    if (!isConstantValue(E, 0))
      addSummand(E);
  }
  /// add() for the first operand: the terms of a canonical sum have
  /// distinct monomials, so none is looked up.
  void addFirst(const Expr &E) {
    if (E.getKind() != K::Add) {
      add(E);
      return;
    }
    Entries.reserve(E.operands().size() + 1);
    for (const Expr &S : E.operands()) {
      TermView T = viewTerm(S);
      Entries.push_back({T, monomialHash(T), NoEntry});
    }
  }

  /// The canonical sum of the non-zero terms.
  Expr build() const {
    std::vector<Expr> Ops;
    Ops.reserve(Entries.size());
    for (const Entry &E : Entries)
      if (E.View.Coeff != 0)
        Ops.push_back(
            buildTerm(E.View.Coeff, E.View.Factors, E.View.NumFactors));
    return sortedSum(std::move(Ops));
  }

private:
  struct Entry {
    TermView View;
    uint64_t Hash = 0;
    /// The next entry with the same hash (in ByHash's chain), or NoEntry.
    size_t Next = 0;
  };
  static constexpr size_t NoEntry = SIZE_MAX;
  /// Below this many terms a linear search of the hashes beats building a
  /// hash table.
  static constexpr size_t LinearLimit = 64;

  void addSummand(const Expr &S) {
    TermView T = viewTerm(S);
    uint64_t H = monomialHash(T);
    // The entries hold distinct monomials: at most one matches.
    if (ByHash.empty() && Entries.size() < LinearLimit) {
      for (Entry &E : Entries)
        if (E.Hash == H && sameMonomial(E.View, T)) {
          E.View.Coeff = wrapAdd(E.View.Coeff, T.Coeff);
          return;
        }
      Entries.push_back({T, H, NoEntry});
      return;
    }
    if (ByHash.empty())
      for (size_t I = 0; I < Entries.size(); ++I)
        chain(I);
    auto It = ByHash.find(H);
    for (size_t I = It == ByHash.end() ? NoEntry : It->second; I != NoEntry;
         I = Entries[I].Next)
      if (Entries[I].Hash == H && sameMonomial(Entries[I].View, T)) {
        Entries[I].View.Coeff = wrapAdd(Entries[I].View.Coeff, T.Coeff);
        return;
      }
    Entries.push_back({T, H, NoEntry});
    chain(Entries.size() - 1);
  }
  /// Puts entry \p I at the head of its hash's chain.
  void chain(size_t I) {
    auto [It, New] = ByHash.try_emplace(Entries[I].Hash, I);
    Entries[I].Next = New ? NoEntry : It->second;
    It->second = I;
  }

  std::vector<Entry> Entries;
  std::unordered_map<uint64_t, size_t> ByHash;
};

/// If every coefficient of \p E is divisible by \p C, the polynomial E / C
/// (term by term, which is exact); else nullopt.
std::optional<Expr> divideTerms(const Expr &E, int64_t C) {
  if (C == 0)
    return std::nullopt;
  std::vector<Term> Terms = E.terms();
  for (Term &T : Terms) {
    if (C == -1 && T.Coeff == INT64_MIN)
      return std::nullopt;
    if (T.Coeff % C != 0)
      return std::nullopt;
    T.Coeff /= C;
  }
  return buildSum(std::move(Terms));
}

/// \p E + \p C for a non-constant canonical \p E.
Expr addConstant(const Expr &E, int64_t C) {
  std::vector<Expr> Ops;
  appendSummands(E, Ops);
  if (!Ops.empty() && Ops.back().isConstant()) {
    C = wrapAdd(Ops.back().getConstant(), C);
    Ops.pop_back();
  }
  if (C != 0)
    Ops.push_back(Expr::constant(C));
  return sumOfSummands(std::move(Ops));
}

/// \p C * \p E for a non-constant canonical \p E.
Expr scaleTerms(const Expr &E, int64_t C) {
  std::vector<Term> Terms = E.terms();
  for (Term &T : Terms)
    T.Coeff = wrapMul(T.Coeff, C);
  return buildSum(std::move(Terms));
}

} // namespace

Expr Expr::add(const Expr &A, const Expr &B) {
  // C1 + C2 --> C3
  if (A.isConstant() && B.isConstant())
    return constant(wrapAdd(A.getConstant(), B.getConstant()));
  // X + 0 --> X
  if (isConstantValue(B, 0))
    return A;
  if (isConstantValue(A, 0))
    return B;
  // (X + 3) + 2 --> X + 5: the constant term is last in a canonical sum, so
  // adding a constant only touches that end (what the general path below
  // would give, without building its map).
  if (A.isConstant() || B.isConstant())
    return addConstant(A.isConstant() ? B : A,
                       (A.isConstant() ? A : B).getConstant());
  // (X + Y) + (Z + Y) --> X + 2*Y + Z: flatten, combine like terms (summing
  // their coefficients), drop zero terms, sort, constant term last.
  TermCollector Sum;
  Sum.addFirst(A);
  Sum.add(B);
  return Sum.build();
}

Expr Expr::sub(const Expr &A, const Expr &B) {
  // X - Y --> X + -1*Y
  return add(A, neg(B));
}

Expr Expr::neg(const Expr &A) {
  // -X --> -1*X
  return mul(constant(-1), A);
}

Expr Expr::mul(const Expr &A, const Expr &B) {
  // C1 * C2 --> C3
  if (A.isConstant() && B.isConstant())
    return constant(wrapMul(A.getConstant(), B.getConstant()));
  // X * 0 --> 0
  if (isConstantValue(A, 0) || isConstantValue(B, 0))
    return constant(0);
  // X * 1 --> X
  if (isConstantValue(A, 1))
    return B;
  if (isConstantValue(B, 1))
    return A;
  // 4 * (X + 2*Y) --> 4*X + 8*Y: scaling keeps the monomials distinct, so
  // no terms combine (coefficients that wrap to 0 drop out).
  if (A.isConstant() || B.isConstant())
    return scaleTerms(A.isConstant() ? B : A,
                      (A.isConstant() ? A : B).getConstant());
  // (X + 1) * (Y + 2) --> X*Y + 2*X + Y + 2: distribute, then merge the
  // sorted factor lists of each pair of terms (X * X stays X*X, a power).
  std::vector<Term> TA = A.terms(), TB = B.terms();
  PolyMap Poly;
  for (const Term &X : TA)
    for (const Term &Y : TB) {
      std::vector<Expr> Factors;
      Factors.reserve(X.Factors.size() + Y.Factors.size());
      std::merge(X.Factors.begin(), X.Factors.end(), Y.Factors.begin(),
                 Y.Factors.end(), std::back_inserter(Factors));
      int64_t &Slot = Poly[std::move(Factors)];
      Slot = wrapAdd(Slot, wrapMul(X.Coeff, Y.Coeff));
    }
  return fromPolyMap(Poly);
}

Expr Expr::div(const Expr &A, const Expr &B) {
  if (std::optional<int64_t> C = B.asConstant()) {
    // C1 / C2 --> C3 (not for / 0 or INT64_MIN / -1, which stay)
    if (A.isConstant())
      if (std::optional<int64_t> V = evalBinary(K::Div, A.getConstant(), *C))
        return constant(*V);
    // X / 1 --> X
    if (*C == 1 && !A.isConstant())
      return A;
    // X / -1 --> -X
    if (*C == -1 && !A.isConstant())
      return neg(A);
    // (8*X + 16) / 4 --> 2*X + 4: every coefficient is a multiple of the
    // divisor, so the division is exact term by term.
    if (*C != 0 && !A.isConstant())
      if (std::optional<Expr> Q = divideTerms(A, *C))
        return *Q;
    // (X / C1) / C2 --> X / (C1*C2) for C1, C2 > 0
    if (*C > 0 && A.getKind() == K::Div)
      if (std::optional<int64_t> C1 = A.operands()[1].asConstant())
        if (*C1 > 0 && *C1 <= INT64_MAX / *C)
          return div(A.operands()[0], constant(*C1 * *C));
  }
  return ExprBuilder::makeOp(K::Div, {A, B});
}

Expr Expr::rem(const Expr &A, const Expr &B) {
  if (std::optional<int64_t> C = B.asConstant()) {
    // C1 % C2 --> C3 (not for % 0 or INT64_MIN % -1, which stay)
    if (A.isConstant())
      if (std::optional<int64_t> V = evalBinary(K::Rem, A.getConstant(), *C))
        return constant(*V);
    // X % 1 --> 0, X % -1 --> 0
    if ((*C == 1 || *C == -1) && !A.isConstant())
      return constant(0);
    // (8*X + 16) % 4 --> 0: the dividend is always a multiple of 4.
    if (*C != 0 && !A.isConstant() && divideTerms(A, *C))
      return constant(0);
  }
  return ExprBuilder::makeOp(K::Rem, {A, B});
}

Expr Expr::shl(const Expr &A, const Expr &B) {
  if (std::optional<int64_t> Amount = B.asConstant()) {
    // C1 << C2 --> C3 (shift amounts outside [0, 63] stay)
    if (A.isConstant())
      if (std::optional<int64_t> V =
              evalBinary(K::Shl, A.getConstant(), *Amount))
        return constant(*V);
    // X << 3 --> 8*X
    if (*Amount >= 0 && *Amount <= 62)
      return mul(A, constant(int64_t(1) << *Amount));
  }
  return ExprBuilder::makeOp(K::Shl, {A, B});
}

Expr Expr::shr(const Expr &A, const Expr &B) {
  if (std::optional<int64_t> Amount = B.asConstant()) {
    // C1 >> C2 --> C3 (shift amounts outside [0, 63] stay)
    if (A.isConstant())
      if (std::optional<int64_t> V =
              evalBinary(K::Shr, A.getConstant(), *Amount))
        return constant(*V);
    // X >> 0 --> X
    if (*Amount == 0)
      return A;
    // (8*X + 16) >> 3 --> X + 2: an exact multiple of 2^k shifts exactly.
    if (*Amount > 0 && *Amount <= 62 && !A.isConstant())
      if (std::optional<Expr> Q = divideTerms(A, int64_t(1) << *Amount))
        return *Q;
    // (X >> C1) >> C2 --> X >> (C1 + C2) when C1 + C2 <= 63
    if (*Amount > 0 && *Amount <= 63 && A.getKind() == K::Shr)
      if (std::optional<int64_t> C1 = A.operands()[1].asConstant())
        if (*C1 >= 0 && *C1 <= 63 - *Amount) // (no overflow for huge C1)
          return shr(A.operands()[0], constant(*C1 + *Amount));
  }
  return ExprBuilder::makeOp(K::Shr, {A, B});
}

} // namespace coalesce
