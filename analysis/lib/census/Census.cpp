//===- Census.cpp - Every memory operation a kernel reaches ---------------===//
//
// The census's own rules, on the syntax alone:
//
//  - The code a kernel reaches: its body and, transitively, the bodies of
//    the functions, constructors, operators and lambdas it calls that are
//    defined in the user's files (not system headers). A call into a
//    system header or to a function without a body is a library call.
//  - A memory lvalue: a subscript, a dereference, a member through a
//    pointer (or through `this` in a method some call runs on memory), a
//    use of a reference bound to memory, a variable in device, shared or
//    constant memory. Only the outermost lvalue of a chain counts
//    (`p[i].x`, `a[i][j]`).
//  - Its use gives the operation: read (lvalue-to-rvalue, a copy, a
//    library call's reference parameter), write (assignment), both (compound
//    assignment, increment). Taking the address, binding a reference and
//    unevaluated operands are no operation; an lvalue bound to a user
//    function's reference parameter (or its `this`) makes that parameter a
//    memory reference in the callee.
//  - A library call given a pointer (atomics, intrinsics, memcpy, cub's
//    block primitives, curand), and inline assembly with a pointer operand:
//    an operation whose kind the census cannot see.
//
//===----------------------------------------------------------------------===//
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

using namespace clang;

namespace coalesce {
namespace census {
using clang::Expr;
namespace {

/// Is \p CE std::move(x), std::forward<T>(x) or a sibling: a call that
/// names its one argument and accesses nothing?
bool namesItsArgument(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || CE->getNumArgs() != 1)
    return false;
  switch (Callee->getBuiltinID()) {
  case Builtin::BImove:
  case Builtin::BImove_if_noexcept:
  case Builtin::BIforward:
  case Builtin::BIforward_like:
  case Builtin::BIas_const:
    return true;
  default:
    return false;
  }
}

coalesce::SourceLocation location(const SourceManager &SM,
                                  clang::SourceLocation Loc) {
  coalesce::SourceLocation Out;
  if (Loc.isInvalid())
    return Out;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.Line = P.getLine();
  Out.Column = P.getColumn();
  return Out;
}

/// The last character of the token at \p Loc's expansion.
coalesce::SourceLocation endLocation(const ASTContext &Ctx,
                                     clang::SourceLocation Loc) {
  const SourceManager &SM = Ctx.getSourceManager();
  clang::SourceLocation End = SM.getExpansionRange(Loc).getEnd();
  coalesce::SourceLocation Out = location(SM, End);
  if (unsigned Len = Lexer::MeasureTokenLength(End, SM, Ctx.getLangOpts()))
    Out.Column += Len - 1;
  return Out;
}

std::string text(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = SM.getExpansionRange(R);
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

const Expr *skipParens(const Expr *E) {
  while (const auto *P = dyn_cast<ParenExpr>(E))
    E = P->getSubExpr();
  return E;
}

/// `this`, also converted to a base class (`this->end` of a field of a
/// base, which clang writes as an implicit derived-to-base cast).
bool isThis(const Expr *E) {
  return isa<CXXThisExpr>(E->IgnoreParenImpCasts());
}

/// threadIdx, blockIdx, blockDim, gridDim (and warpSize): declared by the
/// CUDA headers as device variables of special types, read from registers.
bool isCudaBuiltinVariable(const VarDecl *VD) {
  if (const auto *RD = VD->getType()->getAsCXXRecordDecl())
    if (const IdentifierInfo *II = RD->getIdentifier())
      if (II->getName().starts_with("__cuda_builtin_"))
        return true;
  return VD->getName() == "warpSize";
}

/// What the census knows of one function of the reached code.
struct FunctionFacts {
  /// Reference parameters some call binds to memory.
  llvm::SmallPtrSet<const ParmVarDecl *, 4> MemoryParams;
  /// Some call runs this method on an object in memory.
  bool ThisInMemory = false;
};

class CensusBuilder {
public:
  explicit CensusBuilder(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

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
  bool isMemoryLValue(const Expr *E, const FunctionDecl *FD, unsigned Depth = 0);
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

const char *CensusBuilder::rootRule(const Expr *E, const FunctionDecl *FD,
                                    unsigned Depth) {
  E = skipParens(E);
  if (isa<ArraySubscriptExpr>(E))
    return E->getType()->isArrayType() ? nullptr : "subscript";
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_Deref || E->getType()->isFunctionType())
      return nullptr;
    if (isThis(UO->getSubExpr()))
      return thisInMemory(FD) ? "dereference of this" : nullptr;
    return "dereference";
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()) || !ME->isArrow() ||
        E->getType()->isArrayType())
      return nullptr;
    if (isThis(ME->getBase()))
      return thisInMemory(FD) ? "member of this" : nullptr;
    return "member through a pointer";
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return nullptr;
    if (VD->getType()->isReferenceType()) {
      if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
        return memoryParam(FD, PVD) ? "reference" : nullptr;
      const Expr *Init = VD->getInit();
      return Init && Depth < 8 && isMemoryLValue(Init, FD, Depth + 1)
                 ? "reference"
                 : nullptr;
    }
    if (VD->getType()->isArrayType())
      return nullptr; // Read through a subscript.
    if (isCudaBuiltinVariable(VD))
      return nullptr; // threadIdx & co.: registers, not memory.
    if (VD->isConstexpr())
      return nullptr; // Folded at compile time.
    if (VD->hasGlobalStorage() &&
        (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDASharedAttr>() ||
         VD->hasAttr<CUDAConstantAttr>() || VD->isStaticLocal()))
      return "variable in device memory";
    return nullptr;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // A user function returning a reference into memory.
    const FunctionDecl *Def = userDefinition(CE->getDirectCallee());
    if (!Def || !Def->getReturnType()->isReferenceType() || Depth >= 4)
      return nullptr;
    struct Returns : RecursiveASTVisitor<Returns> {
      std::vector<const Expr *> Values;
      bool VisitReturnStmt(ReturnStmt *RS) {
        if (RS->getRetValue())
          Values.push_back(RS->getRetValue());
        return true;
      }
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    } R;
    R.TraverseStmt(Def->getBody());
    for (const Expr *V : R.Values) {
      const Expr *Ret = skipParens(V->IgnoreImplicit());
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Ret))
        if (const auto *PVD = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
          unsigned I = PVD->getFunctionScopeIndex();
          unsigned Shift = isa<CXXOperatorCallExpr>(CE) &&
                                   isa<CXXMethodDecl>(Def)
                               ? 1
                               : 0;
          if (I + Shift < CE->getNumArgs() &&
              isMemoryLValue(CE->getArg(I + Shift), FD, Depth + 1))
            return "reference returned by a call";
          continue;
        }
      if (rootRule(Ret, Def, Depth + 1) || isMemoryLValue(Ret, Def, Depth + 1))
        return "reference returned by a call";
    }
    return nullptr;
  }
  return nullptr;
}

