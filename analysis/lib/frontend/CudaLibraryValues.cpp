//===- CudaLibraryValues.cpp - What calls into the CUDA headers give ------===//
//
// The walker does not walk the CUDA headers; the calls whose results index
// memory in real kernels get their meaning here instead:
//   cooperative groups   thread_block/grid_group/thread_block_tile methods
//                        (thread_rank(), size(), thread_index(), ...)
//   warp shuffles        a broadcast from a uniform lane is uniform; an xor
//                        shuffle may be a step of a warp reduction
//                        (WarpReduction.cpp); other shuffles of lane values
//                        stay lane values
//   votes                __ballot_sync & co. are uniform
//   atomics              the old value: data, different in every lane
//   cache-hinted loads   __ldg(&a[i]) is the value of a[i]
//   fast division        (__umulhi(n, d.mul) + n) >> d.shift is n / d.divisor
// Each opaque result is named by the call the user wrote.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

enum class GroupKind { None, Block, Grid, Tile, Coalesced, Other };

/// Is \p D declared inside namespace cooperative_groups (at any depth)?
bool inCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "cooperative_groups")
        return true;
  return false;
}

/// The cooperative-groups class \p RD is, and for thread_block_tile<N> the
/// tile size.
GroupKind groupKind(const CXXRecordDecl *RD, int64_t &TileSize) {
  if (!RD || !RD->getIdentifier())
    return GroupKind::None;
  if (!inCooperativeGroups(RD))
    return GroupKind::None;
  switch (cudaGroupType(RD->getName())) {
  case CudaGroupType::Block:
    return GroupKind::Block;
  case CudaGroupType::Grid:
    return GroupKind::Grid;
  case CudaGroupType::Coalesced:
    return GroupKind::Coalesced;
  case CudaGroupType::Tile:
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      if (Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Integral) {
        TileSize = Args[0].getAsIntegral().getExtValue();
        return GroupKind::Tile;
      }
    }
    break;
  case CudaGroupType::None:
    break;
  }
  return GroupKind::Other;
}

Expr blockSize(const ExprContext &X) {
  return X.symbol(Symbol::blockDim(0)) * X.symbol(Symbol::blockDim(1)) *
         X.symbol(Symbol::blockDim(2));
}
Expr blockInGrid(const ExprContext &X) {
  return X.symbol(Symbol::blockIdx(0)) +
         X.symbol(Symbol::gridDim(0)) *
             (X.symbol(Symbol::blockIdx(1)) +
              X.symbol(Symbol::gridDim(1)) * X.symbol(Symbol::blockIdx(2)));
}
Expr gridBlocks(const ExprContext &X) {
  return X.symbol(Symbol::gridDim(0)) * X.symbol(Symbol::gridDim(1)) *
         X.symbol(Symbol::gridDim(2));
}

/// The class a member call is made on.
const CXXRecordDecl *objectClass(const CallExpr *CE) {
  // The object's static type: thread_rank() may be inherited from a base.
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    if (const CXXRecordDecl *RD = MCE->getObjectType()->getAsCXXRecordDecl())
      return RD;
  // A static method called on an object (b.thread_rank() is static in
  // cooperative groups) or through its class.
  if (const auto *ME = dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts())) {
    QualType T = ME->getBase()->getType();
    if (ME->isArrow())
      T = T->getPointeeType();
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      return RD;
  }
  if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee()))
    return M->getParent();
  return nullptr;
}

/// A dim3-like object value with fields x, y, z of record \p RD.
VarValue dimObject(const RecordDecl *RD, const Expr (&Dims)[3]) {
  VarValue V;
  V.Object = std::make_shared<ObjectValue>();
  if (!RD)
    return V;
  for (const FieldDecl *FD : RD->fields()) {
    int Dim = llvm::StringSwitch<int>(FD->getName())
                  .Case("x", 0)
                  .Case("y", 1)
                  .Case("z", 2)
                  .Default(-1);
    if (Dim < 0)
      continue;
    VarValue Field;
    Field.Int = Dims[Dim];
    V.Object->Fields.emplace_back(FD, Field);
  }
  return V;
}

} // namespace

Expr threadInBlock(const ExprContext &X) {
  return X.symbol(Symbol::threadIdx(0)) +
         X.symbol(Symbol::blockDim(0)) *
             (X.symbol(Symbol::threadIdx(1)) +
              X.symbol(Symbol::blockDim(1)) * X.symbol(Symbol::threadIdx(2)));
}

