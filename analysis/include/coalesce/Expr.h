//===- Expr.h - Immutable symbolic integer expressions ----------*- C++ -*-===//
///
/// \file
/// The symbolic engine's value type. An Expr is an immutable integer
/// expression over symbols (threadIdx.x, blockIdx.x, kernel parameters, loop
/// iteration counters, ...), modelled on LLVM's ScalarEvolution: a closed set
/// of node kinds built only through folding factories that keep sums and
/// products canonical, so structural equality is meaningful:
///
///   X + Y + Y        --> X + 2*Y
///   2*(X + 3)        --> 2*X + 6
///   X << 3           --> 8*X
///   (4*X) / 2        --> 2*X           (exact division only)
///
/// Nodes are hash-consed in an ExprContext (below): within one context a
/// structure exists once, so equal expressions share their node.
///
/// Non-polynomial operations (/, %, >>, &, |, ^, min, max, selects and
/// comparisons) stay as nodes of their own; the polynomial view (terms())
/// treats them as opaque atoms. Every expression can be evaluated exactly for
/// concrete symbol values with C semantics on 64-bit integers, which is how the
/// lane model handles non-affine index functions lane by lane.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_EXPR_H
#define COALESCE_EXPR_H

#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace coalesce {

/// What a symbol stands for. This decides how the lane model treats it.
enum class SymbolKind {
  ThreadIdx,     ///< threadIdx.{x,y,z}: differs between the lanes of a warp.
  BlockDim,      ///< blockDim.{x,y,z}: uniform; its value is the block shape.
  BlockIdx,      ///< blockIdx.{x,y,z}: uniform in a block, varies over the grid.
  GridDim,       ///< gridDim.{x,y,z}: uniform, fixed for a launch.
  Param,         ///< A scalar kernel parameter: uniform, fixed for a launch.
  LoopIter,      ///< Iteration number (0, 1, ...) of a loop: uniform, varies.
  UniformValue,  ///< Another warp-uniform run-time value (a uniform load).
  LaneValue,     ///< A lane-dependent value the engine cannot see through.
  IndirectValue, ///< A lane-dependent value loaded from memory (gather).
};

/// Returns a stable lower-case name for \p K ("threadIdx", "param", ...).
const char *symbolKindName(SymbolKind K);

/// A named leaf of an expression. Two symbols are the same iff kind, name
/// and version are equal. Names are what users read: "threadIdx.x", "N",
/// "k" (a loop's iteration counter is named after its variable), "idx[i]".
/// The version tells apart values that print alike: a load of `idx[i]`
/// before and after a store that may change it, two non-constant `case`
/// labels, a variable made opaque by two different `switch`es. It is 0 for
/// what the name alone identifies (threadIdx.x, kernel parameters).
struct Symbol {
  SymbolKind Kind = SymbolKind::UniformValue;
  std::string Name;
  /// What the value stands for beyond its name (the frontend's choice: a
  /// hash of the memory state and the address a load read, or of the
  /// source location of the construct); never printed.
  uint64_t Version = 0;

  /// threadIdx/blockIdx/blockDim/gridDim component \p Dim (0 = x, 1 = y, 2 = z).
  static Symbol threadIdx(unsigned Dim);
  static Symbol blockIdx(unsigned Dim);
  static Symbol blockDim(unsigned Dim);
  static Symbol gridDim(unsigned Dim);
  static Symbol param(std::string Name) { return {SymbolKind::Param, std::move(Name)}; }

  /// True for threadIdx, LaneValue and IndirectValue symbols.
  bool isLaneDependent() const;
  /// True for symbols whose value changes over the launch (blockIdx, loop
  /// iterations): predictions average over their values.
  bool isVarying() const;
  /// For threadIdx/blockIdx/blockDim/gridDim: the component (0..2); else -1.
  int dimension() const;

  friend bool operator==(const Symbol &A, const Symbol &B) {
    return A.Kind == B.Kind && A.Version == B.Version && A.Name == B.Name;
  }
  friend bool operator!=(const Symbol &A, const Symbol &B) { return !(A == B); }
  friend bool operator<(const Symbol &A, const Symbol &B) {
    if (A.Kind != B.Kind)
      return A.Kind < B.Kind;
    if (int C = A.Name.compare(B.Name))
      return C < 0;
    return A.Version < B.Version;
  }
};

