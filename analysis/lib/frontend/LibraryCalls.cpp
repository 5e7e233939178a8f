//===- LibraryCalls.cpp - CUDA library calls that touch the user's memory -===//
//
// Calls into the CUDA headers that are handed global memory, in two kinds:
//   walked     cub's block primitives, curand's generators (curand(&s[i]),
//              curand_uniform, curand_normal, ...): their bodies index the
//              user's pointer, and their accesses are reported at the call
//   modelled   curand_init(.., &s[i]), skipahead(n, &s[i]): a store (a
//              load and a store) of the whole state element;
//              wmma::load_matrix_sync, wmma::store_matrix_sync: a warp's
//              tile access, reported as such but not predicted
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
/// curand functions whose bodies the walker follows: the generators, which
/// read and update the state they are given field by field. Initialization
/// and skip-ahead (loops over precomputed matrices) are modelled instead;
/// Poisson, discrete and MTGP generators are neither.
bool isWalkedCurandFunction(llvm::StringRef Name) {
  Name.consume_front("_");
  if (!Name.starts_with("curand"))
    return false;
  for (llvm::StringRef Skip : {"curand_init", "curand_poisson",
                               "curand_discrete", "curand_mtgp32"})
    if (Name.starts_with(Skip))
      return false;
  return true;
}

/// The name of \p FD without inline namespaces (cub::CUB_200700_SM_900,
/// cooperative_groups::__v1, nvcuda::wmma).
std::string plainName(const FunctionDecl *FD) {
  std::string Name;
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (!NS->isInline() && NS->getIdentifier())
        Name = NS->getName().str() + "::" + Name;
  return Name + FD->getNameAsString();
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
} // namespace

bool isWalkedLibraryFunction(const FunctionDecl *Def) {
  // cub's block primitives (BlockLoad, BlockStore, LoadDirectBlocked, ...)
  // index the user's pointers with the thread's rank: their accesses are
  // the user's, as if written inline. cub's versioned inline namespace
  // (cub::CUB_200700_SM_900) is part of the qualified name.
  std::string Name = Def->getQualifiedNameAsString();
  if (llvm::StringRef(Name).starts_with("cub::"))
    return true;
  return Def->getIdentifier() && isWalkedCurandFunction(Def->getName());
}

bool KernelWalker::modelLibraryCall(const CallExpr *CE,
                                    const FunctionDecl *Callee, Frame &F) {
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
  bool Init = Name == "curand_init";
  bool Skip = Short.starts_with("skipahead");
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

  // wmma::load_matrix_sync(frag, p, ldm[, layout]) and
  // wmma::store_matrix_sync(p, frag, ldm, layout): the warp moves a tile
  // whose rows are ldm elements apart. Which lane moves which part of it is
  // left unspecified by CUDA (the fragment layout is the architecture's), so
  // no sector count is predicted: the access is reported with the tile.
  bool Load = Name == "nvcuda::wmma::load_matrix_sync";
  bool Store = Name == "nvcuda::wmma::store_matrix_sync";
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
        "architecture-specific, not modelled",
        Short, Load ? "loads" : "stores", What);
    AccessOp Op = Load ? AccessOp::Load : AccessOp::Store;
    if (!P) {
      recordUnknown(Ptr, sizeOf(Pointee), Op, F, Ptr, Reason);
      return true;
    }
    if (P->Space != MemorySpace::Global)
      return true;
    size_t Before = Kernel.Accesses.size();
    emit(Ptr, AddressInfo{*P, std::nullopt}, sizeOf(Pointee), Op,
         AtomicKind::None, F, Ptr, LaneOriginInfo());
    if (Kernel.Accesses.size() > Before)
      Kernel.Accesses.back().Pattern.UnknownReason = std::move(Reason);
    return true;
  }
  return false;
}

} // namespace frontend
} // namespace coalesce
