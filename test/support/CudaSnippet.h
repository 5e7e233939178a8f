//===- CudaSnippet.h - CUDA code parsed in memory, for tests -*- C++ -*-===//
///
/// \file
/// The unit tests that run one stage on a small CUDA snippet (the census,
/// the walker's transfer functions) parse it in memory as device code,
/// without the CUDA headers (each test spells out the attributes and
/// built-in variables it needs), and find the kernel by name.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TEST_SUPPORT_CUDASNIPPET_H
#define COALESCE_TEST_SUPPORT_CUDASNIPPET_H

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace coalesce {
namespace testutil {

/// Parses \p Code as CUDA device code for sm_90 (C++17; `__declspec` on,
/// for the properties clang's built-in variables are), with \p Headers
/// (path, contents) mapped into a virtual `/library` directory searched as
/// a system directory. Null when clang cannot build the AST.
inline std::unique_ptr<clang::ASTUnit> parseCudaSnippet(
    const std::string &Code,
    std::vector<std::pair<std::string, std::string>> Headers = {}) {
  return clang::tooling::buildASTFromCodeWithArgs(
      Code,
      {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
       "--cuda-gpu-arch=sm_90", "-std=c++17", "-fdeclspec",
       "-Wno-unknown-cuda-version", "-isystem", "/library"},
      "snippet.cu", "clang-tool",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), Headers);
}

/// The function named \p Name that has a body in \p AST (the last one
/// met); null when there is none.
inline const clang::FunctionDecl *findFunction(clang::ASTUnit &AST,
                                               llvm::StringRef Name) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    llvm::StringRef Name;
    const clang::FunctionDecl *Found = nullptr;
    bool VisitFunctionDecl(clang::FunctionDecl *FD) {
      if (FD->getName() == Name && FD->hasBody())
        Found = FD;
      return true;
    }
  } F;
  F.Name = Name;
  F.TraverseDecl(AST.getASTContext().getTranslationUnitDecl());
  return F.Found;
}

} // namespace testutil
} // namespace coalesce

#endif // COALESCE_TEST_SUPPORT_CUDASNIPPET_H
