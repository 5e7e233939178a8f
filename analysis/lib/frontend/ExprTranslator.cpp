//===- ExprTranslator.cpp - Integer expressions from the AST to Expr ------===//
//
// Translates the integer expressions that compute indices into symbolic
// Exprs, in the environment of the function being walked. What the engine
// cannot see through becomes an opaque symbol: lane-dependent (LaneValue),
// loaded from memory at a lane-dependent address (IndirectValue), or uniform
// (UniformValue).
//
//===----------------------------------------------------------------------===//
#include "FrontendInternal.h"
#include "IntegerOps.h"
#include "coalesce/ExprBounds.h"

#include "llvm/Support/xxhash.h"

#include "clang/AST/ExprCXX.h"

#include <fmt/format.h>

#include <functional>

using namespace clang;

namespace coalesce {
namespace frontend {

Expr KernelWalker::opaqueValue(const clang::Expr *E, bool LaneDependent,
                               bool Indirect, uint64_t Version) {
  SymbolKind K = Indirect        ? SymbolKind::IndirectValue
                 : LaneDependent ? SymbolKind::LaneValue
                                 : SymbolKind::UniformValue;
  return symbol({K, sourceText(Ctx, E->getSourceRange()), Version});
}

uint64_t KernelWalker::locationKey(clang::SourceLocation Loc) const {
  // The file by its name, not its FileID (numbered differently with and
  // without the precompiled headers), hashed the same on every platform.
  Loc = SM.getExpansionLoc(Loc);
  return mixKeys(llvm::xxh3_64bits(SM.getFilename(Loc)), SM.getFileOffset(Loc));
}

namespace {

/// mayBeNegative() asks about values of fewer than MaxValueNodes nodes,
/// MaxSplits cases deep (SourceFacts::neverNegative).
constexpr size_t MaxValueNodes = 64;
constexpr unsigned MaxSplits = 2;
/// An element of an array, or a member of one (`a[i]`, `a[i].x`, `v[i].f.g`
/// through operator[] too).
bool isArrayElement(const clang::Expr *LV) {
  const clang::Expr *E = stripDotMembers(LV);
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
    return OCE->getOperator() == OO_Subscript;
  return isa<ArraySubscriptExpr>(E);
}

/// Is \p T an array, or a record with an array among its fields (those of
/// its bases and members included)?
bool holdsArray(QualType T, unsigned Depth = 0) {
  if (T->isArrayType())
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 8)
    return false;
  for (const FieldDecl *FD : RD->fields())
    if (holdsArray(FD->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsArray(B.getType(), Depth + 1))
      return true;
  return false;
}
} // namespace

std::optional<SymbolKind>
KernelWalker::threadArrayElement(const clang::Expr *LV, const AddressInfo &A,
                                 const Frame &F) {
  if (F.Host || A.Ptr.Space != MemorySpace::Local || launchFixedArray(LV, F))
    return std::nullopt;
  // An element (`a[i]`, `v[i].x`), or anything read through a pointer or
  // reference into an object that holds an array (moderngpu's `get<0>(u[1])`
  // reaching `u.data[1].x`); a plain struct of scalars (a uint2 from a call
  // the walker does not see into) is not an array's element.
  if (!isArrayElement(LV) &&
      !(A.Ptr.LocalArray && holdsArray(A.Ptr.LocalArray->getType())))
    return std::nullopt;
  // Every lane has an array of its own in local memory (a kernel's
  // by-value arguments aside): what the same element holds differs
  // between lanes unless the stores are followed. An array the stores so
  // far filled with data, and perhaps a default the same in every lane
  // (cub's BlockLoad into `items`), holds data. What the object holding
  // the array carries is the more precise: a variable's own bits mix all
  // its arrays (`lbs` of moderngpu's load balancing holds indices,
  // segments and ranks).
  unsigned Bits = ownerContents(LV, F);
  if (!Bits && A.Ptr.LocalArray)
    Bits = LocalContents.lookup(A.Ptr.LocalArray);
  bool Data = (Bits & ContentData) && !(Bits & ContentOther);
  return Data ? SymbolKind::IndirectValue : SymbolKind::LaneValue;
}

unsigned KernelWalker::ownerContents(const clang::Expr *LV, const Frame &F) {
  const clang::Expr *E = stripDotMembers(LV)->IgnoreParens();
  auto ContentsOf = [&](const clang::Expr *Owner) -> unsigned {
    std::optional<VarValue> Held = heldValue(Owner, F);
    return Held && Held->Object ? Held->Object->Contents : 0;
  };
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
    return OCE->getOperator() == OO_Subscript && OCE->getNumArgs() == 2
               ? ContentsOf(OCE->getArg(0))
               : 0;
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E);
  const auto *ME =
      ASE ? dyn_cast<MemberExpr>(ASE->getBase()->IgnoreParenImpCasts())
          : nullptr;
  if (!ME)
    return 0;
  if (!ME->isArrow())
    return ContentsOf(ME->getBase());
  if (isThis(ME->getBase()) && F.ThisObject && F.ThisObject->Object)
    return F.ThisObject->Object->Contents;
  return 0;
}

Expr KernelWalker::loadedValue(const clang::Expr *LV, const Frame &F) {
  // An element of a local array the walker follows: what was stored there.
  if (std::optional<VarValue> Element = localElement(LV, F))
    if (Element->Int)
      return *Element->Int;
  // Uniform if every lane reads the same address, else data-dependent.
  std::optional<AddressInfo> A = resolveAddress(LV, F, nullptr);
  // A value of the thread's own memory that may differ between lanes and
  // that the analysis does not follow: per lane, and why (\p Why names the
  // lvalue, then the variable).
  auto Unmodelled = [&](const char *Why) {
    Expr V = opaqueValue(LV, /*LaneDependent=*/true, /*Indirect=*/false,
                         mixKeys(F.Memory, locationKey(LV)));
    OpaqueReasons.try_emplace(V.getSymbol(),
                              fmt::format(fmt::runtime(Why),
                                          sourceText(Ctx, LV->getSourceRange()),
                                          A->Ptr.BaseName));
    return V;
  };
  if (std::optional<SymbolKind> Own =
          A ? threadArrayElement(LV, *A, F) : std::nullopt) {
    if (*Own == SymbolKind::IndirectValue)
      return opaqueValue(LV, /*LaneDependent=*/true, /*Indirect=*/true,
                         mixKeys(F.Memory, locationKey(LV)));
    return Unmodelled("'{}' is read back from the thread's local memory "
                      "('{}'), whose stores the analysis does not follow "
                      "there");
  }
  bool Lane = !A || A->Ptr.ByteOffset.isLaneDependent();
  // A part of the thread's own object the walker lost, computed from
  // per-lane values.
  if (!Lane && A->Ptr.Space == MemorySpace::Local && lostPerLane(LV, F))
    return Unmodelled("'{}' is a part of '{}' that the analysis did not "
                      "follow, computed from values that differ between "
                      "lanes");
  // The value is what this address held in this version of memory: the
  // same for two reads of it spelled alike with no store between;
  // different across a store.
  uint64_t Address =
      A ? mixKeys(llvm::xxh3_64bits(A->Ptr.BaseName),
                  A->Ptr.ByteOffset.hash())
        : locationKey(LV);
  // Constant memory and kernel arguments: no store of the kernel's changes them.
  bool ReadOnly = A && (A->Ptr.Space == MemorySpace::Constant ||
                        A->Ptr.Space == MemorySpace::Param);
  Expr V = opaqueValue(LV, Lane, /*Indirect=*/Lane && A.has_value(),
                       ReadOnly ? Address : mixKeys(F.Memory, Address));
  if (A && V.isIndirect())
    LoadAddressOf.try_emplace(V.getSymbol(), A->Ptr.ByteOffset);
  return V;
}

Expr KernelWalker::floatValue(const clang::Expr *E, const Frame &F) {
  // Floating-point values are not modelled, only where they come from:
  // memory at lane-dependent addresses (data), the lane, or neither.
  bool Lane = false, Indirect = false;
  std::function<void(const clang::Expr *)> Visit = [&](const clang::Expr *X) {
    X = X->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(X)) {
      const clang::Expr *Sub = CE->getSubExpr();
      if (CE->getCastKind() == CK_IntegralToFloating ||
          (CE->getCastKind() == CK_LValueToRValue &&
           Sub->getType()->isIntegralOrEnumerationType())) {
        Expr V = translate(CE->getCastKind() == CK_LValueToRValue ? X : Sub, F);
        Lane |= V.isLaneDependent();
        Indirect |= V.isIndirect();
        return;
      }
      if (CE->getCastKind() == CK_LValueToRValue) {
        if (std::optional<VarValue> Held = heldValue(Sub, F)) {
          if (Held->Int) {
            Lane |= Held->Int->isLaneDependent();
            Indirect |= Held->Int->isIndirect();
          } else {
            Lane = true;
          }
          return;
        }
        if (isMemoryRead(Sub)) {
          Expr V = loadedValue(Sub, F);
          Lane |= V.isLaneDependent();
          Indirect |= V.isIndirect();
          return;
        }
        if (const auto *DRE = dyn_cast<DeclRefExpr>(Sub->IgnoreParens()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            if (VD->hasGlobalStorage() || isa<ParmVarDecl>(VD))
              return; // A kernel parameter or a global: uniform.
        Lane = true;
        return;
      }
    }
    if (isa<FloatingLiteral>(X) || isa<IntegerLiteral>(X))
      return;
    if (const auto *CE = dyn_cast<CallExpr>(X)) {
      if (std::optional<Expr> V = specialValue(CE, F, nullptr)) {
        Lane |= V->isLaneDependent();
        Indirect |= V->isIndirect();
        return;
      }
      if (CE->getNumArgs() == 0)
        Lane = true;
    }
    if (isMemoryRead(X) && X->isGLValue()) {
      Expr V = loadedValue(X, F);
      Lane |= V.isLaneDependent();
      Indirect |= V.isIndirect();
      return;
    }
    for (const Stmt *Child : X->children())
      if (const auto *CX = dyn_cast_or_null<clang::Expr>(Child))
        Visit(CX);
  };
  Visit(E);
  return opaqueValue(E, Lane || Indirect, Indirect);
}

namespace {
/// True when clang's constant evaluator cannot fold \p E, judged from its
/// syntax: it needs the value of a parameter, of a local that is neither
/// const nor constexpr (C++ does not fold such reads; no frame holds their
/// values), of a CUDA built-in (threadIdx.x) or of a call to a function
/// that is not constexpr, through operators that need every operand. Most
/// index expressions are like that, and asking the evaluator costs ~2,000
/// instructions a node.
bool needsRuntimeValue(const clang::Expr *E) {
  E = E->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    switch (ICE->getCastKind()) {
    case CK_LValueToRValue:
    case CK_IntegralCast:
    case CK_NoOp:
      return needsRuntimeValue(ICE->getSubExpr());
    default:
      return false;
    }
  }
  if (cudaBuiltinSymbol(E))
    return true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return needsRuntimeValue(ASE->getBase()) ||
           needsRuntimeValue(ASE->getIdx());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl>(ME->getMemberDecl()) &&
           needsRuntimeValue(ME->getBase());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    switch (UO->getOpcode()) {
    case UO_Deref:
    case UO_Minus:
    case UO_Plus:
    case UO_Not:
      return needsRuntimeValue(UO->getSubExpr());
    default:
      return false;
    }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return !FD->isConstexpr() && FD->getBuiltinID() == 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    if (isa<ParmVarDecl>(VD))
      return true;
    return VD->hasLocalStorage() && !VD->isConstexpr() &&
           !VD->getType().isConstQualified() &&
           !VD->getType()->isReferenceType();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAdditiveOp() || BO->isMultiplicativeOp() || BO->isShiftOp() ||
        BO->isBitwiseOp() || BO->isComparisonOp())
      return needsRuntimeValue(BO->getLHS()) ||
             needsRuntimeValue(BO->getRHS());
  return false;
}
} // namespace

