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

#include "AbstractValues.h"
#include "ClangUtil.h"
#include "CudaFunctions.h"
#include "IntegerOps.h"
#include "LoopCarried.h"
#include "ProbeSlice.h"
#include "SourceFacts.h"
#include "WalkMemo.h"
#include "WarpReduction.h"
#include "coalesce/Config.h"
#include "coalesce/Expr.h"
#include "coalesce/Report.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace coalesce {
namespace frontend {

/// Interprets one kernel (and the __device__ functions it calls) and records
/// its global accesses.
class KernelWalker {
  friend class LaunchConfigFinder;

public:
  /// \p Facts is shared by the walks of one translation unit.
  KernelWalker(clang::ASTContext &Ctx, KernelRecord &Kernel,
               SourceFacts &Facts)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Kernel(Kernel), Facts(Facts),
        Exchanges(Facts.exprs()) {}

  /// Walks the body of kernel \p FD.
  void walkKernel(const clang::FunctionDecl *FD);
  /// Walks host function \p FD (nothing recorded), calling OnLaunch at each
  /// kernel launch with the state there; \p Args binds its parameters when
  /// it is called from another host function being walked.
  void walkHost(const clang::FunctionDecl *FD);
  /// Where two paths join: \p F's slots become \p Then's where \p Cond
  /// holds, else \p Else's (either may be \p F itself), and its memory
  /// version theirs joined.
  void mergeBranches(const Expr &Cond, frontend::Frame &F,
                     const frontend::Frame &Then, const frontend::Frame &Else);

private:
  /// Walks kernel or host function \p FD with its parameters bound.
  void walkEntry(const clang::FunctionDecl *FD, bool Host);

  /// One function activation (AbstractValues.h).
  using Frame = frontend::Frame;

  /// Whether the walker enters \p Def: user code, and the library code whose
  /// accesses are the user's (cub, header-only templates over the user's
  /// pointers); not the CUDA headers or other system headers.
  bool walksInto(const clang::FunctionDecl *Def) const;

  /// \p S as an expression of the file's context (SourceFacts::exprs()).
  Expr symbol(Symbol S) const { return Facts.exprs().symbol(std::move(S)); }

  /// In host mode, the host functions that may be walked inline (those
  /// that launch kernels, directly or not).
  const llvm::SmallPtrSetImpl<const clang::FunctionDecl *> *HostCallees =
      nullptr;

  /// In host mode, the global variables some code changes; the others
  /// hold their initializer (`dim3 block(512);` at namespace scope).
  const llvm::SmallPtrSetImpl<const clang::VarDecl *> *ModifiedGlobals =
      nullptr;

  /// Called at each kernel launch met while walking host code.
  std::function<void(const clang::CallExpr *Launch, Frame &F)> OnLaunch;

