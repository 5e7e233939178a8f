//===- ExprBounds.cpp - Interval bounds of an Expr over symbol ranges -----===//
///
/// \file
/// boundsOf() walks the nodes with saturating __int128 arithmetic on the end
/// points; narrowByCondition() bounds the symbols of linear comparisons (see
/// coalesce/ExprBounds.h).
///
//===----------------------------------------------------------------------===//

#include "coalesce/ExprBounds.h"
#include "coalesce/ExprVisitor.h"

#include <algorithm>
#include <unordered_map>
#include <initializer_list>

namespace coalesce {

namespace {

using K = Expr::Kind;
using Wide = __int128;
constexpr int64_t NegInf = Interval::NegInf;
constexpr int64_t PosInf = Interval::PosInf;

bool isInf(int64_t V) { return V == NegInf || V == PosInf; }

bool isConstantZero(const Expr &E) {
  return E.isConstant() && E.getConstant() == 0;
}

int64_t saturate(Wide V) {
  if (V >= Wide(PosInf))
    return PosInf;
  if (V <= Wide(NegInf))
    return NegInf;
  return int64_t(V);
}

/// Lower end point of a sum: minus infinity wins.
int64_t addLo(int64_t A, int64_t B) {
  if (A == NegInf || B == NegInf)
    return NegInf;
  return saturate(Wide(A) + Wide(B));
}

/// Upper end point of a sum: plus infinity wins.
int64_t addHi(int64_t A, int64_t B) {
  if (A == PosInf || B == PosInf)
    return PosInf;
  return saturate(Wide(A) + Wide(B));
}

int sign(int64_t V) { return V < 0 ? -1 : V > 0 ? 1 : 0; }

int64_t mulPoint(int64_t A, int64_t B) {
  if (A == 0 || B == 0)
    return 0;
  if (isInf(A) || isInf(B))
    return sign(A) * sign(B) > 0 ? PosInf : NegInf;
  return saturate(Wide(A) * Wide(B));
}

Interval hull(std::initializer_list<int64_t> Vs) {
  Interval I{PosInf, NegInf};
  for (int64_t V : Vs) {
    I.Lo = std::min(I.Lo, V);
    I.Hi = std::max(I.Hi, V);
  }
  return I;
}

Interval mul(const Interval &A, const Interval &B) {
  return hull({mulPoint(A.Lo, B.Lo), mulPoint(A.Lo, B.Hi),
               mulPoint(A.Hi, B.Lo), mulPoint(A.Hi, B.Hi)});
}

Interval neg(const Interval &A) {
  auto N = [](int64_t V) {
    return V == NegInf ? PosInf : V == PosInf ? NegInf : -V;
  };
  return {N(A.Hi), N(A.Lo)};
}

/// A / D for a divisor range of one sign that excludes 0 (truncation).
Interval divOneSign(const Interval &A, const Interval &D) {
  if (D.Hi < 0)
    return neg(divOneSign(A, neg(D)));
  // D in [P, Q] with P >= 1: A / d is monotone in A and shrinks toward 0.
  // A divisor end point of PosInf is at most INT64_MAX, which still divides
  // INT64_MIN + 1 into -1 (-(INT64_MIN + 1) is INT64_MAX, i.e. "PosInf").
  auto Div = [](int64_t X, int64_t Y) -> int64_t {
    if (isInf(X))
      return X;
    return X / Y;
  };
  int64_t Lo = A.Lo < 0 ? Div(A.Lo, D.Lo) : Div(A.Lo, D.Hi);
  int64_t Hi = A.Hi > 0 ? Div(A.Hi, D.Lo) : Div(A.Hi, D.Hi);
  return {Lo, Hi};
}

Interval div(const Interval &A, const Interval &D) {
  Interval Out{PosInf, NegInf};
  if (D.Hi >= 1)
    Out = Out.join(divOneSign(A, {std::max<int64_t>(D.Lo, 1), D.Hi}));
  if (D.Lo <= -1)
    Out = Out.join(divOneSign(A, {D.Lo, std::min<int64_t>(D.Hi, -1)}));
  return Out.empty() ? Interval::unbounded() : Out;
}

Interval rem(const Interval &A, const Interval &D) {
  // Either infinity may be either end point ([-inf, -inf] after a
  // saturating product): |INT64_MIN| does not fit.
  auto Abs = [](int64_t V) { return isInf(V) ? PosInf : std::abs(V); };
  int64_t M = std::max(Abs(D.Lo), Abs(D.Hi));
  if (M == 0)
    return Interval::unbounded();
  int64_t Mag = M == PosInf ? PosInf : M - 1;
  if (A.Lo >= 0 && D.Lo > 0 && A.Hi < D.Lo)
    return A; // a % d == a.
  Interval Out{A.Lo >= 0 ? 0 : std::max(A.Lo, -Mag),
               A.Hi <= 0 ? 0 : std::min(A.Hi, Mag)};
  return Out;
}

/// The interval of 2^B for shift amounts in [0, 63].
std::optional<Interval> powersOfTwo(const Interval &B) {
  int64_t Lo = std::max<int64_t>(B.Lo, 0), Hi = std::min<int64_t>(B.Hi, 62);
  if (Lo > 63 || Hi < Lo)
    return std::nullopt;
  return Interval{int64_t(1) << Lo, B.Hi > 62 ? PosInf : int64_t(1) << Hi};
}

Interval shr(const Interval &A, const Interval &B) {
  int64_t Lo = std::max<int64_t>(B.Lo, 0), Hi = std::min<int64_t>(B.Hi, 63);
  if (Hi < Lo)
    return Interval::unbounded();
  auto S = [](int64_t X, int64_t N) { return isInf(X) ? X : X >> N; };
  return hull({S(A.Lo, Lo), S(A.Lo, Hi), S(A.Hi, Lo), S(A.Hi, Hi)});
}

/// [0, 2^k - 1] covering non-negative values up to \p Hi.
Interval bitsUpTo(int64_t Hi) {
  if (Hi == PosInf)
    return {0, PosInf};
  int64_t P = 1;
  while (P <= Hi && P < (int64_t(1) << 62))
    P <<= 1;
  return {0, P > Hi ? P - 1 : PosInf};
}

Interval truthValue(K Kind, const Interval &A, const Interval &B) {
  switch (Kind) {
  case K::Lt:
    if (A.Hi < B.Lo)
      return Interval::point(1);
    if (A.Lo >= B.Hi)
      return Interval::point(0);
    break;
  case K::Le:
    if (A.Hi <= B.Lo)
      return Interval::point(1);
    if (A.Lo > B.Hi)
      return Interval::point(0);
    break;
  case K::Eq:
    if (A.Hi < B.Lo || B.Hi < A.Lo)
      return Interval::point(0);
    break;
  case K::Ne:
    if (A.Hi < B.Lo || B.Hi < A.Lo)
      return Interval::point(1);
    break;
  default:
    break;
  }
  return {0, 1};
}

Interval bounds(const Expr &E, const SymbolRanges &R);

/// How many bounds() of a select are narrowing their condition on this
/// thread, and how many may nest.
thread_local unsigned SelectNarrowing = 0;
constexpr unsigned MaxSelectNarrowing = 1;

Interval binary(K Kind, const Interval &A, const Interval &B) {
  switch (Kind) {
  case K::Div:
    return div(A, B);
  case K::Rem:
    return rem(A, B);
  case K::Shl: {
    std::optional<Interval> P = powersOfTwo(B);
    return P ? mul(A, *P) : Interval::unbounded();
  }
  case K::Shr:
    return shr(A, B);
  case K::And:
    if (A.Lo >= 0 && B.Lo >= 0)
      return {0, std::min(A.Hi, B.Hi)};
    if (A.Lo >= 0)
      return {0, A.Hi};
    if (B.Lo >= 0)
      return {0, B.Hi};
    return Interval::unbounded();
  case K::Or:
  case K::Xor:
    if (A.Lo >= 0 && B.Lo >= 0)
      return bitsUpTo(std::max(A.Hi, B.Hi));
    return Interval::unbounded();
  case K::Min:
    return {std::min(A.Lo, B.Lo), std::min(A.Hi, B.Hi)};
  case K::Max:
    return {std::max(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
  case K::Lt:
  case K::Le:
  case K::Eq:
  case K::Ne:
    return truthValue(Kind, A, B);
  default:
    return {0, 1}; // LAnd, LOr.
  }
}

using BoundsMemo = std::unordered_map<const void *, Interval>;

/// Tree size from which bounds() walks the DAG: each distinct node once
/// (\p Memo), a select's arms joined without narrowing by its condition
/// (sound, less precise), so that a value carried through a loop's samples
/// (a DAG of a few hundred nodes, a tree of quadrillions) costs its DAG.
constexpr size_t SharedBoundsFrom = 4096;

/// The interval of each kind of node, its operands' from \p Of (bounds(),
/// or the memoized walk of a large DAG when \p Memo).
struct BoundsVisitor : ExprVisitor<BoundsVisitor, Interval> {
  const SymbolRanges &R;
  BoundsMemo *Memo;
  BoundsVisitor(const SymbolRanges &R, BoundsMemo *Memo) : R(R), Memo(Memo) {}

  Interval of(const Expr &X);

  Interval visitConstant(const Expr &E) {
    return Interval::point(E.getConstant());
  }
  Interval visitSymbol(const Expr &E) { return R.lookup(E.getSymbol()); }
  Interval visitAdd(const Expr &E) {
    Interval Out = Interval::point(0);
    for (const Expr &Op : E.operands()) {
      Interval I = of(Op);
      Out = {addLo(Out.Lo, I.Lo), addHi(Out.Hi, I.Hi)};
    }
    return Out;
  }
  Interval visitMul(const Expr &E) {
    Interval Out = Interval::point(1);
    for (const Expr &Op : E.operands())
      Out = mul(Out, of(Op));
    return Out;
  }
  Interval visitSelect(const Expr &E) {
    const std::vector<Expr> &Ops = E.operands();
    const Expr &C = Ops[0];
    Interval CI = of(C);
    SymbolRanges T = R, F = R;
    bool TakesT = CI.Lo != 0 || CI.Hi != 0;
    bool TakesF = CI.Lo <= 0 && CI.Hi >= 0;
    // Narrowing by the condition bounds its selects again, each narrowing
    // them once per round and term: past MaxSelectNarrowing nested levels
    // the arms are bounded over R (sound, less precise), else seven chained
    // `i = i < 0 ? i + n : i` took 30 s (found by fuzz-expr).
    if (!Memo && SelectNarrowing < MaxSelectNarrowing) {
      ++SelectNarrowing;
      TakesT = TakesT && narrowByCondition(C, T);
      TakesF = TakesF && narrowByCondition(Expr::logicalNot(C), F);
      --SelectNarrowing;
    }
    Interval Out = {PosInf, NegInf};
    if (TakesT)
      Out = Out.join(Memo ? of(Ops[1]) : bounds(Ops[1], T));
    if (TakesF)
      Out = Out.join(Memo ? of(Ops[2]) : bounds(Ops[2], F));
    if (Out.empty())
      Out = of(Ops[1]).join(of(Ops[2]));
    return Out;
  }
  Interval visitBinary(const Expr &E) {
    const std::vector<Expr> &Ops = E.operands();
    return binary(E.getKind(), of(Ops[0]), of(Ops[1]));
  }
};

/// bounds() of \p E; with \p Memo, of a large DAG.
Interval boundsOfNode(const Expr &E, const SymbolRanges &R, BoundsMemo *Memo) {
  if (Memo)
    if (auto It = Memo->find(E.identity()); It != Memo->end())
      return It->second;
  Interval Out = BoundsVisitor(R, Memo).visit(E);
  if (Memo)
    Memo->emplace(E.identity(), Out);
  return Out;
}

Interval BoundsVisitor::of(const Expr &X) {
  return Memo ? boundsOfNode(X, R, Memo) : bounds(X, R);
}

Interval bounds(const Expr &E, const SymbolRanges &R) {
  if (E.treeSize() < SharedBoundsFrom)
    return boundsOfNode(E, R, nullptr);
  BoundsMemo Memo;
  return boundsOfNode(E, R, &Memo);
}

/// floor(A / B) and ceil(A / B) for B > 0 on wide values.
Wide floorDiv(Wide A, Wide B) { return A >= 0 ? A / B : -((-A + B - 1) / B); }
Wide ceilDiv(Wide A, Wide B) { return A >= 0 ? (A + B - 1) / B : -((-A) / B); }

/// Narrows \p R by D >= C. Returns true when some range changed.
bool narrowAtLeast(const Expr &D, int64_t C, SymbolRanges &R) {
  std::vector<Term> Terms = D.terms();
  std::vector<Interval> TermBounds;
  for (const Term &T : Terms)
    TermBounds.push_back(bounds(Expr::fromTerms({T}), R));
  bool Changed = false;
  for (size_t I = 0; I != Terms.size(); ++I) {
    // Coefficient * (point-valued factors) * one symbol.
    std::optional<Symbol> S;
    Wide Coeff = Terms[I].Coeff;
    bool Linear = true;
    for (const Expr &F : Terms[I].Factors) {
      if (F.getKind() == K::Symbol && !S) {
        Interval FI = R.lookup(F.getSymbol());
        if (!FI.bounded() || FI.Lo != FI.Hi) {
          S = F.getSymbol();
          continue;
        }
      }
      Interval FI = bounds(F, R);
      if (!FI.bounded() || FI.Lo != FI.Hi) {
        Linear = false;
        break;
      }
      Coeff *= FI.Lo;
      if (Coeff > Wide(PosInf) || Coeff < Wide(NegInf)) {
        Linear = false;
        break;
      }
    }
    if (!Linear || !S || Coeff == 0)
      continue;
    // Coeff * s >= C - (the others' upper bound).
    int64_t OthersHi = 0;
    for (size_t J = 0; J != Terms.size(); ++J)
      if (J != I)
        OthersHi = addHi(OthersHi, TermBounds[J].Hi);
    if (OthersHi == PosInf)
      continue;
    Wide Need = Wide(C) - Wide(OthersHi);
    Interval Old = R.lookup(*S), New = Old;
    if (Coeff > 0)
      New.Lo = std::max(Old.Lo, saturate(ceilDiv(Need, Coeff)));
    else
      New.Hi = std::min(Old.Hi, saturate(floorDiv(-Need, -Coeff)));
    if (!(New == Old)) {
      R.set(*S, New);
      Changed = true;
    }
  }
  return Changed;
}

/// One round of narrowing by \p Cond (or its negation when \p Negate).
/// Sets \p Changed; returns false when the condition cannot hold.
bool narrowOnce(const Expr &Cond, bool Negate, SymbolRanges &R, bool &Changed) {
  Interval CI = bounds(Cond, R);
  if (!Negate && CI.Lo == 0 && CI.Hi == 0)
    return false;
  if (Negate && (CI.Lo > 0 || CI.Hi < 0))
    return false;
  K Kind = Cond.getKind();
  const std::vector<Expr> &Ops = Cond.operands();
  // !x is x == 0; x != 0 is x.
  if ((Kind == K::Eq || Kind == K::Ne) && Ops.size() == 2)
    for (int Z = 0; Z != 2; ++Z)
      if (isConstantZero(Ops[Z]) && isBooleanKind(Ops[1 - Z].getKind()))
        return narrowOnce(Ops[1 - Z], Negate != (Kind == K::Eq), R, Changed);
  if ((Kind == K::LAnd && !Negate) || (Kind == K::LOr && Negate)) {
    return narrowOnce(Ops[0], Negate, R, Changed) &&
           narrowOnce(Ops[1], Negate, R, Changed);
  }
  if (Kind == K::LAnd || Kind == K::LOr) {
    SymbolRanges A = R, B = R;
    bool CA = false, CB = false;
    bool OkA = narrowOnce(Ops[0], Negate, A, CA);
    bool OkB = narrowOnce(Ops[1], Negate, B, CB);
    if (!OkA && !OkB)
      return false;
    SymbolRanges Joined = !OkA ? B : !OkB ? A : SymbolRanges();
    if (OkA && OkB)
      for (const auto &[S, IA] : A.ranges())
        if (B.ranges().count(S))
          Joined.set(S, IA.join(B.lookup(S)));
    for (const auto &[S, I] : Joined.ranges())
      if (!(R.lookup(S) == I)) {
        R.set(S, I.meet(R.lookup(S)));
        Changed = true;
      }
    return true;
  }
  if (Ops.size() != 2)
    return true;
  const Expr &A = Ops[0], &B = Ops[1];
  // a < b: b - a >= 1; a <= b: b - a >= 0; negations swap.
  switch (Kind) {
  case K::Lt:
    Changed |= Negate ? narrowAtLeast(A - B, 0, R) : narrowAtLeast(B - A, 1, R);
    break;
  case K::Le:
    Changed |= Negate ? narrowAtLeast(A - B, 1, R) : narrowAtLeast(B - A, 0, R);
    break;
  case K::Eq:
  case K::Ne:
    if (Negate == (Kind == K::Ne)) {
      Changed |= narrowAtLeast(B - A, 0, R);
      Changed |= narrowAtLeast(A - B, 0, R);
    }
    break;
  default:
    break;
  }
  for (const auto &[S, I] : R.ranges())
    if (I.empty())
      return false;
  return true;
}

} // namespace

Interval Interval::join(const Interval &O) const {
  if (empty())
    return O;
  if (O.empty())
    return *this;
  return {std::min(Lo, O.Lo), std::max(Hi, O.Hi)};
}

Interval Interval::meet(const Interval &O) const {
  return {std::max(Lo, O.Lo), std::min(Hi, O.Hi)};
}

std::string Interval::str() const {
  std::string L = Lo == NegInf ? "(-inf" : "[" + std::to_string(Lo);
  std::string H = Hi == PosInf ? "+inf)" : std::to_string(Hi) + "]";
  return L + ", " + H;
}

Interval SymbolRanges::lookup(const Symbol &S) const {
  auto It = Ranges.find(S);
  return It == Ranges.end() ? Interval::unbounded() : It->second;
}

Interval boundsOf(const Expr &E, const SymbolRanges &R) { return bounds(E, R); }

bool narrowByCondition(const Expr &Cond, SymbolRanges &R) {
  for (int Round = 0; Round != 6; ++Round) {
    bool Changed = false;
    if (!narrowOnce(Cond, /*Negate=*/false, R, Changed))
      return false;
    if (!Changed)
      break;
  }
  return true;
}

namespace {

/// The first select, minimum or maximum in \p E (pre-order, at most
/// \p Budget nodes visited), or nullptr.
const Expr *findChoice(const Expr &E, unsigned &Budget) {
  if (Budget == 0 || E.isConstant() || E.getKind() == K::Symbol)
    return nullptr;
  --Budget;
  if (E.getKind() == K::Select || E.getKind() == K::Min ||
      E.getKind() == K::Max)
    return &E;
  for (const Expr &Op : E.operands())
    if (const Expr *Found = findChoice(Op, Budget))
      return Found;
  return nullptr;
}

/// The conjunction \p E negates, `X && Y` of `(X && Y) == 0` (a disjunction
/// of negations: an unsigned `x < n` reads `0 <= x && x < n`), or nullptr.
const Expr *negatedConjunction(const Expr &E) {
  if (E.getKind() != K::Eq)
    return nullptr;
  const std::vector<Expr> &Ops = E.operands();
  for (int I : {0, 1})
    if (Ops[I].getKind() == K::LAnd && isConstantZero(Ops[1 - I]))
      return &Ops[I];
  return nullptr;
}

/// A disjunction among the conjuncts of \p E (with \p Negated, a negated
/// conjunction), or nullptr.
const Expr *findDisjunct(const Expr &E, bool Negated = false) {
  if (Negated ? negatedConjunction(E) != nullptr : E.getKind() == K::LOr)
    return &E;
  if (E.getKind() != K::LAnd)
    return nullptr;
  for (const Expr &Op : E.operands())
    if (const Expr *Found = findDisjunct(Op, Negated))
      return Found;
  return nullptr;
}

/// Cond split on \p Choice into the two cases it stands for.
std::pair<Expr, Expr> splitChoice(const Expr &Cond, const Expr &Choice) {
  const std::vector<Expr> &Ops = Choice.operands();
  Expr Test = Choice.getKind() == K::Select ? Ops[0]
              : Choice.getKind() == K::Min  ? Expr::le(Ops[0], Ops[1])
                                            : Expr::le(Ops[1], Ops[0]);
  Expr First = Choice.getKind() == K::Select ? Ops[1] : Ops[0];
  Expr Second = Choice.getKind() == K::Select ? Ops[2] : Ops[1];
  return {Expr::logicalAnd(Test, Cond.replace(Choice, First)),
          Expr::logicalAnd(Expr::logicalNot(Test),
                           Cond.replace(Choice, Second))};
}

/// The ranges the kinds of \p Cond's symbols allow: thread and block
/// indices and loop iterations at least 0, block and grid sizes at least 1.
SymbolRanges kindRanges(const Expr &Cond) {
  SymbolRanges R;
  for (const Symbol &S : Cond.symbols())
    switch (S.Kind) {
    case SymbolKind::ThreadIdx:
    case SymbolKind::BlockIdx:
    case SymbolKind::LoopIter:
      R.set(S, {0, PosInf});
      break;
    case SymbolKind::BlockDim:
    case SymbolKind::GridDim:
      R.set(S, {1, PosInf});
      break;
    default:
      break;
    }
  return R;
}

/// Whether \p Cond is false for every value its symbols' kinds allow, as
/// narrowing shows; a symbol narrowed to one value is put in and the rest
/// folded and narrowed again (the first iteration of a loop whose
/// condition allows only it: `D2 = 8 + 32 * it` with it = 0 makes
/// `D2 / 4 % 8` a constant).
bool narrowsToNever(const Expr &Cond) {
  SymbolRanges R = kindRanges(Cond);
  if (!narrowByCondition(Cond, R))
    return true;
  std::map<Symbol, Expr> Pinned;
  for (const auto &[S, I] : R.ranges())
    if (I.Lo == I.Hi && !isInf(I.Lo))
      Pinned.emplace(S, Expr::constant(I.Lo));
  if (Pinned.empty())
    return false;
  Expr Bound = Cond.substitute(Pinned);
  if (std::optional<int64_t> C = Bound.asConstant())
    return *C == 0;
  SymbolRanges Again = kindRanges(Bound);
  return !narrowByCondition(Bound, Again);
}

} // namespace

bool neverHolds(const Expr &Cond, unsigned Splits) {
  if (std::optional<int64_t> C = Cond.asConstant())
    return *C == 0;
  if (Splits == 0)
    return narrowsToNever(Cond);
  // Disjunctions first, then choices, then negated conjunctions (an
  // unsigned `x < n` as `0 <= x && x < n` in an else branch): the cases
  // split in the order that shows the most within the depth.
  std::pair<Expr, Expr> Cases;
  unsigned Budget = 256;
  if (const Expr *Or = findDisjunct(Cond)) {
    const std::vector<Expr> &Ops = Or->operands();
    Expr Rest = Expr::constant(0);
    for (size_t I = 1; I < Ops.size(); ++I)
      Rest = Expr::logicalOr(Rest, Ops[I]);
    Cases = {Cond.replace(*Or, Expr::ne(Ops[0], Expr::constant(0))),
             Cond.replace(*Or, Rest)};
  } else if (const Expr *Choice = findChoice(Cond, Budget)) {
    Cases = splitChoice(Cond, *Choice);
  } else if (const Expr *Not = findDisjunct(Cond, /*Negated=*/true)) {
    // !(X && Y && ...): !X, or else !(Y && ...).
    const std::vector<Expr> &Ops = negatedConjunction(*Not)->operands();
    Expr Rest = Expr::constant(1);
    for (size_t I = 1; I < Ops.size(); ++I)
      Rest = Expr::logicalAnd(Rest, Ops[I]);
    Cases = {Cond.replace(*Not, Expr::logicalNot(Ops[0])),
             Cond.replace(*Not, Expr::logicalNot(Rest))};
  } else {
    return narrowsToNever(Cond);
  }
  return neverHolds(Cases.first, Splits - 1) &&
         neverHolds(Cases.second, Splits - 1);
}

bool provablyNonNegative(const Expr &E) {
  if (std::optional<int64_t> C = E.asConstant())
    return *C >= 0;
  SymbolRanges R;
  for (const Symbol &S : E.symbols())
    R.set(S,
          {S.Kind == SymbolKind::BlockDim || S.Kind == SymbolKind::GridDim ? 1
                                                                           : 0,
           PosInf});
  return boundsOf(E, R).Lo >= 0;
}

} // namespace coalesce