bool CensusBuilder::isMemoryLValue(const Expr *E, const FunctionDecl *FD,
                                   unsigned Depth) {
  if (Depth > 8)
    return false;
  E = skipParens(E->IgnoreImplicit());
  if (rootRule(E, FD, Depth))
    return true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return isMemoryLValue(ASE->getBase(), FD, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isMemoryLValue(ME->getBase(), FD, Depth + 1);
  if (const auto *ECE = dyn_cast<ExplicitCastExpr>(E))
    return ECE->isGLValue() && isMemoryLValue(ECE->getSubExpr(), FD, Depth + 1);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return CO->isGLValue() && (isMemoryLValue(CO->getTrueExpr(), FD, Depth + 1) ||
                               isMemoryLValue(CO->getFalseExpr(), FD, Depth + 1));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getType()->isArrayType() && VD->hasGlobalStorage() &&
             (VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDASharedAttr>() ||
              VD->hasAttr<CUDAConstantAttr>() || VD->isStaticLocal());
  return false;
}

void CensusBuilder::addEntry(const Expr *Root, const Expr *Outer, unsigned Ops,
                             const char *Rule) {
  Entry En;
  En.Ops = Ops;
  En.Rule = Rule;
  // Every node from the outermost lvalue down its chain of bases.
  for (const Expr *E = Outer; E;) {
    En.Anchors.push_back(location(SM, E->getBeginLoc()));
    E = skipParens(E) != E ? skipParens(E) : E;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      E = ICE->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
             ASE && E != Root)
      E = ASE->getBase();
    else
      break;
    if (E == Root) {
      En.Anchors.push_back(location(SM, E->getBeginLoc()));
      break;
    }
  }
  En.Anchors.push_back(location(SM, Root->getBeginLoc()));
  En.Begin = En.Anchors.front();
  En.Expression = text(Ctx, Outer->getSourceRange());
  auto Key = std::make_tuple(
      SM.getExpansionLoc(Outer->getBeginLoc()).getRawEncoding(), Ops, Rule);
  if (Seen.insert(Key).second)
    Entries.push_back(std::move(En));
}