  // Statements (KernelWalker.cpp).
  void walkStmt(const clang::Stmt *S, Frame &F);
  // Statement lists and jumps (StatementLists.cpp).
  void walkCompound(const clang::CompoundStmt *CS, Frame &F);
  /// A jump every pass of the innermost loop reaches, taken where \p Exits:
  /// pass k's accesses before it in the body, [\p First, \p Last), run
  /// where no lane took it in a pass before k, and so do the statements
  /// after it in \p F where it may hold in one pass only (`i == t % 4`).
  void leftBefore(const Expr &Exits, size_t First, size_t Last, Frame &F);
  /// A return, break, continue or goto: recorded in F.Left (a goto, and a
  /// break where F.KeepsBreaks, with the frame at it).
  void walkJump(const clang::Stmt *S, Frame &F);
  /// A goto back to a label walked before (a loop the walk does not
  /// follow): the values changed since the label become unknown.
  void loopedBack(const clang::GotoStmt *GS, Frame &F);
  /// A goto out of \p Loop, pending as \p G: on to its label, taken where
  /// an unknown per-lane value holds, with what the loop changed unknown.
  void leaveLoopByGoto(const PendingGoto &G, const clang::Stmt *Loop, Frame &F);
  /// \p VD's slot \p V made opaque (per lane where it or \p Active is),
  /// keyed by \p Key, with the reason \p Why gives for its name.
  void makeOpaque(const clang::ValueDecl *VD, VarValue &V, const Expr &Active,
                  uint64_t Key,
                  llvm::function_ref<std::string(llvm::StringRef)> Why);
  /// The frame at each label walked, for loopedBack().
  llvm::DenseMap<const clang::LabelDecl *, Frame> LabelFrames;
  void walkSwitch(const clang::SwitchStmt *SS, Frame &F);
  /// Walks the arms of \p SS under their labels, an arm that falls into
  /// the next label joined with that label's entry; the arms' returns and
  /// continues go to F.Left. Returns the frames the arms end in with their
  /// conditions, so the caller can join them; nullopt when a goto inside
  /// is not followed.
  std::optional<std::vector<std::pair<Expr, Frame>>>
  walkSwitchBody(const clang::SwitchStmt *SS, Frame &F);
  void walkIf(const clang::IfStmt *IS, Frame &F);
  /// Inline assembly: its operands are evaluated (and an output written);
  /// memory its pointer operands reach is an access the tool cannot read
  /// the PTX of (unknown, or excluded when not global) (AccessCollector.cpp).
  void walkAsm(const clang::GCCAsmStmt *AS, Frame &F);
  /// A loop: \p RangeVar, when given, is a range-for's variable, which
  /// takes the values \p RangeValues in turn (one per iteration).
  void walkLoop(const clang::Stmt *Loop, const clang::Stmt *Init,
                const clang::Expr *Cond, const clang::Expr *Inc,
                const clang::Stmt *Body, Frame &F, bool CondAfterBody = false,
                const clang::VarDecl *RangeVar = nullptr,
                llvm::ArrayRef<const clang::Expr *> RangeValues = {});
  /// `for (int s : {32, 16, 8})` and a range over a constant array: the
  /// variable is the list's element of the iteration; other ranges leave
  /// it unknown.
  void walkRangeFor(const clang::CXXForRangeStmt *RS, Frame &F);
  /// How deep chains of distinct inlined functions are followed (moderngpu's
  /// compile-time loops nest a call per iteration: a segmented reduction's
  /// operator is 20 calls deep); recursion stops at a repeated function.
  static constexpr unsigned MaxCallDepth = 32;
  /// How deep a recursive single-return function is substituted into
  /// itself (other substitutions go as deep as MaxCallDepth).
  static constexpr unsigned MaxSubstitutionDepth = 16;
  /// Walks \p Body (and \p Inc) once, recording nothing, with every leaf of
  /// each of \p Vars replaced by a fresh symbol, and fills the steps of the
  /// leaves of \p Carried in \p Out.
  void
  probeSteps(const clang::Stmt *Body, const clang::Expr *Inc, const Frame &F,
             const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Vars,
             const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Carried,
             unsigned LoopId, CarriedState &Out);
  /// Does \p Inc halve or double a counter holding a power of two up to
  /// the warp size (`o >>= 1`, `o *= 2`): a butterfly's loop.
  bool halvesLaneBits(const clang::Expr *Inc, const Frame &F);
  /// For each of \p Carried with a leaf that has no closed form in \p Out:
  /// its values at the first LoopSampleCount iterations (fewer when \p Cond
  /// ends the loop before), by walking \p Body (and \p Inc) that many times
  /// from \p F, recording nothing. Fills Out.Samples and Out.TooLarge, and
  /// Out.Exit with the values of \p Vars when the loop ended (unless
  /// \p Ends.Other: a return or goto may leave it).
  void sampleIterations(
      const clang::Stmt *Body, const clang::Expr *Cond, const clang::Expr *Inc,
      const Frame &F,
      const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Vars,
      const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Carried,
      const LoopEnds &Ends, CarriedState &Out);
  /// One pass of a loop that may break, sampled: \p Held gets, for the
  /// lanes not \p Gone before it, the values they leave the pass \p P
  /// with (those at their break, P.Left.Break.At, else at its end).
  /// Returns the lanes gone after it (broken, or \p Cond false).
  Expr holdExits(Frame &Held, const Expr &Gone, const Frame &P,
                 const Expr &Cond);
  /// The value slot \p VD holds after the loop, from its value \p AtIter at
  /// iteration \p Iter: the exit value where found, else closed forms at
  /// pass \p End and the leaves the loop does not change, the others opaque.
  VarValue valueAfterLoop(const clang::ValueDecl *VD, const VarValue &AtIter,
                          const CarriedState &State,
                          const std::optional<Expr> &Iter,
                          const std::optional<Expr> &End,
                          clang::SourceLocation Loop);
  /// The value loop-carried slot \p VD (entry \p Entry) holds at iteration
  /// \p Iter() of the loop at \p Loop: per leaf its closed form, its samples
  /// chained by iteration, data, or an opaque symbol (OpaqueReasons); sets
  /// \p UsedSamples. In host code a pointer swapped between allocations at
  /// one offset keeps it (ping-pong buffers of a time-step loop).
  VarValue carriedValue(const clang::ValueDecl *VD, const VarValue &Entry,
                        const CarriedState &State,
                        llvm::function_ref<Expr()> Iter,
                        clang::SourceLocation Loop, bool Host,
                        bool &UsedSamples);
  /// Is \p Name an enclosing loop's counter (held by a variable of \p F, or
  /// a caller's loop around the inlined call)?
  bool loopNameTaken(const Frame &F, llvm::StringRef Name) const;
  void walkDecl(const clang::VarDecl *VD, Frame &F);
  /// A copy of \p F whose code runs only where \p Cond holds.
  static Frame under(const Frame &F, const Expr &Cond);
  /// Calls \p Walk with a frame like under(F, Cond), whose changes are
  /// dropped: F itself with its predicate narrowed for the call when
  /// \p Code cannot change a slot (no assignment, increment or call), a
  /// copy otherwise.
  void walkUnder(Frame &F, const Expr &Cond, const clang::Stmt *Code,
                 llvm::function_ref<void(Frame &)> Walk);
  /// Whether \p S may change a slot of the frame it is walked in (an
  /// assignment, an increment, a call), decided once per node.
  bool mayChangeSlots(const clang::Stmt *S);
  /// leavesEarly(S, /*OrSkips=*/true), asked once per statement: may \p S
  /// end a loop's pass (a break, continue or return inside it)?
  bool mayEndPass(const clang::Stmt *S);
  /// The answers asked once per node (WalkMemo.h).
  WalkMemo Memo;