bool KernelWalker::mayBeNegative(const Expr &X) {
  if (X.isConstant())
    return X.getConstant() < 0;
  // Only a value whose sign the thread index alone decides (`threadIdx.x -
  // 16`, `(threadIdx.x & 31) - 4`) is taken to wrap: the lanes it makes
  // "negative" are the ones an unsigned guard leaves out. A value that
  // also depends on sizes or loads (`K - c` under `c < K`, `n_elems - 1`)
  // keeps the exact comparison, as before: proving it non-negative needs
  // the path, whose conditions are large, and a guard rewritten for a wrap
  // that cannot happen only hides dead code and witnesses from the
  // searches that take guards apart (TransformerEngine's tail stores).
  if (X.anySymbol(
          [](const Symbol &S) { return S.Kind != SymbolKind::ThreadIdx; }) ||
      X.distinctNodes(MaxValueNodes) >= MaxValueNodes)
    return false;
  Expr Negative = Expr::lt(X, Expr::constant(0));
  for (const Expr &C : ArmConditions)
    Negative = Expr::logicalAnd(C, Negative);
  return !Facts.neverNegative(X, Negative, MaxSplits);
}

std::optional<Expr> KernelWalker::combineValues(BinaryOperatorKind Op,
                                                const Expr &L, const Expr &R,
                                                const clang::Expr *Site) {
  if (BinaryOperator::isCompoundAssignmentOp(Op))
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  std::optional<Combine> C;
  switch (Op) {
  case BO_Add:
    C = Combine::Add;
    break;
  case BO_Mul:
    C = Combine::Mul;
    break;
  case BO_And:
    C = Combine::And;
    break;
  case BO_Or:
    C = Combine::Or;
    break;
  case BO_Xor:
    C = Combine::Xor;
    break;
  default:
    break;
  }
  if (C)
    if (std::optional<Expr> W = Exchanges.combine(
            *C, L, R, [&] { return sourceText(Ctx, Site->getSourceRange()); }))
      return W;
  if (unsigned Bits = unsignedOperationBits(Ctx, Site)) {
    bool Relational = BinaryOperator::isRelationalOp(Op);
    if (Relational || Op == BO_Div || Op == BO_Rem || Op == BO_Shr) {
      bool LNeg = mayBeNegative(L);
      bool RNeg = Relational && mayBeNegative(R);
      if (std::optional<Expr> U = unsignedOperation(Op, L, R, Bits, LNeg, RNeg))
        return U;
    }
  }
  return applyBinaryOperator(Op, L, R);
}

