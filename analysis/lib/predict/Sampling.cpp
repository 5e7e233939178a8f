//===- Sampling.cpp - Which values of varying symbols to average over -----===//
//
// A varying symbol V (blockIdx, a loop iteration) with constant byte
// coefficient C shifts every lane's address by C*V. Sector counts only depend
// on that shift modulo 32, which repeats with period 32 / gcd(C mod 32, 32),
// so averaging over V = 0..P-1 is exact. Non-linear uses and symbols in the
// predicate get NonLinearPeriod values, except a loop iteration whose trip
// count the predicate bounds (`for (k = 0; k < 32; ++k) if (lane < k)`):
// every iteration is sampled, which is exact whatever the address does.
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>

namespace coalesce {
namespace predictor {

uint64_t SamplingPlan::size() const {
  // Saturates instead of wrapping: many varying symbols must still compare
  // above the cap, so that it is applied.
  uint64_t N = 1;
  for (unsigned P : Periods)
    N = P && N > UINT64_MAX / P ? UINT64_MAX : N * P;
  return N;
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

PeriodMap addressPeriods(const Expr &Address) {
  PeriodMap Periods;
  for (const Symbol &S : Address.symbols())
    if (S.isVarying())
      Periods[S] = periodOfCoefficient(Address.linearCoefficient(S));
  return Periods;
}

void collectConjuncts(const Expr &E, std::vector<Expr> &Out) {
  if (E.getKind() == Expr::Kind::LAnd) {
    for (const Expr &Op : E.operands())
      collectConjuncts(Op, Out);
    return;
  }
  Out.push_back(E);
}

std::optional<unsigned> tripCount(const Symbol &S, const Expr &Active,
                                  unsigned Cap) {
  std::vector<Expr> Conjuncts, Bounds;
  collectConjuncts(Active, Conjuncts);
  for (const Expr &C : Conjuncts) {
    std::set<Symbol> Syms = C.symbols();
    if (Syms.size() == 1 && *Syms.begin() == S)
      Bounds.push_back(C);
  }
  if (Bounds.empty())
    return std::nullopt;
  auto Holds = [&](int64_t T) {
    Bindings B;
    B.set(S, T);
    for (const Expr &C : Bounds) {
      std::optional<int64_t> V = C.evaluate(B);
      if (!V || *V == 0)
        return false;
    }
    return true;
  };
  // Still running at the cap: too long to sample every iteration.
  if (Holds(Cap))
    return std::nullopt;
  for (int64_t T = int64_t(Cap) - 1; T >= 0; --T)
    if (Holds(T))
      return unsigned(T + 1);
  return std::nullopt; // Never runs: let the simulation say so.
}

SamplingPlan planSamples(const Expr &Address, const Expr &Active,
                         unsigned MaxSamples) {
  return planSamples(addressPeriods(Address), Active, MaxSamples);
}

SamplingPlan planSamples(const PeriodMap &AddressPeriods, const Expr &Active,
                         unsigned MaxSamples) {
  std::set<Symbol> InActive = Active.symbols();
  std::set<Symbol> Varying;
  for (const auto &Entry : AddressPeriods)
    Varying.insert(Entry.first);
  for (const Symbol &S : InActive)
    if (S.isVarying())
      Varying.insert(S);

  SamplingPlan Plan;
  for (const Symbol &S : Varying) {
    auto InAddress = AddressPeriods.find(S);
    unsigned P = InAddress != AddressPeriods.end() ? InAddress->second : 1;
    if (InActive.count(S)) {
      std::optional<unsigned> Trips;
      if (S.Kind == SymbolKind::LoopIter)
        Trips = tripCount(S, Active, std::max(MaxSamples, 1u));
      P = Trips ? *Trips : std::max(P, NonLinearPeriod);
    }
    Plan.Symbols.push_back(S);
    Plan.Periods.push_back(P);
  }

  uint64_t Cap = std::max(MaxSamples, 1u);
  while (Plan.size() > Cap) {
    auto Largest = std::max_element(Plan.Periods.begin(), Plan.Periods.end());
    *Largest = std::max(1u, *Largest / 2);
  }
  return Plan;
}

} // namespace predictor
} // namespace coalesce
