//===- ExprBounds.h - Interval bounds of an Expr over symbol ranges -*- C++ -*-===//
///
/// \file
/// Sound interval arithmetic over the symbolic engine: the smallest and
/// largest value an Expr can take when every symbol ranges over an interval,
/// and the narrowing of those intervals by a condition (the access predicate
/// `Active`: loop conditions bound iteration counters, guards bound
/// threadIdx/blockIdx). Every result over-approximates: each value the
/// expression really takes lies inside, so a buffer sized from the upper
/// bound cannot be overrun. The harness sizes its buffers with it.
///
///   j < N, N = 4096   narrows   j in [0, +inf)  to  [0, 4095]
///   4*(N*j + i)       bounds    [0, 4*(4096*4095 + i.hi)]
///
/// Values that leave int64 saturate to the infinite end points, so an
/// overflow can only make a bound unknown, never wrong.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_EXPRBOUNDS_H
#define COALESCE_EXPRBOUNDS_H

#include "coalesce/Expr.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

namespace coalesce {

/// A closed interval of int64 values. INT64_MIN / INT64_MAX as end points
/// stand for minus / plus infinity.
struct Interval {
  static constexpr int64_t NegInf = std::numeric_limits<int64_t>::min();
  static constexpr int64_t PosInf = std::numeric_limits<int64_t>::max();
  int64_t Lo = NegInf, Hi = PosInf;

  /// The single value \p V.
  static Interval point(int64_t V) { return {V, V}; }
  /// Every int64 value.
  static Interval unbounded() { return {}; }
  /// True when both end points are finite.
  bool bounded() const { return Lo != NegInf && Hi != PosInf; }
  /// True when no value lies inside (Lo > Hi).
  bool empty() const { return Lo > Hi; }
  /// The smallest interval holding both.
  Interval join(const Interval &O) const;
  /// The values in both (may be empty).
  Interval meet(const Interval &O) const;
  /// "[0, 4095]", "[0, +inf)".
  std::string str() const;

  friend bool operator==(const Interval &A, const Interval &B) {
    return A.Lo == B.Lo && A.Hi == B.Hi;
  }
};

/// The interval each symbol ranges over. A symbol without an entry is
/// unbounded.
class SymbolRanges {
public:
  void set(const Symbol &S, Interval I) { Ranges[S] = I; }
  /// The range of \p S (unbounded when none was set).
  Interval lookup(const Symbol &S) const;
  const std::map<Symbol, Interval> &ranges() const { return Ranges; }

private:
  std::map<Symbol, Interval> Ranges;
};

/// An interval holding every value \p E takes when its symbols range over
/// \p R (C semantics; division by zero and out-of-range shifts, which the
/// program cannot execute, are left out). May have infinite end points.
Interval boundsOf(const Expr &E, const SymbolRanges &R);

/// Narrows \p R to the symbol values under which \p Cond can be non-zero,
/// over-approximating: conjunctions narrow in turn, disjunctions join their
/// narrowings, and every comparison that is linear in a symbol bounds that
/// symbol (`4*k + i < N` bounds k and i). Repeats until nothing changes (a
/// few rounds). Returns false when \p Cond is false for every value in
/// \p R, so the guarded code never runs.
bool narrowByCondition(const Expr &Cond, SymbolRanges &R);

/// True when \p Cond is false for every value of its symbols that their
/// kinds allow (thread and block indices and loop iterations at least 0,
/// block and grid sizes at least 1), as shown by splitting cases (at most
/// \p Splits deep) on its conjuncts that are disjunctions and on its
/// selects, minimums and maximums, then folding each case and narrowing it
/// (narrowByCondition). False means "not shown", never "can hold". A loop
/// whose bounds leave it no iteration (`k0 < k0_stop` with k0_stop = 0 in
/// one instance of ggml's tile loader) runs nothing. The case is a caller's test repeated with a twist inside a
/// callee (TransformerEngine's `valid_rows == N && aligned` then, in the
/// fallback, `count >= N && aligned` with count = min(rows - row, N)):
/// the callee's path is dead whatever the values.
bool neverHolds(const Expr &Cond, unsigned Splits = 4);

/// True when \p E is at least 0 for every value its symbols' kinds allow
/// (as neverHolds), taking kernel parameters and the values the engine
/// cannot see through to be non-negative too: `threadIdx.x + n` is,
/// `threadIdx.x - 16` and `n - 1 - k` are not. An unsigned operation on a
/// value that is not wraps it (frontend: unsigned comparisons).
bool provablyNonNegative(const Expr &E);

} // namespace coalesce

#endif // COALESCE_EXPRBOUNDS_H
