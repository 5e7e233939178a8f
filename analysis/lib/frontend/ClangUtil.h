//===- ClangUtil.h - Source locations and AST traversal ---------*- C++ -*-===//
///
/// \file
/// Helpers on clang's AST that the frontend's files share: locations as the
/// report states them, source text, and traversals of the declarations a
/// translation unit parsed (not those of the header cache's PCH) or of user
/// code only.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_FRONTEND_CLANGUTIL_H
#define COALESCE_LIB_FRONTEND_CLANGUTIL_H

#include "coalesce/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace coalesce {
namespace frontend {

/// Converts a clang location to a 1-based file/line/column (expansion
/// location for macros).
SourceLocation toLocation(const clang::SourceManager &SM,
                          clang::SourceLocation Loc);

/// The source text of \p R (expanded from macros when needed).
std::string sourceText(const clang::ASTContext &Ctx, clang::SourceRange R);

/// Traverses the declarations of the translation unit that were parsed, not
/// those in a precompiled header (the CUDA headers of the header cache hold
/// no user code): visiting those would deserialize every one of them and
/// cost most of what the cache saves. Without a PCH this is TraverseDecl on
/// every top-level declaration.
template <typename Visitor>
void traverseParsedDecls(Visitor &V, clang::ASTContext &Ctx) {
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
    V.TraverseDecl(D);
}

/// The function \p E names, through parentheses, casts and `&`
/// (`(void *)kernel`, `&launch1`); null when it names none.
const clang::FunctionDecl *namedFunction(const clang::Expr *E);

/// The variable local to its function (not a parameter) that \p E names,
/// through parentheses and implicit casts; null otherwise.
const clang::VarDecl *localVariable(const clang::Expr *E);

/// How a function uses a local array \p VD: the references to it, and of
/// them the element reads (`a[i]` as a value) and the plain element
/// assignments (`a[i] = v`). Any other use (`a[i]++`, `&a[i]`, `f(a)`, a
/// reference bound) may write it behind the walker's back.
struct ElementUses {
  unsigned Refs = 0, Reads = 0, Assigns = 0;
  /// Only element reads.
  bool onlyRead() const { return Refs == Reads; }
  /// Only element reads and assignments.
  bool elementWise() const { return Refs == Reads + Assigns; }
};
ElementUses elementUses(const clang::VarDecl *VD, const clang::Stmt *Body);

/// Is \p D declared in a system header (judged by its name's expansion
/// location, as the kernel search judges functions)?
bool inSystemHeader(const clang::SourceManager &SM, const clang::Decl *D);

/// Like traverseParsedDecls, but skips the declarations of system headers
/// (the CUDA headers without a PCH, cub, thrust, the C++ library): for
/// visitors that ignore every function declared there. Traversing thrust's
/// headers was 30% of the instructions of a program using it. Whatever a
/// system header includes is a system header too (clang gives an included
/// file the includer's characteristic at least), so no user declaration is
/// nested in a skipped one; a namespace a system header's macro opens in a
/// user file is judged by where the macro expands: the user file.
template <typename Visitor>
void traverseUserDecls(Visitor &V, clang::ASTContext &Ctx) {
  const clang::SourceManager &SM = Ctx.getSourceManager();
  for (clang::Decl *D : Ctx.getTranslationUnitDecl()->noload_decls())
    if (!inSystemHeader(SM, D))
      V.TraverseDecl(D);
}

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_LIB_FRONTEND_CLANGUTIL_H
