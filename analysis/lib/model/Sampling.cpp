//===- Sampling.cpp - Which values of varying symbols to average over -----===//
//
// A varying symbol V (blockIdx, a loop iteration) with constant byte
// coefficient C shifts every lane's address by C*V. Sector counts only depend
// on that shift modulo 32, which repeats with period 32 / gcd(C mod 32, 32),
// so averaging over V = 0..P-1 is exact. Non-linear uses and symbols in the
// predicate get NonLinearPeriod values, except a loop iteration whose trip
// count the predicate bounds (`for (k = 0; k < 32; ++k) if (lane < k)`):
// every iteration is sampled, which is exact whatever the address does. A
// loop whose bound depends on the lane or on another varying symbol (a
// triangular loop) is walked over its whole range instead (RangedLoop).
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>

namespace coalesce {
namespace predictor {

namespace {
/// The product of \p Periods, saturated instead of wrapping: many varying
/// symbols must still compare above the cap, so that it is applied.
uint64_t product(const std::vector<unsigned> &Periods) {
  uint64_t N = 1;
  for (unsigned P : Periods)
    N = P && N > UINT64_MAX / P ? UINT64_MAX : N * P;
  return N;
}
} // namespace

uint64_t SamplingPlan::size() const { return product(Periods); }

uint64_t SamplingPlan::distinctSize() const {
  return Distinct.empty() ? size() : product(Distinct);
}

unsigned periodForCoefficient(int64_t CoeffGcd) {
  int64_t Residue = std::llabs(CoeffGcd % int64_t(SectorBytes));
  // gcd(0, 32) == 32: a multiple of 32 never changes the alignment.
  return SectorBytes / std::gcd<int64_t, int64_t>(Residue, SectorBytes);
}

unsigned periodOfCoefficient(const std::optional<Expr> &Coeff) {
  if (!Coeff)
    return NonLinearPeriod;
  if (std::optional<int64_t> C = Coeff->asConstant())
    return periodForCoefficient(*C);
  // A polynomial coefficient (k*threadIdx.x): every value is a multiple of
  // the gcd of its terms, which bounds the period the same way.
  return periodForCoefficient(Coeff->coefficientGcd());
}

AddressStep stepOfCoefficient(const std::optional<Expr> &Coeff) {
  AddressStep Step;
  Step.Period = periodOfCoefficient(Coeff);
  Step.WarpUniform = Coeff && !Coeff->isLaneDependent();
  return Step;
}

PeriodMap addressPeriods(const Expr &Address) {
  PeriodMap Periods;
  for (const Symbol &S : Address.symbols())
    if (S.isVarying())
      Periods[S] = stepOfCoefficient(Address.linearCoefficient(S));
  return Periods;
}

Expr comparisonDifference(const Expr &Comparison) {
  return Expr::sub(Comparison.operands()[0], Comparison.operands()[1]);
}

void collectConjuncts(const Expr &E, std::vector<Expr> &Out) {
  if (E.getKind() == Expr::Kind::LAnd) {
    for (const Expr &Op : E.operands())
      collectConjuncts(Op, Out);
    return;
  }
  Out.push_back(E);
}

namespace {

/// Floor of \p A / \p B for B > 0.
template <typename Int> Int floorDiv(Int A, Int B) {
  Int Q = A / B;
  return Q * B > A ? Q - 1 : Q;
}

/// narrowRange() in \p Int, wide enough for AtZero and B.Slope plus one.
template <typename Int>
void narrowRangeIn(const RangedLoop::Bound &B, int64_t AtZero, int64_t &Lo,
                   int64_t &Hi) {
  // AtZero + Slope*k < 0 (<= 0 when not strict).
  Int D = AtZero, A = B.Slope;
  Int NewLo = Lo, NewHi = Hi;
  if (A > 0)
    NewHi = B.Strict ? floorDiv<Int>(-D + A - 1, A) : floorDiv<Int>(-D, A) + 1;
  else
    NewLo = B.Strict ? floorDiv<Int>(D, -A) + 1 : floorDiv<Int>(D - A - 1, -A);
  Lo = int64_t(std::max<Int>(Lo, std::min<Int>(NewLo, Hi)));
  Hi = int64_t(std::min<Int>(Hi, std::max<Int>(NewHi, Lo)));
}

/// The conjuncts of a predicate that mention symbol S: those on S alone,
/// and whether another mentions something else too.
struct OwnBounds {
  OwnBounds(const Symbol &S, const Expr &Active) : S(S) {
    std::vector<Expr> Conjuncts;
    collectConjuncts(Active, Conjuncts);
    for (const Expr &C : Conjuncts) {
      std::set<Symbol> Syms = C.symbols();
      if (!Syms.count(S))
        continue;
      if (Syms.size() == 1)
        Bounds.push_back(C);
      else
        Coupled = true;
    }
  }
  /// Every one of Bounds holds at S = \p V.
  bool holdAt(int64_t V) const {
    Bindings B;
    B.set(S, V);
    for (const Expr &C : Bounds) {
      std::optional<int64_t> Holds = C.evaluate(B);
      if (!Holds || *Holds == 0)
        return false;
    }
    return true;
  }

