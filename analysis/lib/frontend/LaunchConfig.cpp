//===- LaunchConfig.cpp - Launch shapes and arguments from host code ------===//
//
// Host functions that launch kernels (`k<<<g, b>>>(..)`, cudaLaunchKernel,
// cudaLaunchCooperativeKernel, cudaLaunchKernelEx) are walked by the same
// KernelWalker that walks kernels, in host mode: it follows locals, `dim3`
// fields assigned after the declaration (`threads.x = N`), reassignments,
// branches, template arguments of instantiated host templates and calls to
// other host functions that launch, and records nothing. At each launch the
// block and grid are read from the walker's state; a dimension chosen by a
// branch gives one shape per constant it can take. Constant scalar
// arguments become parameter values, and pointer arguments at a constant
// offset from an allocation (`d_a + 1`) give that offset.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "LaunchConfig.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// Functions with a body in the user's files, the launches and calls in
/// them.
class HostCallGraph : public RecursiveASTVisitor<HostCallGraph> {
public:
  explicit HostCallGraph(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  using Base = RecursiveASTVisitor<HostCallGraph>;
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    return traverseFn(FD, [&] { return Base::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *FD) {
    return traverseFn(FD, [&] { return Base::TraverseCXXMethodDecl(FD); });
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *FD) {
    return traverseFn(FD,
                      [&] { return Base::TraverseCXXConstructorDecl(FD); });
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (!Current)
      return true;
    if (isLaunchCall(CE))
      Launching.insert(Current);
    else if (const FunctionDecl *Callee = CE->getDirectCallee())
      Calls[Current].push_back(Callee->getCanonicalDecl());
    else if (CE->getCallee()->getType()->isFunctionPointerType())
      Indirect.insert(Current);
    return true;
  }

  /// A function named other than as a callee (`attention_backward1(...,
  /// launch_softmax_1, ...)`): the caller may reach it through a pointer.
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (Current)
      if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
        Calls[Current].push_back(FD->getCanonicalDecl());
    return true;
  }

  /// Functions that launch, directly or through the functions they call;
  /// one that calls through a function pointer may call a launcher passed
  /// to it.
  llvm::SmallPtrSet<const FunctionDecl *, 16> launchingClosure() const {
    llvm::SmallPtrSet<const FunctionDecl *, 16> Set;
    for (const FunctionDecl *FD : Launching)
      Set.insert(FD->getCanonicalDecl());
    if (!Set.empty())
      for (const FunctionDecl *FD : Indirect)
        Set.insert(FD->getCanonicalDecl());
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const auto &[Caller, Callees] : Calls)
        if (!Set.count(Caller->getCanonicalDecl()))
          for (const FunctionDecl *C : Callees)
            if (Set.count(C)) {
              Set.insert(Caller->getCanonicalDecl());
              Changed = true;
              break;
            }
    }
    return Set;
  }

  std::vector<const FunctionDecl *> Defined;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Launching;
  /// Functions that call through a function pointer.
  llvm::SmallPtrSet<const FunctionDecl *, 16> Indirect;
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> Calls;

private:
  bool traverseFn(FunctionDecl *FD, llvm::function_ref<bool()> Traverse) {
    bool Interesting = FD->doesThisDeclarationHaveABody() &&
                       !FD->isDependentContext() &&
                       !FD->hasAttr<CUDAGlobalAttr>() &&
                       !(FD->hasAttr<CUDADeviceAttr>() &&
                         !FD->hasAttr<CUDAHostAttr>()) &&
                       !inSystemHeader(SM, FD);
    const FunctionDecl *Saved = Current;
    if (Interesting) {
      Current = FD;
      Defined.push_back(FD);
    } else if (!FD->isDependentContext()) {
      Current = nullptr;
    }
    bool R = Traverse();
    Current = Saved;
    return R;
  }

  const SourceManager &SM;
  const FunctionDecl *Current = nullptr;
};

