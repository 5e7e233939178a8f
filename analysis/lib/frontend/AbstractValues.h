//===- AbstractValues.h - The walker's abstract values ---------*- C++ -*-===//
//
// What the walker's abstract state holds for one storage slot (VarValue):
// an integer, a pointer (a base allocation in a memory space plus a byte
// offset), an object held by value; how two of them join where paths meet;
// the version of memory loads are keyed by; the state of one function
// activation (Frame: every slot's value, the lanes that run, the call
// chain, the memory version).
//
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FRONTEND_ABSTRACTVALUES_H
#define COALESCE_FRONTEND_ABSTRACTVALUES_H

#include "coalesce/Expr.h"
#include "coalesce/Report.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace coalesce {
namespace frontend {

/// The memory an address points into.
/// Param: a kernel's by-value argument (parameter space, read through the
/// constant bank), such as the pointer arrays of a tensor-list struct.
/// NotGlobal: one of shared, constant, local or parameter memory depending
/// on the path (a pointer joined from two such pointers).
enum class MemorySpace {
  Global,
  Shared,
  Constant,
  Local,
  Param,
  NotGlobal,
  Unknown
};

/// Where the lane dependence of an index comes from, collected during
/// translation.
struct LaneOriginInfo {
  clang::SourceLocation Loc;
  std::string Name;
  std::vector<std::string> Symbols; ///< threadIdx components it uses.
};

/// A pointer value: a named base allocation plus a byte offset into it.
struct PointerValue {
  std::string BaseName;
  MemorySpace Space = MemorySpace::Unknown;
  Expr ByteOffset;
  /// A pointer into global memory for the lanes where this holds only, and
  /// outside it (a constant array of zeros, a register) for the others:
  /// ggml's `i < i_sup ? KV + i*stride : zero`. Accesses through it are
  /// made by those lanes only.
  std::optional<Expr> GlobalWhere;
  /// For a pointer into a local array, or into a local object's array
  /// field: that variable (an identity, where BaseName is only a name), so
  /// that stores through the pointer are known to be stores into it
  /// (KernelWalker::LocalContents).
  const clang::VarDecl *LocalArray = nullptr;

