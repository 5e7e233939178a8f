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

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace coalesce {

class ExprTable;

/// The immutable node shared by Expr values.
struct Expr::Node : std::enable_shared_from_this<Expr::Node> {
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
  /// The table in which this node is the only one of its structure; null
  /// for constants (compared by value) and for a node with an operand of no
  /// table or of another table (compared structurally).
  std::shared_ptr<ExprTable> Table;

  Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;
  /// Leaves the table (before the operands are released).
  ~Node();
};

/// The unique nodes of one ExprContext: a symbol leaf, or an operation over
/// operands of this table (and constants), exists at most once while
/// something holds it, so two such nodes are structurally equal iff they
/// are the same node (hash-consing, as ScalarEvolution's UniqueSCEVs). The
/// table holds no reference: a node leaves it when the last Expr holding it
/// goes. Safe to use from several threads (the predictions of one file run
/// on several).
class ExprTable : public std::enable_shared_from_this<ExprTable> {
public:
  /// The live node hashed \p Hash that \p Matches accepts, or null.
  template <typename MatchFn>
  std::shared_ptr<const Expr::Node> find(size_t Hash, MatchFn Matches) {
    Shard &S = shardOf(Hash);
    std::lock_guard<std::mutex> Lock(S.M);
    return findLocked(S, Hash, Matches);
  }
  /// The node of \p N's structure: a live equal node if one was kept since
  /// the caller's find(), else \p N, kept from now on. \p N must not be
  /// released while the table's lock is held (its operands would leave
  /// the table under it): the caller keeps it until this returns.
  std::shared_ptr<const Expr::Node>
  insert(const std::shared_ptr<Expr::Node> &N);
  /// Removes \p N (called by its destructor).
  void erase(const Expr::Node *N);
  /// Nodes kept now.
  size_t size();

private:
  struct Shard {
    std::mutex M;
    /// Nodes by hash; not const, for weak_from_this() (made by
    /// make_shared<Expr::Node>, const once shared).
    std::unordered_multimap<size_t, Expr::Node *> Nodes;
  };
  Shard &shardOf(size_t Hash) { return Shards[(Hash >> 7) % Shards.size()]; }
  template <typename MatchFn>
  static std::shared_ptr<const Expr::Node> findLocked(Shard &S, size_t Hash,
                                                      MatchFn &Matches) {
    auto [First, Last] = S.Nodes.equal_range(Hash);
    for (auto It = First; It != Last; ++It)
      if (Matches(*It->second))
        // Null when the node's last holder is gone and its destructor waits
        // for this lock to leave the table. (Not weak_from_this() of a
        // const node: its conversion makes and drops a strong reference,
        // which may be the last one, under the lock.)
        if (std::shared_ptr<Expr::Node> Live =
                It->second->weak_from_this().lock())
          return Live;
    return nullptr;
  }

  std::array<Shard, 16> Shards;
};

/// Whether \p X is the operation \p K over \p Ops: the same operand nodes
/// (constants by value, which no table holds). How ExprTable tells nodes
/// of one hash apart.
bool sameOperation(const Expr::Node &X, Expr::Kind K,
                   const std::vector<Expr> &Ops);

/// Makes and inspects nodes. Friend of Expr.
struct ExprBuilder {
  /// A Constant node (no folding needed).
  static Expr makeConstant(int64_t V);
  /// The Symbol node of \p S in \p Table.
  static Expr makeSymbol(ExprTable &Table, Symbol S);
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