std::optional<std::string> KernelWalker::callName(llvm::StringRef Name,
                                                  const clang::Expr *Ret,
                                                  const CallExpr *CE) const {
  if (Name != sourceText(Ctx, Ret->IgnoreParenImpCasts()->getSourceRange()))
    return std::nullopt;
  return sourceText(Ctx, CE->getSourceRange());
}

Expr KernelWalker::namedAfterCall(const Expr &Value, const clang::Expr *Ret,
                                  const CallExpr *CE) {
  // A value read where an accessor's return reads it (`c[index]` of Warp's
  // vec_t::operator[]) is named after the call (`shape[1]`): the notes and
  // assumed values speak of what the user wrote. The same read, the same
  // version: only the name differs.
  const clang::Expr *Read = Ret->IgnoreParenImpCasts();
  const auto *Deref = dyn_cast<UnaryOperator>(Read);
  if (Value.getKind() != Expr::Kind::Symbol ||
      !(isa<ArraySubscriptExpr>(Read) || isa<MemberExpr>(Read) ||
        (Deref && Deref->getOpcode() == UO_Deref)))
    return Value; // Not a read (a shuffle's value keeps its identity).
  Symbol S = Value.getSymbol();
  std::optional<std::string> Name = callName(S.Name, Ret, CE);
  if (!Name)
    return Value;
  Symbol Named = S;
  Named.Name = std::move(*Name);
  // What is known of the read goes with the new name, in its reason too
  // (`'k[1]' is read back from ...`, not the accessor's `'__elems_[__n]'`).
  if (auto It = OpaqueReasons.find(S); It != OpaqueReasons.end()) {
    std::string Why = It->second;
    std::string Quoted = fmt::format("'{}'", S.Name);
    if (size_t At = Why.find(Quoted); At != std::string::npos)
      Why.replace(At, Quoted.size(), fmt::format("'{}'", Named.Name));
    OpaqueReasons.try_emplace(Named, std::move(Why));
  }
  if (auto It = LoadAddressOf.find(S); It != LoadAddressOf.end())
    LoadAddressOf.try_emplace(Named, It->second);
  return symbol(Named);
}