/// Global variables that some code of the translation unit changes
/// (assigns, increments, takes the address of, calls a non-const method
/// on): the others hold their initializer wherever host code reads them.
class ModifiedGlobals : public RecursiveASTVisitor<ModifiedGlobals> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  static const VarDecl *globalUnder(const clang::Expr *E) {
    E = stripDotMembers(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasGlobalStorage() && !VD->isStaticLocal())
          return VD;
    return nullptr;
  }
  void mark(const clang::Expr *E) {
    if (const VarDecl *VD = globalUnder(E))
      Set.insert(VD->getCanonicalDecl());
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      mark(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      mark(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if (OCE->isAssignmentOp() && OCE->getNumArgs() >= 1)
      mark(OCE->getArg(0));
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MCE) {
    if (const CXXMethodDecl *M = MCE->getMethodDecl())
      if (!M->isConst() && MCE->getImplicitObjectArgument())
        mark(MCE->getImplicitObjectArgument());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // A global bound to a non-const reference parameter may change.
    if (const FunctionDecl *FD = CE->getDirectCallee())
      for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I) {
        QualType T = FD->getParamDecl(I)->getType();
        if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
          mark(CE->getArg(I));
      }
    return true;
  }

  llvm::SmallPtrSet<const VarDecl *, 16> Set;
};

/// The select() conditions in \p E.
void collectConditions(const Expr &E, std::vector<Expr> &Conds) {
  if (E.getKind() == Expr::Kind::Select &&
      std::find(Conds.begin(), Conds.end(), E.operands()[0]) == Conds.end())
    Conds.push_back(E.operands()[0]);
  if (E.getKind() != Expr::Kind::Constant && E.getKind() != Expr::Kind::Symbol)
    for (const Expr &Op : E.operands())
      collectConditions(Op, Conds);
}

/// \p E when condition I of \p Conds is bit I of \p Mask.
Expr decide(Expr E, const std::vector<Expr> &Conds, unsigned Mask) {
  for (unsigned I = 0; I < Conds.size(); ++I)
    E = E.replace(Conds[I], Expr::constant((Mask >> I) & 1));
  return E;
}

/// The constant \p E is when the conditions are decided by \p Mask.
std::optional<int64_t> pick(const Expr &E, const std::vector<Expr> &Conds,
                            unsigned Mask) {
  return decide(E, Conds, Mask).asConstant();
}

/// The grid \p Dims (decided by \p Mask) over the kernel's parameters:
/// each symbol must be the value of an argument (\p ArgOf: the symbol an
/// argument evaluates to -> the parameter's symbol).
std::optional<std::array<Expr, 3>>
gridOfParams(const std::array<std::optional<Expr>, 3> &Dims,
             const std::map<Symbol, Expr> &ArgOf,
             const std::vector<Expr> &Conds, unsigned Mask) {
  if (ArgOf.empty())
    return std::nullopt;
  std::array<Expr, 3> Out;
  for (unsigned I = 0; I < 3; ++I) {
    if (!Dims[I]) {
      if (I == 0)
        return std::nullopt;
      Out[I] = Expr::constant(1);
      continue;
    }
    Expr D = decide(*Dims[I], Conds, Mask);
    for (const Symbol &S : D.symbols())
      if (!ArgOf.count(S))
        return std::nullopt;
    Out[I] = D.substitute(ArgOf);
  }
  return Out;
}

} // namespace

std::string kernelKey(const FunctionDecl *FD) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  FD->getNameForDiagnostic(OS, FD->getASTContext().getPrintingPolicy(),
                           /*Qualified=*/true);
  return OS.str();
}

std::optional<unsigned> launchBoundsOf(const FunctionDecl *FD) {
  const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>();
  if (!LB && FD->getTemplateInstantiationPattern())
    LB = FD->getTemplateInstantiationPattern()->getAttr<CUDALaunchBoundsAttr>();
  clang::Expr::EvalResult R;
  if (LB && LB->getMaxThreads() && !LB->getMaxThreads()->isValueDependent() &&
      LB->getMaxThreads()->EvaluateAsInt(R, FD->getASTContext()))
    return static_cast<unsigned>(R.Val.getInt().getZExtValue());
  return std::nullopt;
}