void CensusBuilder::addRangeEntry(const Stmt *S, const char *Rule) {
  Entry En;
  En.Begin = location(SM, S->getBeginLoc());
  En.End = endLocation(Ctx, S->getEndLoc());
  En.Rule = Rule;
  En.Expression = text(Ctx, S->getSourceRange());
  auto Key = std::make_tuple(
      SM.getExpansionLoc(S->getBeginLoc()).getRawEncoding(), 0u, Rule);
  if (Seen.insert(Key).second)
    Entries.push_back(std::move(En));
}

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

bool BodyVisitor::TraverseLambdaExpr(LambdaExpr *LE) {
  // A lambda held in a variable (`auto matmul_a8 = [&](int k) {...}` of
  // Marlin's kernels) runs where it is called: its body is reached through
  // those calls (VisitCallExpr), and not at all in an instantiation that
  // calls it only in a discarded `if constexpr` branch. Its init-captures
  // are evaluated here. A lambda used in place (an argument, often of a
  // library primitive that calls it) is scanned where it is written.
  const Stmt *P = parent(LE);
  while (P && (isa<ImplicitCastExpr>(P) || isa<MaterializeTemporaryExpr>(P) ||
               isa<CXXBindTemporaryExpr>(P) || isa<ExprWithCleanups>(P) ||
               isa<CXXConstructExpr>(P)))
    P = parent(P);
  if (!P || !isa<DeclStmt>(P))
    return RecursiveASTVisitor::TraverseLambdaExpr(LE);
  for (unsigned I = 0; I < LE->capture_size(); ++I)
    if (LE->capture_begin()[I].capturesVariable() &&
        LE->capture_begin()[I].getCapturedVar()->isInitCapture())
      TraverseStmt(LE->capture_init_begin()[I]);
  return true;
}

bool BodyVisitor::VisitExpr(Expr *E) {
  const char *Rule = B.rootRule(E, FD);
  if (!Rule || isa<ParenExpr>(E))
    return true;
  // Climb to the outermost lvalue of the chain; if it holds another
  // memory lvalue (`p[i]` in `p[i].a[j]`), that one is the entry.
  const Expr *L = E;
  for (;;) {
    const Stmt *P = parent(L);
    const auto *PE = dyn_cast_or_null<Expr>(P);
    if (!PE)
      break;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(PE)) {
      CastKind K = ICE->getCastKind();
      if (K == CK_NoOp || K == CK_DerivedToBase ||
          K == CK_UncheckedDerivedToBase) {
        L = ICE;
        continue;
      }
      if (K == CK_ArrayToPointerDecay)
        if (const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(parent(ICE));
            ASE && ASE->getBase() == ICE) {
          if (B.rootRule(ASE, FD))
            return true;
          L = ASE;
          continue;
        }
      break;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(PE);
        ME && !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl())) {
      L = ME;
      continue;
    }
    // std::move(x), std::forward<T>(x) name x: what is done to the call
    // is done to x.
    if (const auto *CE = dyn_cast<CallExpr>(PE); CE && namesItsArgument(CE)) {
      L = CE;
      continue;
    }
    // An lvalue seen as another type (`reinterpret_cast<T &>(*this)`).
    if (const auto *ECE = dyn_cast<ExplicitCastExpr>(PE);
        ECE && ECE->isGLValue()) {
      L = ECE;
      continue;
    }
    // `c ? a[i] : b[j]` as an lvalue: what is done to it is done to an arm.
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(PE);
        CO && CO->isGLValue() && CO->getCond()->IgnoreParens() != L) {
      L = CO;
      continue;
    }
    break;
  }
  if (L->getType()->isArrayType())
    return true; // Decays to an address, or is bound whole.
  if (std::optional<unsigned> Ops = useOf(L))
    B.addEntry(E, L, *Ops, Rule);
  return true;
}

