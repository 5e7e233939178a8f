//===- ProbeSlice.h - The statements a loop's probe passes need -*- C++ -*-===//
//
// A loop's probe and sampled passes (LoopCarried.cpp) walk its body to learn
// what one pass does to the slots the loop carries, recording nothing. A
// statement of the body that can change none of those slots, nor anything
// a statement that does change them reads, cannot change what the passes
// learn: TransformerEngine's persistent top-k kernel carries only its
// double-buffered `loader` from one round to the next, and every pass over
// its rounds used to walk the whole top-k selection (radix passes, bucket
// loops, warp butterflies) again.
//
// The slice is a backward one over the top-level statements of the body,
// from their syntax alone: a statement is walked when it may write a slot
// that is needed, and then what it reads is needed too, to a fixpoint.
// Jumps, labels, `this`, lambda calls and inline assembly are always
// walked. A function whose locals another name may reach (an address
// taken, an array decayed to a pointer, a reference bound to a local, a
// capture by reference) is not sliced. A skipped statement that may store
// to memory still gives memory a new version, so that loads after it are
// not taken for the loads before it.
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_PROBESLICE_H
#define COALESCE_FRONTEND_PROBESLICE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <vector>

namespace coalesce {
namespace frontend {

/// What one statement may do to the walker's state, from its syntax.
struct StatementEffects {
  /// Local variables (and parameters) it may change: assigned, declared,
  /// stepped, an element stored, a non-const method called on them, bound
  /// to a non-const reference parameter or decayed into a call's pointer.
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> Writes;
  /// Local variables (and parameters) it names (a structured binding
  /// stands for the variable it is part of).
  llvm::SmallPtrSet<const clang::ValueDecl *, 8> Reads;
  /// Always walked: it may jump (break, continue, return, goto, a label, a
  /// call that does not return), or touch state its names do not show
  /// (`this`, a lambda or other callable object, inline assembly).
  bool Keep = false;
  /// It may store to memory (or call a function that may).
  bool MayStore = false;
};

/// The effects of each top-level statement of \p Body, in order.
std::vector<StatementEffects> statementEffects(const clang::CompoundStmt *Body);

/// Has \p Fn a local variable or parameter that another name may reach: its
/// address taken (`&x`, `&a[i]`), an array decayed to a pointer other than
/// by a subscript, a reference bound to it, or a lambda capturing it by
/// reference? Then no loop of \p Fn is sliced.
bool hasAliasedLocals(const clang::FunctionDecl *Fn);

/// Which statements of a body with \p Effects a probe pass walks, when
/// \p Needed (the slots outside the body that the passes follow) must come
/// out as the whole body would leave them: every statement that may write a
/// needed slot, with what it reads needed in turn, and every kept one.
/// Null when every statement is walked (nothing to skip).
std::optional<llvm::BitVector>
probeSlice(llvm::ArrayRef<StatementEffects> Effects,
           llvm::SmallPtrSet<const clang::ValueDecl *, 8> Needed);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_PROBESLICE_H
