//===- Expr.cpp - Expr nodes, accessors, structural order and queries -----===//

#include "symbolic/ExprNode.h"
#include "symbolic/HashMemo.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_set>

namespace coalesce {

namespace {
std::shared_ptr<const Expr::Node> zeroNode() {
  // Immutable after construction; shared by every default-constructed Expr.
  static const std::shared_ptr<const Expr::Node> Zero = [] {
    auto N = std::make_shared<Expr::Node>();
    N->K = Expr::Kind::Constant;
    N->Hash = hashCombine(static_cast<size_t>(Expr::Kind::Constant),
                          std::hash<int64_t>()(0));
    return std::shared_ptr<const Expr::Node>(std::move(N));
  }();
  return Zero;
}

using SymbolSet = std::shared_ptr<const std::set<Symbol>>;

/// The union of two memoized symbol sets, sharing one of them when it
/// already holds the other.
SymbolSet unionOf(const SymbolSet &A, const SymbolSet &B) {
  if (!B || A == B)
    return A;
  if (!A)
    return B;
  if (std::includes(A->begin(), A->end(), B->begin(), B->end()))
    return A;
  if (std::includes(B->begin(), B->end(), A->begin(), A->end()))
    return B;
  auto U = std::make_shared<std::set<Symbol>>(*A);
  U->insert(B->begin(), B->end());
  return U;
}
} // namespace

//===-- ExprBuilder
//--------------------------------------------------------===//

Expr ExprBuilder::makeConstant(int64_t V) {
  if (V == 0)
    return Expr(zeroNode());
  auto N = std::make_shared<Expr::Node>();
  N->K = Expr::Kind::Constant;
  N->Value = V;
  N->Hash = hashCombine(static_cast<size_t>(Expr::Kind::Constant),
                        std::hash<int64_t>()(V));
  return Expr(std::move(N));
}

namespace {
/// The table an operation over \p Ops is unique in: the one table of its
/// non-constant operands, or null when one of them has none, two differ,
/// or all are constants.
ExprTable *tableOf(const std::vector<Expr> &Ops) {
  ExprTable *T = nullptr;
  for (const Expr &Op : Ops) {
    const Expr::Node &O = ExprBuilder::node(Op);
    if (O.K == Expr::Kind::Constant)
      continue;
    if (!O.Table || (T && T != O.Table.get()))
      return nullptr;
    T = O.Table.get();
  }
  return T;
}
} // namespace

bool sameOperation(const Expr::Node &X, Expr::Kind K,
                   const std::vector<Expr> &Ops) {
  if (X.K != K || X.Ops.size() != Ops.size())
    return false;
  for (size_t I = 0; I < Ops.size(); ++I) {
    const Expr::Node &A = ExprBuilder::node(X.Ops[I]);
    const Expr::Node &B = ExprBuilder::node(Ops[I]);
    if (&A != &B && (A.K != Expr::Kind::Constant ||
                     B.K != Expr::Kind::Constant || A.Value != B.Value))
      return false;
  }
  return true;
}

Expr ExprBuilder::makeOp(Expr::Kind K, std::vector<Expr> Ops) {
  assert(K != Expr::Kind::Constant && K != Expr::Kind::Symbol);
  size_t H = static_cast<size_t>(K) * 0x100000001b3ULL;
  for (const Expr &Op : Ops)
    H = hashCombine(H, Op.N->Hash);
  ExprTable *Table = tableOf(Ops);
  if (Table)
    if (std::shared_ptr<const Expr::Node> Kept = Table->find(
            H, [&](const Expr::Node &X) { return sameOperation(X, K, Ops); }))
      return Expr(std::move(Kept));
  auto N = std::make_shared<Expr::Node>();
  N->K = K;
  bool Poly = K == Expr::Kind::Add || K == Expr::Kind::Mul;
  size_t Size = 1;
  for (const Expr &Op : Ops) {
    const Expr::Node &O = *Op.N;
    Poly = Poly && O.Polynomial;
    N->LaneDependent |= O.LaneDependent;
    N->Indirect |= O.Indirect;
    Size = O.TreeSize > SIZE_MAX - Size ? SIZE_MAX : Size + O.TreeSize;
    N->Symbols = unionOf(N->Symbols, O.Symbols);
  }
  N->TreeSize = Size;
  N->Hash = H;
  N->Polynomial = Poly;
  N->Ops = std::move(Ops);
  if (Table)
    return Expr(Table->insert(N));
  return Expr(std::move(N));
}

Expr ExprBuilder::rebuild(Expr::Kind K, const std::vector<Expr> &Ops) {
  using K_ = Expr::Kind;
  switch (K) {
  case K_::Constant:
  case K_::Symbol:
    break;
  case K_::Add: {
    Expr R = Expr::constant(0);
    for (const Expr &Op : Ops)
      R = Expr::add(R, Op);
    return R;
  }
  case K_::Mul: {
    Expr R = Expr::constant(1);
    for (const Expr &Op : Ops)
      R = Expr::mul(R, Op);
    return R;
  }
  case K_::Div:
    return Expr::div(Ops[0], Ops[1]);
  case K_::Rem:
    return Expr::rem(Ops[0], Ops[1]);
  case K_::Shl:
    return Expr::shl(Ops[0], Ops[1]);
  case K_::Shr:
    return Expr::shr(Ops[0], Ops[1]);
  case K_::And:
    return Expr::bitAnd(Ops[0], Ops[1]);
  case K_::Or:
    return Expr::bitOr(Ops[0], Ops[1]);
  case K_::Xor:
    return Expr::bitXor(Ops[0], Ops[1]);
  case K_::Min:
    return Expr::min(Ops[0], Ops[1]);
  case K_::Max:
    return Expr::max(Ops[0], Ops[1]);
  case K_::Select:
    return Expr::select(Ops[0], Ops[1], Ops[2]);
  case K_::Lt:
    return Expr::lt(Ops[0], Ops[1]);
  case K_::Le:
    return Expr::le(Ops[0], Ops[1]);
  case K_::Eq:
    return Expr::eq(Ops[0], Ops[1]);
  case K_::Ne:
    return Expr::ne(Ops[0], Ops[1]);
  case K_::LAnd:
    return Expr::logicalAnd(Ops[0], Ops[1]);
  case K_::LOr:
    return Expr::logicalOr(Ops[0], Ops[1]);
  }
  assert(false && "leaves are not rebuilt");
  return Expr();
}

//===-- Construction and accessors
//-----------------------------------------===//

Expr::Expr() : N(zeroNode()) {}

Expr Expr::constant(int64_t V) { return ExprBuilder::makeConstant(V); }

Expr::Kind Expr::getKind() const { return N->K; }

int64_t Expr::getConstant() const {
  assert(isConstant() && "not a constant");
  return N->Value;
}

const Symbol &Expr::getSymbol() const {
  assert(getKind() == Kind::Symbol && "not a symbol");
  return N->Sym;
}

const std::vector<Expr> &Expr::operands() const { return N->Ops; }

std::optional<int64_t> Expr::asConstant() const {
  if (isConstant())
    return N->Value;
  return std::nullopt;
}

bool Expr::isPolynomial() const { return N->Polynomial; }
bool Expr::isLaneDependent() const { return N->LaneDependent; }
bool Expr::isIndirect() const { return N->Indirect; }

std::set<Symbol> Expr::symbols() const {
  return N->Symbols ? *N->Symbols : std::set<Symbol>();
}

std::vector<std::string> Expr::symbolNames(SymbolKind K) const {
  std::vector<std::string> Names;
  if (N->Symbols)
    for (const Symbol &S : *N->Symbols) // Sorted by kind, then name.
      if (S.Kind == K && (Names.empty() || Names.back() != S.Name))
        Names.push_back(S.Name);
  return Names;
}

size_t Expr::treeSize() const { return N->TreeSize; }

size_t Expr::hash() const { return N->Hash; }

size_t Expr::distinctNodes(size_t Limit) const {
  return distinctNodes(std::vector<Expr>{*this}, Limit);
}

size_t Expr::distinctNodes(const std::vector<Expr> &Roots, size_t Limit) {
  llvm::SmallPtrSet<const Node *, 32> Seen;
  llvm::SmallVector<const Node *, 64> Work;
  for (const Expr &R : Roots)
    Work.push_back(R.N.get());
  while (!Work.empty() && Seen.size() < Limit) {
    const Node *X = Work.back();
    Work.pop_back();
    if (!Seen.insert(X).second)
      continue;
    for (const Expr &Op : X->Ops)
      Work.push_back(Op.N.get());
  }
  return std::min<size_t>(Seen.size(), Limit);
}

namespace {
/// Rebuilds \p E bottom-up with \p Leaf deciding each node first (a result
/// replaces the node; nullopt descends into its operands). Every distinct
/// node is visited once (\p Memo), so shared subtrees stay shared and the
/// cost is linear in the DAG, not in the tree form.
template <typename LeafFn>
Expr rewriteShared(const Expr &E, LeafFn &Leaf,
                   llvm::DenseMap<const Expr::Node *, Expr> &Memo) {
  const Expr::Node &N = ExprBuilder::node(E);
  if (std::optional<Expr> R = Leaf(E))
    return *R;
  if (N.K == Expr::Kind::Constant || N.K == Expr::Kind::Symbol)
    return E;
  auto It = Memo.find(&N);
  if (It != Memo.end())
    return It->second;
  std::vector<Expr> Ops;
  Ops.reserve(N.Ops.size());
  bool Changed = false;
  for (const Expr &Op : N.Ops) {
    Ops.push_back(rewriteShared(Op, Leaf, Memo));
    Changed |= !ExprBuilder::sameNode(Ops.back(), Op);
  }
  Expr Result = Changed ? ExprBuilder::rebuild(N.K, Ops) : E;
  Memo.try_emplace(&N, Result);
  return Result;
}
} // namespace

Expr Expr::replace(const Expr &From, const Expr &To) const {
  const std::set<Symbol> &FromSymbols =
      From.N->Symbols ? *From.N->Symbols : std::set<Symbol>();
  auto Leaf = [&](const Expr &E) -> std::optional<Expr> {
    // A subtree lacking a symbol of From, or smaller, cannot contain it.
    if (E.N->TreeSize < From.N->TreeSize)
      return E;
    if (E.N->Symbols != From.N->Symbols && !FromSymbols.empty() &&
        (!E.N->Symbols || !std::includes(E.N->Symbols->begin(),
                                         E.N->Symbols->end(),
                                         FromSymbols.begin(),
                                         FromSymbols.end())))
      return E;
    if (E == From)
      return To;
    return std::nullopt;
  };
  llvm::DenseMap<const Node *, Expr> Memo;
  return rewriteShared(*this, Leaf, Memo);
}

Expr Expr::substitute(const std::map<Symbol, Expr> &Map) const {
  auto Leaf = [&](const Expr &E) -> std::optional<Expr> {
    if (E.N->K == Kind::Symbol) {
      auto It = Map.find(E.N->Sym);
      return It == Map.end() ? E : It->second;
    }
    // Subtrees holding none of the mapped symbols are kept as they are.
    if (!E.N->Symbols)
      return E;
    for (const auto &Entry : Map)
      if (E.N->Symbols->count(Entry.first))
        return std::nullopt;
    return E;
  };
  llvm::DenseMap<const Node *, Expr> Memo;
  return rewriteShared(*this, Leaf, Memo);
}

//===-- Structural equality and order
//--------------------------------------===//

namespace {
struct PairHash {
  size_t operator()(const std::pair<const void *, const void *> &P) const {
    return std::hash<const void *>()(P.first) * 31 +
           std::hash<const void *>()(P.second);
  }
};
} // namespace

namespace {
/// Structural equality of two operation nodes. Expressions are DAGs whose
/// shared subtrees can be reached along exponentially many paths (an
/// unrolled loop's sampled values), and two equal DAGs built apart share no
/// node: each pair of nodes found equal is remembered in \p Equal, so each
/// pair is compared once (ggml's mmq kernels compared for minutes).
bool equalNodes(const Expr::Node &X, const Expr::Node &Y,
                std::unordered_set<std::pair<const void *, const void *>,
                                   PairHash> &Equal);

bool equalExprs(const Expr &A, const Expr &B,
                std::unordered_set<std::pair<const void *, const void *>,
                                   PairHash> &Equal) {
  const Expr::Node &X = ExprBuilder::node(A), &Y = ExprBuilder::node(B);
  if (&X == &Y)
    return true;
  if (X.Hash != Y.Hash || X.K != Y.K)
    return false;
  switch (X.K) {
  case Expr::Kind::Constant:
    return X.Value == Y.Value;
  case Expr::Kind::Symbol:
    return X.Sym == Y.Sym;
  default:
    return equalNodes(X, Y, Equal);
  }
}

bool equalNodes(const Expr::Node &X, const Expr::Node &Y,
                std::unordered_set<std::pair<const void *, const void *>,
                                   PairHash> &Equal) {
  if (X.Ops.size() != Y.Ops.size())
    return false;
  if (Equal.count({&X, &Y}))
    return true;
  for (size_t I = 0; I < X.Ops.size(); ++I)
    if (!equalExprs(X.Ops[I], Y.Ops[I], Equal))
      return false;
  Equal.insert({&X, &Y});
  return true;
}
} // namespace

bool operator==(const Expr &A, const Expr &B) {
  if (A.N == B.N)
    return true;
  // Two nodes of one table are equal only when they are the same node.
  if (A.N->Table && A.N->Table == B.N->Table)
    return false;
  if (A.N->Hash != B.N->Hash)
    return false;
  // An empty set allocates nothing: leaves and unequal hashes cost no more
  // than before.
  std::unordered_set<std::pair<const void *, const void *>, PairHash> Equal;
  return equalExprs(A, B, Equal);
}

namespace {
/// Three-way structural comparison: kind, then value / symbol (name first,
/// so that "N" sorts before "threadIdx.x" in products) / operands
/// lexicographically.
int compareExpr(const Expr &A, const Expr &B) {
  if (ExprBuilder::sameNode(A, B))
    return 0;
  const Expr::Node &X = ExprBuilder::node(A), &Y = ExprBuilder::node(B);
  if (X.K != Y.K)
    return X.K < Y.K ? -1 : 1;
  switch (X.K) {
  case Expr::Kind::Constant:
    return X.Value == Y.Value ? 0 : (X.Value < Y.Value ? -1 : 1);
  case Expr::Kind::Symbol:
    if (int C = X.Sym.Name.compare(Y.Sym.Name))
      return C < 0 ? -1 : 1;
    if (X.Sym.Kind != Y.Sym.Kind)
      return X.Sym.Kind < Y.Sym.Kind ? -1 : 1;
    return X.Sym.Version == Y.Sym.Version
               ? 0
               : (X.Sym.Version < Y.Sym.Version ? -1 : 1);
  default:
    break;
  }
  size_t Len = std::min(X.Ops.size(), Y.Ops.size());
  for (size_t I = 0; I < Len; ++I)
    if (int C = compareExpr(X.Ops[I], Y.Ops[I]))
      return C;
  if (X.Ops.size() != Y.Ops.size())
    return X.Ops.size() < Y.Ops.size() ? -1 : 1;
  return 0;
}
} // namespace

bool operator<(const Expr &A, const Expr &B) { return compareExpr(A, B) < 0; }

} // namespace coalesce
