//===- LoopLiveness.h - Which values a loop carries to a read -*- C++ -*-===//
//
// A loop's walker samples the slots the loop changes without a closed form,
// pass after pass of its body. A slot whose value at the loop's head nothing
// reads (the body assigns it before any read on every path, and so does the
// code after the loop: an inner loop's `i`, a flag reset at each attempt)
// needs no samples. Clang's live-variable analysis on the function's CFG
// answers which, for the variables it sees completely.
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_FRONTEND_LOOPLIVENESS_H
#define COALESCE_FRONTEND_LOOPLIVENESS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace clang {
class AnalysisDeclContextManager;
} // namespace clang

namespace coalesce {
namespace frontend {

/// Per function, built on first use: its CFG, the liveness of its local
/// variables, and the loops' head blocks.
class LoopLiveness {
public:
  explicit LoopLiveness(clang::ASTContext &Ctx);
  ~LoopLiveness();

  /// May the value \p VD holds at the head of \p Loop (a for, while, do or
  /// range-for statement in the body of \p Fn) be read, by a later pass or
  /// after the loop? True unless the CFG shows it cannot: a variable whose
  /// address is taken, that is bound to a reference, captured or held
  /// through a member, or a loop the CFG does not show, counts as read.
  bool carriedValueRead(const clang::FunctionDecl *Fn, const clang::Stmt *Loop,
                        const clang::ValueDecl *VD);

private:
  struct FunctionInfo;
  const FunctionInfo &infoFor(const clang::FunctionDecl *Fn);

  std::unique_ptr<clang::AnalysisDeclContextManager> Manager;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionInfo>>
      Functions;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_LOOPLIVENESS_H
