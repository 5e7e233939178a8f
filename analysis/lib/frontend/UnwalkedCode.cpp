//===- UnwalkedCode.cpp - Memory touched by code the walker does not enter ===//
//
// Library calls (cuda_fp16's operators and conversions, functions without a
// body), inline assembly and the memory operations that are not predicted:
// what they read and write is recorded where the user's code binds it, as an
// access, an unknown one, or an exclusion with its reason, so that the census
// (--self-check) finds every memory operation in the report.
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace frontend {

void KernelWalker::exclude(const clang::Expr *At, AccessOp Op, Frame &F,
                           llvm::StringRef Reason) {
  if (!F.records())
    return;
  if (F.LibraryCall)
    At = F.LibraryCall;
  Kernel.Excluded.push_back(ExcludedAccess{
      toLocation(SM, At->getBeginLoc()), Op,
      sourceText(Ctx, At->getSourceRange()), Reason.str()});
}

void KernelWalker::excludeSpace(const clang::Expr *At, AccessOp Op, Frame &F,
                                MemorySpace Space) {
  switch (Space) {
  case MemorySpace::Shared:
    return exclude(At, Op, F, "shared memory");
  case MemorySpace::Constant:
    return exclude(At, Op, F, "constant memory");
  case MemorySpace::Local:
    return exclude(At, Op, F, "local memory (a variable of the thread)");
  case MemorySpace::Param:
    return exclude(At, Op, F, "parameter space (a kernel argument passed "
                              "by value)");
  case MemorySpace::NotGlobal:
    return exclude(At, Op, F, "shared, local or parameter memory, depending "
                              "on the path (not global memory)");
  case MemorySpace::Global:
  case MemorySpace::Unknown:
    return exclude(At, Op, F, "memory the tool does not model");
  }
}

void KernelWalker::walkAsm(const GCCAsmStmt *AS, Frame &F) {
  auto Pointer = [&](const clang::Expr *Op, AccessOp Kind) {
    QualType T = Op->getType();
    if (!T->isPointerType() || T->getPointeeType()->isFunctionType() ||
        !F.records())
      return;
    const clang::Expr *At = Op->IgnoreParenImpCasts();
    std::optional<PointerValue> P = resolvePointer(Op, F, nullptr);
    if (P && P->Space != MemorySpace::Global)
      return excludeSpace(At, Kind, F, P->Space);
    recordUnknown(At, sizeOf(T->getPointeeType()), Kind, F, At,
                  "inline assembly (PTX) given this pointer: the tool does "
                  "not read what the assembly accesses");
  };
  // The memory instructions of the PTX that address a pointer operand
  // (`cp.async.cg.shared.global [%0], [%1], 16`, `ld.global.nc.v4.f32 {..},
  // [%4]`): accesses through it, of their width.
  unsigned Outputs = AS->getNumOutputs();
  std::vector<PtxMemoryOp> Ops = Facts.ptxMemoryOps(AS);
  // A size given as an operand (cp.async's `"n"(16)`) is its constant; an
  // instruction whose size is not a constant is not read.
  llvm::erase_if(Ops, [&](PtxMemoryOp &Op) {
    if (!Op.BytesOperand)
      return false;
    unsigned N = *Op.BytesOperand;
    const clang::Expr *SizeExpr =
        N < Outputs ? nullptr
        : N - Outputs < AS->getNumInputs() ? AS->getInputExpr(N - Outputs)
                                           : nullptr;
    clang::Expr::EvalResult R;
    if (!SizeExpr || SizeExpr->isValueDependent() ||
        !SizeExpr->EvaluateAsInt(R, Ctx) || R.Val.getInt().isNegative() ||
        R.Val.getInt().isZero())
      return true;
    Op.Bytes = static_cast<unsigned>(R.Val.getInt().getLimitedValue(1u << 20));
    return false;
  });
  llvm::SmallDenseSet<unsigned, 4> Read;
  for (const PtxMemoryOp &Op : Ops)
    if (Op.Operand >= Outputs && Op.Operand < Outputs + AS->getNumInputs() &&
        AS->getInputExpr(Op.Operand - Outputs)->getType()->isPointerType())
      Read.insert(Op.Operand);
  for (unsigned I = 0; I < AS->getNumInputs(); ++I) {
    const clang::Expr *In = AS->getInputExpr(I);
    walkExpr(In, F);
    if (!Read.count(Outputs + I))
      Pointer(In, AccessOp::Load);
  }
  for (const PtxMemoryOp &Op : Ops)
    if (Read.count(Op.Operand))
      recordPointerAccess(AS->getInputExpr(Op.Operand - Outputs), Op.Op,
                          Op.Atomic, F, nullptr, Op.Bytes, Op.Offset);
  for (unsigned I = 0; I < AS->getNumOutputs(); ++I) {
    // An output operand is written (`"=r"(v[i].x)`).
    const clang::Expr *Out = AS->getOutputExpr(I)->IgnoreParens();
    if (VarValue *Slot = heldSlot(Out, F)) {
      *Slot = VarValue{};
      continue;
    }
    if (!localScalar(Out))
      recordAccess(Out, AccessOp::Store, AtomicKind::None, F, nullptr);
    walkAddressOperands(Out, F);
  }
}

void KernelWalker::walkBound(const clang::Expr *E, Frame &F) {
  const clang::Expr *Bound = E->IgnoreParenImpCasts();
  // A temporary (`(float)__ldcs(p + i)` on a bf16, `o = f(x[i])` on a
  // class type): its expression runs here.
  if (isa<MaterializeTemporaryExpr>(Bound) || !Bound->isGLValue())
    return walkExpr(E, F);
  // std::forward<T>(x), std::move(x): x itself is bound.
  if (const clang::Expr *Same = identityCallArgument(Bound))
    return walkBound(Same, F);
  // A call that returns a reference (Warp's `wp::index(points, tid)` bound
  // to `const vec3 &p`) runs first, as in an access's address: the memory
  // its reference names is only known once its body has run.
  if (isa<CallExpr>(Bound))
    prewalkCalls(Bound, F);
  walkAddressOperands(Bound, F);
}

void KernelWalker::recordBoundLValue(const clang::Expr *Arg, AccessOp Op,
                                     Frame &F) {
  const clang::Expr *LV = Arg->IgnoreParenImpCasts();
  if (!LV->isGLValue() || isa<MaterializeTemporaryExpr>(LV) || localScalar(LV))
    return;
  recordAccess(LV, Op, AtomicKind::None, F, nullptr);
}

void KernelWalker::recordBoundLValues(const CallExpr *CE,
                                      const FunctionDecl *Callee, Frame &F) {
  auto Record = [&](const clang::Expr *Arg, AccessOp Op) {
    recordBoundLValue(Arg, Op, F);
  };
  bool OperatorMethod = isOperatorMethodCall(CE, Callee);
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
      OCE && OCE->getNumArgs() >= 1) {
    // The left operand of an operator: `h[i] = f`, `h[i] += g` (cuda_fp16).
    OverloadedOperatorKind K = OCE->getOperator();
    AccessOp Op = K == OO_Equal ? AccessOp::Store
                  : (OCE->isAssignmentOp() || K == OO_PlusPlus ||
                     K == OO_MinusMinus)
                      ? AccessOp::LoadStore
                      : AccessOp::Load;
    if (OperatorMethod ||
        (Callee->getNumParams() > 0 &&
         Callee->getParamDecl(0)->getType()->isReferenceType()))
      Record(OCE->getArg(0), Op);
  }
  // Memory bound to a reference parameter is read, or read and written when
  // the reference is not const (`x[i] * y[i]` on __half, `__hmax(a[i], b)`).
  for (unsigned I = OperatorMethod || isa<CXXOperatorCallExpr>(CE) ? 1 : 0;
       I < CE->getNumArgs(); ++I) {
    unsigned P = OperatorMethod ? I - 1 : I;
    if (P >= Callee->getNumParams())
      break;
    QualType T = Callee->getParamDecl(P)->getType();
    if (T->isReferenceType())
      Record(CE->getArg(I), T.getNonReferenceType().isConstQualified()
                                ? AccessOp::Load
                                : AccessOp::LoadStore);
  }
  // A method run on an object in memory: `(float)h[i]` is h[i].operator
  // float().
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    if (const clang::Expr *Obj = MCE->getImplicitObjectArgument();
        Obj && Obj->isGLValue()) {
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Record(Obj, Method && Method->isConst() ? AccessOp::Load
                                              : AccessOp::LoadStore);
    }
}

} // namespace frontend
} // namespace coalesce
