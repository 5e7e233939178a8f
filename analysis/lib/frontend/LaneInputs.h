//===- LaneInputs.h - What per-lane loop results are made of --*- C++ -*-===//
///
/// \file
/// A loop whose carried values have no closed form (MLX's `elem_to_loc` over
/// a run-time number of dimensions: `loc += (elem % shape[i]) * strides[i];
/// elem /= shape[i];`) leaves them opaque. Yet what it computes is a
/// function of the values its passes start from, unless its code asks which
/// lane runs it: the same inputs give the same result. Where every
/// lane-dependent input is the same in all lanes of a warp (MLX's row index
/// from threadIdx.y under a block of 32-thread rows), so is the result, and
/// an access through it is predicted as through a uniform unknown
/// (AccessPattern::LoadAddresses, predictor::withWarpUniformValues).
///
/// LaneIdentity answers whether code reads the lane it runs in (threadIdx,
/// the lane id, a cooperative group's rank), takes values from other lanes
/// (shuffles), or gets values that differ between lanes however alike
/// their inputs (atomics, curand, inline assembly, calls it cannot see),
/// in itself or in the functions it calls; laneInputs() collects a loop's
/// inputs.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_LANEINPUTS_H
#define COALESCE_FRONTEND_LANEINPUTS_H

#include "AbstractValues.h"
#include "LoopCarried.h"

#include "coalesce/Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <optional>
#include <vector>

namespace clang {
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace coalesce {
namespace frontend {

/// Which code reads the identity of the lane running it, with the answer
/// for each function kept (one per translation unit, in SourceFacts).
class LaneIdentity {
public:
  /// Whether \p S, or a function it calls, reads which lane runs it or
  /// gets a value that differs between lanes with the same inputs.
  bool readBy(const clang::Stmt *S);
  /// The same for the body of \p FD (false for a function without one:
  /// its calls are opaque to the walker anyway).
  bool readByFunction(const clang::FunctionDecl *FD);

private:
  llvm::DenseMap<const clang::FunctionDecl *, bool> Functions;
};

/// What the walker knows of values it made opaque or read from memory: the
/// inputs each opaque per-lane value is a function of, and the address
/// each loaded value was read from.
struct OpaqueOrigins {
  const std::map<Symbol, std::vector<Expr>> &Inputs;
  const std::map<Symbol, Expr> &LoadAddresses;
};

/// The lane-dependent leaves of \p Named (the variables a loop's
/// condition, increment and body name) in \p Env, the loop's entry; nullopt
/// when the loop reads its lane's identity (\p ReadsLane).
std::optional<std::vector<Expr>>
laneInputs(const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Named,
           const llvm::DenseMap<const clang::ValueDecl *, VarValue> &Env,
           bool ReadsLane);

/// The variables \p S names (lambdas' bodies within it included); with
/// \p NamesThis, whether it names `this`.
llvm::SmallPtrSet<const clang::ValueDecl *, 8>
namedIn(const clang::Stmt *S, bool *NamesThis = nullptr);

/// Whether the value of \p E may differ between the lanes of a warp by
/// what it is computed from: it reads which lane runs it (\p Lanes), or it
/// names a variable whose value in \p Env holds a per-lane value or an
/// object whose lost parts may vary (ObjectValue::LostVaries), or `this`
/// of such an object (\p This; null: not known, taken as per lane). A
/// kernel's parameters and variables of no value in \p Env (declared in
/// \p E, global) are the same in every lane.
bool computedPerLane(
    const clang::Expr *E, LaneIdentity &Lanes,
    const llvm::DenseMap<const clang::ValueDecl *, VarValue> &Env,
    const VarValue *This);

/// Whether \p V holds a per-lane value, or an object whose lost parts may
/// vary (ObjectValue::LostVaries), in itself or a field.
bool variesPerLane(const VarValue &V);

/// The inputs of the loop of \p State (CarriedState::LaneInputs) with those
/// of the opaque values its samples hold, when its passes compute from
/// nothing else: its sampled values hold no per-lane value that is not a
/// symbol of an input, a load, or a value opaque with inputs of its own.
/// Nullopt otherwise.
std::optional<std::vector<Expr>> loopInputs(const CarriedState &State,
                                            const OpaqueOrigins &Origins);

/// The most inputs an opaque value may have: each costs the prediction of
/// an access through it one more.
inline constexpr size_t MaxOpaqueInputs = 16;

/// Records in \p Inputs that the opaque per-lane symbol \p S, made for the
/// loop of \p State, is a function of loopInputs(): added to what an
/// earlier walk recorded for it; an empty list, for good, when some walk
/// found it is not (or it has more than MaxOpaqueInputs, or one holds S).
void recordOpaqueInputs(std::map<Symbol, std::vector<Expr>> &Inputs,
                        const Symbol &S, const CarriedState &State,
                        const std::map<Symbol, Expr> &LoadAddresses);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_LANEINPUTS_H
