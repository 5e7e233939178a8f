//===- CudaFunctions.h - The CUDA functions the walker knows ----*- C++ -*-===//
///
/// \file
/// What the frontend knows of the CUDA functions it does not walk into,
/// looked up by name in one table (CudaFunctions.def): the walker records
/// their accesses, the translator gives their values, the library-call
/// models copy and load by their role.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_FRONTEND_CUDAFUNCTIONS_H
#define COALESCE_LIB_FRONTEND_CUDAFUNCTIONS_H

#include "coalesce/Expr.h"
#include "coalesce/Report.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace coalesce {
namespace frontend {

/// What a CUDA function is to the walker (CudaFunctions.def says which
/// function has which role).
enum class CudaRole {
  None,              ///< Not in the table.
  Atomic,            ///< atomicAdd & co.: read-modify-write of argument 0.
  AtomicMethod,      ///< fetch_add & co. of libcu++'s cuda::atomic: of
                     ///< the object (isLibraryAtomic()).
  CacheLoad,         ///< __ldg & co.: a load of argument 0.
  CacheStore,        ///< __stcg & co.: a store to argument 0.
  TextOutput,        ///< printf: reads its arguments as text.
  AddressConversion, ///< __cvta_*, __is*: inspects an address only.
  Shuffle,           ///< __shfl*: a value from another lane.
  Vote,              ///< __ballot_sync & co.: uniform in the warp.
  FindFirstSet,      ///< __ffs, __ffsll.
  CountLeadingZeros, ///< __clz, __clzll.
  PopulationCount,   ///< __popc, __popcll.
  IntMin,            ///< min, umin, ... (integer arguments).
  IntMax,            ///< max, umax, ...
  Mul24,             ///< __mul24, __umul24.
  IntAbs,            ///< abs of an integer.
  MulHigh,           ///< __umulhi, __umul64hi.
  LaneId,            ///< The lane of the warp.
  LaneSpecific,      ///< NVVM builtins of the thread's own registers,
                     ///< atomics, shuffles: a value of the lane's own.
  GroupThreadRank,   ///< Cooperative groups: thread_rank().
  GroupSize,         ///< size(), num_threads().
  GroupBlockRank,    ///< grid_group::block_rank().
  GroupNumBlocks,    ///< grid_group::num_blocks().
  GroupMetaRank,     ///< thread_block_tile::meta_group_rank().
  GroupMetaSize,     ///< thread_block_tile::meta_group_size().
  GroupThreadIndex,  ///< thread_index(): a dim3.
  GroupIndex,        ///< thread_block::group_index().
  GroupDimThreads,   ///< dim_threads(), group_dim().
  GroupBlockIndex,   ///< grid_group::block_index().
  GroupDimBlocks,    ///< grid_group::dim_blocks().
  GridWorkspace,     ///< cooperative_groups' grid workspace pointer.
  Launch,            ///< cudaLaunchKernel & co. (host code).
  MemCopy,           ///< memcpy in device code.
  AsyncCopy,         ///< memcpy_async, __pipeline_memcpy_async.
  WmmaLoad,          ///< nvcuda::wmma::load_matrix_sync.
  WmmaStore,         ///< nvcuda::wmma::store_matrix_sync.
  CurandInit,        ///< curand_init: writes the state whole.
  CurandSkipAhead,   ///< skipahead*: reads and updates the state.
  CurandGenerator,   ///< curand(), curand_uniform(), ...: walked.
  CurandOther,       ///< Other curand functions: neither.
  TupleMake,         ///< make_tuple of std and libcu++: a tuple of its
                     ///< arguments (Tuples.cpp).
  TupleGet,          ///< get<I> of a tuple: its element I.
  VectorMake,        ///< make_int2 & co.: the vector of their arguments.
  Identity,          ///< libcu++'s forward and move: their argument, the
                     ///< same object (std's are clang builtins).
};

/// Bits of CudaFunction::Flags, as CudaFunctions.def names them.
namespace cudaflag {
enum Flag : unsigned {
  Sync = 1,      ///< The _sync form: the lane mask is argument 0.
  Broadcast = 2, ///< A shuffle whose source is one lane index.
  Wide = 4,      ///< The 64-bit form.
  ChunkSize = 8, ///< A copy whose size argument is one chunk (4, 8, 16).
  ConfigStruct = 16, ///< A launch configured by a cudaLaunchConfig_t.
  GridToo = 32,      ///< A thread_block method grid_group has too.
  Xor = 64,          ///< A shuffle from lane `lane ^ arg` (butterfly).
};
} // namespace cudaflag

/// One row of CudaFunctions.def.
struct CudaFunction {
  CudaRole Role = CudaRole::None;
  unsigned Flags = 0;