/// Concrete values for symbols, for exact evaluation. A handful of symbols,
/// looked up millions of times: a flat list searched by equality is cheaper
/// than a tree ordered by name.
class Bindings {
public:
  void set(const Symbol &S, int64_t V);
  /// set() with a \p Hint, as lookup()'s.
  void set(const Symbol &S, int64_t V, size_t &Hint);
  void erase(const Symbol &S);
  /// The value bound to \p S, or nullopt when unbound.
  std::optional<int64_t> lookup(const Symbol &S) const;
  /// lookup() for a caller that asks for the same symbols again and again:
  /// \p Hint is where to look first, and is set to where \p S was found.
  std::optional<int64_t> lookup(const Symbol &S, size_t &Hint) const;
  /// How many symbols are bound.
  size_t size() const { return Values.size(); }

private:
  std::vector<std::pair<Symbol, int64_t>>::const_iterator
  find(const Symbol &S) const;

  std::vector<std::pair<Symbol, int64_t>> Values;
};

class Expr;

/// One term of the polynomial view: Coeff * Factors[0] * Factors[1] * ...
/// Factors are atoms (symbols or non-polynomial nodes), sorted, repeated for
/// powers. A constant term has no factors.
struct Term {
  int64_t Coeff = 0;
  std::vector<Expr> Factors;
};

/// An immutable symbolic integer expression. Cheap to copy (shared nodes).
/// Built only through the static factories, which fold constants and keep
/// Add/Mul canonical (flattened, sorted, like terms combined, zero terms and
/// unit factors removed).
class Expr {
public:
  /// The kinds of nodes, ExprKinds.def's rows (what each means is there;
  /// ExprVisitor.h dispatches on them).
  enum class Kind {
#define EXPR_KIND(NAME, GROUP, SPELLING) NAME,
#include "coalesce/ExprKinds.def"
  };

  /// The constant 0.
  Expr();

  static Expr constant(int64_t V);
  // Symbols are made in an ExprContext (below).

  static Expr add(const Expr &A, const Expr &B);
  static Expr sub(const Expr &A, const Expr &B);
  static Expr mul(const Expr &A, const Expr &B);
  static Expr neg(const Expr &A);
  static Expr div(const Expr &A, const Expr &B);
  static Expr rem(const Expr &A, const Expr &B);
  static Expr shl(const Expr &A, const Expr &B);
  static Expr shr(const Expr &A, const Expr &B);
  static Expr bitAnd(const Expr &A, const Expr &B);
  static Expr bitOr(const Expr &A, const Expr &B);
  static Expr bitXor(const Expr &A, const Expr &B);
  static Expr min(const Expr &A, const Expr &B);
  static Expr max(const Expr &A, const Expr &B);
  static Expr select(const Expr &Cond, const Expr &T, const Expr &F);
  static Expr lt(const Expr &A, const Expr &B);
  static Expr le(const Expr &A, const Expr &B);
  static Expr gt(const Expr &A, const Expr &B) { return lt(B, A); }
  static Expr ge(const Expr &A, const Expr &B) { return le(B, A); }
  static Expr eq(const Expr &A, const Expr &B);
  static Expr ne(const Expr &A, const Expr &B);
  static Expr logicalAnd(const Expr &A, const Expr &B);
  static Expr logicalOr(const Expr &A, const Expr &B);
  static Expr logicalNot(const Expr &A);

  friend Expr operator+(const Expr &A, const Expr &B) { return add(A, B); }
  friend Expr operator-(const Expr &A, const Expr &B) { return sub(A, B); }
  friend Expr operator*(const Expr &A, const Expr &B) { return mul(A, B); }
  friend Expr operator-(const Expr &A) { return neg(A); }

  Kind getKind() const;
  /// The value of a Constant node; only valid when isConstant().
  int64_t getConstant() const;
  /// The symbol of a Symbol node; only valid when getKind() == Kind::Symbol.
  const Symbol &getSymbol() const;
  /// Operands of an operation node (empty for Constant and Symbol).
  const std::vector<Expr> &operands() const;

