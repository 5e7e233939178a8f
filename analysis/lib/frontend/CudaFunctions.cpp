//===- CudaFunctions.cpp - Looking up CudaFunctions.def --------------------===//
#include "CudaFunctions.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <utility>

namespace coalesce {
namespace frontend {

namespace {
/// The table as a hash map of exact names and a list of prefixes, built once
/// (immutable after; it is asked for every call the walker meets).
struct Table {
  llvm::StringMap<CudaFunction> Exact;
  std::vector<std::pair<llvm::StringRef, CudaFunction>> Prefixes;
  llvm::StringMap<CudaVariable> Variables;
  llvm::StringMap<CudaGroupType> Types;
  std::vector<std::pair<llvm::StringRef, CudaGroupType>> TypePrefixes;
  llvm::StringSet<> WalkedClasses;
  llvm::StringSet<> ParsedFunctions;

  Table() {
    using namespace cudaflag;
#define CUDA_FUNCTION(NAME, ROLE, FLAGS)                                       \
  Exact.try_emplace(NAME, CudaFunction{CudaRole::ROLE, FLAGS});
#define CUDA_PREFIX(PREFIX, ROLE, FLAGS)                                       \
  Prefixes.emplace_back(PREFIX, CudaFunction{CudaRole::ROLE, FLAGS});
#define CUDA_VARIABLE(NAME, ROLE)                                              \
  Variables.try_emplace(NAME, CudaVariable::ROLE);
#define CUDA_TYPE(NAME, ROLE) Types.try_emplace(NAME, CudaGroupType::ROLE);
#define CUDA_TYPE_PREFIX(PREFIX, ROLE)                                         \
  TypePrefixes.emplace_back(PREFIX, CudaGroupType::ROLE);
#define CUDA_WALKED_CLASS(NAME) WalkedClasses.insert(NAME);
#define CUDA_PARSED_FUNCTION(NAME) ParsedFunctions.insert(NAME);
#include "CudaFunctions.def"
  }
};

const Table &table() {
  static const Table T;
  return T;
}
} // namespace

namespace {
/// The row of \p Name: its exact name first, then the prefixes in table
/// order; a default row (role None) when none matches.
template <typename Row>
Row lookup(const llvm::StringMap<Row> &Exact,
           llvm::ArrayRef<std::pair<llvm::StringRef, Row>> Prefixes,
           llvm::StringRef Name) {
  if (auto It = Exact.find(Name); It != Exact.end())
    return It->second;
  for (const auto &[Prefix, R] : Prefixes)
    if (Name.starts_with(Prefix))
      return R;
  return Row{};
}
} // namespace

CudaFunction cudaFunction(llvm::StringRef Name) {
  return lookup<CudaFunction>(table().Exact, table().Prefixes, Name);
}

CudaVariable cudaVariable(llvm::StringRef Name) {
  return table().Variables.lookup(Name);
}

CudaGroupType cudaGroupType(llvm::StringRef Name) {
  return lookup<CudaGroupType>(table().Types, table().TypePrefixes, Name);
}

bool isWalkedLibraryClass(llvm::StringRef Name) {
  return table().WalkedClasses.contains(Name);
}

bool isParsedLibraryFunction(llvm::StringRef Name) {
  return table().ParsedFunctions.contains(Name);
}

CudaFunction cudaFunction(const clang::CallExpr *CE) {
  if (const clang::FunctionDecl *FD = CE->getDirectCallee())
    if (const clang::IdentifierInfo *II = FD->getIdentifier())
      return cudaFunction(II->getName());
  return {};
}

bool isLibraryAtomic(const clang::FunctionDecl *Method) {
  const auto *MD = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(Method);
  if (!MD || !MD->getParent()->getIdentifier() ||
      !MD->getParent()->getName().contains("atomic"))
    return false;
  for (const clang::DeclContext *DC = MD->getParent()->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *NS = llvm::dyn_cast<clang::NamespaceDecl>(DC))
      if (NS->getIdentifier() &&
          (NS->getName() == "cuda" || NS->getName() == "std"))
        return true;
  return false;
}

} // namespace frontend
} // namespace coalesce
