//===- ExprContext.cpp - The table that makes Expr nodes unique -----------===//
///
/// \file
/// Hash-consing: ExprTable keeps, for each structure of symbol leaf or
/// operation, the one live node (ExprNode.h), so that structural equality
/// of two nodes of one table is pointer equality. ExprContext is the
/// public handle the frontend makes symbols in; operations take the table
/// of their operands (Expr.cpp's makeOp()).
///
//===----------------------------------------------------------------------===//

#include "symbolic/ExprNode.h"
#include "symbolic/HashMemo.h"

#include <functional>
#include <string>

namespace coalesce {

Expr::Node::~Node() {
  // The operands are released after this body, outside the table's lock.
  if (Table)
    Table->erase(this);
}

std::shared_ptr<const Expr::Node>
ExprTable::insert(const std::shared_ptr<Expr::Node> &N) {
  Shard &S = shardOf(N->Hash);
  std::lock_guard<std::mutex> Lock(S.M);
  // Another thread may have kept an equal node since the caller's find().
  auto Same = [&](const Expr::Node &X) {
    return X.K == Expr::Kind::Symbol ? N->K == X.K && X.Sym == N->Sym
                                     : sameOperation(X, N->K, N->Ops);
  };
  if (std::shared_ptr<const Expr::Node> Kept = findLocked(S, N->Hash, Same))
    return Kept;
  N->Table = shared_from_this();
  S.Nodes.emplace(N->Hash, N.get());
  return N;
}

void ExprTable::erase(const Expr::Node *N) {
  Shard &S = shardOf(N->Hash);
  std::lock_guard<std::mutex> Lock(S.M);
  auto [First, Last] = S.Nodes.equal_range(N->Hash);
  for (auto It = First; It != Last; ++It)
    if (It->second == N) {
      S.Nodes.erase(It);
      return;
    }
}

size_t ExprTable::size() {
  size_t Total = 0;
  for (Shard &S : Shards) {
    std::lock_guard<std::mutex> Lock(S.M);
    Total += S.Nodes.size();
  }
  return Total;
}

Expr ExprBuilder::makeSymbol(ExprTable &Table, Symbol S) {
  size_t H = hashCombine(hashCombine(static_cast<size_t>(Expr::Kind::Symbol),
                                     static_cast<size_t>(S.Kind)),
                         std::hash<std::string>()(S.Name) ^ S.Version);
  auto IsS = [&](const Expr::Node &X) {
    return X.K == Expr::Kind::Symbol && X.Sym == S;
  };
  if (std::shared_ptr<const Expr::Node> Kept = Table.find(H, IsS))
    return Expr(std::move(Kept));
  auto N = std::make_shared<Expr::Node>();
  N->K = Expr::Kind::Symbol;
  N->Hash = H;
  N->LaneDependent = S.isLaneDependent();
  N->Indirect = S.Kind == SymbolKind::IndirectValue;
  N->Symbols = std::make_shared<const std::set<Symbol>>(std::set<Symbol>{S});
  N->Sym = std::move(S);
  return Expr(Table.insert(N));
}

ExprContext::ExprContext() : T(std::make_shared<ExprTable>()) {}

ExprContext::ExprContext(std::shared_ptr<ExprTable> T) : T(std::move(T)) {}

Expr ExprContext::symbol(Symbol S) const {
  return ExprBuilder::makeSymbol(*T, std::move(S));
}

namespace {
/// The first table met below \p N (a node over operands of two tables has
/// none of its own), or null when only constants are below.
const std::shared_ptr<ExprTable> *firstTable(const Expr::Node &N) {
  if (N.Table)
    return &N.Table;
  for (const Expr &Op : N.Ops)
    if (const std::shared_ptr<ExprTable> *T = firstTable(ExprBuilder::node(Op)))
      return T;
  return nullptr;
}
} // namespace

ExprContext ExprContext::of(const Expr &E) {
  const std::shared_ptr<ExprTable> *T = firstTable(ExprBuilder::node(E));
  return T ? ExprContext(*T) : ExprContext();
}

size_t ExprContext::size() const { return T->size(); }

} // namespace coalesce
