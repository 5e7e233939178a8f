//===- WarpReduction.h - Butterfly reductions across a warp ----*- C++ -*-===//
//
// `for (o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(~0u, x, o);` leaves the
// same value in every lane: each step combines a lane's value with the value
// of lane `lane ^ o`, and after the steps o = 16, 8, 4, 2, 1 (in any order)
// every lane has combined all 32 (TransformerEngine's `warp_allreduce_sum`,
// the radix top-k of its router, every "all-reduce" of a warp). What the
// lanes then branch on or index with is uniform.
//
// WarpExchanges keeps, per symbol an xor shuffle or a step made, what it
// stands for: the value `Of` taken from lane `lane ^ Bits`, or a value the
// same in the lanes `lane ^ m` for every m in the span of Bits. With a
// commutative `op`, `w = v op shfl_xor(v, c)` is the same in lanes l and
// l ^ c (v(l) op v(l ^ c) = v(l ^ c) op v(l)), and in every pair v was;
// when Bits spans the warp's 32 lanes, w is one value, the same in every
// lane, whichever operations the steps used. Anything else (a shuffle of
// another value, two shuffles combined) is left to the caller: a value per
// lane, as before. Pure functions of Expr, tested apart from Clang.
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_WARPREDUCTION_H
#define COALESCE_FRONTEND_WARPREDUCTION_H

#include "coalesce/Expr.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

namespace coalesce {
namespace frontend {

/// A commutative operation a warp reduction combines with.
enum class Combine { Add, Mul, And, Or, Xor, Min, Max };

/// The values lane exchanges made in one kernel's walk.
class WarpExchanges {
public:
  /// Exchanges whose values are made in \p Exprs (the file's context).
  explicit WarpExchanges(ExprContext Exprs) : Exprs(std::move(Exprs)) {}

  /// The value \p V of lane `lane ^ Lanes` (`__shfl_xor_sync(~0u, V, Lanes)`
  /// of a value per lane, Lanes a power of two below 32), named \p Name.
  Expr shuffled(const Expr &V, unsigned Lanes, std::string Name);

  /// `L op R` (\p Op commutative) where one operand is shuffled() of the
  /// other: the same in one more pair of lanes; uniform once that spans the
  /// warp. Named after the reduced value while every step used \p Op (the
  /// warp's sum of x), else by \p Name (called only then). Nothing for
  /// any other operands.
  std::optional<Expr> combine(Combine Op, const Expr &L, const Expr &R,
                              llvm::function_ref<std::string()> Name);

private:
  struct Entry {
    Expr Of;
    unsigned Bits;
    bool Reduced;
    Combine Op;
  };
  const Entry *find(const Expr &E) const;
  ExprContext Exprs;
  std::map<Symbol, Entry> Entries;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_WARPREDUCTION_H