std::optional<int64_t> KernelWalker::constantValue(const clang::Expr *E) {
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return llvm::APSInt(IL->getValue(),
                        IL->getType()->isUnsignedIntegerOrEnumerationType())
        .getExtValue();
  // An enumerator or a static constant named through an object
  // (`sah.numBins` of cuBQL's builders, sah a reference parameter): the
  // evaluator would need the object, whose value does not matter.
  if (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts())) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(ME->getMemberDecl()))
      return EC->getInitVal().getExtValue();
    const VarDecl *Def = nullptr;
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl());
        VD && VD->isStaticDataMember() && VD->getType().isConstQualified())
      if (const clang::Expr *Init = VD->getAnyInitializer(Def);
          Init && !Init->isValueDependent())
        if (const APValue *V = Def->evaluateValue(); V && V->isInt())
          return V->getInt().getExtValue();
  }
  auto [It, New] = Memo.Constants.try_emplace(E);
  if (New && !E->isValueDependent() && !E->isTypeDependent() &&
      !needsRuntimeValue(E)) {
    clang::Expr::EvalResult R;
    if (E->EvaluateAsInt(R, Ctx))
      It->second = R.Val.getInt().getExtValue();
  }
  return It->second;
}

std::optional<Expr> KernelWalker::referencedConstant(QualType T,
                                                     const clang::Expr *Arg) {
  if (!T->isReferenceType() || !T.getNonReferenceType().isConstQualified() ||
      !T.getNonReferenceType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (std::optional<int64_t> C = constantValue(Arg))
    return Expr::constant(*C);
  return std::nullopt;
}

std::optional<Expr> KernelWalker::pointerIsNonNull(const clang::Expr *Ptr,
                                                   const Frame &F) {
  // `if (ids_dst)`, `p != nullptr`: whether the pointer is null. A kernel's
  // pointer argument is its parameter's value, the same in every lane;
  // another pointer into one allocation, the same in every lane, is null or
  // not for the whole warp (a uniform unknown). `--param ids_dst=0` takes
  // the other path.
  const clang::Expr *P = Ptr->IgnoreParenImpCasts();
  // A pointer set to nullptr (or to nothing) and not assigned since: null.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(P))
    if (const VarValue *Slot = nameValue(DRE->getDecl(), F).slot();
        Slot && Slot->Uninitialized && !Slot->Pointer)
      return Expr::constant(0);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(P))
    if (isKernelParameter(DRE->getDecl()) && F.IsKernel)
      return Expr::ne(symbol(Symbol::param(DRE->getDecl()->getNameAsString())),
                      Expr::constant(0));
  if (std::optional<PointerValue> V = resolvePointer(Ptr, F, nullptr);
      V && !V->GlobalWhere && !V->ByteOffset.isLaneDependent())
    return Expr::ne(symbol({SymbolKind::UniformValue, V->BaseName}),
                    Expr::constant(0));
  return std::nullopt;
}

