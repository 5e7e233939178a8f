//===- FrontendInternal.h - From the Clang AST to access patterns -*- C++ -*-===//
///
/// \file
/// The frontend's pipeline, one arrow per piece:
///
///   TU --(KernelFinder)--> kernels (and template instantiations)
///      --(LaunchConfig)--> block shape per kernel (launch site, bounds)
///   kernel body --(KernelWalker, statement by statement)--> global accesses
///      each access: lvalue --(AddressResolver)--> base + byte offset
///                   index  --(ExprTranslator)--> symbolic Expr
///   access --(predict(), outside the frontend)--> sectors per request
///
/// The walker interprets the body in order with an environment that maps
/// local variables to symbolic values, so `int i = blockIdx.x * blockDim.x +
/// threadIdx.x; a[i]` becomes a[4*threadIdx.x + 4*blockDim.x*blockIdx.x].
/// Loop induction variables become init + step * iter (a LoopIter symbol),
/// branches add to the predicate under which an access runs, and calls to
/// __device__ functions are walked inline with their parameters bound to
/// the arguments, so their accesses are attributed to the calling kernel.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_FRONTENDINTERNAL_H
#define COALESCE_FRONTEND_FRONTENDINTERNAL_H

#include "coalesce/Config.h"
#include "coalesce/Expr.h"
#include "coalesce/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace frontend {

/// The memory an address points into.
enum class MemorySpace { Global, Shared, Constant, Local, Unknown };

/// A pointer value: a named base allocation plus a byte offset into it.
struct PointerValue {
  std::string BaseName;
  MemorySpace Space = MemorySpace::Unknown;
  Expr ByteOffset;
};

/// What a variable holds while the walker interprets a function.
struct VarValue {
  std::optional<Expr> Int;             ///< Integer (or bool) value.
  std::optional<PointerValue> Pointer; ///< Pointer value.
  /// Where a lane-dependent value was defined (for the "note:").
  clang::SourceLocation LaneOrigin;
  std::string LaneOriginName;
  std::vector<std::string> LaneOriginSymbols; ///< threadIdx components used.
};

/// The resolved address of a memory lvalue.
struct AddressInfo {
  PointerValue Ptr;
  /// For a field of a struct element (p[i].x): the struct's size.
  std::optional<unsigned> RecordBytes;
};

/// Where the lane dependence of an index comes from, collected during
/// translation.
struct LaneOriginInfo {
  clang::SourceLocation Loc;
  std::string Name;
  std::vector<std::string> Symbols; ///< threadIdx components it uses.
};

/// Converts a clang location to a 1-based file/line/column (expansion
/// location for macros).
SourceLocation toLocation(const clang::SourceManager &SM,
                          clang::SourceLocation Loc);

/// The source text of \p R (expanded from macros when needed).
std::string sourceText(const clang::ASTContext &Ctx, clang::SourceRange R);

/// If \p E reads threadIdx/blockIdx/blockDim/gridDim.{x,y,z}, the symbol.
std::optional<Symbol> cudaBuiltinSymbol(const clang::Expr *E);

/// \p L op \p R for a C binary (or compound-assignment) operator; nullopt
/// for operators without an Expr counterpart (comma, plain assignment).
std::optional<Expr> applyBinaryOperator(clang::BinaryOperatorKind Op,
                                        const Expr &L, const Expr &R);

/// The names of CUDA atomic functions (atomicAdd, atomicCAS_block, ...).
bool isAtomicFunction(llvm::StringRef Name);
/// Cache-hinted loads (__ldg, __ldcg, ...) and stores (__stcg, ...).
bool isLoadIntrinsic(llvm::StringRef Name);
bool isStoreIntrinsic(llvm::StringRef Name);

/// Interprets one kernel (and the __device__ functions it calls) and records
/// its global accesses.
class KernelWalker {
public:
  KernelWalker(clang::ASTContext &Ctx, KernelRecord &Kernel)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Kernel(Kernel) {}

  /// Walks the body of kernel \p FD.
  void walkKernel(const clang::FunctionDecl *FD);

private:
  /// One function activation (the kernel, or an inlined __device__ call).
  struct Frame {
    const clang::FunctionDecl *Fn = nullptr;
    llvm::DenseMap<const clang::ValueDecl *, VarValue> Env;
    Expr Active = Expr::constant(1);
    std::vector<SourceLocation> CallChain;
    bool IsKernel = false;
    unsigned Depth = 0;
    /// For an inlined call: where its first `return` value goes.
    VarValue *Returned = nullptr;
  };

