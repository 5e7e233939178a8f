//===- LaneInputs.cpp - What a loop's per-lane results are made of --------===//
//
// LaneIdentity (a RecursiveASTVisitor over a statement and, once each, the
// functions it calls) and laneInputs(): see LaneInputs.h.
//
//===----------------------------------------------------------------------===//
#include "LaneInputs.h"

#include "CudaFunctions.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {

/// Whether calling \p CE gives a value of the lane's own, by what the CUDA
/// function table says of it.
bool laneSpecificCall(const CallExpr *CE) {
  switch (cudaFunction(CE).Role) {
  case CudaRole::Atomic:
  case CudaRole::Shuffle:
  case CudaRole::LaneId:
  case CudaRole::LaneSpecific:
  case CudaRole::GroupThreadRank:
  case CudaRole::GroupThreadIndex:
  case CudaRole::GroupMetaRank:
    return true;
  case CudaRole::AtomicMethod:
    return isLibraryAtomic(CE->getDirectCallee());
  default:
    return false;
  }
}

struct LaneReader : RecursiveASTVisitor<LaneReader> {
  LaneIdentity &Memo;
  bool Found = false;
  explicit LaneReader(LaneIdentity &Memo) : Memo(Memo) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl()->getIdentifier() &&
        cudaVariable(E->getDecl()->getName()) == CudaVariable::ThreadIdx)
      Found = true;
    return !Found;
  }
  bool VisitAsmStmt(AsmStmt *) {
    Found = true;
    return false;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    // A call through a pointer: what it runs is not known.
    Found = !FD || laneSpecificCall(CE) || Memo.readByFunction(FD);
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Found = Memo.readByFunction(E->getConstructor());
    return !Found;
  }
};

/// Adds to \p Out the lane-dependent leaves of \p V: its integer, its
/// pointer's offset and condition, its object's fields, captures and
/// elements, its local array's stores.
void laneLeaves(const VarValue &V, std::vector<Expr> &Out) {
  auto Add = [&](const Expr &E) {
    if (E.isLaneDependent())
      Out.push_back(E);
  };
  if (V.Int)
    Add(*V.Int);
  if (V.Pointer) {
    Add(V.Pointer->ByteOffset);
    if (V.Pointer->GlobalWhere)
      Add(*V.Pointer->GlobalWhere);
  }
  if (V.Elements)
    for (const LocalElements::Store &S : V.Elements->Stores) {
      Add(S.Index);
      laneLeaves(S.Value, Out);
    }
  if (!V.Object)
    return;
  for (const auto &Field : V.Object->Fields)
    laneLeaves(Field.second, Out);
  if (V.Object->Captures)
    for (const auto &Captured : *V.Object->Captures)
      laneLeaves(Captured.second, Out);
  for (const auto &Element : V.Object->Elements)
    laneLeaves(std::get<2>(Element), Out);
}

/// Whether an object in \p V (itself or a field's) has lost parts that may
/// vary.
bool lostVaries(const VarValue &V) {
  if (!V.Object)
    return false;
  if (V.Object->LostVaries)
    return true;
  return llvm::any_of(V.Object->Fields, [](const auto &Field) {
    return lostVaries(Field.second);
  });
}

} // namespace

llvm::SmallPtrSet<const ValueDecl *, 8> namedIn(const Stmt *S,
                                                bool *NamesThis) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::SmallPtrSet<const ValueDecl *, 8> Names;
    bool This = false;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Names.insert(DRE->getDecl());
      return true;
    }
    bool VisitCXXThisExpr(CXXThisExpr *) {
      This = true;
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  if (NamesThis)
    *NamesThis = F.This;
  return F.Names;
}

bool variesPerLane(const VarValue &V) {
  std::vector<Expr> Leaves;
  laneLeaves(V, Leaves);
  return !Leaves.empty() || lostVaries(V);
}

bool computedPerLane(const clang::Expr *E, LaneIdentity &Lanes,
                     const llvm::DenseMap<const ValueDecl *, VarValue> &Env,
                     const VarValue *This) {
  if (!E)
    return false;
  if (Lanes.readBy(E))
    return true;
  bool NamesThis = false;
  llvm::SmallPtrSet<const ValueDecl *, 8> Named = namedIn(E, &NamesThis);
  if (NamesThis && (!This || variesPerLane(*This)))
    return true;
  return llvm::any_of(Named, [&](const ValueDecl *D) {
    auto It = Env.find(D);
    return It != Env.end() && variesPerLane(It->second);
  });
}

