//===- IntegerOps.h - C integer operators over expressions ------*- C++ -*-===//
///
/// \file
/// What C's integer operators compute, as Exprs. The model keeps index
/// arithmetic exact (no index reaches 2^31), which keeps the linear forms
/// the predictor relies on; the type decides where that differs from the
/// GPU: conversions to types narrower than 32 bits, and unsigned
/// comparisons, divisions and right shifts of values that may be negative
/// in the model (issue 29: integer width and wrap-around).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_INTEGEROPS_H
#define COALESCE_FRONTEND_INTEGEROPS_H

#include "coalesce/Expr.h"

#include "clang/AST/Expr.h"

#include <optional>

namespace coalesce {
namespace frontend {

/// \p V converted from integer type \p From to \p To. A conversion to a
/// type narrower than 32 bits wraps (`(unsigned char)(16 * lane)`); wider
/// ones are kept exact.
Expr convertInteger(const clang::ASTContext &Ctx, const Expr &V,
                    clang::QualType From, clang::QualType To);

/// \p L op \p R for a C binary (or compound-assignment) operator; nullopt
/// for operators without an Expr counterpart (comma, plain assignment).
std::optional<Expr> applyBinaryOperator(clang::BinaryOperatorKind Op,
                                        const Expr &L, const Expr &R);

/// \p L op \p R computed in an unsigned type of \p Bits bits when \p L
/// (\p LNeg) or \p R (\p RNeg) may be negative in the model, which keeps
/// index arithmetic exact: the GPU wraps such a value to a large one
/// (`threadIdx.x - 16u < 8u` holds for lanes 16 to 23 only). Comparisons
/// with one side non-negative stay linear (`x < n` as `0 <= x && x < n`),
/// so that guards and loop bounds narrow by them; 32-bit operands are
/// wrapped otherwise (divisions, right shifts, two possibly negative
/// sides). Nullopt when the exact operation is the unsigned one.
std::optional<Expr> unsignedOperation(clang::BinaryOperatorKind Op,
                                      const Expr &L, const Expr &R,
                                      unsigned Bits, bool LNeg, bool RNeg);

/// The width of the unsigned integer type binary operator \p Site computes
/// in (its operands' type after the usual conversions, a compound
/// assignment's computation type); 0 for signed or non-integer types, for
/// sites that are not binary operators and for those with an address
/// converted to an integer as an operand (never negative).
unsigned unsignedOperationBits(const clang::ASTContext &Ctx,
                               const clang::Expr *Site);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_INTEGEROPS_H