/// The values the launch \p CE passes to \p Kernel's parameters (from
/// argument \p FirstArg on): constant scalars and constant pointer offsets
/// into \p Site; the symbol each other scalar argument is, as the
/// parameter's symbol, into \p ArgOf (a grid computed from it).
void LaunchConfigFinder::readArguments(KernelWalker &W, KernelWalker::Frame &F,
                                       const FunctionDecl *Kernel,
                                       const CallExpr *CE, unsigned FirstArg,
                                       LaunchSite &Site,
                                       std::map<Symbol, Expr> &ArgOf) {
  for (unsigned I = 0;
       I < Kernel->getNumParams() && I + FirstArg < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Kernel->getParamDecl(I);
    const clang::Expr *A = CE->getArg(I + FirstArg);
    std::string Name = P->getName().str();
    if (P->getType()->isIntegralOrEnumerationType()) {
      // A launch in a host loop (`for (i = 1; ...) k<<<g, b>>>(A, i)`) is
      // taken at the loop's first iteration.
      Expr V = W.translate(A, F);
      std::map<Symbol, Expr> First;
      for (const Symbol &S : V.symbols())
        if (S.Kind == SymbolKind::LoopIter)
          First.emplace(S, Expr::constant(0));
      Expr AtFirst = V.substitute(First);
      if (std::optional<int64_t> C = AtFirst.asConstant())
        Site.Params[Name] = *C;
      else if (AtFirst.getKind() == Expr::Kind::Symbol &&
               !AtFirst.isLaneDependent()) {
        auto [It, New] =
            ArgOf.emplace(AtFirst.getSymbol(), W.symbol(Symbol::param(Name)));
        if (!New)
          Site.SameValueAs[Name] = It->second.getSymbol().Name;
      }
    } else if (P->getType()->isPointerType()) {
      if (std::optional<PointerValue> PV = W.resolvePointer(A, F, nullptr))
        if (std::optional<int64_t> Off = PV->ByteOffset.asConstant())
          if (*Off != 0)
            Site.PointerOffsets[Name] = *Off;
    }
  }
}

