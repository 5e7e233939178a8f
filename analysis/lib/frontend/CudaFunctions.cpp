//===- CudaFunctions.cpp - Looking up CudaFunctions.def --------------------===//
#include "CudaFunctions.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"

#include <utility>

namespace coalesce {
namespace frontend {

namespace {
/// The table as a hash map of exact names and a list of prefixes, built once
/// (immutable after; it is asked for every call the walker meets).
struct Table {
  llvm::StringMap<CudaFunction> Exact;
  std::vector<std::pair<llvm::StringRef, CudaFunction>> Prefixes;

  Table() {
    using namespace cudaflag;
#define CUDA_FUNCTION(NAME, ROLE, FLAGS)                                       \
  Exact.try_emplace(NAME, CudaFunction{CudaRole::ROLE, FLAGS});
#define CUDA_PREFIX(PREFIX, ROLE, FLAGS)                                       \
  Prefixes.emplace_back(PREFIX, CudaFunction{CudaRole::ROLE, FLAGS});
#include "CudaFunctions.def"
  }
};

const Table &table() {
  static const Table T;
  return T;
}
} // namespace

CudaFunction cudaFunction(llvm::StringRef Name) {
  const Table &T = table();
  if (auto It = T.Exact.find(Name); It != T.Exact.end())
    return It->second;
  for (const auto &[Prefix, Fn] : T.Prefixes)
    if (Name.starts_with(Prefix))
      return Fn;
  return {};
}

CudaFunction cudaFunction(const clang::CallExpr *CE) {
  if (const clang::FunctionDecl *FD = CE->getDirectCallee())
    if (const clang::IdentifierInfo *II = FD->getIdentifier())
      return cudaFunction(II->getName());
  return {};
}

} // namespace frontend
} // namespace coalesce
