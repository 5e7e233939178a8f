//===- WalkMemo.h - What a kernel's walk asks once per node -----*- C++ -*-===//
///
/// \file
/// The walk of one kernel asks the same questions of the same syntax again
/// and again (every pass of a loop, every inlined call of a function): the
/// answers that depend on the node alone, not on the state the walk is in,
/// are kept here, one map per question (KernelWalker::Memo).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_WALKMEMO_H
#define COALESCE_FRONTEND_WALKMEMO_H

#include "AbstractValues.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace coalesce {
namespace frontend {

struct WalkMemo {
  /// KernelWalker::mayChangeSlots().
  llvm::DenseMap<const clang::Stmt *, bool> ChangesSlots;
  /// KernelWalker::mayEndPass().
  llvm::DenseMap<const clang::Stmt *, bool> EndsPass;
  /// Whether a constructor of the field's class fills its array fields.
  llvm::DenseMap<const clang::FieldDecl *, bool> ConstructorSetArrays;
  /// Per array variable: its elements when it is a small array of integer
  /// constants that no code writes or lets escape (constantArrayElement).
  llvm::DenseMap<const clang::VarDecl *, std::optional<std::vector<int64_t>>>
      ConstantArrays;
  /// KernelWalker::constantValue().
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;
  /// Values of unchanged globals (KernelWalker::globalValue()).
  llvm::DenseMap<const clang::VarDecl *, std::optional<VarValue>> Globals;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_WALKMEMO_H