std::optional<VarValue> KernelWalker::specialObject(const CallExpr *CE,
                                                    const Frame &F) {
  if (cudaFunction(CE).is(CudaRole::VectorMake))
    return madeVector(CE, F);
  const ExprContext &X = Facts.exprs();
  const CXXRecordDecl *RD = objectClass(CE);
  int64_t Tile = 0;
  GroupKind K = groupKind(RD, Tile);
  if (K != GroupKind::Block && K != GroupKind::Grid)
    return std::nullopt;
  CudaFunction Fn = cudaFunction(CE);
  CudaRole Role = Fn.Role;
  const RecordDecl *Result = CE->getType()->getAsRecordDecl();
  auto Dims = [&](Symbol (*Make)(unsigned)) {
    Expr D[3] = {X.symbol(Make(0)), X.symbol(Make(1)), X.symbol(Make(2))};
    return dimObject(Result, D);
  };
  if (K == GroupKind::Block) {
    if (Role == CudaRole::GroupThreadIndex)
      return Dims(Symbol::threadIdx);
    if (Role == CudaRole::GroupIndex)
      return Dims(Symbol::blockIdx);
    if (Role == CudaRole::GroupDimThreads)
      return Dims(Symbol::blockDim);
  } else {
    if (Role == CudaRole::GroupBlockIndex)
      return Dims(Symbol::blockIdx);
    if (Role == CudaRole::GroupDimBlocks)
      return Dims(Symbol::gridDim);
    // grid_group has no group_dim().
    bool ThreadIndex = Role == CudaRole::GroupThreadIndex;
    if (ThreadIndex ||
        (Role == CudaRole::GroupDimThreads && Fn.has(cudaflag::GridToo))) {
      Expr D[3];
      for (unsigned I = 0; I < 3; ++I)
        D[I] = ThreadIndex ? X.symbol(Symbol::blockIdx(I)) *
                                     X.symbol(Symbol::blockDim(I)) +
                                 X.symbol(Symbol::threadIdx(I))
                           : X.symbol(Symbol::gridDim(I)) *
                                 X.symbol(Symbol::blockDim(I));
      return dimObject(Result, D);
    }
  }
  return std::nullopt;
}

std::optional<PointerValue>
KernelWalker::specialPointer(const CallExpr *CE) const {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Ctx.getSourceManager().isInSystemHeader(
                     Ctx.getSourceManager().getExpansionLoc(
                         Callee->getLocation())))
    return std::nullopt;
  // The driver's grid workspace (grid-wide barriers: cooperative groups'
  // grid.sync() and code that copies it, calm's syncgrid()): the same
  // global address in every thread of the grid.
  // (cooperative_groups::__v1::details in CUDA 13, without __v1 before:
  // any get_grid_workspace inside the namespace.)
  if (cudaFunction(CE).is(CudaRole::GridWorkspace) &&
      inCooperativeGroups(Callee))
    return PointerValue{"grid workspace", MemorySpace::Global,
                        Expr::constant(0)};
  return std::nullopt;
}

/// __ffs, __clz and __popc (and their 64-bit forms) of \p X, exactly, as
/// selects over its bits: the engine evaluates them for each lane, and a
/// constant argument folds to a constant. nullopt for other functions.
static std::optional<Expr> bitCountValue(CudaFunction Fn, const Expr &X) {
  unsigned Bits = Fn.has(cudaflag::Wide) ? 64 : 32;
  auto Bit = [&](unsigned I) {
    return Expr::ne(Expr::bitAnd(X, Expr::constant(int64_t(uint64_t(1) << I))),
                    Expr::constant(0));
  };
  auto C = [](int64_t V) { return Expr::constant(V); };
  if (Fn.is(CudaRole::FindFirstSet)) {
    // 1 + the index of the lowest set bit; 0 when none is set.
    Expr E = C(0);
    for (unsigned I = Bits; I-- > 0;)
      E = Expr::select(Bit(I), C(I + 1), E);
    return E;
  }
  if (Fn.is(CudaRole::CountLeadingZeros)) {
    // Zeros above the highest set bit; Bits when none is set.
    Expr E = C(Bits);
    for (unsigned I = 0; I < Bits; ++I)
      E = Expr::select(Bit(I), C(Bits - 1 - I), E);
    return E;
  }
  if (Fn.is(CudaRole::PopulationCount)) {
    Expr E = C(0);
    for (unsigned I = 0; I < Bits; ++I)
      E = E + Expr::select(Bit(I), C(1), C(0));
    return E;
  }
  return std::nullopt;
}