LaunchConfigFinder::LaunchConfigFinder(ASTContext &Ctx, SourceFacts &Facts) {
  const SourceManager &SM = Ctx.getSourceManager();
  HostCallGraph G(SM);
  traverseUserDecls(G, Ctx);
  llvm::SmallPtrSet<const FunctionDecl *, 16> Launchers = G.launchingClosure();
  if (Launchers.empty())
    return;

  ModifiedGlobals Modified;
  traverseParsedDecls(Modified, Ctx);

  KernelRecord Scratch;
  KernelWalker W(Ctx, Scratch, Facts);
  W.HostCallees = &Launchers;
  W.ModifiedGlobals = &Modified.Set;
  W.OnLaunch = [&](const CallExpr *CE, KernelWalker::Frame &F) {
    // A launch on a path that cannot run with the values known here
    // (`case 1:` when the caller passed threads = 128).
    if (std::optional<int64_t> Runs = F.Active.asConstant(); Runs && *Runs == 0)
      return;
    const FunctionDecl *Kernel = nullptr;
    const clang::Expr *GridE = nullptr, *BlockE = nullptr;
    std::optional<VarValue> GridV, BlockV;
    unsigned FirstKernelArg = 0;
    if (const auto *KCE = dyn_cast<CUDAKernelCallExpr>(CE)) {
      Kernel = KCE->getDirectCallee();
      if (const CallExpr *Config = KCE->getConfig();
          Config && Config->getNumArgs() >= 2) {
        GridE = Config->getArg(0);
        BlockE = Config->getArg(1);
      }
    } else if (cudaFunction(CE).has(cudaflag::ConfigStruct)) {
      if (CE->getNumArgs() >= 2) {
        Kernel = namedFunction(CE->getArg(1));
        FirstKernelArg = 2;
        // The launch configuration is a struct: its gridDim and blockDim.
        const clang::Expr *Cfg = CE->getArg(0)->IgnoreParenImpCasts();
        if (const auto *UO = dyn_cast<UnaryOperator>(Cfg))
          if (UO->getOpcode() == UO_AddrOf)
            if (std::optional<VarValue> C = W.heldValue(UO->getSubExpr(), F))
              if (const RecordDecl *RD =
                      UO->getSubExpr()->getType()->getAsRecordDecl())
                for (const FieldDecl *FD : RD->fields()) {
                  if (FD->getName() == "gridDim")
                    GridV = W.fieldOf(*C, FD);
                  if (FD->getName() == "blockDim")
                    BlockV = W.fieldOf(*C, FD);
                }
      }
    } else if (CE->getNumArgs() >= 3) { // cudaLaunch(Cooperative)Kernel
      Kernel = namedFunction(CE->getArg(0));
      GridE = CE->getArg(1);
      BlockE = CE->getArg(2);
      FirstKernelArg = ~0u; // Arguments travel in a void*[].
    }
    if (!Kernel)
      return;
    if (GridE)
      GridV = W.recordValue(GridE, F);
    if (BlockE)
      BlockV = W.recordValue(BlockE, F);

    // The dimensions x, y, z of a dim3 value, as expressions.
    auto Dims = [&](const std::optional<VarValue> &V, QualType T) {
      std::array<std::optional<Expr>, 3> D;
      if (!V)
        return D;
      const RecordDecl *RD = T.isNull() ? nullptr : T->getAsRecordDecl();
      if (!RD && V->Object && !V->Object->Fields.empty())
        RD = V->Object->Fields.front().first->getParent();
      if (!RD)
        return D;
      for (const FieldDecl *FD : RD->fields()) {
        int I = FD->getName() == "x" ? 0 : FD->getName() == "y" ? 1
                : FD->getName() == "z"                          ? 2
                                                                : -1;
        if (I >= 0)
          D[I] = W.fieldOf(*V, FD).Int;
      }
      return D;
    };
    auto BlockDims = Dims(BlockV, BlockE ? BlockE->getType() : QualType());
    auto GridDims = Dims(GridV, GridE ? GridE->getType() : QualType());
    // A dimension the path to the launch fixes: `case 512: k<<<g, threads>>>`.
    std::map<Symbol, Expr> Known;
    knownEqualities(F.Active, Known);
    if (!Known.empty())
      for (auto *Dims3 : {&BlockDims, &GridDims})
        for (std::optional<Expr> &D : *Dims3)
          if (D)
            D = D->substitute(Known);

    LaunchSite Base;
    Base.Loc = toLocation(SM, CE->getBeginLoc());
    // The symbol each non-constant scalar argument is (`M` of `k<<<g,
    // b>>>(M)`), as the kernel's parameter: a grid computed from it.
    std::map<Symbol, Expr> ArgOf;
    // Arguments of the kernel's parameters.
    if (FirstKernelArg != ~0u)
      readArguments(W, F, Kernel, CE, FirstKernelArg, Base, ArgOf);

    // One shape per combination of the branches that choose a dimension.
    std::vector<Expr> Conds;
    for (const auto &D : BlockDims)
      if (D)
        collectConditions(*D, Conds);
    if (Conds.size() > 4)
      Conds.resize(4);
    std::vector<LaunchSite> &Sites = Launches[kernelKey(Kernel)];
    for (unsigned Mask = 0; Mask < (1u << Conds.size()); ++Mask) {
      // The path must be able to run with the same choices (the shape 128
      // of `threads = c ? f(n) : 128` never reaches `case 1:`).
      if (std::optional<int64_t> Runs = pick(F.Active.substitute(Known), Conds,
                                             Mask);
          Runs && *Runs == 0)
        continue;
      unsigned B[3], Gr[3];
      bool Known = true, GridKnown = true;
      // How many leading dimensions are known (x; x and y; all three).
      unsigned KnownDims = 0;
      for (unsigned I = 0; I < 3; ++I) {
        std::optional<int64_t> V =
            BlockDims[I] ? pick(*BlockDims[I], Conds, Mask) : std::nullopt;
        Known &= V && *V > 0 && *V <= 1024;
        B[I] = Known ? static_cast<unsigned>(*V) : 0;
        KnownDims += Known;
        std::optional<int64_t> G =
            GridDims[I] ? pick(*GridDims[I], Conds, Mask) : std::nullopt;
        GridKnown &= G && *G > 0;
        Gr[I] = GridKnown ? static_cast<unsigned>(*G) : 0;
      }
      // A shape known in its leading dimensions whose threads fill whole
      // warps (`dim3 block(4, 8, block_size / 32)`, `dim3(32, block_y)`):
      // the dimensions after them only pick the warp, not which lanes
      // share one, so they are taken as 1 and said so. Any other unresolved
      // shape is never guessed.
      std::string Unresolved;
      if (!Known) {
        unsigned Threads = 1;
        for (unsigned I = 0; I < KnownDims; ++I)
          Threads *= B[I];
        if (KnownDims == 0 || Threads % 32 != 0)
          continue;
        static const char *Names[] = {"x", "y", "z"};
        std::vector<std::string> Missing;
        for (unsigned I = KnownDims; I < 3; ++I) {
          B[I] = 1;
          Missing.push_back(Names[I]);
        }
        Unresolved = fmt::format("block {}", fmt::join(Missing, " and "));
      }
      LaunchSite S = Base;
      S.Block = BlockShape{B[0], B[1], B[2]};
      S.Unresolved = Unresolved;
      if (GridKnown)
        S.Grid = BlockShape{Gr[0], Gr[1], Gr[2]};
      else
        S.GridOfParams = gridOfParams(GridDims, ArgOf, Conds, Mask);
      bool Seen = false;
      for (const LaunchSite &Old : Sites)
        Seen |= Old.Block == S.Block && Old.Params == S.Params &&
                Old.PointerOffsets == S.PointerOffsets;
      if (!Seen)
        Sites.push_back(std::move(S));
    }
  };
  for (const FunctionDecl *FD : G.Defined)
    if (Launchers.count(FD->getCanonicalDecl()))
      W.walkHost(FD);
  for (auto &Entry : Launches)
    dropSubsumedSites(Entry.second);
}