  // Expressions with side effects and accesses (AccessCollector.cpp).
  void walkExpr(const clang::Expr *E, Frame &F);
  /// walkExpr, and the constructor of a temporary \p E makes and drops
  /// (`global_load<T, 16>(frag, ptr, guard);`, `c = {m, n, k};`).
  void walkDropped(const clang::Expr *E, Frame &F);
  void walkAddressOperands(const clang::Expr *LValue, Frame &F);
  /// The source of a struct or vector copy (`float4 v = in[i]`,
  /// `o = a[i]`, `tmp = *p`): a load when it is memory, its address's
  /// operands walked. False when it is a temporary or a value, for the
  /// caller to walk as an expression.
  bool walkCopySource(const clang::Expr *Src, Frame &F);
  /// A read of the lvalue LV: a load when it is memory (each arm of a
  /// conditional where that arm is chosen), the side effects of `++i`,
  /// `i = e` (a struct's `operator=` included) and `(e, i)`, the operands
  /// of its address.
  void walkRead(const clang::Expr *LV, Frame &F);
  /// Walks what a reference parameter or an object of a call is bound to:
  /// the operands of its address when it is memory or a variable, the
  /// whole expression when it is a temporary.
  void walkBound(const clang::Expr *E, Frame &F);
  void recordAccess(const clang::Expr *LValue, AccessOp Op, AtomicKind Atomic,
                    Frame &F, const clang::Expr *Anchor = nullptr);
  /// Walks the calls in \p E ahead of the access whose address uses them.
  void prewalkCalls(const clang::Expr *E, Frame &F);
  /// Records an access whose address could not be followed, as unknown
  /// with \p Reason.
  void recordUnknown(const clang::Expr *LV, unsigned Bytes, AccessOp Op,
                     Frame &F, const clang::Expr *Anchor, std::string Reason);
  /// The reason of an access through \p Ptr the walker cannot follow:
  /// "cannot follow the pointer 'p' to where it points".
  std::string unfollowedPointer(const clang::Expr *Ptr) const;
  /// Records that the memory operation at \p At (an lvalue, or the user's
  /// call into library code) is not predicted, and why: the census
  /// (--self-check) matches it.
  void exclude(const clang::Expr *At, AccessOp Op, Frame &F,
               llvm::StringRef Reason);
  /// exclude() for memory in space \p Space (shared, constant, local).
  void excludeSpace(const clang::Expr *At, AccessOp Op, Frame &F,
                    MemorySpace Space);
  /// Records an access of `*Ptr`, of \p Bytes bytes (0: the pointee's
  /// size) at \p Offset bytes past it (inline PTX's `[%1+16]`).
  void recordPointerAccess(const clang::Expr *Ptr, AccessOp Op,
                           AtomicKind Atomic, Frame &F,
                           const clang::Expr *Anchor, unsigned Bytes = 0,
                           int64_t Offset = 0);
  /// The value \p Value gives a slot of type \p T (nullopt for untracked
  /// types); \p Named names the slot in lane-origin notes. Does not walk.
  std::optional<VarValue> valueOf(clang::QualType T, const clang::Expr *Value,
                                  Frame &F,
                                  const clang::ValueDecl *Named = nullptr);
  /// Walks \p Value for accesses and side effects and returns the value it
  /// gives a slot of type \p T (before those side effects).
  std::optional<VarValue> evaluateAndWalk(clang::QualType T,
                                          const clang::Expr *Value, Frame &F,
                                          const clang::ValueDecl *Named);
  void walkCall(const clang::CallExpr *CE, Frame &F);
  /// Records the memory \p Arg names when it is bound to a reference
  /// (not a temporary, not a local scalar) as accessed by \p Op.
  void recordBoundLValue(const clang::Expr *Arg, AccessOp Op, Frame &F);
  /// For a call the walker does not enter (library code): the memory its
  /// reference parameters, its operator's left operand and its object are
  /// bound to is read (or written) there.
  void recordBoundLValues(const clang::CallExpr *CE,
                          const clang::FunctionDecl *Callee, Frame &F);
  /// Records the accesses of a CUDA library call the walker models rather
  /// than walks (curand_init, skipahead, wmma::load/store_matrix_sync);
  /// false when \p CE is not one (LibraryCalls.cpp).
  bool modelLibraryCall(const clang::CallExpr *CE,
                        const clang::FunctionDecl *Callee, Frame &F);
  /// cuda::memcpy_async, cooperative_groups::memcpy_async and
  /// __pipeline_memcpy_async: the global side of an asynchronous copy
  /// (LibraryCalls.cpp). False when the call has no form it knows.
  bool modelAsyncCopy(const clang::CallExpr *CE, const clang::FunctionDecl *Callee,
                      llvm::StringRef Name, Frame &F);
  void inlineCall(const clang::CallExpr *CE, const clang::FunctionDecl *Callee,
                  Frame &F);
  /// Enters the call of \p Callee at \p Site (\p Call, or a construction)
  /// from \p Caller: \p Inner, whose `this` and captures are bound, takes
  /// the caller's chain of calls, predicate, memory version and library
  /// call (\p Call itself when it enters library code). popCall() hands
  /// the caller back what the call's walk left in memory; the arguments
  /// are bound in between (bindArguments()).
  void pushCall(Frame &Inner, const Frame &Caller,
                const clang::FunctionDecl *Callee, clang::SourceLocation Site,
                const clang::CallExpr *Call = nullptr);
  static void popCall(Frame &Caller, const Frame &Inner);
  /// Binds the parameters of \p Callee in \p Inner to \p Args (from
  /// \p FirstArg on), evaluated in \p Caller.
  void bindArguments(const clang::FunctionDecl *Callee,
                     llvm::ArrayRef<const clang::Expr *> Args,
                     unsigned FirstArg, Frame &Caller, Frame &Inner);
  /// Adds to \p Inner the captures of the closure object \p Closure that
  /// its frame does not hold (a lambda called away from where it was made).
  void bindCaptures(const clang::Expr *Closure, const Frame &Caller,
                    Frame &Inner);
  /// Sets `this` of \p Inner for a method called on \p Object (a pointer
  /// when \p Arrow).
  void bindThis(const clang::Expr *Object, bool Arrow, Frame &Caller,
                Frame &Inner);

