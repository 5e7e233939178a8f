//===- LibraryCalls.cpp - CUDA library calls that touch the user's memory -===//
//
// Calls into the CUDA headers that are handed global memory, in two kinds:
//   walked     cub's block primitives, curand's generators (curand(&s[i]),
//              curand_uniform, curand_normal, ...): their bodies index the
//              user's pointer, and their accesses are reported at the call
//   modelled   curand_init(.., &s[i]), skipahead(n, &s[i]): a store (a
//              load and a store) of the whole state element;
//              wmma::load_matrix_sync, wmma::store_matrix_sync: a warp's
//              tile access, predicted in sm_80's fragment layout for the
//              16x16x16 tiles of 16-bit elements it covers, else reported
//              as such but not predicted;
//              memcpy_async (cuda::, cooperative_groups::, and
//              __pipeline_memcpy_async): the global side of the copy, in
//              the chunks the library issues (below); memcpy in device
//              code: the lane's own copy, in the pieces the pointers'
//              alignment allows
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "ParseFile.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/OffloadArch.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/AST/ExprCXX.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
/// curand functions whose bodies the walker follows: the generators, which
/// read and update the state they are given field by field. Initialization
/// and skip-ahead (loops over precomputed matrices) are modelled instead;
/// Poisson, discrete and MTGP generators are neither (CudaFunctions.def).
bool isWalkedCurandFunction(llvm::StringRef Name) {
  Name.consume_front("_");
  return cudaFunction(Name).is(CudaRole::CurandGenerator);
}

/// A wmma fragment's template arguments: fragment<Use, M, N, K, T[, Layout]>.
struct FragmentShape {
  std::string Use;    ///< "matrix_a", "matrix_b", "accumulator".
  int64_t M = 0, N = 0, K = 0;
  std::string Element; ///< T as written ("__half", "precision::tf32").
  std::string Layout; ///< "row_major", "col_major" or "" (accumulator).
};

std::optional<FragmentShape> fragmentShape(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "fragment")
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 5)
    return std::nullopt;
  auto TypeName = [&](unsigned I) -> std::string {
    if (Args[I].getKind() != TemplateArgument::Type)
      return {};
    QualType A = Args[I].getAsType();
    if (const auto *RD = A->getAsCXXRecordDecl())
      return RD->getNameAsString();
    return A.getAsString();
  };
  auto Int = [&](unsigned I) -> int64_t {
    return Args[I].getKind() == TemplateArgument::Integral
               ? Args[I].getAsIntegral().getExtValue()
               : 0;
  };
  FragmentShape S;
  S.Use = TypeName(0);
  S.M = Int(1);
  S.N = Int(2);
  S.K = Int(3);
  S.Element = TypeName(4);
  if (Args.size() > 5)
    S.Layout = TypeName(5);
  return S;
}

/// "a 16x16 tile of half as 16 rows of 32 bytes, lda elements apart": the
/// tile of \p S in memory with \p Layout (row_major/col_major, or the
/// accumulator's mem_row_major/mem_col_major as written, possibly a run-time
/// value), elements \p Elem of \p ElemBytes bytes, leading dimension \p Ldm.
std::string tileFootprint(const FragmentShape &S, llvm::StringRef Layout,
                          llvm::StringRef Elem, unsigned ElemBytes,
                          llvm::StringRef Ldm) {
  int64_t Rows = S.M, Cols = S.N;
  if (S.Use == "matrix_a")
    Cols = S.K;
  else if (S.Use == "matrix_b")
    Rows = S.K;
  std::string Tile = fmt::format("a {}x{} tile of {}", Rows, Cols, Elem);
  bool ColMajor = Layout.contains("col_major");
  if (!ColMajor && !Layout.contains("row_major"))
    return fmt::format("{} whose rows or columns are {} elements apart "
                       "(layout {})",
                       Tile, Ldm, Layout.empty() ? "unknown" : Layout);
  return fmt::format("{} as {} {} of {} bytes, {} elements apart", Tile,
                     ColMajor ? Cols : Rows, ColMajor ? "columns" : "rows",
                     (ColMajor ? Rows : Cols) * ElemBytes, Ldm);
}