Expr KernelWalker::translate(const clang::Expr *E, const Frame &F,
                             LaneOriginInfo *Origin) {
  E = E->IgnoreParens();
  // A scalar's brace initializer (`size_t const row{blockIdx.y * 32 + r};`,
  // `int n{}`): its one value, or zero.
  if (const auto *ILE = dyn_cast<InitListExpr>(E);
      ILE && ILE->getType()->isScalarType() && ILE->getNumInits() <= 1)
    return ILE->getNumInits() ? translate(ILE->getInit(0), F, Origin)
                              : Expr::constant(0);

  // Constants first: literals, enumerators, constexpr, sizeof, warpSize.
  if (std::optional<int64_t> C = constantValue(E))
    return Expr::constant(*C);

  if (std::optional<Symbol> S = cudaBuiltinSymbol(E))
    return symbol(*S);

  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    const clang::Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      // A field of an object held by value (s.n, this->stride).
      if (!isa<DeclRefExpr>(Sub->IgnoreParens()))
        if (std::optional<VarValue> Held = heldValue(Sub, F))
          if (Held->Int)
            return *Held->Int;
      if (std::optional<Expr> Element = constantArrayElement(Sub, F))
        return *Element;
      if (isMemoryRead(Sub))
        return loadedValue(Sub, F);
      return translate(Sub, F, Origin);
    case CK_FloatingToIntegral:
      return floatValue(Sub, F);
    case CK_PointerToIntegral:
      // The address as a number (`reinterpret_cast<size_t>(ptr) % 16` of
      // alignment checks): an allocation's start is aligned like
      // cudaMalloc's (256 bytes), so it is 256 * (a uniform unknown) plus
      // the byte offset, and the check folds.
      if (std::optional<PointerValue> P = resolvePointer(Sub, F, Origin);
          P && P->Space == MemorySpace::Global && !P->ByteOffset.isIndirect())
        return Expr::constant(256) *
                   symbol({SymbolKind::UniformValue,
                           "address of " + P->BaseName + " / 256"}) +
               P->ByteOffset;
      break;
    case CK_PointerToBoolean:
      if (std::optional<Expr> NonNull = pointerIsNonNull(Sub, F))
        return *NonNull;
      break;
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_IntegralToBoolean:
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
      if (CE->getCastKind() == CK_IntegralToBoolean)
        return Expr::ne(translate(Sub, F, Origin), Expr::constant(0));
      if (CE->getCastKind() == CK_IntegralCast)
        return convertInteger(Ctx, translate(Sub, F, Origin), Sub->getType(),
                              CE->getType());
      return translate(Sub, F, Origin);
    default:
      break;
    }
  }

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DRE->getDecl();
    NameValue N = nameValue(D, F);
    if (N.Held && N.Held->Int) {
      const std::shared_ptr<const LaneOriginInfo> &From = N.Held->Origin;
      // A value opaque in every lane (a loop's result) names no thread
      // index: the lanes differ through another name, if at all.
      if (Origin && From && From->Loc.isValid() && Origin->Loc.isInvalid() &&
          N.Held->Int->anySymbol([](const Symbol &S) {
            return S.isLaneDependent() && S.Kind != SymbolKind::LaneValue;
          })) {
        *Origin = *From;
        if (Origin->Symbols.empty())
          for (const Symbol &S : N.Held->Int->symbols())
            if (S.Kind == SymbolKind::ThreadIdx)
              Origin->Symbols.push_back(S.Name);
      }
      return *N.Held->Int;
    }
    // A reference bound to memory (`const int &x` of `mkP(p[i])`, a
    // forwarding `args_t &&args` of make_tuple), not to a slot of the state:
    // its value is what that memory holds.
    if (N.K == NameValue::Kind::Memory && N.Held->Pointer)
      return loadedValue(DRE, F);
    if (std::optional<Expr> Fixed = launchValue(D, F).Int)
      return *Fixed;
    return opaqueValue(E, /*LaneDependent=*/true);
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return translate(BO->getRHS(), F, Origin);
    if (BO->isAssignmentOp())
      return translate(BO->getLHS(), F, Origin);
    if (BO->getOpcode() == BO_Shr)
      if (std::optional<Expr> Quotient = fastDivision(BO, F, Origin))
        return *Quotient;
    // `p != nullptr`, `p == NULL`: as `if (p)`.
    if (BO->isEqualityOp() && BO->getLHS()->getType()->isPointerType())
      for (auto [Ptr, Null] : {std::pair{BO->getLHS(), BO->getRHS()},
                               std::pair{BO->getRHS(), BO->getLHS()}})
        if (Null->isNullPointerConstant(
                Ctx, clang::Expr::NPC_ValueDependentIsNotNull))
          if (std::optional<Expr> NonNull = pointerIsNonNull(Ptr, F))
            return BO->getOpcode() == BO_NE ? *NonNull
                                            : Expr::logicalNot(*NonNull);
    if (BO->getOpcode() == BO_Sub &&
        BO->getLHS()->getType()->isPointerType() &&
        BO->getRHS()->getType()->isPointerType())
      if (std::optional<Expr> D = pointerDistance(BO, F, Origin))
        return *D;
    Expr L = translate(BO->getLHS(), F, Origin);
    Expr R =
        BO->isLogicalOp()
            ? underArm(BO->getOpcode() == BO_LAnd ? L : Expr::logicalNot(L),
                       [&] { return translate(BO->getRHS(), F, Origin); })
            : translate(BO->getRHS(), F, Origin);
    if (std::optional<Expr> V = combineValues(BO->getOpcode(), L, R, BO))
      return *V;
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_Minus: return -translate(UO->getSubExpr(), F, Origin);
    case UO_Plus: return translate(UO->getSubExpr(), F, Origin);
    case UO_Not: // ~x == -x - 1
      return -translate(UO->getSubExpr(), F, Origin) - Expr::constant(1);
    case UO_LNot: return Expr::logicalNot(translate(UO->getSubExpr(), F, Origin));
    // The walker applies the side effect after the access that uses the
    // value is recorded: ++i is the old value plus one, i++ the old value.
    case UO_PreInc:
      return translate(UO->getSubExpr(), F, Origin) + Expr::constant(1);
    case UO_PreDec:
      return translate(UO->getSubExpr(), F, Origin) - Expr::constant(1);
    case UO_PostInc:
    case UO_PostDec:
      return translate(UO->getSubExpr(), F, Origin);
    case UO_Deref: {
      return loadedValue(UO, F);
    }
    default: break;
    }
  }

  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    // Each arm under its condition (what unsigned operations in it may
    // take as known, mayBeNegative()).
    Expr C = translate(CO->getCond(), F, Origin);
    Expr T =
        underArm(C, [&] { return translate(CO->getTrueExpr(), F, Origin); });
    Expr E2 = underArm(Expr::logicalNot(C), [&] {
      return translate(CO->getFalseExpr(), F, Origin);
    });
    return Expr::select(C, T, E2);
  }

  if (const auto *CE = dyn_cast<CallExpr>(E))
    return translateCall(CE, F, Origin);

  if (isMemoryRead(E)) {
    // A slot named as an lvalue: an operand of `c ? this->a : this->b`,
    // which is an lvalue as a whole (the read applies to the select).
    if (E->isGLValue())
      if (std::optional<VarValue> Held = heldValue(E, F))
        if (Held->Int)
          return *Held->Int;
    return loadedValue(E, F);
  }

  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
    return translate(MTE->getSubExpr(), F, Origin);
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return translate(EWC->getSubExpr(), F, Origin);

  // Anything else (floating point, unknown calls, shuffles): conservatively
  // lane-dependent, so no prediction is made from it.
  return opaqueValue(E, /*LaneDependent=*/true);
}