  friend bool operator==(const PointerValue &A, const PointerValue &B) {
    return A.BaseName == B.BaseName && A.Space == B.Space &&
           A.ByteOffset == B.ByteOffset && A.GlobalWhere == B.GlobalWhere &&
           A.LocalArray == B.LocalArray;
  }
};

struct ObjectValue;
struct LocalElements;

/// One pointer for two that paths (`if`/`else`, `c ? a : b`) join under
/// \p Cond: the offset chosen per lane (two allocations are taken to be
/// aligned alike, so the offset within whichever is chosen is what
/// matters), named \p Name when the allocations differ. Two pointers
/// outside global memory give one into MemorySpace::NotGlobal (`rp =
/// memoize ? cached : smem`): accesses through it are excluded, not
/// unknown. A global pointer and one outside it give the global one, for
/// the lanes that choose it (PointerValue::GlobalWhere). Otherwise nothing.
std::optional<PointerValue> joinPointers(const Expr &Cond,
                                         const PointerValue &T,
                                         const PointerValue &E,
                                         std::string Name);

/// \p P after `p += By` or `p -= By` (\p Op) of a pointer to elements of
/// \p ElemBytes bytes; nullopt for another compound assignment.
std::optional<PointerValue> movedPointer(PointerValue P,
                                         clang::BinaryOperatorKind Op,
                                         const Expr &By, unsigned ElemBytes);

inline uint64_t mixKeys(uint64_t A, uint64_t B);

/// The version of memory where paths with versions \p A and \p B join:
/// the version itself when they agree, else one of its own.
inline uint64_t joinMemory(uint64_t A, uint64_t B) {
  return A == B ? A : mixKeys(std::min(A, B), std::max(A, B));
}

/// Combines two keys (Symbol::Version, Frame::Memory) into one, the same on
/// every run (splitmix64's finalizer over their sum).
inline uint64_t mixKeys(uint64_t A, uint64_t B) {
  uint64_t X = A * 0x9e3779b97f4a7c15ULL + B + 0x632be59bd9b4e019ULL;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

/// What a variable (or a field of an object held in one) holds while the
/// walker interprets a function: the abstract value of one storage slot.
struct VarValue {
  std::optional<Expr> Int;             ///< Integer (or bool) value.
  std::optional<PointerValue> Pointer; ///< Pointer value (or, for a
                                       ///< reference, the address bound).
  /// A struct/class object held by value (shared copy-on-write).
  std::shared_ptr<ObjectValue> Object;
  /// The function a function pointer (or reference) holds: a launcher
  /// passed to the host function that calls it (llm.c's
  /// `attention_backward1(..., launch_softmax_1, block_size)`).
  const clang::FunctionDecl *Function = nullptr;
  /// Where a lane-dependent value was defined (for the "note:"); shared,
  /// so that copying a frame's slots at every branch copies no strings.
  /// Null: nowhere known.
  std::shared_ptr<const LaneOriginInfo> Origin;
  /// Declared without an initializer and not assigned since (`float *p;`):
  /// reading it is undefined, so where paths join the value of a path that
  /// assigned it is the value.
  bool Uninitialized = false;
  /// A reference bound to memory the walker cannot follow (an element
  /// through a pointer it does not know): what goes through it is an
  /// access of unknown address, not a slot of the state.
  bool UntracedMemory = false;
  /// For a local array of pointers or integers that is only ever read and
  /// assigned element by element (cub's `digit_counters[ITEM]`): what the
  /// stores so far put in it. Null: nothing known of its elements.
  std::shared_ptr<const LocalElements> Elements;
};

/// The elements of a local array of pointers or integers as the stores into it made
/// them (KernelWalker::storeLocalElement): newest last. A read at an index
/// takes the newest store it can tell apart from the others, and nothing
/// when it cannot (two symbolic indices that may or may not be equal).
struct LocalElements {
  struct Store {
    /// The element's index, in the walker's expressions.
    Expr Index;
    /// What the store put there.
    VarValue Value;
    /// Set: the store of every pass of a loop over the whole array
    /// (`for (k = 0; k < N; ++k) p[k] = ...` with N the array's length):
    /// element k holds Value with this iteration symbol replaced by k.
    std::optional<Symbol> Over;
  };
  std::vector<Store> Stores;
  /// Elements stored before the first of Stores are not known (a loop
  /// whose stores have no closed form, paths that stored differently).
  bool OlderUnknown = false;
};

/// A struct or class object held by value (a local, a by-value parameter,
/// a copy of one): the fields assigned so far, and how to name the others.
/// Fields nobody assigned are fixed for the launch when the object came from
/// outside (a kernel parameter, `__constant__` memory, a load): they are
/// named after the object ("p.a", "d_common.frame"), pointers into global
/// memory and integers of kind \c ScalarKind. An object without a name
/// (an uninitialized local) has unknown fields.
struct ObjectValue {
  std::string Name;
  SymbolKind ScalarKind = SymbolKind::Param;
  llvm::SmallVector<std::pair<const clang::FieldDecl *, VarValue>, 4> Fields;
  /// For a lambda's closure: the captured variables' values where it was
  /// made, for a call of it from another function (ggml's
  /// `ggml_cuda_unroll<6>{}(load)` calls `load` with `KV` captured).
  std::shared_ptr<const llvm::DenseMap<const clang::ValueDecl *, VarValue>>
      Captures;
  /// Elements of a pointer array field that only the class's constructors
  /// write, at the constant indices they wrote (TransformerEngine's
  /// `T *buf_[2]` of a double-buffered loader): set once, so they hold
  /// wherever the object goes.
  llvm::SmallVector<std::tuple<const clang::FieldDecl *, int64_t, VarValue>, 2>
      Elements;
  /// What the stores into the object's arrays put there, element by
  /// element and not followed (KernelWalker::ContentBits, as LocalContents
  /// has them for a variable): taken from the variable the object was
  /// copied from, so that they go with it through copies, fields of other
  /// objects, by-value parameters, returns and captures (moderngpu's
  /// `lbs.segments` of a `result_t{..., seg, ranks}`). 0: nothing known.
  unsigned Contents = 0;
  /// Whether the parts of it the walker lost (fields of an object it made
  /// without them: the result of a call it could not follow, paths that
  /// joined objects of different names) may differ between the lanes of a
  /// warp: what it was computed from reads the lane or holds per-lane
  /// values (computedPerLane(), LaneInputs.h). CuTe's `idx2crd(threadIdx.x,
  /// shape)` through its transform lambdas: the coordinates are per lane.
  bool LostVaries = false;
};

/// One integer leaf of a slot's abstract value: the integer itself, or a
/// pointer's byte offset, of the slot or of a field (of a field ...) of the
/// object it holds. Loop-carried state is followed leaf by leaf.
struct LeafPath {
  llvm::SmallVector<const clang::FieldDecl *, 2> Fields;
  bool Pointer = false; ///< The byte offset of a pointer, not an integer.

  /// "last", "loader.last": \p Slot followed by the field names.
  std::string name(llvm::StringRef Slot) const;
  friend bool operator<(const LeafPath &A, const LeafPath &B) {
    return std::tie(A.Pointer, A.Fields) < std::tie(B.Pointer, B.Fields);
  }
  friend bool operator==(const LeafPath &A, const LeafPath &B) {
    return A.Pointer == B.Pointer && A.Fields == B.Fields;
  }
};

/// The resolved address of a memory lvalue.
struct AddressInfo {
  PointerValue Ptr;
  /// For a field of a struct element (p[i].x): the struct's size and
  /// alignment, and the field's byte offset in it.
  std::optional<unsigned> RecordBytes;
  unsigned RecordAlign = 0;
  unsigned FieldOffset = 0;
};

struct Frame;

/// The frame at one jump (the values the lanes that took it leave with)
/// and where it was taken, relative to the same point as the JumpSet that
/// holds it.
struct JumpFrame {
  Expr Where;
  std::shared_ptr<const Frame> At;
};

/// The lanes that took jumps of one kind (or to one label) since a point
/// of the walk: where (Taken, relative to that point; constant 0: none
/// did) and, where the construct the jump leaves joins them, the frames at
/// the jumps (a continue's always; a break's where Frame::KeepsBreaks; a
/// goto's always).
struct JumpSet {
  Expr Taken = Expr::constant(0);
  std::vector<JumpFrame> At;
  /// Whether some lane took it.
  bool any() const;
  /// \p Inner, taken where \p Cond held, added to this.
  void add(const Expr &Cond, const JumpSet &Inner);
};

/// A `goto` forward to a label of an enclosing block, not reached yet.
struct PendingGoto : JumpSet {
  const clang::LabelDecl *Label = nullptr;
};

/// Where lanes jumped to since a point of the walk (the start of the
/// statement being walked in a statement list), one JumpSet per kind. The
/// statements after it in the list run where none was taken; the construct
/// a jump leaves takes it back and joins the frames at it (a switch its
/// `break`s, a sampled pass of a loop its `break`s, a block the gotos to
/// its labels), a loop its `break`s and `continue`s, a function its
/// returns.
struct Jumps {
  JumpSet Return;
  JumpSet Break;
  JumpSet Continue;
  /// The gotos whose label is not reached yet, one entry per label.
  std::vector<PendingGoto> Gotos;
  /// Whether some lane jumped.
  bool any() const;
  /// The condition under which a lane jumped, of any kind.
  Expr all() const;
  /// Each kind where either \p A or \p B jumped (the two sides of a branch,
  /// each already under its own condition).
  static Jumps join(const Jumps &A, const Jumps &B);
  /// \p Inner's jumps, taken where \p Cond held, added to these.
  void add(const Expr &Cond, const Jumps &Inner);
  /// Removes and returns the gotos to \p Label (an empty one when none).
  PendingGoto land(const clang::LabelDecl *Label);
};

/// \p A && \p B, with a constant true side giving the other unchanged (no
/// `!= 0` added): the conditions of jumps keep the form the source gave.
Expr andAlso(const Expr &A, const Expr &B);
/// \p A || \p B, with a constant false side giving the other unchanged.
Expr orElse(const Expr &A, const Expr &B);

/// Whether accesses to \p Space get a prediction: global memory (sectors)
/// and shared memory (wavefronts); other spaces are excluded.
inline bool predictedSpace(MemorySpace Space) {
  return Space == MemorySpace::Global || Space == MemorySpace::Shared;
}

/// One function activation (the kernel, an inlined __device__ call, or a
/// host function whose launches are inferred).
struct Frame {
  const clang::FunctionDecl *Fn = nullptr;
  llvm::DenseMap<const clang::ValueDecl *, VarValue> Env;
  Expr Active = Expr::constant(1);
  std::vector<SourceLocation> CallChain;
  /// The call sites of the inlined or substituted calls that enclose this
  /// one, hashed: what a call in this body returned on this path is
  /// KernelWalker::Returned's at (the call, this key).
  uint64_t CallPath = 0;
  /// The functions whose inlined calls enclose this one (recursion stops
  /// at the first repeat).
  std::vector<const clang::FunctionDecl *> Callers;
  /// Is \p F this frame's function or one whose call encloses it?
  bool onCallChain(const clang::FunctionDecl *F) const {
    return F == Fn || llvm::is_contained(Callers, F);
  }
  /// This frame as a call of \p Callee from \p Caller: its function, its
  /// depth and chain of callers, the caller's host and probe modes.
  void enterFrom(const Frame &Caller, const clang::FunctionDecl *Callee) {
    Fn = Callee;
    Depth = Caller.Depth + 1;
    Host = Caller.Host;
    Probe = Caller.Probe;
    Callers = Caller.Callers;
    Callers.push_back(Caller.Fn);
  }
  bool IsKernel = false;
  /// Host code: values are followed, nothing is recorded as an access.
  bool Host = false;
  /// A probe of one loop iteration: nothing is recorded.
  bool Probe = false;
  /// Accesses walked here are recorded (a kernel's own walk).
  bool records() const { return !Host && !Probe; }
  unsigned Depth = 0;
  /// For an inlined call: where its first `return` value goes.
  VarValue *Returned = nullptr;
  /// For a method: `*this` held by value (a slot of the caller's), or the
  /// address of an object in memory.
  VarValue *ThisObject = nullptr;
  std::optional<PointerValue> ThisPointer;
  /// Owns a temporary `*this` (a method called on a temporary).
  std::shared_ptr<VarValue> ThisHolder;
  /// For a method called on a local object held by value (moderngpu's
  /// `array_t<int, 4> x; x[i]`): that object's variable, the identity of
  /// the thread's memory its array fields are in (PointerValue::LocalArray).
  const clang::VarDecl *ThisLocal = nullptr;
  /// Inside library code the walker follows (cub's block primitives):
  /// the user's call that led there. Accesses are reported at it.
  const clang::CallExpr *LibraryCall = nullptr;
  /// Inside a loop whose carried values are sampled over its first
  /// iterations only: which ("the first 8 iterations of the loop at
  /// f.cu:12"); empty otherwise.
  std::string SampledLoop;
  /// That loop's iteration symbol: an address using it is known only there.
  std::optional<Symbol> SampledIter;
  /// The version of memory: a key of the stores walked so far on this
  /// path (0 before any). A load's symbol carries it with its address, so
  /// `a = idx[i]; idx[i] = ...; b = idx[i];` gives two values. Inlined
  /// calls start from the caller's and hand theirs back; where branches
  /// join, two different versions make a new one.
  uint64_t Memory = 0;
  /// The branch conditions taken since the start of the statement being
  /// walked in its statement list (where Left is relative to).
  Expr Since = Expr::constant(1);
  /// The jumps taken since then (walkCompound folds them into the
  /// predicate of the statements after).
  Jumps Left;
  /// A `break` here keeps its frame in Left.Break.At: it leaves a switch
  /// (which joins the frames where it ends) or a sampled pass of a loop
  /// (the values the lane leaves the loop with); false inside a loop
  /// nested in them, and elsewhere.
  bool KeepsBreaks = false;
};

/// The values that predicate \p Active fixes (`threads == 512` in the
/// `case 512:` of a switch, the then-branch of `if (n == 64)`, the code
/// after `if (radius != 4) return;`), added to \p Known.
void knownEqualities(const Expr &Active, std::map<Symbol, Expr> &Known);
/// Calls \p Fn(path, slot) for each integer or pointer leaf of \p V: the
/// value itself and, recursively, the fields its object holds so far.
void forEachLeaf(
    const VarValue &V,
    llvm::function_ref<void(const LeafPath &, const VarValue &)> Fn);
/// \p V with each leaf replaced by what \p Fn gives it (the leaf dropped,
/// an unknown value, where nullopt); objects are rebuilt, keeping names.
VarValue mapLeaves(
    const VarValue &V,
    llvm::function_ref<std::optional<Expr>(const LeafPath &, const Expr &)> Fn);
/// An object value named \p Name whose fields nobody assigned are read by
/// their names, integers of kind \p ScalarKind.
VarValue namedObject(std::string Name, SymbolKind ScalarKind);
/// What a name stands for at a point of the walk (KernelWalker::nameValue).
struct NameValue {
  enum class Kind {
    Slot,   ///< A slot of the state, or a reference bound to one: *Held.
    Memory, ///< A reference bound to memory: Held->Pointer, its address.
    Global, ///< A global variable: *Held its initializer where host code
            ///< reads one nothing changes, else Held is null.
    Launch, ///< Not in the state: a kernel's parameter, a variable of
            ///< another function (Held is null).
  };
  Kind K = Kind::Launch;
  /// Into the frame's state (or the cache of globals): valid until either
  /// changes.
  const VarValue *Held = nullptr;
  /// The value the name holds as a slot (Slot, or Global with Held).
  const VarValue *slot() const {
    return K == Kind::Slot || K == Kind::Global ? Held : nullptr;
  }
};

/// Does a reference of type \p RefType whose value is \p V stand for a slot
/// of the abstract state (rather than for memory)? (AbstractState.cpp)
bool bindsSlot(clang::QualType RefType, const VarValue &V);
/// Whether \p A and \p B hold the same value (what mergeValues() makes of
/// them under any condition) (AbstractState.cpp).
bool sameSlot(const VarValue &A, const VarValue &B);
/// Makes \p V's object exclusively owned, creating it if needed.
ObjectValue &ownObject(VarValue &V);

} // namespace frontend
} // namespace coalesce

#endif