std::optional<std::pair<Expr, Expr>> groupRankAndSize(QualType GroupType,
                                                      const ExprContext &X) {
  int64_t Tile = 0;
  const CXXRecordDecl *RD =
      GroupType.getNonReferenceType()->getAsCXXRecordDecl();
  switch (groupKind(RD, Tile)) {
  case GroupKind::Block:
    return std::make_pair(threadInBlock(X), blockSize(X));
  case GroupKind::Tile:
    if (Tile > 0)
      return std::make_pair(Expr::rem(threadInBlock(X), Expr::constant(Tile)),
                            Expr::constant(Tile));
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<Expr> KernelWalker::specialValue(const CallExpr *CE,
                                               const Frame &F,
                                               LaneOriginInfo *Origin) {
  CudaFunction Fn = cudaFunction(CE);
  CudaRole Role = Fn.Role;
  unsigned N = CE->getNumArgs();
  const ExprContext &X = Facts.exprs();

  // Cooperative groups.
  int64_t Tile = 0;
  switch (groupKind(objectClass(CE), Tile)) {
  case GroupKind::Block:
    if (Role == CudaRole::GroupThreadRank)
      return threadInBlock(X);
    if (Role == CudaRole::GroupSize)
      return blockSize(X);
    break;
  case GroupKind::Grid:
    if (Role == CudaRole::GroupThreadRank)
      return blockInGrid(X) * blockSize(X) + threadInBlock(X);
    if (Role == CudaRole::GroupSize)
      return gridBlocks(X) * blockSize(X);
    if (Role == CudaRole::GroupBlockRank)
      return blockInGrid(X);
    if (Role == CudaRole::GroupNumBlocks)
      return gridBlocks(X);
    break;
  case GroupKind::Tile:
    if (Tile <= 0)
      break;
    if (Role == CudaRole::GroupThreadRank)
      return Expr::rem(threadInBlock(X), Expr::constant(Tile));
    if (Role == CudaRole::GroupSize)
      return Expr::constant(Tile);
    if (Role == CudaRole::GroupMetaRank)
      return Expr::div(threadInBlock(X), Expr::constant(Tile));
    if (Role == CudaRole::GroupMetaSize)
      return Expr::div(blockSize(X), Expr::constant(Tile));
    break;
  case GroupKind::Coalesced:
  case GroupKind::Other:
    if (Role == CudaRole::GroupThreadRank)
      return opaqueValue(CE, /*LaneDependent=*/true);
    if (Role == CudaRole::GroupSize || Role == CudaRole::GroupMetaRank ||
        Role == CudaRole::GroupMetaSize)
      return opaqueValue(CE, /*LaneDependent=*/false);
    break;
  case GroupKind::None:
    break;
  }

  // The lane of the warp (CCCL's cuda::ptx::get_sreg_laneid(), cub's
  // LaneId()): warps are formed from the linear thread index.
  if (N == 0 && Fn.is(CudaRole::LaneId))
    return Expr::rem(threadInBlock(X), Expr::constant(32));

  // The old value an atomic returns: data, different in every lane.
  if (Fn.is(CudaRole::Atomic))
    return opaqueValue(CE, /*LaneDependent=*/true, /*Indirect=*/true);

  // __ldg(&a[i]) is the value of a[i].
  if (Fn.is(CudaRole::CacheLoad) && N >= 1) {
    if (const clang::Expr *LV = addressOfOperand(CE->getArg(0)))
      return loadedValue(LV, F);
    std::optional<PointerValue> P = resolvePointer(CE->getArg(0), F, nullptr);
    bool Lane = !P || P->ByteOffset.isLaneDependent();
    return opaqueValue(CE, Lane, Lane && P.has_value());
  }

  if (N == 1 && (Fn.is(CudaRole::FindFirstSet) ||
                 Fn.is(CudaRole::CountLeadingZeros) ||
                 Fn.is(CudaRole::PopulationCount)))
    if (std::optional<Expr> V =
            bitCountValue(Fn, translate(CE->getArg(0), F, Origin)))
      return V;

  if (Fn.is(CudaRole::Vote))
    return opaqueValue(CE, /*LaneDependent=*/false);

  if (Fn.is(CudaRole::Shuffle)) {
    // __shfl_sync(mask, v, src[, width]) and the legacy __shfl(v, src).
    unsigned ValueArg = Fn.has(cudaflag::Sync) ? 1 : 0;
    if (N <= ValueArg + 1)
      return std::nullopt;
    Expr V = translate(CE->getArg(ValueArg), F, Origin);
    if (!V.isLaneDependent())
      return V; // Every lane holds the same value.
    bool Broadcast = Fn.has(cudaflag::Broadcast);
    Expr Src = translate(CE->getArg(ValueArg + 1), F, Origin);
    if (Broadcast && !Src.isLaneDependent())
      return opaqueValue(CE, /*LaneDependent=*/false);
    if (Fn.has(cudaflag::Xor))
      if (std::optional<Expr> X = xorShuffle(CE, ValueArg, V, F))
        return X;
    return opaqueValue(CE, /*LaneDependent=*/true, V.isIndirect());
  }
  return std::nullopt;
}

namespace {
/// The `__umulhi(n, m)` call \p E is, directly or through a local it
/// initialized (`const uint32_t hi = __umulhi(n, m);`); null otherwise.
const CallExpr *mulHiCall(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit())
        E = VD->getInit()->IgnoreParenImpCasts();
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || CE->getNumArgs() != 2)
    return nullptr;
  return cudaFunction(CE).is(CudaRole::MulHigh) ? CE : nullptr;
}

/// The field \p E reads (`d.m1`, `this->shift`), or null.
const MemberExpr *fieldRead(const clang::Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  return ME && isa<FieldDecl>(ME->getMemberDecl()) ? ME : nullptr;
}

/// The divisor's field of the object whose fields \p Mul and \p Shift are:
/// its one other integer field, or the one named `divisor`.
const FieldDecl *divisorField(const FieldDecl *Mul, const FieldDecl *Shift) {
  const FieldDecl *Only = nullptr;
  unsigned Others = 0;
  for (const FieldDecl *FD : Mul->getParent()->fields()) {
    if (FD == Mul || FD == Shift || !FD->getType()->isIntegerType())
      continue;
    if (FD->getName() == "divisor")
      return FD;
    Only = FD;
    ++Others;
  }
  return Others == 1 ? Only : nullptr;
}
} // namespace