  // Statements (KernelWalker.cpp).
  void walkStmt(const clang::Stmt *S, Frame &F);
  void walkCompound(const clang::CompoundStmt *CS, Frame &F);
  void walkIf(const clang::IfStmt *IS, Frame &F);
  void walkLoop(const clang::Stmt *Init,
                const clang::Expr *Cond, const clang::Expr *Inc,
                const clang::Stmt *Body, Frame &F, bool CondAfterBody = false);
  /// Does a variable of \p F already hold a loop counter named \p Name
  /// (an enclosing loop's)?
  static bool loopNameTaken(const Frame &F, llvm::StringRef Name);
  void walkDecl(const clang::VarDecl *VD, Frame &F);
  void mergeBranches(const Expr &Cond, Frame &F, const Frame &Then,
                     const Frame &Else);
  /// A copy of \p F whose code runs only where \p Cond holds.
  static Frame under(const Frame &F, const Expr &Cond);

  // Expressions with side effects and accesses (AccessCollector.cpp).
  void walkExpr(const clang::Expr *E, Frame &F);
  void walkAddressOperands(const clang::Expr *LValue, Frame &F);
  void recordAccess(const clang::Expr *LValue, AccessOp Op, AtomicKind Atomic,
                    Frame &F, const clang::Expr *Anchor = nullptr);
  void recordPointerAccess(const clang::Expr *Ptr, AccessOp Op,
                           AtomicKind Atomic, Frame &F,
                           const clang::Expr *Anchor);
  /// The value \p Value gives variable \p VD (nullopt for untracked types).
  std::optional<VarValue> valueOf(const clang::ValueDecl *VD,
                                  const clang::Expr *Value, const Frame &F);
  /// Walks \p Value for accesses and side effects and returns the value it
  /// gives \p VD (before those side effects).
  std::optional<VarValue> evaluateAndWalk(const clang::ValueDecl *VD,
                                          const clang::Expr *Value, Frame &F);
  void walkCall(const clang::CallExpr *CE, Frame &F);
  void inlineCall(const clang::CallExpr *CE, const clang::FunctionDecl *Callee,
                  Frame &F);
  void emit(const clang::Expr *LValue, const AddressInfo &Addr,
            unsigned Bytes, AccessOp Op, AtomicKind Atomic, Frame &F,
            const clang::Expr *Anchor, const LaneOriginInfo &Origin);

  // Integer expressions (ExprTranslator.cpp).
  Expr translate(const clang::Expr *E, const Frame &F,
                 LaneOriginInfo *Origin = nullptr);
  Expr translateCall(const clang::CallExpr *CE, const Frame &F,
                     LaneOriginInfo *Origin);
  Expr opaqueValue(const clang::Expr *E, bool LaneDependent,
                   bool Indirect = false);
  /// The value read from memory lvalue \p LV: a uniform or indirect symbol.
  Expr loadedValue(const clang::Expr *LV, const Frame &F);

  // Addresses (AddressResolver.cpp).
  std::optional<AddressInfo> resolveAddress(const clang::Expr *LValue,
                                            const Frame &F,
                                            LaneOriginInfo *Origin);
  std::optional<PointerValue> resolvePointer(const clang::Expr *Ptr,
                                             const Frame &F,
                                             LaneOriginInfo *Origin);
  std::optional<PointerValue> varPointer(const clang::ValueDecl *VD,
                                         const Frame &F);
  unsigned sizeOf(clang::QualType T) const;
  /// For a call to a __device__ function whose body is one return statement:
  /// fills \p Callee with the parameters bound to the arguments and returns
  /// the returned expression; else null.
  const clang::Expr *singleReturn(const clang::CallExpr *CE, const Frame &F,
                                  Frame &Callee, LaneOriginInfo *Origin);

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  KernelRecord &Kernel;
  /// What the last inlined walk of each call returned, for calls to
  /// __device__ functions longer than one return statement.
  llvm::DenseMap<const clang::CallExpr *, VarValue> Returned;
  /// Numbers loops, to name a LoopIter symbol whose variable name is taken.
  unsigned LoopCounter = 0;
};

/// Block shape and grid of kernel \p FD from launches in the TU or its
/// __launch_bounds__; fills Kernel.Block/BlockSource/LaunchGrid unless the
/// user gave a shape.
class LaunchConfigFinder {
public:
  explicit LaunchConfigFinder(clang::ASTContext &Ctx);
  /// Fills the block shape of \p Kernel; returns the launch used, if any.
  SourceLocation apply(const clang::FunctionDecl *FD, KernelRecord &Kernel,
                       const AnalysisConfig &Config) const;

private:
  struct Launch {
    std::optional<BlockShape> Block, Grid;
    SourceLocation Loc;
  };
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, Launch> Launches;
};

/// The parameters of kernel \p FD, as the harness needs them.
std::vector<KernelParameter> describeParameters(const clang::FunctionDecl *FD);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_FRONTENDINTERNAL_H
