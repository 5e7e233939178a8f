//===- Assumptions.cpp - Values the user did not give, and what they hide -===//
//
// Fixed unknowns (parameters, gridDim, uniform run-time values) get a default
// value. Two probes check what that choice hides: a stride probe for unknowns
// that scale the lanes' addresses ("assuming N >= 8"), and a misalignment
// probe for unknowns that only shift them ("assuming 4*off is a multiple of
// 32 bytes").
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace coalesce {
namespace predictor {
namespace {

/// Largest value the stride probe tries.
constexpr int64_t MaxProbeValue = 64;
/// Sample cap for the stride probe's many evaluations.
constexpr unsigned StrideProbeSamples = 8;

/// True when \p T describes requests that can be compared.
bool usable(const Totals &T) { return !T.AddressUnknown && T.Requests > 0; }

bool sameNumbers(const Totals &A, const Totals &B) {
  return usable(A) && usable(B) &&
         std::fabs(A.sectorsPerRequest() - B.sectorsPerRequest()) < Epsilon &&
         std::fabs(A.idealPerRequest() - B.idealPerRequest()) < Epsilon;
}

/// evaluateWith() for many values of one fixed symbol: the address and the
/// predicate are bound to the other fixed values and compiled once; each
/// value only re-plans the samples and re-runs the lanes.
class SymbolProbe {
public:
  SymbolProbe(const Context &Ctx, const Symbol &S, unsigned MaxSamples)
      : Ctx(Ctx), S(S), MaxSamples(MaxSamples) {
    ValueMap Others = Ctx.Fixed;
    Others.erase(S);
    Address = shiftStarts(bindValues(Ctx.Access->Address, Others), Ctx.Starts);
    Active = shiftStarts(bindValues(Ctx.Active, Others), Ctx.Starts);
    AddressFn.emplace(Address);
    ActiveFn.emplace(Active);
    // The periods only need the varying symbols' coefficients, bound per
    // value: rebinding the whole address for each value would cost more
    // than the lanes. A symbol that occurs non-linearly keeps the
    // non-linear period for every value, the reference's included.
    for (const Symbol &V : Address.symbols())
      if (V.isVarying())
        Coefficients.emplace_back(V, Address.linearCoefficient(V));
  }

  /// The totals with \p S = \p Value.
  Totals at(int64_t Value) {
    Bindings B;
    B.set(S, Value);
    return simulate(*AddressFn, *ActiveFn, B, costModelOf(*Ctx.Access),
                    Ctx.Block, planAt(Value));
  }

  /// The totals for each of \p Values, from one walk per plan, when the
  /// address is linear in S with a coefficient free of S (the same in every
  /// lane or not) and the predicate does not read S: each lane's address
  /// at a value is its address at the first value of the walk plus a
  /// multiple of its step. Values under which the varying symbols' periods
  /// agree share a plan, and a walk. nullopt otherwise.
  std::optional<std::vector<Totals>>
  linearly(const std::vector<int64_t> &Values) {
    if (Values.empty() || Active.symbols().count(S))
      return std::nullopt;
    std::optional<Expr> Step = Address.linearCoefficient(S);
    if (!Step || Step->symbols().count(S))
      return std::nullopt;
    LaneProgram AddressAndStep(std::vector<Expr>{Address, *Step});
    // Values grouped by the periods they give, in order of first use.
    std::vector<std::pair<PeriodMap, std::vector<size_t>>> Groups;
    for (size_t I = 0; I < Values.size(); ++I) {
      PeriodMap P = periodsAt(Values[I]);
      auto G = std::find_if(Groups.begin(), Groups.end(),
                            [&](const auto &X) { return X.first == P; });
      if (G == Groups.end())
        Groups.push_back({std::move(P), {I}});
      else
        G->second.push_back(I);
    }
    std::vector<Totals> Result(Values.size());
    for (const auto &[Periods, Members] : Groups) {
      int64_t From = Values[Members.front()];
      std::vector<int64_t> Offsets;
      for (size_t I : Members)
        Offsets.push_back(Values[I] - From);
      Bindings B;
      B.set(S, From);
      std::optional<std::vector<Totals>> T = simulateSteps(
          AddressAndStep, *ActiveFn, B, costModelOf(*Ctx.Access), Ctx.Block,
          planSamples(Periods, Active, MaxSamples, Ctx.Grid), Offsets);
      if (!T)
        return std::nullopt;
      for (size_t I = 0; I < Members.size(); ++I)
        Result[Members[I]] = (*T)[I];
    }
    return Result;
  }

private:
  /// The samples for \p S = \p Value: the periods of the varying symbols
  /// (a coefficient bound to 0 gives period 1, the same samples as leaving
  /// the symbol out) and the predicate, with S bound.
  SamplingPlan planAt(int64_t Value) const {
    ValueMap One{{S, Value}};
    return planSamples(periodsAt(Value), bindValues(Active, One), MaxSamples,
                       Ctx.Grid);
  }

  /// The varying symbols' steps with S = \p Value.
  PeriodMap periodsAt(int64_t Value) const {
    ValueMap One{{S, Value}};
    PeriodMap Periods;
    for (const auto &[V, Coeff] : Coefficients)
      Periods[V] = stepOfCoefficient(
          Coeff ? std::optional<Expr>(bindValues(*Coeff, One)) : std::nullopt);
    return Periods;
  }

  const Context &Ctx;
  Symbol S;
  unsigned MaxSamples;
  Expr Address, Active;
  std::optional<LaneProgram> AddressFn, ActiveFn;
  /// The varying symbols of Address with their linear coefficients
  /// (nullopt: non-linear).
  std::vector<std::pair<Symbol, std::optional<Expr>>> Coefficients;
};

} // namespace

Expr bindValues(const Expr &E, const ValueMap &Values) {
  std::map<Symbol, Expr> Map;
  for (const Symbol &S : E.symbols()) {
    auto It = Values.find(S);
    if (It != Values.end())
      Map[S] = Expr::constant(It->second);
  }
  return Map.empty() ? E : E.substitute(Map);
}

bool isUnmodelled(const Symbol &S) {
  return S.Kind == SymbolKind::LaneValue || S.Kind == SymbolKind::IndirectValue;
}

Expr assumeBranchesTaken(const Expr &Active, std::set<std::string> &Names) {
  if (!Active.anySymbol(isUnmodelled))
    return Active;
  if (Active.getKind() == Expr::Kind::LAnd) {
    const std::vector<Expr> &Ops = Active.operands();
    Expr Result = Expr::constant(1);
    for (const Expr &Op : Ops)
      Result = Expr::logicalAnd(Result, assumeBranchesTaken(Op, Names));
    return Result;
  }
  for (const Symbol &S : Active.symbols())
    if (isUnmodelled(S))
      Names.insert(S.Name);
  return Expr::constant(1);
}

ValueMap fixedValues(const Expr &Address, const Expr &Active,
                     const PredictOptions &Opts,
                     std::vector<Symbol> &Defaulted) {
  std::set<Symbol> Symbols = Address.symbols();
  std::set<Symbol> InActive = Active.symbols();
  Symbols.insert(InActive.begin(), InActive.end());

  ValueMap Values;
  for (const Symbol &S : Symbols) {
    switch (S.Kind) {
    case SymbolKind::BlockDim: {
      const unsigned Dims[3] = {Opts.Block.X, Opts.Block.Y, Opts.Block.Z};
      int D = S.dimension();
      Values[S] = D >= 0 && D < 3 ? Dims[D] : 1;
      break;
    }
    case SymbolKind::GridDim:
    case SymbolKind::Param:
    case SymbolKind::UniformValue: {
      auto It = Opts.Params.find(S.Name);
      if (It != Opts.Params.end()) {
        Values[S] = It->second;
      } else {
        Values[S] = Opts.DefaultValue;
        Defaulted.push_back(S);
      }
      break;
    }
    default:
      break;
    }
  }
  return Values;
}

Expr shiftStarts(const Expr &E, const ValueMap &Starts) {
  std::map<Symbol, Expr> Map;
  std::set<Symbol> Symbols = E.symbols();
  ExprContext Exprs = ExprContext::of(E);
  for (const auto &[S, Start] : Starts)
    if (Start != 0 && Symbols.count(S))
      Map[S] = Exprs.symbol(S) + Expr::constant(Start);
  return Map.empty() ? E : E.substitute(Map);
}

BoundAccess bindAccess(const Context &Ctx, const ValueMap &Fixed,
                       unsigned MaxSamples) {
  BoundAccess B;
  B.Address = shiftStarts(bindValues(Ctx.Access->Address, Fixed), Ctx.Starts);
  B.Active = shiftStarts(bindValues(Ctx.Active, Fixed), Ctx.Starts);
  B.Plan = planSamples(B.Address, B.Active, MaxSamples, Ctx.Grid);
  return B;
}

Totals evaluateWith(const Context &Ctx, const ValueMap &Fixed,
                    unsigned MaxSamples) {
  BoundAccess B = bindAccess(Ctx, Fixed, MaxSamples);
  return simulate(B.Address, B.Active, costModelOf(*Ctx.Access), Ctx.Block,
                  B.Plan);
}

std::optional<WarpRequest> representativeWith(const Context &Ctx,
                                              double MeanSectors) {
  BoundAccess B = bindAccess(Ctx, Ctx.Fixed, Ctx.MaxSamples);
  const Expr &Address = B.Address, &Active = B.Active;
  const SamplingPlan &Plan = B.Plan;
  return representativeRequest(Address, Active, costModelOf(*Ctx.Access),
                               Ctx.Block, Plan, MeanSectors, Ctx.Starts);
}

std::optional<int64_t> probeStride(const Context &Ctx, const Symbol &S) {
  SymbolProbe Probe(Ctx, S, std::min(Ctx.MaxSamples, StrideProbeSamples));
  // The default, then MaxProbeValue down to 1: from one walk when S moves
  // the lanes linearly, else value by value down from the top, so that the
  // search stops at the first difference.
  std::vector<int64_t> Values{Ctx.Fixed.at(S)};
  for (int64_t V = MaxProbeValue; V >= 1; --V)
    Values.push_back(V);
  std::optional<std::vector<Totals>> All = Probe.linearly(Values);
  auto At = [&](size_t I) { return All ? (*All)[I] : Probe.at(Values[I]); };
  Totals Reference = At(0);
  size_t I = 1;
  while (I < Values.size() && sameNumbers(At(I), Reference))
    ++I;
  if (I == 1)
    return std::nullopt;
  return Values[I - 1];
}

std::optional<Misalignment> probeMisalignment(const Context &Ctx,
                                              const Symbol &S) {
  std::pair<Expr, Expr> Split = Ctx.Access->Address.splitLaneUniform();
  if (Split.first.symbols().count(S))
    return std::nullopt;
  std::optional<Expr> Coeff = Split.second.linearCoefficient(S);
  if (!Coeff || *Coeff == Expr::constant(0))
    return std::nullopt;
  Expr Bound = bindValues(*Coeff, Ctx.Fixed);
  std::optional<int64_t> C = Bound.asConstant();
  unsigned Period = periodForCoefficient(C ? *C : Bound.coefficientGcd());
  if (Period == 1)
    return std::nullopt;

  Misalignment M;
  M.Best = std::numeric_limits<double>::infinity();
  M.Worst = -M.Best;
  int64_t Default = Ctx.Fixed.at(S);
  SymbolProbe Probe(Ctx, S, Ctx.MaxSamples);
  std::vector<int64_t> Values;
  for (unsigned I = 0; I < Period; ++I)
    Values.push_back(Default + int64_t(I));
  std::optional<std::vector<Totals>> Shifted = Probe.linearly(Values);
  for (unsigned I = 0; I < Period; ++I) {
    Totals T = Shifted ? (*Shifted)[I] : Probe.at(Values[I]);
    if (!usable(T))
      continue;
    M.Best = std::min(M.Best, T.sectorsPerRequest());
    M.Worst = std::max(M.Worst, T.sectorsPerRequest());
  }
  if (!(M.Worst - M.Best > Epsilon))
    return std::nullopt;
  M.Term =
      Expr::mul(*Coeff, ExprContext::of(Ctx.Access->Address).symbol(S)).str();
  M.Pitch = Coeff->anySymbol([](const Symbol &X) { return X.isVarying(); });
  return M;
}

std::string formatAverage(double V) {
  std::string S = fmt::format("{:.3f}", V);
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  return S;
}

} // namespace predictor
} // namespace coalesce