std::optional<unsigned> BodyVisitor::useOf(const Expr *L) {
  const Stmt *P = parent(L);
  // The end of a full expression that destroys temporaries (`v +=
  // cw_mul(a, b)` of Warp's solid_angle.h) is where L is used.
  while (P && isa<FullExpr>(P))
    P = parent(P);
  if (!P)
    return std::nullopt;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(P)) {
    switch (ICE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_LValueToRValueBitCast:
    case CK_AtomicToNonAtomic:
      return LoadOp;
    case CK_ArrayToPointerDecay:
    case CK_FunctionToPointerDecay:
      return std::nullopt;
    default:
      return AnyOp;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf)
      return std::nullopt;
    if (UO->isIncrementDecrementOp())
      return LoadOp | StoreOp;
    return AnyOp;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->getLHS()->IgnoreParens() != L)
      return AnyOp;
    if (BO->getOpcode() == BO_Assign)
      return StoreOp;
    if (BO->isCompoundAssignmentOp())
      return LoadOp | StoreOp;
    if (BO->getOpcode() == BO_Comma)
      return std::nullopt;
    return AnyOp;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(P)) {
    // A static data member or an enumerator named through an object
    // (`elh.numBins` of cuBQL's builders): the object is not read.
    if (isa<VarDecl, EnumConstantDecl>(ME->getMemberDecl()))
      return std::nullopt;
    // The object of a method call.
    if (const auto *MCE = dyn_cast_or_null<CXXMemberCallExpr>(parent(ME));
        MCE && MCE->getCallee()->IgnoreParens() == ME)
      return argumentUse(L, MCE, 0, /*Object=*/true);
    return AnyOp;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (CE->getArg(I)->IgnoreParens() == L)
        return argumentUse(L, CE, I, /*Object=*/false);
    return AnyOp;
  }
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(P)) {
    // A copy (or a constructor taking a reference).
    const CXXConstructorDecl *Ctor = CCE->getConstructor();
    const FunctionDecl *Def = B.userDefinition(Ctor);
    for (unsigned I = 0; I < CCE->getNumArgs(); ++I)
      if (CCE->getArg(I)->IgnoreParens() == L) {
        bool ByReference =
            I < Ctor->getNumParams() &&
            Ctor->getParamDecl(I)->getType()->isReferenceType();
        if (Def && ByReference) {
          B.markParam(Def, I);
          return std::nullopt;
        }
        // A library object keeping a reference (cub's TempStorage &) does
        // its accesses in the calls made on it; a copy reads.
        if (!Def && ByReference && !Ctor->isCopyOrMoveConstructor())
          return std::nullopt;
        return LoadOp;
      }
    return LoadOp;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(P)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D);
          VD && VD->getType()->isReferenceType())
        return std::nullopt; // Its uses are the entries.
    return AnyOp;
  }
  if (isa<ReturnStmt>(P))
    return FD->getReturnType()->isReferenceType() ? std::nullopt
                                                  : std::optional<unsigned>(AnyOp);
  if (isa<CompoundStmt>(P) || isa<NullStmt>(P))
    return std::nullopt; // A discarded lvalue: not read.
  if (isa<MaterializeTemporaryExpr>(P) || isa<InitListExpr>(P) ||
      isa<CXXStdInitializerListExpr>(P))
    return LoadOp;
  return AnyOp;
}