  // The abstract state (AbstractState.cpp).
  /// The value of leaf \p P of \p V (a pointer leaf: its byte offset, when
  /// the pointer still points into the allocation named \p Base), reading
  /// fields not yet assigned by their names; nullopt when unknown.
  std::optional<Expr> leafValue(const VarValue &V, const LeafPath &P,
                                llvm::StringRef Base = "") const;
  /// Makes the fields on path \p P of \p V assigned entries (by their
  /// names, when not yet assigned), so that mapLeaves() reaches them.
  void materializeLeaf(VarValue &V, const LeafPath &P);
  /// The value of field \p FD of object value \p Obj.
  VarValue fieldOf(const VarValue &Obj, const clang::FieldDecl *FD) const;
  /// The slot of field \p FD of \p Obj, for writing.
  VarValue &fieldSlot(VarValue &Obj, const clang::FieldDecl *FD);
  /// What the name \p D stands for here: the one lookup of names that
  /// reading a value (translate), a pointer (varPointer), an lvalue's slot
  /// (heldValue) and a reference's address (resolveAddress) share.
  NameValue nameValue(const clang::ValueDecl *D, const Frame &F);
  /// The value of \p D fixed for the launch, where the state does not hold
  /// it: a kernel's parameter (named after it; a pointer, into global
  /// memory), `warpSize`, a global variable (uniform; a pointer, into
  /// global memory). Empty for a variable of another function.
  VarValue launchValue(const clang::ValueDecl *D, const Frame &F) const;
  /// What lvalue \p LV holds when it names a slot (a variable, a field of an
  /// object held by value, a field of `*this` held by value); nullopt when
  /// it is memory.
  std::optional<VarValue> heldValue(const clang::Expr *LV, const Frame &F);
  /// The object field \p ME belongs to, when it is held by value (a
  /// variable, a field, `*this`); nullopt otherwise.
  std::optional<VarValue> heldObject(const clang::MemberExpr *ME,
                                     const Frame &F);
  /// The value field \p ME names holds, when its object is held by value
  /// (for a reference member: the address it is bound to, or the slot).
  std::optional<VarValue> memberValue(const clang::MemberExpr *ME,
                                      const Frame &F);
  /// In host mode, the value a global variable nobody changes holds (its
  /// initializer, computed once; valid until the next call); null
  /// otherwise.
  const VarValue *globalValue(const clang::VarDecl *VD, const Frame &F);
  /// The slot \p LV names, for writing; null when it is memory.
  VarValue *heldSlot(const clang::Expr *LV, Frame &F);
  /// Is \p FD an array of pointers that only its class's constructors
  /// write (ObjectValue::Elements)?
  bool constructorSetArray(const clang::FieldDecl *FD);
  /// `buf_[1] = p` in a constructor (\p Store, an assignment to memory):
  /// element 1 of the object's array field holds p from now on.
  void storeElement(const clang::BinaryOperator *Store, Frame &F);
  /// `buf_[phase_]` of such an array: the element the index picks (a join
  /// over the elements when it is not a constant); nullopt when they are
  /// not all known. Also an element of a local array of pointers
  /// (localElement()).
  std::optional<PointerValue> loadedElement(const clang::Expr *LV,
                                            const Frame &F);
  /// Is \p VD a local array of pointers or integers that its function only
  /// reads and assigns element by element (`p[i] = q`, `*p[i]`), so that
  /// VarValue::Elements tells what it holds?
  bool elementWiseArray(const clang::VarDecl *VD);
  /// The elements an initializer list gives such an array (`int o[3] = {a,
  /// b}`: a, b and 0); null when it is not one.
  std::shared_ptr<const LocalElements>
  initialElements(const clang::VarDecl *VD, const Frame &F);
  /// `p[i] = q` (\p Store) into such an array: element i holds q from now
  /// on (`p[i] += d`: what it held plus d). False when \p Store is not such
  /// a store.
  bool storeLocalElement(const clang::BinaryOperator *Store, Frame &F);
  /// What the element \p LV (`p[i]`) of such an array holds: the newest
  /// store the index tells apart from the others; nullopt when unknown.
  std::optional<VarValue> localElement(const clang::Expr *LV, const Frame &F);
  /// Before \p Loop, whose \p Body stores into the local arrays \p Stored
  /// and changes the variables \p Modified: what the passes read from them
  /// is not known from the stores before it, except for those of \p PerPass
  /// (each pass touches its own element only), whose stores are kept, and
  /// arrays of pointers that \p Body only moves by amounts the same in
  /// every lane (marlin's `B_ptr[i] += b_gl_rd_delta_o`), whose elements
  /// are taken to be moved by one uniform number of elements.
  LoopArrays openLoopElements(
      const clang::Stmt *Loop,
      const llvm::SmallPtrSetImpl<const clang::VarDecl *> &Stored,
      const llvm::SmallPtrSetImpl<const clang::VarDecl *> &PerPass,
      const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Modified,
      const clang::Stmt *Body, Frame &F);
  /// After that loop (iteration symbol \p Iter, \p Trips passes, leaving
  /// early or not): an array each pass of which stores its element k once,
  /// as many passes as the array has elements, holds at every index what
  /// the pass stored (LocalElements::Store::Over); a shifted one its
  /// elements before the loop moved by another uniform number; any other
  /// stores leave its elements unknown.
  /// For a local array of pointers \p VD whose elements are all known:
  /// when every store into it in \p Body (the loop at \p Loc) adds or
  /// subtracts a value d the same in every lane that the loop does not
  /// change, the byte offsets by which the loop has moved them at a pass
  /// and after it: the sum of each store's d times a count of its own, a
  /// uniform symbol; nullopt otherwise.
  std::optional<std::pair<Expr, Expr>>
  uniformShift(const clang::VarDecl *VD,
               const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Modified,
               const clang::Stmt *Body, clang::SourceLocation Loc,
               const Frame &F);
  void closeLoopElements(const LoopArrays &Arrays, Frame &F,
                         const std::optional<Symbol> &Iter,
                         std::optional<int64_t> Trips, bool LeavesEarly);
  llvm::DenseMap<const clang::VarDecl *, bool> ElementWiseArrays;
  /// What the stores into a local array so far put there, by any path
  /// (element assignments, and through pointers and references into it in
  /// inlined calls: cub's BlockLoad filling the user's `items`): values
  /// loaded from memory at per-lane addresses (data), values the same in
  /// every lane (cub's out-of-range default), or anything else.
  enum ContentBits : unsigned {
    ContentData = 1,
    ContentOther = 2,
    ContentUniform = 4
  };
  llvm::DenseMap<const clang::VarDecl *, unsigned> LocalContents;
  /// Per function returning an object by value: the LocalContents of the
  /// local objects its returns copy (moderngpu's serial_merge returning
  /// its `merge_pair`), for the object the caller initializes with it.
  llvm::DenseMap<const clang::FunctionDecl *, unsigned> ReturnedContents;
  /// The LocalContents an object of type \p T initialized from \p E
  /// takes along (a declaration's initializer, a by-value argument, a
  /// returned value): those of the local object \p E copies, or what the
  /// function it calls returns; 0 when \p T is not an object held by value
  /// or nothing is known.
  unsigned copiedContents(clang::QualType T, const clang::Expr *E) const;
  /// What storing \p Value (an initializer, an assignment's right side)
  /// puts into memory, as LocalContents bits.
  unsigned contentKind(const clang::Expr *Value, const Frame &F);
  /// What an object of \p Value's type, initialized or assigned from
  /// \p Value, holds: copiedContents(), or what it is built from (an
  /// initializer list's values, the fields of an object the walker holds,
  /// a load from memory, a constructor's arguments); 0 when nothing is
  /// known.
  unsigned recordContents(const clang::Expr *Value, const Frame &F);
  /// Adds the store of \p Value through the lvalue \p LV to LocalContents
  /// when \p LV is in a local array; \p Update: the old value changed in
  /// place by \p Value (`+=`), or by nothing (null: `++`).
  void noteLocalStore(const clang::Expr *LV, const clang::Expr *Value,
                      bool Update, const Frame &F);
  /// The function \p E (of function pointer type) holds: a function named
  /// there (`launch1`, `&launch1`) or one a variable holds; null otherwise.
  const clang::FunctionDecl *functionHeld(const clang::Expr *E, Frame &F);
  /// The value after `if (Cond)` gave \p T on one path and \p E on the other.
  VarValue mergeValues(const Expr &Cond, const VarValue &T,
                       const VarValue &E) const;
  /// The elements of a local array after paths that left \p T and \p E
  /// join under \p Cond (VarValue::Elements).
  std::shared_ptr<const LocalElements>
  joinElements(const Expr &Cond, const std::shared_ptr<const LocalElements> &T,
               const std::shared_ptr<const LocalElements> &E) const;
  /// The object value \p Init gives a struct/class slot (running the user's
  /// constructor, not walking \p Init's operands).
  std::optional<VarValue> recordValue(const clang::Expr *Init, Frame &F);
  // Tuples of std and libcu++, element by element (Tuples.cpp).
  /// The tuple make_tuple(...) or a tuple constructor \p E makes.
  std::optional<VarValue> madeTuple(const clang::Expr *E, Frame &F);
  /// The element get<I>(t) \p CE reads, where t's elements are known.
  std::optional<VarValue> tupleElement(const clang::CallExpr *CE,
                                       const Frame &F);
  /// Binds the names of `auto [x, y] = ...` to their elements or fields.
  void bindDecomposition(const clang::DecompositionDecl *DD, Frame &F);
  /// The reference (a reference variable, or a call returning one) through
  /// which \p LV names memory the walker cannot follow; null when \p LV is
  /// not reached through such a reference.
  const clang::Expr *untracedReference(const clang::Expr *LV, const Frame &F);
  /// Runs constructor call \p CCE on \p Target.
  void construct(const clang::CXXConstructExpr *CCE, VarValue &Target,
                 Frame &F);
  /// Objects the CUDA headers return whose meaning is known (cooperative
  /// groups' this_thread_block(), tiled_partition<N>(), this_grid()).
  std::optional<VarValue> specialObject(const clang::CallExpr *CE,
                                        const Frame &F);
  /// make_int2(a, b) & co. of the CUDA headers: the vector of \p CE's
  /// arguments.
  std::optional<VarValue> madeVector(const clang::CallExpr *CE, const Frame &F);
  /// Values of calls into the CUDA headers with a known meaning (cooperative
  /// groups' thread_rank(), shuffles, atomics' return values).
  std::optional<Expr> specialValue(const clang::CallExpr *CE, const Frame &F,
                                   LaneOriginInfo *Origin);
  /// Pointers the CUDA headers return whose target is known (cooperative
  /// groups' grid workspace, one global allocation for the whole grid).
  std::optional<PointerValue> specialPointer(const clang::CallExpr *CE) const;
  /// `__shfl_xor_sync(~0u, V, c)` (argument \p ValueArg is V, a value per
  /// lane) with a constant power of two c below the width: the exchange
  /// WarpExchanges follows (WarpReduction.cpp); nullopt otherwise.
  std::optional<Expr> xorShuffle(const clang::CallExpr *CE, unsigned ValueArg,
                                 const Expr &V, const Frame &F);
  /// `L op R` (\p Site, `a op b` or `a op= b`): a step of a warp
  /// reduction where it is one, else unsignedOperation() where the type is
  /// unsigned and an operand may be negative, else applyBinaryOperator().
  std::optional<Expr> combineValues(clang::BinaryOperatorKind Op,
                                    const Expr &L, const Expr &R,
                                    const clang::Expr *Site);
  /// Whether \p X, a value whose sign the thread index alone decides, can
  /// be negative under the arms of the conditional expressions being
  /// translated (ArmConditions): not when provablyNonNegative, nor when the
  /// arms contradict `X < 0`, or its own choices do (neverHolds). Other
  /// values keep the exact comparison (ExprTranslator.cpp says why).
  bool mayBeNegative(const Expr &X);
  /// \p Translate() with \p Cond known (an arm of `c ? a : b`, the right
  /// side of `&&` and `||`).
  template <typename Fn> Expr underArm(const Expr &Cond, Fn Translate) {
    ArmConditions.push_back(Cond);
    llvm::scope_exit Pop([&] { ArmConditions.pop_back(); });
    return Translate();
  }
  /// The value a reference of type \p T to a const integer binds when
  /// \p Arg is a constant (a constexpr variable, a literal); nullopt
  /// otherwise.
  std::optional<Expr> referencedConstant(clang::QualType T,
                                         const clang::Expr *Arg);
  /// The captures of a closure a kernel receives as its argument (or as a
  /// field of one: moderngpu's load iterators hold the user's lambda):
  /// each captured variable fixed for the launch, named after it.
  std::shared_ptr<llvm::DenseMap<const clang::ValueDecl *, VarValue>>
  launchedCaptures(const clang::CXXRecordDecl *Closure,
                   SymbolKind Scalar) const;
  /// Whether pointer \p Ptr is not null (`if (p)`, `p != nullptr`), where
  /// that is the same for the whole warp; nullopt otherwise.
  std::optional<Expr> pointerIsNonNull(const clang::Expr *Ptr, const Frame &F);
  /// `__umulhi(n, d.mul) >> d.shift` or `(__umulhi(n, d.mul) + n) >>
  /// d.shift`: division by an invariant integer through a multiplier and a
  /// shift precomputed on the host (ggml's fastdiv, PyTorch's IntDivider,
  /// CUTLASS's FastDivmod), which keep the divisor in the same object: the
  /// value is n / d.divisor. nullopt when \p Shr is not that idiom.
  std::optional<Expr> fastDivision(const clang::BinaryOperator *Shr,
                                   const Frame &F, LaneOriginInfo *Origin);
  void emit(const clang::Expr *LValue, const AddressInfo &Addr,
            unsigned Bytes, AccessOp Op, AtomicKind Atomic, Frame &F,
            const clang::Expr *Anchor, const LaneOriginInfo &Origin);