std::optional<Expr> KernelWalker::fastDivision(const BinaryOperator *Shr,
                                               const Frame &F,
                                               LaneOriginInfo *Origin) {
  const MemberExpr *Shift = fieldRead(Shr->getRHS());
  if (!Shift)
    return std::nullopt;
  // `(hi + n) >> s` (ggml, PyTorch) or `hi >> s` (CUTLASS).
  const clang::Expr *L = Shr->getLHS()->IgnoreParenImpCasts();
  const clang::Expr *Added = nullptr;
  const CallExpr *MulHi = mulHiCall(L);
  if (const auto *Add = dyn_cast<BinaryOperator>(L);
      !MulHi && Add && Add->getOpcode() == BO_Add) {
    if ((MulHi = mulHiCall(Add->getLHS())))
      Added = Add->getRHS();
    else if ((MulHi = mulHiCall(Add->getRHS())))
      Added = Add->getLHS();
  }
  const MemberExpr *Mul = MulHi ? fieldRead(MulHi->getArg(1)) : nullptr;
  if (!Mul)
    return std::nullopt;
  // The multiplier and the shift are fields of one object held by value.
  std::optional<VarValue> Object = heldObject(Mul, F);
  std::optional<VarValue> Other = heldObject(Shift, F);
  if (!Object || !Other || Object->Object != Other->Object)
    return std::nullopt;
  const FieldDecl *Divisor =
      divisorField(cast<FieldDecl>(Mul->getMemberDecl()),
                   cast<FieldDecl>(Shift->getMemberDecl()));
  if (!Divisor)
    return std::nullopt;
  Expr N = translate(MulHi->getArg(0), F, Origin);
  if (Added && !(translate(Added, F, nullptr) == N))
    return std::nullopt;
  std::optional<Expr> D = fieldOf(*Object, Divisor).Int;
  if (!D)
    return std::nullopt;
  return Expr::div(N, *D);
}

std::optional<VarValue> KernelWalker::madeVector(const CallExpr *CE,
                                                 const Frame &F) {
  const FunctionDecl *FD = CE->getDirectCallee();
  const RecordDecl *RD = CE->getType()->getAsRecordDecl();
  if (!FD || !RD || !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
    return std::nullopt;
  VarValue V;
  V.Object = std::make_shared<ObjectValue>();
  unsigned I = 0;
  for (const FieldDecl *Field : RD->fields()) {
    if (I >= CE->getNumArgs())
      break;
    const clang::Expr *Arg = CE->getArg(I++);
    VarValue FV;
    QualType T = Field->getType();
    if (T->isIntegralOrEnumerationType())
      FV.Int = translate(Arg, F);
    else if (T->isRealFloatingType())
      FV.Int = floatValue(Arg, F);
    else
      continue;
    V.Object->Fields.emplace_back(Field, std::move(FV));
  }
  return V;
}

} // namespace frontend
} // namespace coalesce
