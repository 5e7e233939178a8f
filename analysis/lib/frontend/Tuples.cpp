//===- Tuples.cpp - std::tuple and cuda::std::tuple, element by element ---===//
//
// A tuple of the standard library or libcu++ is library code the walker does
// not follow (its leaves, forwarding constructors and get<I> through base
// classes). It is modelled instead: make_tuple(a, b) and tuple<A, B>(a, b)
// give an object whose element I is the value of argument I, get<I>(t) reads
// it back, and `auto [x, y] = t;` binds each name to its element. An
// element is kept in the object's fields under the field that holds it in
// the library's layout (libcu++'s __tuple_leaf<I, T>::__value_, libstdc++'s
// _Head_base<I, T>::_M_head_impl), found by its index, so copies, joins and
// returns carry it like any field.
//
//===----------------------------------------------------------------------===//
#include "CudaFunctions.h"
#include "FrontendInternal.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace coalesce {
namespace frontend {

namespace {
/// Is \p RD std::tuple or cuda::std::tuple (any inline namespace)?
bool isTupleClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || RD->getName() != "tuple")
    return false;
  const DeclContext *DC = RD->getDeclContext();
  while (DC && isa<NamespaceDecl>(DC) && cast<NamespaceDecl>(DC)->isInline())
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  return NS && NS->getIdentifier() && NS->getName() == "std";
}

/// The field holding element \p I of a tuple of class \p RD: the one field
/// of the base class template whose first argument is the index \p I (the
/// leaf), searched through fields and bases.
const FieldDecl *elementField(const CXXRecordDecl *RD, unsigned I,
                              unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || Depth > 8)
    return nullptr;
  RD = RD->getDefinition();
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Depth > 0 && Args.size() >= 2 &&
        Args[0].getKind() == TemplateArgument::Integral &&
        Args[0].getAsIntegral() == I && !RD->field_empty() &&
        (RD->getName().contains("leaf") || RD->getName().contains("Head")))
      return *RD->field_begin();
  }
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const FieldDecl *FD =
            elementField(B.getType()->getAsCXXRecordDecl(), I, Depth + 1))
      return FD;
  for (const FieldDecl *FD : RD->fields())
    if (const FieldDecl *Inner =
            elementField(FD->getType()->getAsCXXRecordDecl(), I, Depth + 1))
      return Inner;
  return nullptr;
}

const CXXRecordDecl *tupleOf(QualType T) {
  if (T.isNull()) // An expression clang could not type (code with errors).
    return nullptr;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return isTupleClass(RD) ? RD : nullptr;
}
} // namespace

std::optional<VarValue> KernelWalker::madeTuple(const clang::Expr *E,
                                                Frame &F) {
  const CXXRecordDecl *RD = tupleOf(E->getType());
  if (!RD)
    return std::nullopt;
  llvm::SmallVector<const clang::Expr *, 4> Args;
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !cudaFunction(plainName(FD)).is(CudaRole::TupleMake))
      return std::nullopt;
    Args.append(CE->arg_begin(), CE->arg_end());
  } else if (const auto *CCE = dyn_cast<CXXConstructExpr>(E)) {
    if (CCE->getConstructor()->isCopyOrMoveConstructor())
      return std::nullopt;
    Args.append(CCE->arg_begin(), CCE->arg_end());
  } else {
    return std::nullopt;
  }
  // One argument per element, none a tuple itself (a converting copy,
  // `tuple<long, long>(t)`, is not a tuple of its arguments).
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() != 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Pack ||
      Spec->getTemplateArgs()[0].pack_size() != Args.size())
    return std::nullopt;
  for (const clang::Expr *Arg : Args)
    if (tupleOf(Arg->getType()))
      return std::nullopt;
  VarValue V;
  V.Object = std::make_shared<ObjectValue>();
  for (unsigned I = 0; I < Args.size(); ++I) {
    const FieldDecl *FD = elementField(RD, I);
    if (!FD)
      return std::nullopt;
    if (std::optional<VarValue> Element = valueOf(FD->getType(), Args[I], F))
      fieldSlot(V, FD) = std::move(*Element);
  }
  return V;
}

std::optional<VarValue> KernelWalker::tupleElement(const CallExpr *CE,
                                                   const Frame &F) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || CE->getNumArgs() != 1 ||
      !cudaFunction(plainName(FD)).is(CudaRole::TupleGet))
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  const CXXRecordDecl *RD = tupleOf(CE->getArg(0)->getType());
  if (!Args || Args->size() < 1 || !RD ||
      Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  const FieldDecl *Field =
      elementField(RD, Args->get(0).getAsIntegral().getZExtValue());
  // heldValue sees through std::move (`get<0>(std::move(e))` of a
  // structured binding).
  std::optional<VarValue> Held = heldValue(CE->getArg(0), F);
  if (!Field || !Held || !Held->Object)
    return std::nullopt;
  for (const auto &[Key, Value] : Held->Object->Fields)
    if (Key == Field)
      return Value;
  return std::nullopt;
}

void KernelWalker::bindDecomposition(const DecompositionDecl *DD, Frame &F) {
  // `auto [x, y] = t;`: each name holds its element (a tuple's, through
  // the get<I> of its holding variable) or its field.
  for (const BindingDecl *BD : DD->bindings()) {
    const clang::Expr *Of = BD->getBinding();
    if (const VarDecl *Holding = BD->getHoldingVar())
      Of = Holding->getInit();
    if (!Of)
      continue;
    if (std::optional<VarValue> V = valueOf(BD->getType(), Of, F))
      F.Env[BD] = std::move(*V);
  }
}

} // namespace frontend
} // namespace coalesce
