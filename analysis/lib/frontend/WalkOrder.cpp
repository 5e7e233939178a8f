//===- WalkOrder.cpp - Which kernel of a file to walk first ---------------===//
//
// The size of a walk, estimated without walking: statements of the body,
// plus for each call with a body the callee's size (each function counted
// once, memoized; a recursive call counts nothing; sums saturate), each
// weighed 4x per loop around it (up to three).
//
//===----------------------------------------------------------------------===//
#include "WalkOrder.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

using namespace clang;

namespace coalesce {
namespace frontend {
namespace {

uint64_t saturatingAdd(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}

/// Statements a walk of a function can reach, per function.
class ReachableSize {
public:
  uint64_t of(const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    if (!FD || !FD->hasBody(Def) || !Def)
      return 0;
    if (auto It = Memo.find(Def); It != Memo.end())
      return It->second;
    if (!Active.insert(Def).second)
      return 0; // Recursion: the walker does not inline it again either.
    Counter C(*this);
    C.TraverseStmt(Def->getBody());
    Active.erase(Def);
    Memo[Def] = C.N;
    return C.N;
  }

private:
  /// Statements weighed by the loops around them: the walker passes over
  /// a loop's body several times (a probe, samples of what it carries), and
  /// the body of a loop inside a loop more often still.
  struct Counter : RecursiveASTVisitor<Counter> {
    using Base = RecursiveASTVisitor<Counter>;
    explicit Counter(ReachableSize &Size) : Size(Size) {}
    bool VisitStmt(Stmt *) {
      add(1);
      return true;
    }
    bool VisitCallExpr(CallExpr *E) {
      add(Size.of(E->getDirectCallee()));
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      add(Size.of(E->getConstructor()));
      return true;
    }
    bool TraverseForStmt(ForStmt *S) {
      return inLoop([&] { return Base::TraverseForStmt(S); });
    }
    bool TraverseWhileStmt(WhileStmt *S) {
      return inLoop([&] { return Base::TraverseWhileStmt(S); });
    }
    bool TraverseDoStmt(DoStmt *S) {
      return inLoop([&] { return Base::TraverseDoStmt(S); });
    }
    bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
      return inLoop([&] { return Base::TraverseCXXForRangeStmt(S); });
    }
    /// The default traversal of a loop, one level deeper.
    template <typename TraverseFn> bool inLoop(TraverseFn Traverse) {
      ++Depth;
      bool Go = Traverse();
      --Depth;
      return Go;
    }
    void add(uint64_t Size) {
      uint64_t W = uint64_t(1) << (2 * std::min(Depth, 3u)); // 4 per level.
      N = saturatingAdd(N, Size > UINT64_MAX / W ? UINT64_MAX : Size * W);
    }

    ReachableSize &Size;
    uint64_t N = 0;
    unsigned Depth = 0;
  };

  llvm::DenseMap<const FunctionDecl *, uint64_t> Memo;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Active;
};

} // namespace

std::vector<size_t>
largestFirst(const std::vector<const FunctionDecl *> &Kernels) {
  ReachableSize Size;
  std::vector<uint64_t> Sizes;
  for (const FunctionDecl *FD : Kernels)
    Sizes.push_back(Size.of(FD));
  std::vector<size_t> Order(Kernels.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Sizes[A] > Sizes[B]; });
  return Order;
}

} // namespace frontend
} // namespace coalesce
