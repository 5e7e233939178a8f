//===- CensusInternal.h - The census's builder and body visitor -*- C++ -*-===//
//
// Shared by Census.cpp (what the kernel reaches, which lvalues are memory,
// the entries) and CensusUses.cpp (what each use of a memory lvalue does,
// calls, constructors, inline assembly). Internal to the census stage.
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_CENSUS_CENSUSINTERNAL_H
#define COALESCE_LIB_CENSUS_CENSUSINTERNAL_H

#include "census/Census.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <fmt/format.h>

#include <memory>
#include <set>
#include <tuple>

namespace coalesce {
namespace census {
namespace detail {
using namespace clang;
using clang::Expr;

/// Is \p CE std::move(x), std::forward<T>(x) or a sibling: a call that
/// names its one argument and accesses nothing?
bool namesItsArgument(const clang::CallExpr *CE);
/// \p Loc's expansion as a coalesce location.
coalesce::SourceLocation location(const clang::SourceManager &SM,
                                  clang::SourceLocation Loc);
/// The last character of the token at \p Loc's expansion.
coalesce::SourceLocation endLocation(const clang::ASTContext &Ctx,
                                     clang::SourceLocation Loc);
/// The source text of \p R.
std::string text(const clang::ASTContext &Ctx, clang::SourceRange R);
/// \p E without the parentheses around it.
const clang::Expr *skipParens(const clang::Expr *E);
/// `this`, also converted to a base class.
bool isThis(const clang::Expr *E);
/// threadIdx, blockIdx, blockDim, gridDim (and warpSize): registers.
bool isCudaBuiltinVariable(const clang::VarDecl *VD);

/// What the census knows of one function of the reached code.
struct FunctionFacts {
  /// Reference parameters some call binds to memory.
  llvm::SmallPtrSet<const ParmVarDecl *, 4> MemoryParams;
  /// Some call runs this method on an object in memory.
  bool ThisInMemory = false;
};

class CensusBuilder {
public:
  explicit CensusBuilder(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::vector<Entry> run(const FunctionDecl *Kernel) {
    reach(Kernel);
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.back();
      Work.pop_back();
      Queued.erase(FD);
      scan(FD);
    }
    return std::move(Entries);
  }

private:
  /// Is \p FD's body part of the reached code (the user's, with a body)?
  const FunctionDecl *userDefinition(const FunctionDecl *FD) const {
    if (!FD)
      return nullptr;
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def->getBody())
      return nullptr;
    // A defaulted copy, move or assignment copies the object: an operation
    // where it is called, not code of its own.
    if (Def->isDefaulted() || Def->isImplicit() || Def->isTrivial())
      return nullptr;
    if (SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
      return nullptr;
    return Def;
  }

  void queue(const FunctionDecl *Def) {
    if (Queued.insert(Def).second)
      Work.push_back(Def);
  }
  /// \p Def is part of the reached code.
  void reach(const FunctionDecl *Def) {
    if (Facts.try_emplace(Def).second)
      queue(Def);
  }
  /// A call binds memory to reference parameter \p I of \p Def: its uses
  /// become entries (scanned again when that is new).
  void markParam(const FunctionDecl *Def, unsigned I) {
    if (I < Def->getNumParams() &&
        Facts[Def].MemoryParams.insert(Def->getParamDecl(I)).second)
      queue(Def);
  }
  /// A call runs method \p Def on an object in memory.
  void markThis(const FunctionDecl *Def) {
    FunctionFacts &F = Facts[Def];
    if (!F.ThisInMemory) {
      F.ThisInMemory = true;
      queue(Def);
    }
  }
  bool thisInMemory(const FunctionDecl *FD) const {
    auto It = Facts.find(FD);
    return It != Facts.end() && It->second.ThisInMemory;
  }
  bool memoryParam(const FunctionDecl *FD, const ParmVarDecl *P) const {
    auto It = Facts.find(FD);
    return It != Facts.end() && It->second.MemoryParams.count(P);
  }

  void scan(const FunctionDecl *FD);
  friend class BodyVisitor;

  /// Is \p E (through parentheses) an lvalue in memory in function \p FD?
  bool isMemoryLValue(const Expr *E, const FunctionDecl *FD,
                      unsigned Depth = 0);
  /// The rule by which \p E is itself a memory lvalue (not through a
  /// subexpression), or null.
  const char *rootRule(const Expr *E, const FunctionDecl *FD,
                       unsigned Depth = 0);

  void addEntry(const Expr *Root, const Expr *Outer, unsigned Ops,
                const char *Rule);
  void addRangeEntry(const Stmt *S, const char *Rule);

  ASTContext &Ctx;
  const SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, FunctionFacts> Facts;
  std::vector<const FunctionDecl *> Work;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Queued;
  std::vector<Entry> Entries;
  std::set<std::tuple<unsigned, unsigned, const char *>> Seen;
};

/// Walks one body of the reached code.
class BodyVisitor : public RecursiveASTVisitor<BodyVisitor> {
public:
  BodyVisitor(CensusBuilder &B, const FunctionDecl *FD, const ParentMap &PM)
      : B(B), FD(FD), PM(PM) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldWalkTypesOfTypeLocs() const { return false; }
  bool shouldVisitLambdaBody() const { return false; }
  // (clang 22's LambdaExpr traversal walks the body whatever that says.)
  bool TraverseLambdaExpr(LambdaExpr *LE);

  // Unevaluated operands hold no operation.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc, bool = false) { return true; }
  // What clang could not build holds no operation anyone can see: the
  // kernel is not analyzed, or (a use of a __shared__ object clang rejects
  // and nvcc accepts, cuda::barrier) it is a use of shared memory.
  bool TraverseRecoveryExpr(RecoveryExpr *) { return true; }
  // Declarations nested in the body (local classes) are their own code.
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }
  bool TraverseIfStmt(IfStmt *IS) {
    if (!IS->isConstexpr())
      return RecursiveASTVisitor::TraverseIfStmt(IS);
    if (IS->getInit())
      TraverseStmt(IS->getInit());
    if (std::optional<Stmt *> Case = IS->getNondiscardedCase(B.Ctx))
      if (*Case)
        TraverseStmt(*Case);
    return true;
  }

  bool VisitExpr(Expr *E);
  bool VisitCallExpr(CallExpr *CE);
  bool VisitCXXConstructExpr(CXXConstructExpr *CCE);
  bool VisitGCCAsmStmt(GCCAsmStmt *AS);

private:
  const Stmt *parent(const Stmt *S) const {
    const Stmt *P = PM.getParent(S);
    while (P && isa<ParenExpr>(P))
      P = PM.getParent(P);
    return P;
  }
  /// The operation the use of memory lvalue \p L performs (as a mask), or
  /// nullopt when it performs none here (an address taken, a reference
  /// bound, a user callee that does the access itself).
  std::optional<unsigned> useOf(const Expr *L);
  /// \p L is argument \p I of call \p CE (or its object when \p Object).
  std::optional<unsigned> argumentUse(const Expr *L, const CallExpr *CE,
                                      unsigned I, bool Object);

  CensusBuilder &B;
  const FunctionDecl *FD;
  const ParentMap &PM;
};

/// Is \p Arg a pointer the census counts for a library call (not a string
/// literal, a null pointer or a function)?
bool countedPointer(ASTContext &Ctx, const Expr *Arg);

} // namespace detail
} // namespace census
} // namespace coalesce

#endif // COALESCE_LIB_CENSUS_CENSUSINTERNAL_H