bool LaneIdentity::readBy(const Stmt *S) {
  if (!S)
    return false;
  LaneReader R(*this);
  R.TraverseStmt(const_cast<Stmt *>(S));
  return R.Found;
}

bool LaneIdentity::readByFunction(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    return false;
  auto [It, New] = Functions.try_emplace(Def, false);
  if (!New)
    return It->second; // Known, or being read (a recursive call).
  bool Reads = readBy(Def->getBody());
  Functions[Def] = Reads;
  return Reads;
}

std::optional<std::vector<Expr>>
laneInputs(const llvm::SmallPtrSetImpl<const ValueDecl *> &Named,
           const llvm::DenseMap<const ValueDecl *, VarValue> &Env,
           bool ReadsLane) {
  if (ReadsLane)
    return std::nullopt;
  std::vector<Expr> Inputs;
  for (const ValueDecl *VD : Named)
    if (auto It = Env.find(VD); It != Env.end()) {
      // Lost parts that may vary are no input the loop's results can be
      // said to be a function of.
      if (lostVaries(It->second))
        return std::nullopt;
      laneLeaves(It->second, Inputs);
    }
  return Inputs;
}

std::optional<std::vector<Expr>> loopInputs(const CarriedState &State,
                                            const OpaqueOrigins &Origins) {
  if (!State.LaneInputs)
    return std::nullopt;
  if (State.Checked)
    return *State.Checked;
  State.Checked.emplace();
  std::vector<Expr> Inputs = *State.LaneInputs;
  // What the sampled passes computed may hold per-lane values of their
  // own: loads (functions of their addresses, made of the inputs), values
  // opaque with inputs of their own (an inner loop's), or the inputs'
  // symbols. Anything else is not explained by the inputs.
  std::set<Symbol> Known;
  for (const Expr &E : Inputs)
    for (const Symbol &S : E.symbols())
      Known.insert(S);
  std::vector<Expr> Leaves;
  for (const auto &Slot : State.Samples)
    for (const VarValue &V : Slot.second)
      laneLeaves(V, Leaves);
  bool Explained = true;
  for (const Expr &E : Leaves) {
    if (!E.isLaneDependent())
      continue;
    for (const Symbol &S : E.symbols()) {
      if (!S.isLaneDependent() || Known.count(S))
        continue;
      if (S.Kind == SymbolKind::IndirectValue && Origins.LoadAddresses.count(S))
        continue;
      auto It = Origins.Inputs.find(S);
      if (S.Kind != SymbolKind::LaneValue || It == Origins.Inputs.end()) {
        Explained = false;
        break;
      }
      Known.insert(S);
      Inputs.insert(Inputs.end(), It->second.begin(), It->second.end());
    }
  }
  if (!Explained)
    return std::nullopt;
  // One entry per distinct input (structural equality is identity); a
  // value of no per-lane input is the same in every lane: the constant 0
  // says so.
  std::vector<Expr> Distinct;
  for (const Expr &E : Inputs)
    if (!llvm::is_contained(Distinct, E))
      Distinct.push_back(E);
  if (Distinct.empty())
    Distinct.push_back(Expr::constant(0));
  *State.Checked = Distinct;
  return Distinct;
}

void recordOpaqueInputs(std::map<Symbol, std::vector<Expr>> &Inputs,
                        const Symbol &S, const CarriedState &State,
                        const std::map<Symbol, Expr> &LoadAddresses) {
  std::optional<std::vector<Expr>> Found =
      loopInputs(State, {Inputs, LoadAddresses});
  auto [It, New] = Inputs.try_emplace(S);
  if (!New && It->second.empty())
    return;
  // Not a function of itself (a later walk that starts from it); a value of
  // too many inputs is not followed (each costs a prediction).
  if (!Found || llvm::any_of(*Found, [&](const Expr &E) {
        return E.symbols().count(S) != 0;
      })) {
    It->second.clear();
    return;
  }
  for (const Expr &E : *Found)
    if (!llvm::is_contained(It->second, E))
      It->second.push_back(E);
  if (It->second.size() > MaxOpaqueInputs)
    It->second.clear();
}

} // namespace frontend
} // namespace coalesce
