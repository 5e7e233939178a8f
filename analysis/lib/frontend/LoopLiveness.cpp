//===- LoopLiveness.cpp - Which values a loop carries to a later read -----===//

#include "LoopLiveness.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/LiveVariables.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace coalesce {
namespace frontend {

struct LoopLiveness::FunctionInfo {
  LiveVariables *Live = nullptr;
  /// Per loop statement: the block its condition ends (the loop's head).
  llvm::DenseMap<const Stmt *, const CFGBlock *> Heads;
  /// Local variables every mention of which the CFG's liveness follows: read
  /// as a value, assigned, incremented.
  llvm::DenseSet<const VarDecl *> Plain;
};

namespace {

/// The local variables of a function mentioned only as values, assignment
/// targets and increments: no address taken, no reference bound, no member
/// or element reached through them, not captured.
class PlainVariables : public RecursiveASTVisitor<PlainVariables> {
public:
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
      return true;
    Seen.insert(VD);
    if (DRE->refersToEnclosingVariableOrCapture() || !PlainUses.count(DRE))
      Escaped.insert(VD);
    return true;
  }
  // The parents of a plain use, met before it (pre-order).
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_LValueToRValue)
      markPlain(ICE->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      markPlain(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      markPlain(UO->getSubExpr());
    return true;
  }

  llvm::DenseSet<const VarDecl *> Seen, Escaped;

private:
  void markPlain(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
      PlainUses.insert(DRE);
  }

  llvm::DenseSet<const DeclRefExpr *> PlainUses;
};

} // namespace

LoopLiveness::LoopLiveness(ASTContext &Ctx)
    : Manager(std::make_unique<AnalysisDeclContextManager>(
          Ctx, /*useUnoptimizedCFG=*/true)) {
  // Every subexpression its own CFG element: the liveness transfer function
  // sees each variable reference only then.
  Manager->getCFGBuildOptions().setAllAlwaysAdd();
}

LoopLiveness::~LoopLiveness() = default;

const LoopLiveness::FunctionInfo &
LoopLiveness::infoFor(const FunctionDecl *Fn) {
  std::unique_ptr<FunctionInfo> &Info = Functions[Fn];
  if (Info)
    return *Info;
  Info = std::make_unique<FunctionInfo>();
  AnalysisDeclContext *ADC = Manager->getContext(Fn);
  const CFG *G = ADC ? ADC->getCFG() : nullptr;
  if (!G || !Fn->getBody())
    return *Info;
  Info->Live = ADC->getAnalysis<LiveVariables>();
  if (!Info->Live)
    return *Info;
  for (const CFGBlock *B : *G)
    if (const Stmt *T = B->getTerminatorStmt())
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(T))
        Info->Heads.try_emplace(T, B);
  PlainVariables V;
  V.TraverseStmt(Fn->getBody());
  for (const VarDecl *VD : V.Seen)
    if (!V.Escaped.count(VD))
      Info->Plain.insert(VD);
  return *Info;
}

bool LoopLiveness::carriedValueRead(const FunctionDecl *Fn, const Stmt *Loop,
                                    const ValueDecl *VD) {
  const auto *Var = dyn_cast<VarDecl>(VD);
  if (!Fn || !Loop || !Var)
    return true;
  const FunctionInfo &Info = infoFor(Fn);
  auto Head = Info.Heads.find(Loop);
  if (!Info.Live || Head == Info.Heads.end() || !Info.Plain.count(Var))
    return true;
  return Info.Live->isLive(Head->second, Var);
}

} // namespace frontend
} // namespace coalesce