void LaunchConfigFinder::dropSubsumedSites(std::vector<LaunchSite> &Sites) {
  // `void run(int m) { k<<<g, b>>>(m); }` walked alone and from main's
  // `run(512)`: one launch, the second knowing more. The first would only
  // add a prediction under default values for the same launch.
  auto Within = [](const auto &Less, const auto &More) {
    for (const auto &[Name, Value] : Less) {
      auto It = More.find(Name);
      if (It == More.end() || It->second != Value)
        return false;
    }
    return true;
  };
  auto Subsumes = [&](const LaunchSite &More, const LaunchSite &Less) {
    return More.Loc.File == Less.Loc.File && More.Loc.Line == Less.Loc.Line &&
           More.Loc.Column == Less.Loc.Column && More.Block == Less.Block &&
           (!Less.Grid || (More.Grid && *More.Grid == *Less.Grid)) &&
           Within(Less.Params, More.Params) &&
           Within(Less.PointerOffsets, More.PointerOffsets) &&
           (More.Params.size() > Less.Params.size() ||
            More.PointerOffsets.size() > Less.PointerOffsets.size() ||
            (More.Grid && !Less.Grid));
  };
  std::vector<LaunchSite> Kept;
  for (const LaunchSite &S : Sites) {
    bool Dominated = false;
    for (const LaunchSite &Other : Sites)
      Dominated |= Subsumes(Other, S);
    if (!Dominated)
      Kept.push_back(S);
  }
  Sites = std::move(Kept);
}

std::vector<LaunchSite>
LaunchConfigFinder::launchesOf(const FunctionDecl *FD) const {
  auto It = Launches.find(kernelKey(FD));
  return It == Launches.end() ? std::vector<LaunchSite>{} : It->second;
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