/// For a wmma tile whose lane mapping is modelled, the note said with its
/// predictions and the instructions per request; nullopt for the others.
/// The model is sm_80 and later's (mma.sync's fragment layouts, which wmma
/// compiles to): a 16x16 tile of 16-bit elements whose rows (matrix_a,
/// accumulator in mem_row_major) or columns (matrix_b) are contiguous moves
/// in 4 requests of 4 bytes a lane, lane l at line l / 4 (+ 8) and bytes
/// 4 * (l % 4) (+ 16). Measured on the H200 (docs/validation.md, cause H):
/// wmma_naive's A and B fragments are 8 LDG.E of 8 sectors for 4 ideal (each
/// piece loaded twice), its half accumulator store 4 STG.E at 8 / 4.
struct WmmaModel {
  std::string Note;
  unsigned Instructions = 1;
};
std::optional<WmmaModel> wmmaModel(const FragmentShape &S,
                                   llvm::StringRef Layout, unsigned ElemBytes,
                                   bool Load) {
  if (ElemBytes != 2 || S.M != 16 || S.N != 16 || S.K != 16)
    return std::nullopt;
  bool Contiguous = (S.Use == "matrix_a" && Layout.contains("row_major")) ||
                    (S.Use == "matrix_b" && Layout.contains("col_major")) ||
                    (S.Use == "accumulator" && Layout.contains("row_major"));
  if (!Contiguous)
    return std::nullopt;
  WmmaModel M;
  M.Instructions = S.Use == "accumulator" ? 1 : 2;
  M.Note = fmt::format(
      "wmma::{}_matrix_sync: each request moves 8 {} of 16 bytes, 4 lanes "
      "of 4 bytes to a {} (the fragment layout of sm_80 and later); the "
      "warp makes 4 such requests{}",
      Load ? "load" : "store", S.Use == "matrix_b" ? "columns" : "rows",
      S.Use == "matrix_b" ? "column" : "row",
      M.Instructions > 1 ? ", each twice" : "");
  return M;
}

/// The alignment the compiler knows for pointer \p Arg of a memcpy (before
/// its conversion to void *): its element type's, or for a field of a struct
/// (`x[ib].qh`, `&x[ib].qh`) what the struct's alignment and the field's
/// offset give (ggml's `block_q5_0`: `uint8_t qh[4]` at offset 2 of a
/// 2-aligned struct, so 2). 0 for a void pointer.
uint64_t memcpyAlignment(const clang::Expr *Arg, ASTContext &Ctx) {
  Arg = Arg->IgnoreParens();
  while (const auto *ICE = dyn_cast<ImplicitCastExpr>(Arg)) {
    if (!ICE->getType()->isVoidPointerType())
      break;
    Arg = ICE->getSubExpr()->IgnoreParens();
  }
  QualType Elem = Arg->getType()->getPointeeType();
  if (Elem.isNull() || Elem->isVoidType() || Elem->isIncompleteType())
    return 0;
  uint64_t Align = uint64_t(Ctx.getTypeAlignInChars(Elem).getQuantity());
  const clang::Expr *Inner = Arg;
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Inner);
      ICE && ICE->getCastKind() == CK_ArrayToPointerDecay)
    Inner = ICE->getSubExpr()->IgnoreParens();
  else if (const auto *UO = dyn_cast<UnaryOperator>(Inner);
           UO && UO->getOpcode() == UO_AddrOf)
    Inner = UO->getSubExpr()->IgnoreParens();
  const auto *ME = dyn_cast<MemberExpr>(Inner);
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD || FD->isBitField() || FD->getParent()->isInvalidDecl())
    return Align;
  const RecordDecl *RD = FD->getParent();
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(RD);
  uint64_t RecordAlign = uint64_t(Layout.getAlignment().getQuantity());
  uint64_t Offset = Layout.getFieldOffset(FD->getFieldIndex()) / 8;
  uint64_t FieldAlign =
      Offset ? std::min(RecordAlign, Offset & (~Offset + 1)) : RecordAlign;
  return std::max(Align, FieldAlign);
}

/// A copy's size argument: the expression giving its bytes and the
/// alignment it states (cuda::aligned_size_t<A>(n); 1 for a plain integer).
struct CopySize {
  const clang::Expr *Bytes = nullptr;
  uint64_t Align = 1;
};