  bool isConstant() const { return getKind() == Kind::Constant; }
  /// Identifies the node this Expr shares: equal for copies of one Expr,
  /// for operands shared by several parents and for equal expressions of
  /// one ExprContext; may differ for equal expressions of two contexts (or
  /// of constants alone). Lets a walk visit a DAG's distinct nodes once.
  const void *identity() const { return N.get(); }

  /// Nodes of the tree form (shared operands counted at each use),
  /// saturating: how much work a tree walk or printing would be.
  size_t treeSize() const;
  /// A structural hash: equal expressions have equal hashes.
  size_t hash() const;

  /// Distinct nodes of the DAG (each shared node once), counting stops at
  /// \p Limit: how much work a walk that visits each node once would be.
  size_t distinctNodes(size_t Limit) const;
  /// Distinct nodes of \p Roots together (a node they share counts once),
  /// counting stops at \p Limit.
  static size_t distinctNodes(const std::vector<Expr> &Roots, size_t Limit);
  /// What one evaluate() costs, in nodes of the plain recursion: the tree's
  /// nodes for a small expression; for a large one, which evaluate() walks
  /// as a DAG through a memo, about 16 per distinct node.
  size_t evaluationCost() const;

  /// The value if this is a constant, else nullopt.
  std::optional<int64_t> asConstant() const;
  /// True when only Constant, Symbol, Add and Mul nodes occur.
  bool isPolynomial() const;
  /// True when any symbol of the expression is lane-dependent.
  bool isLaneDependent() const;
  /// True when any symbol is an IndirectValue.
  bool isIndirect() const;
  /// True when some symbol satisfies \p Pred.
  template <typename Fn> bool anySymbol(Fn Pred) const {
    for (const Symbol &S : symbols())
      if (Pred(S))
        return true;
    return false;
  }
  /// All symbols occurring in the expression.
  std::set<Symbol> symbols() const;
  /// The names of the symbols of kind \p K, sorted, each once (versions of
  /// one load print alike: Symbol::Version).
  std::vector<std::string> symbolNames(SymbolKind K) const;

  /// Exact evaluation with C semantics on int64. Returns nullopt when a symbol
  /// is unbound or on division/remainder by zero.
  std::optional<int64_t> evaluate(const Bindings &B) const;

  /// Applies one binary operator (Add, Mul, Div ... LOr; not Select) to two
  /// values with evaluate()'s semantics: wrapping two's-complement sums and
  /// products, nullopt on division by zero, INT64_MIN / -1 and shifts outside
  /// [0, 63]. Shared by every evaluator so they cannot disagree.
  static std::optional<int64_t> applyOperator(Kind K, int64_t A, int64_t B);

  /// LAnd/LOr on lazily evaluated operands (\p A, \p B return
  /// std::optional<int64_t>): a deciding operand (0 for &&, non-zero for ||)
  /// decides even when the other one is undefined.
  template <typename FnA, typename FnB>
  static std::optional<int64_t> applyLogical(Kind K, FnA A, FnB B) {
    bool IsAnd = K == Kind::LAnd;
    std::optional<int64_t> X = A();
    if (X && (*X != 0) != IsAnd)
      return IsAnd ? 0 : 1;
    std::optional<int64_t> Y = B();
    if (Y && (*Y != 0) != IsAnd)
      return IsAnd ? 0 : 1;
    if (!X || !Y)
      return std::nullopt;
    return IsAnd ? 1 : 0;
  }

  /// Replaces symbols by expressions and re-folds.
  Expr substitute(const std::map<Symbol, Expr> &Map) const;
  /// This expression with every subexpression equal to \p From replaced by
  /// \p To, folded again (deciding a select's condition folds the select).
  Expr replace(const Expr &From, const Expr &To) const;

  /// The polynomial view: the expression as a canonical sum of terms whose
  /// factors are atoms (symbols and non-polynomial nodes).
  std::vector<Term> terms() const;
  /// Rebuilds an expression from terms (the inverse of terms()).
  static Expr fromTerms(const std::vector<Term> &Terms);