  // Integer expressions (ExprTranslator.cpp).
  Expr translate(const clang::Expr *E, const Frame &F,
                 LaneOriginInfo *Origin = nullptr);
  Expr translateCall(const clang::CallExpr *CE, const Frame &F,
                     LaneOriginInfo *Origin);
  /// An opaque symbol named after \p E's source text; \p Version tells it
  /// apart from other values of the same spelling (Symbol::Version).
  Expr opaqueValue(const clang::Expr *E, bool LaneDependent,
                   bool Indirect = false, uint64_t Version = 0);
  /// A key of \p S's place in the source (file and offset of its expansion
  /// location): the same on every run, different for two constructs.
  uint64_t locationKey(clang::SourceLocation Loc) const;
  uint64_t locationKey(const clang::Stmt *S) const {
    return locationKey(S->getBeginLoc());
  }
  /// Records in \p F that \p Op through \p LV may change memory (a store,
  /// an atomic): loads after it read a new version (Frame::Memory).
  void noteStore(const clang::Expr *LV, AccessOp Op, Frame &F);
  /// A floating-point value used as an integer: an opaque symbol that is
  /// uniform, lane-dependent or indirect (data) like what \p E reads.
  Expr floatValue(const clang::Expr *E, const Frame &F);
  /// The value read from memory lvalue \p LV: a uniform or indirect symbol.
  Expr loadedValue(const clang::Expr *LV, const Frame &F);
  /// Whether \p LV is in an object whose lost parts may vary per lane
  /// (ObjectValue::LostVaries), itself or one it is a part of.
  bool lostPerLane(const clang::Expr *LV, const Frame &F);
  /// For \p LV at \p A in the thread's own memory, whose stores are not
  /// followed there (an element of a local array, or what a pointer or
  /// reference into a local object holding an array reaches: each lane's
  /// its own), what it holds, per lane: IndirectValue when the stores so far
  /// filled the array with data, else LaneValue. Nullopt for anything else
  /// and for a kernel's by-value arguments (the same for every lane).
  std::optional<SymbolKind> threadArrayElement(const clang::Expr *LV,
                                               const AddressInfo &A,
                                               const Frame &F);
  /// ObjectValue::Contents of the object held by value whose array \p LV
  /// is an element of (`v[i]` of an array_t `v`, `x.arr[i]`, `data[i]`
  /// inside a method of the object); 0 when none is known.
  unsigned ownerContents(const clang::Expr *LV, const Frame &F);
  /// `sizes[j]` of `int sizes[] = {32, 64, 128};` that nothing writes: the
  /// element, as `select(j == 0, 32, select(j == 1, 64, 128))` when the
  /// index is not a constant (ConstantArray.cpp).
  std::optional<Expr> constantArrayElement(const clang::Expr *LV,
                                           const Frame &F);