std::optional<Expr> KernelWalker::pointerDistance(const BinaryOperator *BO,
                                                  const Frame &F,
                                                  LaneOriginInfo *Origin) {
  unsigned Size = sizeOf(BO->getLHS()->getType()->getPointeeType());
  std::optional<PointerValue> L = resolvePointer(BO->getLHS(), F, Origin);
  std::optional<PointerValue> R = resolvePointer(BO->getRHS(), F, Origin);
  if (!Size || !L || !R)
    return std::nullopt;
  Expr Bytes = L->ByteOffset - R->ByteOffset;
  // Two pointers into one allocation: the elements between them.
  if (L->BaseName == R->BaseName && L->Space == R->Space)
    return Expr::div(Bytes, Expr::constant(Size));
  // Into two (moderngpu's `b - a - a_count` to gather from either of two
  // arrays): the distance between the allocations, one uniform value per
  // pair, plus that between the offsets.
  if (L->BaseName.empty() || R->BaseName.empty())
    return std::nullopt;
  Expr Bases =
      symbol({SymbolKind::UniformValue, L->BaseName + " - " + R->BaseName});
  return Bases + Expr::div(Bytes, Expr::constant(Size));
}

Expr KernelWalker::translateCall(const CallExpr *CE, const Frame &F,
                                 LaneOriginInfo *Origin) {
  CudaFunction Fn = cudaFunction(CE);
  unsigned N = CE->getNumArgs();
  auto Arg = [&](unsigned I) { return translate(CE->getArg(I), F, Origin); };

  bool IsMin = Fn.is(CudaRole::IntMin), IsMax = Fn.is(CudaRole::IntMax);
  if ((IsMin || IsMax) && N == 2 && CE->getType()->isIntegerType()) {
    Expr A = Arg(0), B = Arg(1);
    if (std::optional<Expr> W =
            Exchanges.combine(IsMin ? Combine::Min : Combine::Max, A, B, [&] {
              return sourceText(Ctx, CE->getSourceRange());
            }))
      return *W;
    return IsMin ? Expr::min(A, B) : Expr::max(A, B);
  }
  if (Fn.is(CudaRole::Mul24) && N == 2)
    return Arg(0) * Arg(1);
  if (Fn.is(CudaRole::IntAbs) && N == 1 && CE->getType()->isIntegerType()) {
    Expr X = Arg(0);
    return Expr::max(X, -X);
  }

  if (std::optional<Expr> V = specialValue(CE, F, Origin))
    return *V;
  // std::move(x), std::forward<T>(x): the value of x.
  if (const clang::Expr *Same = identityCallArgument(CE))
    return translate(Same, F, Origin);

  if (std::optional<VarValue> Element = tupleElement(CE, F);
      Element && Element->Int)
    return *Element->Int;
  // `__device__ int idx2d(int r, int c, int w) { return r*w+c; }` is
  // substituted; a longer function gives what its inlined walk returned.
  Frame Callee;
  if (const clang::Expr *Ret = singleReturn(CE, F, Callee, Origin))
    return namedAfterCall(translate(Ret, Callee, Origin), Ret, CE);
  if (const VarValue *R = returnedBy(CE, F); R && R->Int)
    return *R->Int;

  // Unknown call: uniform when every argument is, else lane-dependent, and
  // data when an argument is (cub's bitfield_extract of a loaded key).
  bool Lane = false, Indirect = false;
  for (unsigned I = 0; I < N; ++I) {
    Expr A = Arg(I);
    Lane |= A.isLaneDependent();
    Indirect |= A.isIndirect();
  }
  if (N == 0)
    Lane = true; // e.g. __laneid(), clock(): assume it varies per lane.
  return opaqueValue(CE, Lane, Indirect);
}

} // namespace frontend
} // namespace coalesce
