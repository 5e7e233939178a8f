//===- SourceFacts.h - What the walks of one file compute once --*- C++ -*-===//
//
// The walks of one translation unit (its host code, then each kernel
// instantiation) meet the same statements many times: a template's body once
// per instantiation, a loop's body once per probe and sampled pass, a device
// function once per call. What depends on the source alone is computed on
// first use and shared by all of them: which values a loop carries to a read
// (clang's liveness on the function's CFG) and the memory instructions of an
// inline assembly statement (clang's rendering of its string, then its PTX
// read); and whether a condition can never hold (neverHolds(), which the
// instantiations of a template ask of the same conditions, large ones in
// unrolled code), and whether a value an unsigned operation reads can be
// negative in the model (neverNegative()); what each statement of a loop
// body may change and which functions have aliased locals (ProbeSlice.h),
// asked by every kernel that inlines the same device function. The walks of
// one file run on one thread. Their expressions are made in one
// ExprContext, so equal ones share a node.
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_FRONTEND_SOURCEFACTS_H
#define COALESCE_FRONTEND_SOURCEFACTS_H

#include "LaneInputs.h"
#include "LoopLiveness.h"
#include "ProbeSlice.h"
#include "PtxMemory.h"
#include "SharedArrays.h"

#include "coalesce/Expr.h"
#include "coalesce/ExprBounds.h"
#include "symbolic/HashMemo.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <vector>

namespace coalesce {
namespace frontend {

/// Facts of one translation unit's source, shared by its walks.
class SourceFacts {
public:
  explicit SourceFacts(clang::ASTContext &Ctx)
      : Ctx(Ctx), Liveness(Ctx), Arrays(Ctx) {}

  /// The context the walks' expressions are made in (their symbols).
  const ExprContext &exprs() const { return Exprs; }

  /// The statically sized __shared__ arrays (the padding fix-it).
  SharedArrays &sharedArrays() { return Arrays; }

  /// Which changed slots a loop carries to a read.
  LoopLiveness &liveness() { return Liveness; }

  /// The memory operations of \p AS's PTX (readPtxMemoryOps() of the string
  /// clang renders with numbered operands), read on first use.
  const std::vector<PtxMemoryOp> &ptxMemoryOps(const clang::GCCAsmStmt *AS) {
    auto [It, New] = AsmOps.try_emplace(AS);
    if (New)
      It->second = readPtxMemoryOps(AS->generateAsmString(Ctx));
    return It->second;
  }

  /// statementEffects(\p Body), read on first use (the vector stays where
  /// it is while the facts live).
  const std::vector<StatementEffects> &
  statementEffects(const clang::CompoundStmt *Body) {
    auto [It, New] = Effects.try_emplace(Body);
    if (New)
      It->second = std::make_unique<const std::vector<StatementEffects>>(
          frontend::statementEffects(Body));
    return *It->second;
  }

  /// hasAliasedLocals(\p Fn), computed once per function.
  bool aliasedLocals(const clang::FunctionDecl *Fn) {
    auto [It, New] = Aliased.try_emplace(Fn, false);
    if (New)
      It->second = hasAliasedLocals(Fn);
    return It->second;
  }

  /// Which code reads the lane it runs in (LaneInputs.h), each function
  /// read once.
  LaneIdentity &laneIdentity() { return Lanes; }

  /// coalesce::neverHolds(\p Cond), computed once per distinct condition.
  bool neverHolds(const Expr &Cond) {
    if (Cond.isConstant())
      return coalesce::neverHolds(Cond);
    return Never.get(
        Cond.hash(), [&](const Expr &Kept) { return Kept == Cond; },
        [&] { return Cond; }, [&] { return coalesce::neverHolds(Cond); });
  }

  /// Whether `X < 0` (\p Negative, with the conditions it is under) never
  /// holds: \p X non-negative by its symbols' kinds, or
  /// neverHolds(\p Negative, \p Splits); once per distinct question.
  bool neverNegative(const Expr &X, const Expr &Negative, unsigned Splits) {
    return NonNegative.get(
        Negative.hash(), [&](const Expr &Kept) { return Kept == Negative; },
        [&] { return Negative; },
        [&] {
          return provablyNonNegative(X) ||
                 coalesce::neverHolds(Negative, Splits);
        });
  }

private:
  clang::ASTContext &Ctx;
  LoopLiveness Liveness;
  SharedArrays Arrays;
  llvm::DenseMap<const clang::GCCAsmStmt *, std::vector<PtxMemoryOp>> AsmOps;
  HashMemo<Expr, bool> Never, NonNegative;
  llvm::DenseMap<const clang::CompoundStmt *,
                 std::unique_ptr<const std::vector<StatementEffects>>>
      Effects;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Aliased;
  LaneIdentity Lanes;
  ExprContext Exprs;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_SOURCEFACTS_H