  // Addresses (AddressResolver.cpp).
  std::optional<AddressInfo> resolveAddress(const clang::Expr *LValue,
                                            const Frame &F,
                                            LaneOriginInfo *Origin);
  /// The memory an integer computed from one pointer's address points into
  /// (`size_t a = reinterpret_cast<size_t>(smem); a = (a + 127) & ~127;`),
  /// when that is outside global memory: a pointer rebuilt from it points
  /// there too, at the offset provenanceOffset() follows, else an opaque
  /// one. Nullopt otherwise.
  std::optional<PointerValue> integerProvenance(const clang::Expr *E,
                                                const Frame &F);
  /// The byte offset integer \p E holds into the allocation it sets in
  /// \p Base (outside global memory): the address itself, plus or minus a
  /// constant, rounded down to a power of two. Nullopt for other forms.
  std::optional<Expr> provenanceOffset(const clang::Expr *E, const Frame &F,
                                       std::optional<PointerValue> &Base);
  /// Is \p LV an element of an array field of an object fixed for the
  /// launch (a kernel's by-value struct handed to a function by reference
  /// or by copy: the tensor list `tl.addresses[1][tensor_loc]` of
  /// TransformerEngine's multi_tensor_apply functors)?
  bool launchFixedArray(const clang::Expr *LV, const Frame &F);
  /// `p - q` of two pointers, in elements: between their offsets when they
  /// point into one allocation, plus a uniform value standing for the
  /// distance between two allocations.
  std::optional<Expr> pointerDistance(const clang::BinaryOperator *BO,
                                      const Frame &F, LaneOriginInfo *Origin);
  std::optional<PointerValue> resolvePointer(const clang::Expr *Ptr,
                                             const Frame &F,
                                             LaneOriginInfo *Origin);
  /// The pointer the lvalue \p LValue holds when it is read: a variable's
  /// value, a field held by value, or a pointer loaded from memory (taken
  /// to point to a global allocation of its own).
  std::optional<PointerValue> loadedPointer(const clang::Expr *LValue,
                                            const Frame &F,
                                            LaneOriginInfo *Origin);
  std::optional<PointerValue> varPointer(const clang::ValueDecl *VD,
                                         const Frame &F);
  /// For a pointer read from a local array of pointers (`digit_counters[i]`
  /// of cub's BlockRadixRank): the memory space every store into the array
  /// in this function gives its elements, when that is one space and not
  /// global memory (whose offsets would matter); nullopt otherwise. Sets
  /// \p DataDependent when some store aims by a value loaded from memory.
  std::optional<MemorySpace> localPointerArraySpace(const clang::Expr *Sub,
                                                    const Frame &F,
                                                    bool *DataDependent);
  unsigned sizeOf(clang::QualType T) const;
  /// The text of call \p CE when \p Name is that of the accessor's return
  /// \p Ret (what the call reads is named after what the user wrote:
  /// `shape[1]`, not `c[index]`); nullopt otherwise.
  std::optional<std::string> callName(llvm::StringRef Name,
                                      const clang::Expr *Ret,
                                      const clang::CallExpr *CE) const;
  /// \p Value, a symbol read by accessor return \p Ret, named after the
  /// call \p CE instead (callName); any other value unchanged.
  Expr namedAfterCall(const Expr &Value, const clang::Expr *Ret,
                      const clang::CallExpr *CE);
  /// For a call to a __device__ function whose body is one return statement:
  /// fills \p Callee with the parameters bound to the arguments and returns
  /// the returned expression; else null.
  const clang::Expr *singleReturn(const clang::CallExpr *CE, const Frame &F,
                                  Frame &Callee, LaneOriginInfo *Origin);

