//===- LaunchConfig.cpp - Block shapes from launches and launch bounds ----===//
//
// The block shape a kernel runs with, by priority: --block, a launch
// kernel<<<grid, block>>> in the same translation unit whose dimensions are
// compile-time constants (dim3 block(BLOCK, BLOCK) with a #define works),
// __launch_bounds__(N) (a 1-D block of N threads), else an assumed 1-D block
// of 256 threads.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// A block dimension: a constant, or a local integer variable initialized
/// with one (`int block_size = BLOCK; dim3 b(block_size);`).
std::optional<int64_t> evaluateDimension(const clang::Expr *E, ASTContext &Ctx) {
  if (E->isValueDependent())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isLocalVarDecl() && VD->getType()->isIntegerType() &&
          VD->getInit() && !VD->getInit()->isValueDependent() &&
          VD->getInit()->EvaluateAsInt(R, Ctx))
        return R.Val.getInt().getExtValue();
  return std::nullopt;
}

/// The constant dimensions of a dim3 (or integer) launch argument.
std::optional<BlockShape> evaluateDim3(const clang::Expr *E, ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    E = MTE->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
    E = BTE->getSubExpr()->IgnoreParenImpCasts();
  // A copy of a variable: dim3 block(16, 16); k<<<g, block>>>.
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    if (CCE->getNumArgs() == 1 && CCE->getConstructor()->isCopyOrMoveConstructor())
      return evaluateDim3(CCE->getArg(0), Ctx);
    unsigned Dims[3] = {1, 1, 1};
    for (unsigned I = 0; I < CCE->getNumArgs() && I < 3; ++I) {
      const clang::Expr *A = CCE->getArg(I);
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      std::optional<int64_t> V = evaluateDimension(A, Ctx);
      if (!V || *V <= 0)
        return std::nullopt;
      Dims[I] = static_cast<unsigned>(*V);
    }
    return BlockShape{Dims[0], Dims[1], Dims[2]};
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getInit())
      return std::nullopt;
    if (VD->getType()->isIntegerType()) {
      clang::Expr::EvalResult R;
      if (!VD->getInit()->EvaluateAsInt(R, Ctx))
        return std::nullopt;
      return BlockShape{static_cast<unsigned>(R.Val.getInt().getZExtValue()), 1, 1};
    }
    return evaluateDim3(VD->getInit(), Ctx);
  }
  clang::Expr::EvalResult R;
  if (!E->isValueDependent() && E->getType()->isIntegerType() &&
      E->EvaluateAsInt(R, Ctx))
    return BlockShape{static_cast<unsigned>(R.Val.getInt().getZExtValue()), 1, 1};
  return std::nullopt;
}

class LaunchVisitor : public RecursiveASTVisitor<LaunchVisitor> {
public:
  explicit LaunchVisitor(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KCE) {
    const FunctionDecl *Callee = KCE->getDirectCallee();
    const CallExpr *Config = KCE->getConfig();
    if (!Callee || !Config || Config->getNumArgs() < 2)
      return true;
    auto &L = Found[Callee->getCanonicalDecl()];
    if (!L.first) {
      L.first = evaluateDim3(Config->getArg(1), Ctx);
      if (L.first)
        L.Loc = toLocation(Ctx.getSourceManager(), KCE->getBeginLoc());
    }
    if (!L.second)
      L.second = evaluateDim3(Config->getArg(0), Ctx);
    // Template kernels launched as k<float><<<...>>>: also key the template.
    if (const FunctionTemplateDecl *T = Callee->getPrimaryTemplate()) {
      auto &TL = Found[T->getTemplatedDecl()->getCanonicalDecl()];
      if (!TL.first)
        TL = L;
    }
    return true;
  }

  ASTContext &Ctx;
  struct Found3 {
    std::optional<BlockShape> first, second;
    coalesce::SourceLocation Loc;
  };
  llvm::DenseMap<const FunctionDecl *, Found3> Found;
};

} // namespace

LaunchConfigFinder::LaunchConfigFinder(ASTContext &Ctx) : Ctx(Ctx) {
  LaunchVisitor V(Ctx);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (auto &Entry : V.Found)
    Launches[Entry.first] = Launch{Entry.second.first, Entry.second.second,
                                   Entry.second.Loc};
}

coalesce::SourceLocation
LaunchConfigFinder::apply(const FunctionDecl *FD, KernelRecord &Kernel,
                          const AnalysisConfig &Config) const {
  auto It = Launches.find(FD->getCanonicalDecl());
  if (It == Launches.end())
    if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
      It = Launches.find(T->getTemplatedDecl()->getCanonicalDecl());
  if (It != Launches.end())
    Kernel.LaunchGrid = It->second.Grid;

  if (std::optional<BlockShape> User = Config.blockFor(Kernel.Name)) {
    Kernel.Block = *User;
    Kernel.BlockSource = BlockShapeSource::CommandLine;
    return {};
  }
  if (It != Launches.end() && It->second.Block && It->second.Block->threads()) {
    Kernel.Block = *It->second.Block;
    Kernel.BlockSource = BlockShapeSource::LaunchSite;
    return It->second.Loc;
  }
  if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
    clang::Expr::EvalResult R;
    if (LB->getMaxThreads() && !LB->getMaxThreads()->isValueDependent() &&
        LB->getMaxThreads()->EvaluateAsInt(R, Ctx)) {
      Kernel.Block = BlockShape{
          static_cast<unsigned>(R.Val.getInt().getZExtValue()), 1, 1};
      Kernel.BlockSource = BlockShapeSource::LaunchBounds;
      return {};
    }
  }
  Kernel.Block = BlockShape{256, 1, 1};
  Kernel.BlockSource = BlockShapeSource::Assumed;
  return {};
}

std::vector<KernelParameter> describeParameters(const FunctionDecl *FD) {
  std::vector<KernelParameter> Params;
  ASTContext &Ctx = FD->getASTContext();
  for (const ParmVarDecl *P : FD->parameters()) {
    KernelParameter KP;
    KP.Name = P->getName().str();
    QualType T = P->getType();
    KP.Type = T.getAsString(Ctx.getPrintingPolicy());
    if (!T->isDependentType() && !T->isIncompleteType())
      KP.Bytes = static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
    if (T->isPointerType()) {
      KP.ParamKind = KernelParameter::Kind::Pointer;
      QualType Pointee = T->getPointeeType();
      KP.PointeeType =
          Pointee.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
      KP.PointeeBytes =
          Pointee->isVoidType() || Pointee->isIncompleteType() ||
                  Pointee->isDependentType()
              ? 1
              : static_cast<unsigned>(
                    Ctx.getTypeSizeInChars(Pointee).getQuantity());
    } else if (T->isIntegralOrEnumerationType()) {
      KP.ParamKind = KernelParameter::Kind::Integer;
      KP.IsSigned = T->isSignedIntegerOrEnumerationType();
    } else if (T->isRealFloatingType()) {
      KP.ParamKind = KernelParameter::Kind::Floating;
    }
    Params.push_back(std::move(KP));
  }
  return Params;
}

} // namespace frontend
} // namespace coalesce
