//===- CudaFunctions.cpp - Looking up CudaFunctions.def --------------------===//
#include "CudaFunctions.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringSwitch.h"

namespace coalesce {
namespace frontend {

CudaFunction cudaFunction(llvm::StringRef Name) {
  using namespace cudaflag;
  // Two switches: every exact name before any prefix (StringSwitch keeps
  // the first case that matches, in the order written).
  CudaFunction Exact = llvm::StringSwitch<CudaFunction>(Name)
#define CUDA_FUNCTION(NAME, ROLE, FLAGS)                                       \
  .Case(NAME, CudaFunction{CudaRole::ROLE, FLAGS})
#include "CudaFunctions.def"
                           .Default(CudaFunction{});
  if (Exact.Role != CudaRole::None)
    return Exact;
  return llvm::StringSwitch<CudaFunction>(Name)
#define CUDA_PREFIX(PREFIX, ROLE, FLAGS)                                       \
  .StartsWith(PREFIX, CudaFunction{CudaRole::ROLE, FLAGS})
#include "CudaFunctions.def"
      .Default(CudaFunction{});
}

CudaFunction cudaFunction(const clang::CallExpr *CE) {
  if (const clang::FunctionDecl *FD = CE->getDirectCallee())
    if (const clang::IdentifierInfo *II = FD->getIdentifier())
      return cudaFunction(II->getName());
  return {};
}

} // namespace frontend
} // namespace coalesce
