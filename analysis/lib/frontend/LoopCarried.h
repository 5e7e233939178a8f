//===- LoopCarried.h - The values a loop carries between passes -*- C++ -*-===//
///
/// \file
/// The state the walker keeps for one loop while it follows the values its
/// passes carry from one iteration to the next (LoopCarried.cpp): closed
/// forms where one pass adds a loop-invariant step, else the values of the
/// first iterations, sampled by walking the body that many times.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_LOOPCARRIED_H
#define COALESCE_FRONTEND_LOOPCARRIED_H

#include "AbstractValues.h"
#include "ProbeSlice.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace coalesce {
namespace frontend {

/// How many iterations a value without a closed form is sampled over.
inline constexpr unsigned LoopSampleCount = 8;
/// ...or over up to this many when the loop's condition stays a known
/// constant (a loop of fixed, small trip count).
inline constexpr unsigned MaxLoopSampleCount = 16;
/// How many probes or samplings of enclosing loops a loop of fixed trip
/// count may be sampled inside.
inline constexpr unsigned MaxNestedSampling = 1;
/// The loop-carried slots of one loop: what one pass of the body does to
/// each of their leaves, and their values at the first iterations where
/// that has no closed form (LoopCarried.cpp).
struct CarriedState {
  /// Per slot and leaf: a loop-invariant step (closed form start + step *
  /// iter).
  std::map<std::pair<const clang::ValueDecl *, LeafPath>, Expr> Steps;
  /// Leaves that become data loaded from memory (`p = next[p]`).
  std::set<std::pair<const clang::ValueDecl *, LeafPath>> Data;
  /// Per slot: its value after 0, 1, ... passes of the body from the loop's
  /// entry (the sampled iterations), when some leaf has no step.
  llvm::DenseMap<const clang::ValueDecl *, std::vector<VarValue>> Samples;
  /// Leaves whose sampled values grew past MaxCarriedNodes.
  std::set<std::pair<const clang::ValueDecl *, LeafPath>> TooLarge;
  /// Leaves that one pass leaves lane-dependent.
  std::set<std::pair<const clang::ValueDecl *, LeafPath>> Lane;
  /// Per slot: its leaves after one pass (fields it assigns included).
  llvm::DenseMap<const clang::ValueDecl *, std::vector<LeafPath>> Leaves;
  /// How many iterations the samples cover (fewer than LoopSampleCount
  /// when the condition ends the loop before).
  unsigned Iterations = LoopSampleCount;
  /// The loop's condition was false for every lane after Iterations
  /// passes: the samples cover every iteration that runs.
  bool Ended = false;
  /// The probe ran: Steps and Leaves describe every changed slot.
  bool Probed = false;
  /// When the samples reached the end of the loop (its condition false for
  /// every lane after Iterations passes): each changed slot's value there.
  std::optional<llvm::DenseMap<const clang::ValueDecl *, VarValue>> Exit;
  /// Inside another loop's probe or samples, when the samples reached the
  /// end of a loop no pass leaves early: the whole state after the last
  /// pass, which is the state after the loop (nothing is recorded there).
  std::shared_ptr<Frame> ExitFrame;
  /// Why its values at the loop's end are not known, where an unknown
  /// trip count is not the reason (empty: it is): its passes were not
  /// followed, or a break or return may end them early.
  std::string EndUnknown;
  /// The lane-dependent values at the loop's entry of the variables it
  /// names, when it does not read the lane running it (laneInputs()): what
  /// its opaque per-lane values are functions of, unless its samples show
  /// other per-lane values (loopInputs(), kept in Checked on first use).
  std::optional<std::vector<Expr>> LaneInputs;
  mutable std::optional<std::optional<std::vector<Expr>>> Checked;
};
/// How the passes of a sampled loop may end besides its condition.
struct LoopEnds {
  /// A do-while: the condition is first tested after a pass.
  bool CondAfterBody = false;
  /// A break of its own may end it: the lanes that break keep the values
  /// they had there.
  bool Break = false;
  /// A return or goto may leave it: its end is not followed.
  bool Other = false;
  /// Every pass ends in a break (`while (true) { ...; break; }`, a block
  /// with early exits): all lanes leave after the first pass.
  bool OnePass = false;
};

/// What the walker knows of the loops it is in, across inlined calls
/// (LoopWalk.cpp, LoopCarried.cpp, StatementLists.cpp).
struct LoopNest {
  /// Loop probes and sampled passes in progress (probeSteps()).
  unsigned ProbeDepth = 0;
  /// Numbers loops, to name a LoopIter symbol whose variable name is taken.
  unsigned Counter = 0;
  /// The loops whose bodies are being walked, outermost first: their
  /// counters and conditions (AccessPattern::Loops).
  std::vector<EnclosingLoop> Enclosing;
  /// Their bodies and their own conditions, in the same order: a leading
  /// `if (c) break;` of a body also ends its loop's passes (walkCompound),
  /// which narrows Enclosing's condition, not the loop's own.
  struct Body {
    const clang::Stmt *Stmt;
    Expr OwnCondition;
  };
  std::vector<Body> Bodies;
  /// The statements of a loop's body its probe and sampled passes walk
  /// (ProbeSlice.h), while they run: walkCompound skips the others.
  struct Slice {
    const llvm::BitVector *Walk;
    const std::vector<StatementEffects> *Effects;
  };
  llvm::DenseMap<const clang::CompoundStmt *, Slice> Slices;
};

/// The most distinct expression nodes (shared subtrees counted once) the
/// sampled values of one leaf may take.
inline constexpr size_t MaxCarriedNodes = 4000;

/// The local arrays a loop stores into, as KernelWalker::openLoopElements()
/// left them for closeLoopElements() (LoopElements.cpp).
struct LoopArrays {
  llvm::SmallVector<const clang::VarDecl *, 4> Stored;
  /// Arrays each pass uses at its own element only: how many stores before
  /// the loop were kept.
  llvm::SmallDenseMap<const clang::VarDecl *, size_t, 4> Kept;
  /// Arrays of pointers the loop only moves by lane-uniform amounts: the
  /// elements before it, and the byte offset they have moved by after it.
  struct Shift {
    std::shared_ptr<const LocalElements> Before;
    Expr After;
  };
  llvm::SmallDenseMap<const clang::VarDecl *, Shift, 2> Shifted;
  clang::SourceLocation Loc;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_LOOPCARRIED_H