  bool is(CudaRole R) const { return Role == R; }
  bool has(cudaflag::Flag F) const { return (Flags & F) != 0; }
};

/// The table's row for the function called \p Name (exact names first,
/// then the prefixes in table order); Role None when it has none.
CudaFunction cudaFunction(llvm::StringRef Name);
/// The row of the function \p CE calls directly, by its unqualified name.
CudaFunction cudaFunction(const clang::CallExpr *CE);

/// The CUDA built-in variables the walker knows (CudaFunctions.def).
enum class CudaVariable {
  None,
  ThreadIdx,
  BlockIdx,
  BlockDim,
  GridDim,
  WarpSize
};
/// The table's row for the variable called \p Name; None when it has none.
CudaVariable cudaVariable(llvm::StringRef Name);
/// The classes of cooperative_groups the walker knows (CudaFunctions.def).
enum class CudaGroupType { None, Block, Grid, Coalesced, Tile };
/// The table's row for the class called \p Name (in cooperative_groups:
/// the caller checks the namespace); None when it has none.
CudaGroupType cudaGroupType(llvm::StringRef Name);

/// If \p E reads threadIdx/blockIdx/blockDim/gridDim.{x,y,z}, the symbol
/// (CudaBuiltins.cpp).
std::optional<Symbol> cudaBuiltinSymbol(const clang::Expr *E);
/// Atomic kind by the pointee type of an atomic's first argument.
AtomicKind atomicKindOf(clang::QualType Pointee);
/// Whether \p Method belongs to one of libcu++'s atomic classes (declared
/// in namespace cuda or std, its class named like `atomic`,
/// `__atomic_bitwise`), as the AtomicMethod rows require.
bool isLibraryAtomic(const clang::FunctionDecl *Method);
/// Is \p Name (qualified as plainName() spells it) a library class whose
/// methods the walker follows (CUDA_WALKED_CLASS: std::array)?
bool isWalkedLibraryClass(llvm::StringRef Name);
/// Is \p Name (as plainName() spells it) a library function whose body the
/// parse keeps (CUDA_PARSED_FUNCTION: std::make_unique)?
bool isParsedLibraryFunction(llvm::StringRef Name);
/// Is \p Def library code whose accesses are the user's and that the walker
/// follows (cub's block primitives, curand's generators, the methods of
/// the classes isWalkedLibraryClass() names; LibraryCalls.cpp)?
bool isWalkedLibraryFunction(const clang::FunctionDecl *Def);
/// For a cooperative group of static type \p GroupType whose members are
/// known (thread_block, thread_block_tile<N>): the thread's rank in it and
/// its size; nullopt for other groups.
std::optional<std::pair<Expr, Expr>> groupRankAndSize(clang::QualType GroupType,
                                                      const ExprContext &X);
/// The linear rank of the thread in its block (threadIdx.x + blockDim.x *
/// (threadIdx.y + blockDim.y * threadIdx.z)).
Expr threadInBlock(const ExprContext &X);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_LIB_FRONTEND_CUDAFUNCTIONS_H
