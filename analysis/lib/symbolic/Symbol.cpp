//===- Symbol.cpp - Symbols and bindings of the symbolic engine -----------===//

#include "coalesce/Expr.h"

#include <algorithm>

namespace coalesce {

const char *symbolKindName(SymbolKind K) {
  switch (K) {
  case SymbolKind::ThreadIdx:
    return "threadIdx";
  case SymbolKind::BlockDim:
    return "blockDim";
  case SymbolKind::BlockIdx:
    return "blockIdx";
  case SymbolKind::GridDim:
    return "gridDim";
  case SymbolKind::Param:
    return "param";
  case SymbolKind::LoopIter:
    return "loopIter";
  case SymbolKind::UniformValue:
    return "uniformValue";
  case SymbolKind::LaneValue:
    return "laneValue";
  case SymbolKind::IndirectValue:
    return "indirectValue";
  }
  return "unknown";
}

namespace {
/// "threadIdx.x" style name of component \p Dim of a CUDA built-in.
/// Spelled out rather than formatted: the lane model and the evaluators ask
/// for these names millions of times.
Symbol builtin(SymbolKind K, unsigned Dim) {
  static constexpr const char *Names[4][3] = {
      {"threadIdx.x", "threadIdx.y", "threadIdx.z"},
      {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
      {"blockDim.x", "blockDim.y", "blockDim.z"},
      {"gridDim.x", "gridDim.y", "gridDim.z"}};
  unsigned Row = K == SymbolKind::ThreadIdx  ? 0
                 : K == SymbolKind::BlockIdx ? 1
                 : K == SymbolKind::BlockDim ? 2
                                             : 3;
  return {K, Names[Row][Dim % 3]};
}
} // namespace

Symbol Symbol::threadIdx(unsigned Dim) {
  return builtin(SymbolKind::ThreadIdx, Dim);
}
Symbol Symbol::blockIdx(unsigned Dim) {
  return builtin(SymbolKind::BlockIdx, Dim);
}
Symbol Symbol::blockDim(unsigned Dim) {
  return builtin(SymbolKind::BlockDim, Dim);
}
Symbol Symbol::gridDim(unsigned Dim) {
  return builtin(SymbolKind::GridDim, Dim);
}

bool Symbol::isLaneDependent() const {
  return Kind == SymbolKind::ThreadIdx || Kind == SymbolKind::LaneValue ||
         Kind == SymbolKind::IndirectValue;
}

bool Symbol::isVarying() const {
  return Kind == SymbolKind::BlockIdx || Kind == SymbolKind::LoopIter;
}

int Symbol::dimension() const {
  switch (Kind) {
  case SymbolKind::ThreadIdx:
  case SymbolKind::BlockDim:
  case SymbolKind::BlockIdx:
  case SymbolKind::GridDim:
    break;
  default:
    return -1;
  }
  // The component is the last character of "threadIdx.x".
  if (Name.size() < 2 || Name[Name.size() - 2] != '.')
    return -1;
  char C = Name.back();
  return C >= 'x' && C <= 'z' ? C - 'x' : -1;
}

std::vector<std::pair<Symbol, int64_t>>::const_iterator
Bindings::find(const Symbol &S) const {
  return std::find_if(Values.begin(), Values.end(),
                      [&](const auto &Entry) { return Entry.first == S; });
}

void Bindings::set(const Symbol &S, int64_t V) {
  auto It = find(S);
  if (It == Values.end())
    Values.emplace_back(S, V);
  else
    Values[It - Values.begin()].second = V;
}

void Bindings::set(const Symbol &S, int64_t V, size_t &Hint) {
  if (Hint < Values.size() && Values[Hint].first == S) {
    Values[Hint].second = V;
    return;
  }
  auto It = find(S);
  Hint = It - Values.begin();
  if (It == Values.end())
    Values.emplace_back(S, V);
  else
    Values[Hint].second = V;
}

void Bindings::erase(const Symbol &S) {
  auto It = find(S);
  if (It != Values.end())
    Values.erase(It);
}

std::optional<int64_t> Bindings::lookup(const Symbol &S) const {
  auto It = find(S);
  if (It == Values.end())
    return std::nullopt;
  return It->second;
}

std::optional<int64_t> Bindings::lookup(const Symbol &S, size_t &Hint) const {
  if (Hint < Values.size() && Values[Hint].first == S)
    return Values[Hint].second;
  auto It = find(S);
  if (It == Values.end())
    return std::nullopt;
  Hint = It - Values.begin();
  return It->second;
}

} // namespace coalesce