  clang::ASTContext &Ctx;
  const clang::SourceManager &SM;
  KernelRecord &Kernel;
  /// What the last inlined walk of each call returned, for calls to
  /// __device__ functions longer than one return statement, by the call
  /// and the path of calls it is in (Frame::CallPath): a lambda's body
  /// called twice (`make_tuple(l(x), l(3))`) has a call that returned
  /// differently in each.
  llvm::DenseMap<std::pair<const clang::CallExpr *, uint64_t>, VarValue>
      Returned;
  /// What the walk of \p CE in the body \p F interprets returned; null
  /// when it was not walked on this path.
  const VarValue *returnedBy(const clang::CallExpr *CE, const Frame &F) const {
    auto It = Returned.find({CE, F.CallPath});
    return It == Returned.end() ? nullptr : &It->second;
  }
  /// The value of \p E when clang can fold it to an integer constant
  /// (literals, enumerators, constexpr, sizeof), folded once per node: the
  /// walk translates the same expressions again in every pass of a loop.
  std::optional<int64_t> constantValue(const clang::Expr *E);
  /// Calls walked ahead of an access (prewalkCalls()), skipped when met
  /// in the same statement; in the order walked, for walkStmt to drop
  /// those its statement did not meet (an access recorded without walking
  /// its address's operands again), which the next pass over the statement
  /// must walk again.
  llvm::SmallPtrSet<const clang::CallExpr *, 4> PreWalked;
  std::vector<const clang::CallExpr *> PreWalkedOrder;
  /// Conditions of the arms being translated (underArm()).
  std::vector<Expr> ArmConditions;
  /// What a loop's syntax alone tells (KernelWalker.cpp), the same at every
  /// walk of it: a loop inside a sampled loop or an inlined call is walked
  /// many times.
  struct LoopSyntax;
  /// The facts of the loop with \p Body, made at its first walk.
  LoopSyntax &loopSyntax(const clang::Stmt *Body, const clang::Expr *Cond,
                         const clang::Expr *Inc);
  llvm::DenseMap<const clang::Stmt *, std::shared_ptr<LoopSyntax>> LoopSyntaxes;
  /// The slice of the loop with body \p Body and \p Syntax for its passes
  /// from \p F; none when every statement is walked.
  std::optional<llvm::BitVector> sliceForPasses(const clang::CompoundStmt *Body,
                                                const LoopSyntax &Syntax,
                                                const Frame &F);
  /// Whether the loop's body assigns \p VD before reading it (so its value
  /// at the start of a pass is dead), asked once per loop.
  bool deadOnEntry(LoopSyntax &Syntax, const clang::ValueDecl *VD);
  /// The loop's syntactic induction variables with their steps per pass;
  /// a changed variable whose step is not loop-invariant and uniform joins
  /// \p NonInduction (LoopWalk.cpp).
  llvm::DenseMap<const clang::ValueDecl *, Expr>
  inductionSteps(const LoopSyntax &Syntax, const Frame &F,
                 llvm::SmallPtrSetImpl<const clang::ValueDecl *> &NonInduction);
  /// Of the loop's changed slots that are not induction variables, those
  /// whose value at the loop's head is read (\p Carried) and, of those, the
  /// ones sampled (\p Sampled: not floating point).
  void carriedSlots(const clang::Stmt *Loop, const LoopSyntax &Syntax,
                    const Frame &F,
                    const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &NonInduction,
                    llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Carried,
                    llvm::SmallPtrSetImpl<const clang::ValueDecl *> &Sampled);
  /// Limits \p F to the loop's sampled iterations (and names them, unless
  /// the samples reached the loop's end).
  void confineToSamples(Frame &F, const Symbol &Iter, const CarriedState &State,
                        clang::SourceLocation LoopLoc);
  /// For a loop condition \p Cond over counter \p Iter: the number of
  /// trips, a uniform symbol when the condition is uniform, per lane when
  /// a lane's bound is approached by a fixed step; in \p TripCount the
  /// constant number when it ends within the samples.
  std::optional<Expr> tripsOf(const Expr &Cond, const Symbol &Iter,
                              clang::SourceLocation LoopLoc,
                              std::optional<int64_t> &TripCount);
  /// The value of \p VD after the loop, from its value \p AtIter at the
  /// counter \p Iter (the number of passes \p End when known).
  VarValue exitValue(const clang::ValueDecl *VD, const VarValue &AtIter,
                     bool Induction, const CarriedState &State,
                     const std::optional<Symbol> &Iter,
                     const std::optional<Expr> &End,
                     clang::SourceLocation LoopLoc);
  /// The loops the walk is in (LoopCarried.h).
  LoopNest Nest;
  /// What the walks of the translation unit compute once from its source.
  SourceFacts &Facts;
  /// Why the engine gave up on an opaque per-lane symbol it made (a
  /// loop-carried value without a closed form): the reason an access whose
  /// address uses it is unknown.
  std::map<Symbol, std::string> OpaqueReasons;
  /// For such a symbol: the values it is a function of (LaneInputs.h).
  std::map<Symbol, std::vector<Expr>> OpaqueInputs;
  /// Sets \p P's reason for the opaque per-lane values of its address:
  /// UnknownReason, or OpaqueReason with their inputs where all have some.
  void collectOpaque(AccessPattern &P) const;
  /// The byte offset each value loaded from memory was read from
  /// (loadedValue), by its symbol: AccessPattern::LoadAddresses.
  std::map<Symbol, Expr> LoadAddressOf;
  /// The xor shuffles and warp-reduction steps of this walk.
  WarpExchanges Exchanges;
};

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_FRONTENDINTERNAL_H
