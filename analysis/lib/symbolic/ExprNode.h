//===- ExprNode.h - Private node layout of the symbolic engine --*- C++ -*-===//
///
/// \file
/// The node behind an Expr, the builder that makes raw (unfolded) nodes, and
/// the helpers the folding, evaluation and printing files share. Only files
/// under analysis/lib/symbolic include this header.
///
/// Canonical shapes the factories maintain (see ExprPolyFold.cpp):
///   Constant, Symbol                    leaves
///   Mul  [c] f1 f2 ...                   c != 1 first if present, then atoms
///                                        sorted by operator< (repeats =
///                                        powers)
///   Add  t1 t2 ... [c]                   >= 2 terms (atoms or Muls) sorted by
///                                        operator<, the constant (if any) last
///   everything else                      an opaque atom of the polynomial view
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_SYMBOLIC_EXPRNODE_H
#define COALESCE_LIB_SYMBOLIC_EXPRNODE_H

#include "coalesce/Expr.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace coalesce {

/// The immutable node shared by Expr values.
struct Expr::Node {
  Expr::Kind K = Expr::Kind::Constant;
  /// The value of a Constant node.
  int64_t Value = 0;
  /// The symbol of a Symbol node.
  coalesce::Symbol Sym;
  /// Operands of an operation node.
  std::vector<Expr> Ops;
  /// Structural hash, used to reject unequal nodes quickly.
  size_t Hash = 0;
  /// Only Constant, Symbol, Add and Mul nodes below (and including) this one.
  bool Polynomial = true;
  /// Some symbol below is lane-dependent.
  bool LaneDependent = false;
  /// Some symbol below is an IndirectValue.
  bool Indirect = false;
  /// The symbols below, computed once when the node is made (shared with an
  /// operand whose set it equals): symbols() stays linear in the number of
  /// distinct symbols even for DAGs whose tree form is exponential (64
  /// rounds of MD5 reusing a, b, c, d). Null for constants.
  std::shared_ptr<const std::set<coalesce::Symbol>> Symbols;
  /// Nodes of the tree form (a shared operand counted each time it
  /// occurs), saturating at SIZE_MAX: how large printing it would be.
  size_t TreeSize = 1;
};

/// Makes and inspects nodes. Friend of Expr.
struct ExprBuilder {
  /// A Constant node (no folding needed).
  static Expr makeConstant(int64_t V);
  /// A Symbol node.
  static Expr makeSymbol(Symbol S);
  /// A raw operation node with exactly these operands: no folding, no
  /// sorting. Callers are the factories, which have already canonicalized.
  static Expr makeOp(Expr::Kind K, std::vector<Expr> Ops);
  /// Rebuilds an operation of kind \p K over \p Ops through the folding
  /// factories (used by substitute()).
  static Expr rebuild(Expr::Kind K, const std::vector<Expr> &Ops);

  static const Expr::Node &node(const Expr &E) { return *E.N; }
  static bool sameNode(const Expr &A, const Expr &B) { return A.N == B.N; }
};

//===-- Wrapping int64 arithmetic (two's complement, as the hardware does)
//--===//

inline int64_t wrapAdd(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) +
                              static_cast<uint64_t>(B));
}
inline int64_t wrapMul(int64_t A, int64_t B) {
  return static_cast<int64_t>(static_cast<uint64_t>(A) *
                              static_cast<uint64_t>(B));
}
inline int64_t wrapNeg(int64_t A) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(A));
}

/// True when \p E is the constant \p V.
inline bool isConstantValue(const Expr &E, int64_t V) {
  return E.isConstant() && E.getConstant() == V;
}

/// Applies a binary operation of kind \p K (Div ... LOr, not Add/Mul/Select)
/// to two concrete values with C semantics on int64. Returns nullopt for
/// division or remainder by zero, INT64_MIN / -1 (and % -1), and shift
/// amounts outside [0, 63].
std::optional<int64_t> evalBinary(Expr::Kind K, int64_t A, int64_t B);

//===-- Polynomial view helpers (ExprTerms.cpp) ---------------------------===//

/// The term a canonical summand stands for: a Constant, a Mul or an atom.
Term termOf(const Expr &Summand);
/// termOf() read in place: the coefficient, and the factors of the monomial
/// as a range of the summand's own operands (or the summand itself, for an
/// atom). Valid while the summand lives.
struct TermView {
  int64_t Coeff = 0;
  const Expr *Factors = nullptr;
  size_t NumFactors = 0;
};
/// The TermView of a canonical summand (as termOf()).
TermView viewTerm(const Expr &Summand);
/// A hash of the monomial of \p T: equal factor lists hash alike.
uint64_t monomialHash(const TermView &T);
/// True when \p A and \p B have structurally equal monomials.
bool sameMonomial(const TermView &A, const TermView &B);
/// The summands of a canonical expression (the operands of an Add, else the
/// expression itself; nothing for the constant 0).
void appendSummands(const Expr &E, std::vector<Expr> &Out);
/// The canonical node of one term: Constant, atom, or Mul. \p Factors must
/// be atoms sorted by operator<; \p Coeff must not be 0 unless Factors is
/// empty.
Expr buildTerm(int64_t Coeff, std::vector<Expr> Factors);
/// buildTerm() of the factors \p Factors[0 .. \p NumFactors - 1].
Expr buildTerm(int64_t Coeff, const Expr *Factors, size_t NumFactors);
/// The canonical sum of terms whose monomials are pairwise distinct and
/// whose coefficients are non-zero.
Expr buildSum(std::vector<Term> Terms);
/// buildSum() of the terms' nodes (buildTerm()'s), in any order.
Expr sortedSum(std::vector<Expr> Ops);
/// The canonical sum of summands already in canonical order (non-zero, no
/// like terms, sorted, the constant last): 0, the one summand, or an Add.
Expr sumOfSummands(std::vector<Expr> Summands);

} // namespace coalesce

#endif // COALESCE_LIB_SYMBOLIC_EXPRNODE_H