  Symbol S;
  std::vector<Expr> Bounds;
  bool Coupled = false;
};

/// Comparison \p C (Lt or Le) as a bound on \p S: its A - B is AtZero +
/// Slope * S with a constant, non-zero slope. nullopt otherwise.
std::optional<RangedLoop::Bound> linearBound(const Expr &C, const Symbol &S) {
  bool Strict = C.getKind() == Expr::Kind::Lt;
  if (!Strict && C.getKind() != Expr::Kind::Le)
    return std::nullopt;
  Expr Difference = comparisonDifference(C);
  std::optional<Expr> Slope = Difference.linearCoefficient(S);
  std::optional<int64_t> Constant = Slope ? Slope->asConstant() : std::nullopt;
  if (!Constant || *Constant == 0)
    return std::nullopt;
  RangedLoop::Bound B;
  B.AtZero = Difference.substitute({{S, Expr::constant(0)}});
  B.Slope = *Constant;
  B.Strict = Strict;
  return B;
}

} // namespace

std::optional<unsigned> tripCount(const Symbol &S, const Expr &Active,
                                  unsigned Cap) {
  OwnBounds Own(S, Active);
  const std::vector<Expr> &Bounds = Own.Bounds;
  if (Bounds.empty())
    return std::nullopt;
  auto Holds = [&](int64_t T) { return Own.holdAt(T); };
  // The values a linear upper bound (`j < 13`) rules out fail it: the
  // search starts below them, in [0, End).
  int64_t Start = 0, End = int64_t(Cap) + 1;
  for (const Expr &C : Bounds)
    if (std::optional<RangedLoop::Bound> B = linearBound(C, S))
      if (std::optional<int64_t> AtZero = B->AtZero.asConstant();
          AtZero && B->Slope > 0)
        narrowRange(*B, *AtZero, Start, End);
  // Still running at the cap: too long to sample every iteration.
  if (End > int64_t(Cap) && Holds(Cap))
    return std::nullopt;
  for (int64_t T = std::min(End, int64_t(Cap)) - 1; T >= 0; --T)
    if (Holds(T))
      return unsigned(T + 1);
  return std::nullopt; // Never runs: let the simulation say so.
}

namespace {

/// Every conjunct of \p Active that mentions \p S mentions nothing else
/// (and no lane), and all of them hold for S = 0 .. NonLinearPeriod - 1.
bool holdsFromStart(const Symbol &S, const Expr &Active) {
  OwnBounds Own(S, Active);
  if (Own.Coupled)
    return false;
  for (unsigned V = 0; V < NonLinearPeriod; ++V)
    if (!Own.holdAt(V))
      return false;
  return true;
}

/// The conjuncts of \p Active on loop iteration \p S as a RangedLoop, when
/// every one is a comparison monotone in S, one bounds it from above and one
/// depends on something else (the lane, another varying symbol): its trip
/// count is not one number. nullopt otherwise.
std::optional<RangedLoop> rangedLoop(const Symbol &S, const Expr &Active,
                                     const AddressStep &Step) {
  if (!Step.WarpUniform)
    return std::nullopt; // Per-lane steps do not repeat with the period.
  std::vector<Expr> Conjuncts;
  collectConjuncts(Active, Conjuncts);
  RangedLoop R;
  R.Iter = S;
  R.Period = Step.Period;
  bool Upper = false, Coupled = false;
  for (const Expr &C : Conjuncts) {
    std::set<Symbol> Syms = C.symbols();
    if (!Syms.count(S))
      continue;
    std::optional<RangedLoop::Bound> B = linearBound(C, S);
    if (!B)
      return std::nullopt;
    Upper |= B->Slope > 0;
    Coupled |= Syms.size() > 1;
    R.Bounds.push_back(std::move(*B));
  }
  if (!Upper || !Coupled)
    return std::nullopt;
  return R;
}

} // namespace

void narrowRange(const RangedLoop::Bound &B, int64_t AtZero, int64_t &Lo,
                 int64_t &Hi) {
  // 128-bit division is a library call: most bounds fit in 64 bits with
  // room for the sums of two operands.
  constexpr int64_t Small = int64_t(1) << 61;
  if (AtZero > -Small && AtZero < Small && B.Slope > -Small && B.Slope < Small)
    narrowRangeIn<int64_t>(B, AtZero, Lo, Hi);
  else
    narrowRangeIn<__int128>(B, AtZero, Lo, Hi);
}

SamplingPlan planSamples(const Expr &Address, const Expr &Active,
                         unsigned MaxSamples, const ValueMap &Grid) {
  return planSamples(addressPeriods(Address), Active, MaxSamples, Grid);
}

SamplingPlan planSamples(const PeriodMap &AddressPeriods, const Expr &Active,
                         unsigned MaxSamples, const ValueMap &Grid) {
  std::set<Symbol> InActive = Active.symbols();
  std::set<Symbol> Varying;
  for (const auto &Entry : AddressPeriods)
    Varying.insert(Entry.first);
  for (const Symbol &S : InActive)
    if (S.isVarying())
      Varying.insert(S);

  SamplingPlan Plan;
  // Symbols whose values repeat with a period below their samples'.
  std::vector<std::pair<size_t, unsigned>> Alike;
  for (const Symbol &S : Varying) {
    auto InAddress = AddressPeriods.find(S);
    AddressStep Step;
    if (InAddress != AddressPeriods.end())
      Step = InAddress->second;
    else
      Step.WarpUniform = true; // Not in the address: it never moves.
    unsigned P = Step.Period;
    if (InActive.count(S)) {
      std::optional<unsigned> Trips;
      if (S.Kind == SymbolKind::LoopIter)
        Trips = tripCount(S, Active, std::max(MaxSamples, 1u));
      if (!Trips && !Plan.Ranged && S.Kind == SymbolKind::LoopIter)
        if ((Plan.Ranged = rangedLoop(S, Active, Step)))
          continue;
      P = Trips ? *Trips : std::max(P, NonLinearPeriod);
      // A bound its first NonLinearPeriod values all pass (`l < n_layers`)
      // leaves them alike but for the address: the address's period of
      // them tells them apart.
      if (!Trips && Step.WarpUniform && Step.Period < P &&
          holdsFromStart(S, Active))
        Alike.push_back({Plan.Symbols.size(), Step.Period});
    }
    Plan.Symbols.push_back(S);
    Plan.Periods.push_back(P);
  }

  uint64_t Cap = std::max(MaxSamples, 1u);
  if (Plan.Ranged) {
    Cap = std::max<uint64_t>(1, Cap / Plan.Ranged->Period);
    std::set<Symbol> InBounds;
    for (const RangedLoop::Bound &B : Plan.Ranged->Bounds)
      for (const Symbol &S : B.AtZero.symbols())
        InBounds.insert(S);
    for (size_t I = 0; I < Plan.Symbols.size(); ++I) {
      const Symbol &S = Plan.Symbols[I];
      if (S.Kind != SymbolKind::BlockIdx || !InBounds.count(S))
        continue;
      auto Blocks = Grid.find(Symbol::gridDim(unsigned(S.dimension())));
      if (Blocks != Grid.end() && Blocks->second > 0)
        Plan.Periods[I] = unsigned(std::min<int64_t>(Blocks->second, Cap));
    }
  }
  while (Plan.size() > Cap) {
    auto Largest = std::max_element(Plan.Periods.begin(), Plan.Periods.end());
    *Largest = std::max(1u, *Largest / 2);
  }
  // Both powers of two: the period divides what is left of the samples.
  Plan.Distinct = Plan.Periods;
  for (auto [I, Period] : Alike)
    Plan.Distinct[I] = std::min(Plan.Distinct[I], Period);
  return Plan;
}

} // namespace predictor
} // namespace coalesce
