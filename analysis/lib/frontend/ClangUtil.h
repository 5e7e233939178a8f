//===- ClangUtil.h - Source locations and AST traversal ---------*- C++ -*-===//
///
/// \file
/// Helpers on clang's AST that the frontend's files share: locations as the
/// report states them, source text, and traversals of the declarations a
/// translation unit parsed (not those of the header cache's PCH) or of user
/// code only; what an expression or a declaration is, by its syntax alone
/// (`std::move(x)`, `&a[i]`, `this`, a launch, an operator method call).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_FRONTEND_CLANGUTIL_H
#define COALESCE_LIB_FRONTEND_CLANGUTIL_H

#include "coalesce/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/LambdaCapture.h"
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

/// The object of the thread's own memory \p E is or is a member of: the
/// local variable or by-value parameter at the root of `a.b.c` (through
/// parentheses and implicit casts); null for anything else (`p->b`, a
/// reference, a global). `this.b` gives \p This.
const clang::VarDecl *localObject(const clang::Expr *E,
                                  const clang::VarDecl *This);

/// How a function uses a local array \p VD: the references to it, and of
/// them the element reads (`a[i]` as a value) and the plain element
/// assignments (`a[i] = v`). Any other use (`a[i]++`, `&a[i]`, `f(a)`, a
/// reference bound) may write it behind the walker's back.
struct ElementUses {
  unsigned Refs = 0, Reads = 0, Assigns = 0;
  /// Compound assignments of an element (`p[i] += d`).
  unsigned Updates = 0;
  /// Only element reads.
  bool onlyRead() const { return Refs == Reads; }
  /// Only element reads, assignments and compound assignments.
  bool elementWise() const { return Refs == Reads + Assigns + Updates; }
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

/// A local (non-global, non-reference) variable named by \p E, if any.
const clang::VarDecl *localScalar(const clang::Expr *E);
/// Builtins that return their pointer argument and access nothing
/// (__builtin_assume_aligned, __builtin_launder).
bool isPointerIdentityBuiltin(const clang::CallExpr *CE);
/// The argument of `std::move(x)`, `std::forward<T>(x)` (and
/// move_if_noexcept, forward_like, as_const): the same object; else null.
const clang::Expr *identityCallArgument(const clang::Expr *E);
/// The name of \p FD without inline namespaces (cub::CUB_200700_SM_900,
/// cooperative_groups::__v1, nvcuda::wmma).
std::string plainName(const clang::FunctionDecl *FD);
/// Is \p CE a call of a non-static method written as an operator (`L[i]`,
/// a lambda's `f(x)`): its first argument is then the object, not a
/// parameter.
bool isOperatorMethodCall(const clang::CallExpr *CE,
                          const clang::FunctionDecl *Callee);
/// Is \p CE a kernel launch (`k<<<g, b>>>(..)`, cudaLaunchKernel, ...)?
bool isLaunchCall(const clang::CallExpr *CE);
/// The lvalue \p Ptr takes the address of (`&a[i]` -> `a[i]`, through
/// parentheses and casts): where an access through \p Ptr is anchored.
/// Null when \p Ptr is not an address-of.
const clang::Expr *addressOfOperand(const clang::Expr *Ptr);
/// \p E is `this`, maybe cast to a base or a derived class (CRTP's
/// `static_cast<const outer_t *>(this)`).
bool isThis(const clang::Expr *E);
/// \p E without its `.` member accesses (`a[i].f.g` -> `a[i]`), through
/// parentheses and implicit casts; an `->` access stops it and is what is
/// returned.
const clang::Expr *stripDotMembers(const clang::Expr *E);
/// Does \p E name memory (`a[i]`, `s.f`, `p->f`, `*p`) rather than
/// compute a value?
bool isMemoryRead(const clang::Expr *E);
/// The object \p Init copies, through temporaries, functional casts and
/// copy or move constructors (`fastdiv(n, ne01)` taking a uint3 by value:
/// `ne01`); \p Init itself, unwrapped, when it copies nothing.
const clang::Expr *copySource(const clang::Expr *Init);

/// \p LV without the parentheses and the no-op, derived-to-base and
/// base-to-derived casts (implicit, or written as `static_cast<const
/// outer_t &>(*this)` of CRTP) that name the same object.
const clang::Expr *slotExpr(const clang::Expr *LV);

/// The pointer expression an lvalue goes through (a in a[i], p in p->x and
/// *p), for naming what could not be followed; null for any other lvalue.
const clang::Expr *pointerOperand(const clang::Expr *LV);

/// The unqualified record type \p T names, if any (through references).
const clang::RecordDecl *recordOf(clang::QualType T);

/// Whether \p D is a parameter of a `__global__` function.
bool isKernelParameter(const clang::ValueDecl *D);

/// The value a reference bound to a temporary names: \p E without its
/// parentheses and MaterializeTemporaryExpr (`p + off` bound to
/// `Iterator const &`).
const clang::Expr *temporaryOf(const clang::Expr *E);

/// Is \p T (through references) a struct or class the walker holds as an
/// object value?
bool isRecordValueType(clang::QualType T);

/// Is \p E a null pointer of pointer type (`nullptr`, `NULL`, `0`)? A
/// null pointer is never dereferenced where the code runs, so where paths
/// join it is absent (VarValue::Uninitialized), like a declaration's
/// missing initializer.
inline bool isNullPointer(const clang::Expr *E, clang::ASTContext &Ctx) {
  return E->getType()->isPointerType() &&
         E->isNullPointerConstant(Ctx,
                                  clang::Expr::NPC_ValueDependentIsNotNull);
}

/// Is \p C a lambda's init-capture (`[s = scale[i]]`), whose initializer
/// is evaluated where the lambda is made?
inline bool isInitCapture(const clang::LambdaCapture &C) {
  return C.capturesVariable() && C.getCapturedVar()->isInitCapture();
}

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_LIB_FRONTEND_CLANGUTIL_H