  /// Splits the polynomial view into {terms with a lane-dependent factor,
  /// terms without}: this == first + second.
  std::pair<Expr, Expr> splitLaneUniform() const;

  /// If \p S occurs only linearly in the polynomial view and never inside an
  /// opaque atom, returns the coefficient C with this == C*S + (rest free of
  /// S); returns 0 when S does not occur; nullopt otherwise.
  std::optional<Expr> linearCoefficient(const Symbol &S) const;

  /// The gcd of all term coefficients of the polynomial view (0 for 0).
  int64_t coefficientGcd() const;

  /// Human-readable form, e.g. "4*N*threadIdx.x + 1024*blockIdx.x + 4";
  /// at most MaxPrintedChars characters, then "..." (a shared subexpression
  /// is written out at each use, so a small DAG can print as a huge tree).
  std::string str() const;
  static constexpr size_t MaxPrintedChars = 1 << 16;

  friend bool operator==(const Expr &A, const Expr &B);
  friend bool operator!=(const Expr &A, const Expr &B) { return !(A == B); }
  /// A total structural order used for canonical sorting.
  friend bool operator<(const Expr &A, const Expr &B);

  struct Node;

private:
  explicit Expr(std::shared_ptr<const Node> N) : N(std::move(N)) {}
  std::shared_ptr<const Node> N;
  friend struct ExprBuilder;
};

class ExprTable;

/// Where expressions are made unique (hash-consing, as LLVM's
/// ScalarEvolution keeps its SCEVs): a symbol, and an operation over
/// operands of one context, exists once while something holds it, so two
/// expressions of one context are equal iff they share their node, and
/// equality costs a pointer comparison. Symbols are made here; the
/// factories (Expr::add, ...) take their operands' context. Expressions
/// of different contexts (or of none: constants) still compare
/// structurally. A cheap handle: copies share one table; the table lives
/// while a copy or one of its expressions does. Safe to use from several
/// threads.
class ExprContext {
public:
  /// A new, empty context.
  ExprContext();
  /// The symbol \p S as an expression of this context.
  Expr symbol(Symbol S) const;
  /// The context \p E was made in; a new one when \p E belongs to none (a
  /// constant).
  static ExprContext of(const Expr &E);
  /// Distinct nodes alive in this context.
  size_t size() const;

private:
  explicit ExprContext(std::shared_ptr<ExprTable> T);
  std::shared_ptr<ExprTable> T;
};

/// Defined here so that the per-lane evaluators inline it.
inline std::optional<int64_t> Expr::applyOperator(Kind K, int64_t A,
                                                  int64_t B) {
  auto Wrap = [](uint64_t V) { return static_cast<int64_t>(V); };
  switch (K) {
  case Kind::Add:
    return Wrap(static_cast<uint64_t>(A) + static_cast<uint64_t>(B));
  case Kind::Mul:
    return Wrap(static_cast<uint64_t>(A) * static_cast<uint64_t>(B));
  case Kind::Div:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return A / B;
  case Kind::Rem:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return A % B;
  case Kind::Shl:
    if (B < 0 || B >= 64)
      return std::nullopt;
    return Wrap(static_cast<uint64_t>(A) << B);
  case Kind::Shr:
    if (B < 0 || B >= 64)
      return std::nullopt;
    // Arithmetic shift (what every C compiler for the GPU and host does).
    return A >> B;
  case Kind::And:
    return A & B;
  case Kind::Or:
    return A | B;
  case Kind::Xor:
    return A ^ B;
  case Kind::Min:
    return A < B ? A : B;
  case Kind::Max:
    return A < B ? B : A;
  case Kind::Lt:
    return A < B ? 1 : 0;
  case Kind::Le:
    return A <= B ? 1 : 0;
  case Kind::Eq:
    return A == B ? 1 : 0;
  case Kind::Ne:
    return A != B ? 1 : 0;
  case Kind::LAnd:
    return A != 0 && B != 0 ? 1 : 0;
  case Kind::LOr:
    return A != 0 || B != 0 ? 1 : 0;
  case Kind::Constant:
  case Kind::Symbol:
  case Kind::Select:
    break;
  }
  return std::nullopt;
}

} // namespace coalesce

#endif // COALESCE_EXPR_H