/// The alignment \p T states when it is cuda::aligned_size_t<A>; 0 if not.
uint64_t statedAlignment(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || Spec->getName() != "aligned_size_t")
    return 0;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Integral)
    return 0;
  return Args[0].getAsIntegral().getZExtValue();
}

/// Follows \p E (`shape4`, `cuda::aligned_size_t<16>(sizeof(float4))`,
/// `aligned_size_t<16>{n}`, `sizeof(T)`) to the integer it holds, through
/// temporaries, copies and a local variable's initializer.
CopySize copySize(const clang::Expr *E) {
  CopySize S;
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (uint64_t A = statedAlignment(E->getType()))
      S.Align = std::max(S.Align, A);
    if (E->getType()->isIntegralOrEnumerationType()) {
      S.Bytes = E;
      return S;
    }
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *C = dyn_cast<CastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
      E = CE->getNumArgs() == 1 ? CE->getArg(0) : nullptr;
    else if (const auto *IL = dyn_cast<InitListExpr>(E))
      E = IL->getNumInits() == 1 ? IL->getInit(0) : nullptr;
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      E = VD ? VD->getInit() : nullptr;
    } else
      E = nullptr;
  }
  return {};
}
} // namespace

namespace {
/// \p D's name after the named namespaces around it, inline ones left out
/// (`cuda::std::__4::array` is `cuda::std::array`).
std::string inNamespaces(const NamedDecl *D) {
  std::string Name;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (!NS->isInline() && NS->getIdentifier())
        Name = NS->getName().str() + "::" + Name;
  return Name + D->getNameAsString();
}
} // namespace

std::string plainName(const FunctionDecl *FD) { return inNamespaces(FD); }

bool isWalkedLibraryFunction(const FunctionDecl *Def) {
  // cub's block primitives (BlockLoad, BlockStore, LoadDirectBlocked, ...)
  // index the user's pointers with the thread's rank: their accesses are
  // the user's, as if written inline. cub's versioned inline namespace
  // (cub::CUB_200700_SM_900) sits inside the outermost one, `cub`.
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *DC = Def->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outermost = NS;
  if (Outermost && Outermost->getIdentifier() && Outermost->getName() == "cub")
    return true;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Def))
    if (Method->getParent()->getIdentifier() &&
        isWalkedLibraryClass(inNamespaces(Method->getParent())))
      return true;
  return Def->getIdentifier() && isWalkedCurandFunction(Def->getName());
}

bool skipsLibraryBody(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
    return false;
  const FunctionDecl *FD = D->getAsFunction();
  return FD && !isWalkedLibraryFunction(FD) &&
         !isParsedLibraryFunction(plainName(FD));
}

