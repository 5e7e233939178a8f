//===- WalkOrder.h - Which kernel of a file to walk first -------*- C++ -*-===//
//
// A file's kernels are walked one after another on one thread, and each
// one's predictions start as soon as it is walked (PredictionScheduler).
// Walking the largest first lets the most work run beside the walk of the
// others: SHOC's QTC_device, a short kernel that inlines two long device
// functions, used to be walked last, and its predictions then ran alone.
// The order changes nothing else: kernels are walked independently and the
// report keeps the source order.
//
//===----------------------------------------------------------------------===//

#ifndef COALESCE_FRONTEND_WALKORDER_H
#define COALESCE_FRONTEND_WALKORDER_H

#include "clang/AST/Decl.h"

#include <cstddef>
#include <vector>

namespace coalesce {
namespace frontend {

/// Positions of \p Kernels, the largest first by the statements their walk
/// can reach (a callee's counted at each call, as the walker inlines it,
/// and a statement in a loop several times over); equal sizes keep their
/// order.
std::vector<size_t>
largestFirst(const std::vector<const clang::FunctionDecl *> &Kernels);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_FRONTEND_WALKORDER_H