std::optional<unsigned> BodyVisitor::argumentUse(const Expr *L,
                                                 const CallExpr *CE,
                                                 unsigned I, bool Object) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = B.userDefinition(Callee);
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  bool OperatorMethod = isa<CXXOperatorCallExpr>(CE) && Method &&
                        !Method->isStatic() && !Method->isExplicitObjectMemberFunction();
  bool IsObject = Object || (OperatorMethod && I == 0);
  if (Def) {
    if (IsObject) {
      B.markThis(Def);
      return std::nullopt;
    }
    unsigned P = OperatorMethod ? I - 1 : I;
    if (P < Def->getNumParams() &&
        Def->getParamDecl(P)->getType()->isReferenceType()) {
      B.markParam(Def, P);
      return std::nullopt;
    }
    return LoadOp;
  }
  // Library code or no body: the operation is at the argument.
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE); OCE && I == 0) {
    OverloadedOperatorKind K = OCE->getOperator();
    if (K == OO_Equal)
      return StoreOp;
    if (K == OO_PlusEqual || K == OO_MinusEqual || K == OO_StarEqual ||
        K == OO_SlashEqual || K == OO_PercentEqual || K == OO_CaretEqual ||
        K == OO_AmpEqual || K == OO_PipeEqual || K == OO_LessLessEqual ||
        K == OO_GreaterGreaterEqual || K == OO_PlusPlus || K == OO_MinusMinus)
      return LoadOp | StoreOp;
    if (K == OO_Subscript || K == OO_Arrow || K == OO_Call)
      return AnyOp;
    return LoadOp;
  }
  if (IsObject)
    return Method && Method->isConst() ? LoadOp : AnyOp;
  if (Callee) {
    unsigned P = OperatorMethod ? I - 1 : I;
    if (P < Callee->getNumParams()) {
      QualType T = Callee->getParamDecl(P)->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        return AnyOp;
    }
  }
  return LoadOp;
}

/// Is \p Arg a pointer the census counts for a library call (not a string
/// literal, a null pointer or a function)?
bool countedPointer(ASTContext &Ctx, const Expr *Arg) {
  QualType T = Arg->getType();
  if (!T->isPointerType() || T->getPointeeType()->isFunctionType())
    return false;
  const Expr *E = Arg->IgnoreParenImpCasts();
  // String literals and __PRETTY_FUNCTION__ (assert's arguments) are text.
  return !isa<StringLiteral>(E) && !isa<PredefinedExpr>(E) &&
         !Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
}

bool BodyVisitor::VisitCallExpr(CallExpr *CE) {
  if (isa<CUDAKernelCallExpr>(CE))
    return true;
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (const FunctionDecl *Def = B.userDefinition(Callee)) {
    B.reach(Def);
    return true;
  }
  if (!Callee) {
    // A call through a function pointer or a lambda object: its target
    // is reached where the census can see it (the lambda's operator()).
    return true;
  }
  bool Pointer = false;
  for (const Expr *Arg : CE->arguments())
    Pointer |= countedPointer(B.Ctx, Arg);
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    if (const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens());
        ME && ME->isArrow() && !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      Pointer = true;
  if (Pointer)
    B.addRangeEntry(CE, Callee->hasBody() ||
                                B.SM.isInSystemHeader(
                                    B.SM.getExpansionLoc(Callee->getLocation()))
                            ? "library call with a pointer"
                            : "call with a pointer to a function without a body");
  return true;
}

bool BodyVisitor::VisitCXXConstructExpr(CXXConstructExpr *CCE) {
  if (const FunctionDecl *Def = B.userDefinition(CCE->getConstructor()))
    B.reach(Def);
  return true;
}

bool BodyVisitor::VisitGCCAsmStmt(GCCAsmStmt *AS) {
  bool Pointer = false;
  for (unsigned I = 0; I < AS->getNumInputs(); ++I)
    Pointer |= countedPointer(B.Ctx, AS->getInputExpr(I));
  for (unsigned I = 0; I < AS->getNumOutputs(); ++I)
    Pointer |= countedPointer(B.Ctx, AS->getOutputExpr(I));
  if (Pointer)
    B.addRangeEntry(AS, "inline assembly with a pointer operand");
  return true;
}

void CensusBuilder::scan(const FunctionDecl *FD) {
  auto ScanTree = [&](Stmt *S) {
    if (!S)
      return;
    ParentMap PM(S);
    BodyVisitor V(*this, FD, PM);
    V.TraverseStmt(S);
  };
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() || Init->isAnyMemberInitializer())
        ScanTree(Init->getInit());
  ScanTree(FD->getBody());
}

} // namespace

std::vector<Entry> takeCensus(ASTContext &Ctx, const FunctionDecl *Kernel) {
  CensusBuilder B(Ctx);
  return B.run(Kernel);
}

} // namespace census
} // namespace coalesce
