//===- SharedArrays.h - Statically sized __shared__ arrays -------*- C++ -*-===//
//
// For the padding fix-it of a bank conflict (issue 27): a multi-dimensional
// __shared__ array of constant size, where its innermost dimension is
// written, and whether any code uses the array other than by subscripting
// it (then padding could change what that code sees).
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_FRONTEND_SHAREDARRAYS_H
#define COALESCE_FRONTEND_SHAREDARRAYS_H

#include "coalesce/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace coalesce {
namespace frontend {

/// The arrays of one translation unit, examined on first use.
class SharedArrays {
public:
  explicit SharedArrays(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  /// The array \p LV subscripts (`tile[i][j]`), when it is a __shared__
  /// variable of constant size with two or more dimensions written in a
  /// file; nullopt otherwise.
  std::optional<SharedArrayDecl> of(const clang::Expr *LV);

private:
  std::optional<SharedArrayDecl> examine(const clang::VarDecl *VD);

  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::VarDecl *, std::optional<SharedArrayDecl>> Seen;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_SHAREDARRAYS_H