bool KernelWalker::modelLibraryCall(const CallExpr *CE,
                                    const FunctionDecl *Callee, Frame &F) {
  // memcpy(dst, src, n) in device code: a copy by the lane itself, in the
  // pieces the pointers' alignment allows (modelAsyncCopy's per-thread form).
  if (Callee && Callee->getIdentifier() && !Callee->hasBody() &&
      (cudaFunction(CE).is(CudaRole::MemCopy) ||
       Callee->getBuiltinID() == Builtin::BI__builtin_memcpy))
    return modelAsyncCopy(CE, Callee, "memcpy", F);
  if (!Callee || !Callee->getIdentifier() ||
      !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
    return false;
  std::string Name = plainName(Callee);
  llvm::StringRef Short = Callee->getName();
  unsigned NumArgs = CE->getNumArgs();

  // curand_init(seed, subsequence, offset, &s[i]) and the quasirandom
  // curand_init(directions, [scramble,] offset, &s[i]): the state element
  // is written whole; a direction-vector array is read whole. skipahead*
  // reads and updates the state. The skip-ahead's own traffic to the state
  // and to curand's precomputed matrices is not modelled.
  bool Init = cudaFunction(Name).is(CudaRole::CurandInit);
  CudaFunction ByShortName = cudaFunction(Short);
  bool Skip = ByShortName.is(CudaRole::CurandSkipAhead);
  if ((Init || Skip) && NumArgs == Callee->getNumParams()) {
    for (unsigned I = 0; I < NumArgs; ++I) {
      const ParmVarDecl *P = Callee->getParamDecl(I);
      QualType T = P->getType();
      if (!T->isPointerType())
        continue;
      QualType Pointee = T->getPointeeType();
      if (Pointee->isRecordType()) {
        recordPointerAccess(CE->getArg(I),
                            Init ? AccessOp::Store : AccessOp::LoadStore,
                            AtomicKind::None, F, nullptr);
        continue;
      }
      // unsigned int direction_vectors[32]: 32 loads of one element each.
      const auto *Array =
          Ctx.getAsConstantArrayType(P->getOriginalType());
      if (!Array)
        continue;
      size_t Before = Kernel.Accesses.size();
      recordPointerAccess(CE->getArg(I), AccessOp::Load, AtomicKind::None, F,
                          nullptr);
      if (Kernel.Accesses.size() > Before)
        Kernel.Accesses.back().Pattern.Instructions =
            static_cast<unsigned>(Array->getSize().getZExtValue());
    }
    return true;
  }

  if (ByShortName.is(CudaRole::AsyncCopy))
    return modelAsyncCopy(CE, Callee, Name, F);

  // wmma::load_matrix_sync(frag, p, ldm[, layout]) and
  // wmma::store_matrix_sync(p, frag, ldm, layout): the warp moves a tile
  // whose rows are ldm elements apart. Which lane moves which part of it is
  // left unspecified by CUDA (the fragment layout is the architecture's):
  // predicted where wmmaModel() knows it, else reported with the tile.
  CudaFunction Fn = cudaFunction(Name);
  bool Load = Fn.is(CudaRole::WmmaLoad), Store = Fn.is(CudaRole::WmmaStore);
  if ((Load || Store) && NumArgs >= 3) {
    const clang::Expr *Frag = CE->getArg(Load ? 0 : 1);
    const clang::Expr *Ptr = CE->getArg(Load ? 1 : 0);
    const clang::Expr *Ldm = CE->getArg(2);
    QualType Pointee = Ptr->getType()->getPointeeType();
    if (Pointee.isNull())
      return false;
    std::optional<PointerValue> P = resolvePointer(Ptr, F, nullptr);
    std::optional<FragmentShape> Shape = fragmentShape(Frag->getType());
    std::string Layout = Shape ? Shape->Layout : "";
    if (NumArgs >= 4)
      Layout = sourceText(Ctx, CE->getArg(3)->getSourceRange());
    std::string Elem = Pointee.getUnqualifiedType().getAsString();
    std::string LdmText = sourceText(Ctx, Ldm->getSourceRange());
    std::string What =
        Shape ? tileFootprint(*Shape, Layout, Elem, sizeOf(Pointee), LdmText)
              : fmt::format("a tile of {} with leading dimension {}", Elem,
                            LdmText);
    std::string Reason = fmt::format(
        "wmma::{}: the warp {} {}; which lane moves which part is "
        "architecture-specific, modelled only for 16x16x16 tiles of 16-bit "
        "elements in the layouts mma.sync uses (matrix_a row_major, "
        "matrix_b col_major, accumulator mem_row_major) on sm_80 and later",
        Short, Load ? "loads" : "stores", What);
    // sm_70/sm_75 lay fragments out otherwise: not modelled there.
    OffloadArch Arch =
        StringToOffloadArch(Ctx.getTargetInfo().getTargetOpts().CPU);
    bool Before80 = IsNVIDIAOffloadArch(Arch) && Arch < OffloadArch::SM_80;
    std::optional<WmmaModel> Model =
        Shape && !Before80 ? wmmaModel(*Shape, Layout, sizeOf(Pointee), Load)
                           : std::nullopt;
    AccessOp Op = Load ? AccessOp::Load : AccessOp::Store;
    // The fragment is the thread's own (registers): written by a load, read
    // by a store. An element of a fragment array (`frag[i]`) is recorded,
    // and excluded as local memory, like any bound lvalue.
    recordBoundLValue(Frag, Load ? AccessOp::Store : AccessOp::Load, F);
    if (!P) {
      recordUnknown(Ptr, sizeOf(Pointee), Op, F, Ptr, Reason);
      return true;
    }
    if (P->Space != MemorySpace::Global) {
      excludeSpace(Ptr, Op, F, P->Space);
      return true;
    }
    size_t Before = Kernel.Accesses.size();
    if (!Model) {
      emit(Ptr, AddressInfo{*P, std::nullopt}, sizeOf(Pointee), Op,
           AtomicKind::None, F, Ptr, LaneOriginInfo());
      if (Kernel.Accesses.size() > Before)
        Kernel.Accesses.back().Pattern.UnknownReason = std::move(Reason);
      return true;
    }
    // Request k of 4: lines 8 * (k / 2) on, bytes 16 * (k % 2) on.
    SourceLocation At = toLocation(SM, CE->getBeginLoc());
    Expr K = symbol(Symbol{SymbolKind::LoopIter,
                           fmt::format("piece@{}:{}", At.Line, At.Column)});
    Expr Lane = Expr::rem(threadInBlock(Facts.exprs()), Expr::constant(32));
    Expr Line = Expr::div(Lane, Expr::constant(4)) +
                Expr::constant(8) * Expr::div(K, Expr::constant(2));
    P->ByteOffset = P->ByteOffset +
                    Line * translate(Ldm, F) * Expr::constant(2) +
                    Expr::constant(4) * Expr::rem(Lane, Expr::constant(4)) +
                    Expr::constant(16) * Expr::rem(K, Expr::constant(2));
    Expr SavedActive = F.Active;
    F.Active = Expr::logicalAnd(F.Active, Expr::lt(K, Expr::constant(4)));
    emit(Ptr, AddressInfo{*P, std::nullopt}, 4, Op, AtomicKind::None, F, Ptr,
         LaneOriginInfo());
    F.Active = SavedActive;
    if (Kernel.Accesses.size() > Before) {
      AccessPattern &Pattern = Kernel.Accesses.back().Pattern;
      Pattern.IssuedAs = std::move(Model->Note);
      Pattern.Instructions = Model->Instructions;
    }
    return true;
  }
  return false;
}

bool KernelWalker::modelAsyncCopy(const CallExpr *CE, const FunctionDecl *Callee,
                                  llvm::StringRef Name, Frame &F) {
  // The forms:
  //   per thread  cuda::memcpy_async(dst, src, size, pipe_or_barrier),
  //               __pipeline_memcpy_async(dst, src, size): this lane copies
  //               its own bytes, chunk after chunk;
  //   collective  cooperative_groups::memcpy_async(group, dst, src, size),
  //               cuda::memcpy_async(group, dst, src, size, barrier): the
  //               group's lanes copy the range together, lane r taking the
  //               chunks r, r + G, r + 2G, ... (cooperative_groups'
  //               accelerated_async_copy).
  // A chunk is min(alignment, 16) bytes, one LDGSTS each; the alignment is
  // the one cuda::aligned_size_t<A> states, else that of the pointers'
  // element type (a void * copy is aligned by the library at run time, in
  // pieces not modelled: unknown, with the reason). The passes are a loop
  // over the chunks a lane copies: the access at src + chunk * (r + G * k)
  // while r + G * k < size / chunk, so the predictor samples them and the
  // harness sizes buffers over all of them.
  unsigned N = CE->getNumArgs();
  if (N < 3)
    return false;
  bool Collective = !CE->getArg(0)->getType()->isPointerType();
  unsigned First = Collective ? 1 : 0;
  if (N < First + 3 || !CE->getArg(First)->getType()->isPointerType() ||
      !CE->getArg(First + 1)->getType()->isPointerType())
    return false; // cooperative_groups' (group, dst, count, src, count).
  const clang::Expr *Dst = CE->getArg(First);
  const clang::Expr *Src = CE->getArg(First + 1);
  CopySize Size = copySize(CE->getArg(First + 2));
  bool Primitive = cudaFunction(CE).has(cudaflag::ChunkSize);
  bool Plain = Name == "memcpy", Untyped = false;
  if (Primitive)
    Size.Align = 16; // Its size is the chunk: 4, 8 or 16 bytes.
  if (Plain) {
    // The compiler moves the bytes in pieces both pointers' types allow
    // (`memcpy(&tmp, src + off, 16)` from a char * is 16 byte loads); a
    // void * states none, so it copies byte by byte (nvcc 13's PTX for
    // `memcpy(&v, in, 4)` with `const void *in`: four ld.global.u8).
    Size.Align = 16;
    for (unsigned I = 0; I < 2; ++I) {
      uint64_t Align = memcpyAlignment(CE->getArg(I), Ctx);
      Untyped |= Align == 0;
      Size.Align = std::min(Size.Align, Align ? Align : 1);
    }
  }
  if (Size.Align == 1 && First < Callee->getNumParams()) {
    QualType Elem =
        Callee->getParamDecl(First)->getType()->getPointeeType();
    if (!Elem.isNull() && !Elem->isVoidType() && !Elem->isIncompleteType())
      Size.Align = uint64_t(Ctx.getTypeAlignInChars(Elem).getQuantity());
  }
  std::optional<std::pair<Expr, Expr>> Group;
  if (Collective)
    Group = groupRankAndSize(CE->getArg(0)->getType(), Facts.exprs());
  Expr Bytes = Size.Bytes ? translate(Size.Bytes, F) : Expr::constant(0);

  int64_t Chunk = int64_t(std::min<uint64_t>(Size.Align, 16));
  if (std::optional<int64_t> B = Bytes.asConstant(); B && *B > 0 && *B < Chunk)
    Chunk = *B;
  std::string Why;
  if (!Plain && Size.Align < 4)
    Why = "its alignment is not known (pass cuda::aligned_size_t<16>(n)), so "
          "the library chooses its pieces at run time";
  else if (!Size.Bytes)
    Why = "its size is not known";
  else if (Collective && !Group)
    Why = "the copying group's lanes are not known";

  // The chunk index of this lane's pass k, and the condition that it is
  // one of the range's; a copy of one chunk per lane needs no pass.
  Expr Index = Group ? Group->first : Expr::constant(0);
  Expr InRange = Expr::constant(1);
  Expr Count = Expr::div(Bytes, Expr::constant(Chunk));
  if (Why.empty() && !(Count.isConstant() && Count.getConstant() == 1 &&
                       !Group)) {
    SourceLocation At = toLocation(SM, CE->getBeginLoc());
    Symbol Pass{SymbolKind::LoopIter,
                fmt::format("chunk@{}:{}", At.Line, At.Column)};
    Index = Index + symbol(Pass) * (Group ? Group->second : Expr::constant(1));
    InRange = Expr::lt(Index, Count);
  }

  // Each global side: a load from src, a store to dst (shared memory, the
  // usual destination, is not global and is skipped).
  for (auto [Ptr, Op] : {std::pair{Src, AccessOp::Load},
                         std::pair{Dst, AccessOp::Store}}) {
    const clang::Expr *Anchor = addressOfOperand(Ptr);
    if (!Anchor)
      Anchor = Ptr->IgnoreParenCasts();
    LaneOriginInfo Origin;
    std::optional<PointerValue> P = resolvePointer(Ptr, F, &Origin);
    if (!P) {
      if (Op == AccessOp::Load)
        recordUnknown(Anchor, unsigned(Chunk), Op, F, Anchor,
                      unfollowedPointer(Ptr));
      continue;
    }
    if (P->Space != MemorySpace::Global) {
      excludeSpace(Anchor, Op, F, P->Space);
      continue;
    }
    P->ByteOffset = P->ByteOffset + Index * Expr::constant(Chunk);
    Expr SavedActive = F.Active;
    F.Active = Expr::logicalAnd(F.Active, InRange);
    size_t Before = Kernel.Accesses.size();
    emit(Anchor, AddressInfo{*P, std::nullopt}, unsigned(Chunk), Op,
         AtomicKind::None, F, Anchor, Origin);
    F.Active = SavedActive;
    if (Kernel.Accesses.size() <= Before)
      continue;
    AccessPattern &Pattern = Kernel.Accesses.back().Pattern;
    if (!Why.empty())
      Pattern.UnknownReason = fmt::format("{}: {}", Name, Why);
    else if (Plain && Chunk < 16 &&
             !(Count.isConstant() && Count.getConstant() <= 1))
      Pattern.IssuedAs = fmt::format(
          "memcpy: {}, so the compiler copies {}",
          Untyped ? "a void * states no alignment"
                  : fmt::format("the pointers' types allow pieces of {} "
                                "byte{} only",
                                Chunk, Chunk == 1 ? "" : "s"),
          Count.isConstant()
              ? fmt::format("the {} bytes in {} pieces",
                            Count.getConstant() * Chunk, Count.getConstant())
              : fmt::format("the bytes {} at a time",
                            Chunk == 1 ? std::string("one")
                                       : std::to_string(Chunk)));
  }
  return true;
}

} // namespace frontend
} // namespace coalesce
