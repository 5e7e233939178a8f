//===- PredictInternal.h - The pieces of the predictor ----------*- C++ -*-===//
///
/// \file
/// The prediction pipeline, one function per arrow:
///
///   AccessPattern
///     -> screenAddress        indirect (gather) or unmodellable lane values
///     -> assumeBranchesTaken  conditions the engine cannot see: all lanes run
///     -> fixedValues          blockDim, parameters, gridDim (given or default)
///     -> planSamples          varying symbols (blockIdx, loop iterations) and
///                             the residues that make the average exact
///     -> simulate             lane by lane, warp by warp: sector totals
///     -> solveGuards          no lane ran: values (and first samples) that
///                             let one, stated
///     -> probeStride / probeMisalignment   what the defaults hide
///     -> classify             -> Prediction
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_MODEL_PREDICTINTERNAL_H
#define COALESCE_MODEL_PREDICTINTERNAL_H

#include "coalesce/Predictor.h"
#include "symbolic/HashMemo.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace coalesce {
namespace predictor {

/// Concrete values for the fixed symbols of an access.
using ValueMap = std::map<Symbol, int64_t>;

/// Tolerance for comparing averages.
constexpr double Epsilon = 1e-9;

/// Period used for a varying symbol that occurs non-linearly in the address
/// or in the predicate.
constexpr unsigned NonLinearPeriod = 8;

/// Replaces every symbol of \p E that has a value in \p Values by it.
Expr bindValues(const Expr &E, const ValueMap &Values);

/// True for symbols whose value the engine cannot know per lane
/// (LaneValue, IndirectValue).
bool isUnmodelled(const Symbol &S);

//===--- Sampling.cpp -----------------------------------------------------===//

/// A loop whose trip count differs between the lanes or the samples (a
/// triangular loop: `for (j2 = j1 + 1; j2 < M; ++j2)` with j1 per lane).
/// Sampling its first iterations would see only full warps; the profile
/// counts every partial request of the last ones. Its bounds are monotone in
/// the iteration, so each lane runs one range of iterations, and a warp's
/// active lanes only change where some lane's range starts or ends. Between
/// two such points the requests repeat with the address's period: the walk
/// simulates one period of each stretch and weighs it by the stretch's
/// length, which is exact over the whole trip range.
struct RangedLoop {
  Symbol Iter;
  /// Residues of the iteration that cover all sector alignments.
  unsigned Period = 1;
  /// A conjunct Lhs < Rhs (Strict) or Lhs <= Rhs of the predicate, with
  /// Lhs - Rhs = AtZero + Slope * Iter.
  struct Bound {
    Expr AtZero;
    int64_t Slope = 0;
    bool Strict = true;
  };
  /// Every conjunct of the predicate that depends on Iter; at least one
  /// bounds it from above.
  std::vector<Bound> Bounds;
};

/// Narrows the iteration range [\p Lo, \p Hi) of one lane to where \p B
/// holds, given the lane's value \p AtZero of B.AtZero.
void narrowRange(const RangedLoop::Bound &B, int64_t AtZero, int64_t &Lo,
                 int64_t &Hi);

/// The values of the varying symbols to average over: the cartesian product
/// of 0..Periods[I]-1 for each Symbols[I], and for each of them, when
/// Ranged is set, every iteration of that loop any lane runs.
struct SamplingPlan {
  std::vector<Symbol> Symbols;
  std::vector<unsigned> Periods;
  /// Per symbol, how many of its first values differ (empty: all of
  /// Periods): a symbol that only a bound its sampled values all pass
  /// reads besides the address repeats with the address's period. The
  /// walk visits those, each standing for Periods[I] / Distinct[I] values
  /// (a power of two): the same sums as visiting them all.
  std::vector<unsigned> Distinct;
  std::optional<RangedLoop> Ranged;
  /// Number of combinations of Symbols (1 when there is none).
  uint64_t size() const;
  /// Number of combinations of the Distinct values.
  uint64_t distinctSize() const;
};

/// A - B of a comparison A op B (Lt, Le, Eq, Ne): where it turns.
Expr comparisonDifference(const Expr &Comparison);

/// Adds the conjuncts of \p E (split at logical and) to \p Out.
void collectConjuncts(const Expr &E, std::vector<Expr> &Out);

/// Residues of a varying symbol with byte coefficient gcd \p CoeffGcd that
/// cover all sector alignments: 32 / gcd(|CoeffGcd| mod 32, 32).
unsigned periodForCoefficient(int64_t CoeffGcd);

/// The number of iterations of loop iteration \p S that the conjuncts of
/// \p Active depending on \p S alone allow: 1 + the last value in
/// 0..Cap-1 at which they hold. nullopt when there are none, when they still
/// hold at \p Cap (too many to sample) or never hold.
std::optional<unsigned> tripCount(const Symbol &S, const Expr &Active,
                                  unsigned Cap);

/// The period of a varying symbol whose coefficient in the address is
/// \p Coeff (nullopt: it occurs non-linearly).
unsigned periodOfCoefficient(const std::optional<Expr> &Coeff);

/// How a varying symbol moves an address.
struct AddressStep {
  /// Values that cover all sector alignments (periodOfCoefficient).
  unsigned Period = 1;
  /// The address is linear in the symbol with a coefficient free of
  /// threadIdx: a step moves every lane by the same bytes.
  bool WarpUniform = false;
  friend bool operator==(const AddressStep &A, const AddressStep &B) {
    return A.Period == B.Period && A.WarpUniform == B.WarpUniform;
  }
};

/// Each varying symbol of an address with its step.
using PeriodMap = std::map<Symbol, AddressStep>;

/// The step of a varying symbol whose coefficient in the address is
/// \p Coeff (nullopt: it occurs non-linearly).
AddressStep stepOfCoefficient(const std::optional<Expr> &Coeff);

/// The periods of the varying symbols of \p Address.
PeriodMap addressPeriods(const Expr &Address);

/// Plans the samples for \p Address and \p Active, in which only threadIdx,
/// varying and unmodelled symbols remain. At most \p MaxSamples combinations
/// (a ranged loop counting as its period): the largest periods are halved
/// until the product fits.
/// \p Grid holds the launch's gridDim values where known: the blocks of a
/// ranged loop whose bound depends on blockIdx are all walked (up to the
/// cap), since each block's trip range differs.
SamplingPlan planSamples(const Expr &Address, const Expr &Active,
                         unsigned MaxSamples, const ValueMap &Grid = {});

/// The same with the address's periods already known.
SamplingPlan planSamples(const PeriodMap &AddressPeriods, const Expr &Active,
                         unsigned MaxSamples, const ValueMap &Grid = {});

//===--- LaneProgram.cpp --------------------------------------------------===//

/// An Expr compiled for evaluation a warp at a time, as a straight-line
/// program over its distinct nodes (a subtree shared by several parents is
/// one step, so the cost is the size of the DAG, not of the tree form).
/// Lane-free steps run once per sample (prepare); the lane-dependent ones,
/// including the lane-free parts of nodes affine in threadIdx, run for all
/// lanes of a warp at once (atWarp), with Expr::evaluate's C semantics.
/// Every step is evaluated eagerly; undefined values (division by zero, a
/// lane value the engine cannot see) are tracked per lane, and a select or a
/// deciding && / || operand discards an unused undefined one exactly as lazy
/// evaluation would.
///
/// A warp evaluated by number keeps its rows: when the next sample changes
/// only some lane-free values, the lane steps that do not depend on them are
/// not run again for that warp (a loop-carried chain that only depends on
/// blockIdx is evaluated once per block, not once per loop iteration).
class LaneProgram {
public:
  explicit LaneProgram(const Expr &E);
  /// One program for several expressions, sharing their common nodes:
  /// atWarp() returns the first one's values, rootAt() any one's.
  explicit LaneProgram(const std::vector<Expr> &Exprs);
  /// Evaluates the lane-free steps under the sample's bindings.
  void prepare(const Bindings &Sample);
  /// Evaluates lanes \p Lanes (at most WarpSize) of the prepared sample:
  /// \p Out[I] is the value of Lanes[I], defined where bit I of the result
  /// is set (undefined: division by zero, or a lane value the engine cannot
  /// see).
  uint32_t atWarp(const std::vector<Lane> &Lanes, int64_t *Out);
  /// The same for warp number \p Warp, whose rows are kept between samples
  /// and reused where the sample left a step's inputs unchanged (up to
  /// MaxKeptRowBytes of rows per program; the warps past it are evaluated
  /// afresh). A warp number given other lanes than last time starts afresh.
  uint32_t atWarp(unsigned Warp, const std::vector<Lane> &Lanes, int64_t *Out);
  /// After atWarp(): the values of expression \p I for the same lanes.
  uint32_t rootAt(size_t I, int64_t *Out);
  /// The value for the single lane \p L; nullopt when undefined.
  std::optional<int64_t> at(const Lane &L);
  /// Steps of the program (distinct nodes plus folded leaves), for tests.
  size_t size() const { return UniformSteps.size() + LaneSteps.size(); }
  /// Lane steps whose value depends on \p S: how much a change of S costs
  /// a warp whose rows are kept.
  size_t dependentLaneSteps(const Symbol &S) const;
  /// Memory the kept rows of one program may take (16 MiB: 60 warps of a
  /// 1,000-step program, 3 of one at the 20,000-node limit); a warp's rows
  /// take size() * (8 * WarpSize + 12) bytes.
  static constexpr size_t MaxKeptRowBytes = size_t(16) << 20;

private:
  struct Step {
    enum { Constant, Symbol, Affine, Unbound, Operation } Type = Constant;
    Expr::Kind Op = Expr::Kind::Constant;
    int64_t Value = 0;            ///< Constant: the value.
    coalesce::Symbol Sym;         ///< Symbol: the lane-free symbol.
    int64_t Coeff[3] = {0, 0, 0}; ///< Affine: threadIdx coefficients.
    /// Operation: operand slots. Affine: the lane-free part's slot.
    std::vector<unsigned> Kids;
    unsigned Slot = 0; ///< Where the value goes.
  };
  /// One warp's rows: per slot WarpSize lane values, the mask of lanes
  /// where each is defined, and the sample generation it was computed at.
  struct WarpRows {
    std::vector<int64_t> Rows;
    std::vector<uint32_t> Defined;
    std::vector<uint64_t> DoneAt;
    std::vector<Lane> Lanes; ///< The lanes the rows belong to.
  };
  unsigned compile(const Expr &E);
  unsigned emit(Step S, bool PerLane);
  std::optional<int64_t> apply(const Step &S) const;
  /// Indices of the operation steps of UniformSteps that depend on a symbol
  /// of \p Changed (DependsOn bits), in order; made once per set of bits.
  const std::vector<unsigned> &stepsAfter(uint64_t Changed);
  void applyWarp(const Step &S, unsigned N);
  /// Evaluates into \p W; \p Keep: reuse its rows where still valid.
  uint32_t evaluate(WarpRows &W, const std::vector<Lane> &Lanes, int64_t *Out,
                    bool Keep);
  int64_t *row(unsigned Slot) { return &Cur->Rows[size_t(Slot) * WarpSize]; }
  uint32_t &defined(unsigned Slot) { return Cur->Defined[Slot]; }

  std::vector<Step> UniformSteps, LaneSteps; ///< Each in dependency order.
  /// Indices of UniformSteps' symbol steps.
  std::vector<unsigned> SymbolSteps;
  /// Per slot of a symbol step: where the last Bindings held it
  /// (Bindings::lookup's hint).
  std::vector<size_t> Hints;
  /// stepsAfter()'s lists, by set of changed symbols.
  std::unordered_map<uint64_t, std::vector<unsigned>> Rerun;
  /// Per slot: the lane-free value (uniform slots).
  std::vector<std::optional<int64_t>> Values;
  /// Per slot: the generation (prepare() count) at which its value, or for
  /// a lane step one of its inputs, last changed.
  std::vector<uint64_t> ChangedAt;
  uint64_t Generation = 0;
  /// The generation whose changes the lane steps' ChangedAt include.
  uint64_t PropagatedAt = 0;
  /// Per slot: the symbols it depends on, as bits of SymbolBits (the 64th
  /// bit stands for all symbols past the 63rd).
  std::vector<uint64_t> DependsOn;
  std::vector<coalesce::Symbol> SymbolBits;
  /// Rows of the warps evaluated by number, and of the others.
  std::vector<WarpRows> Warps;
  WarpRows Scratch;
  WarpRows *Cur = nullptr;
  unsigned LastN = 0; ///< Lanes of the last evaluation.
  /// The last evaluation ended early: a conjunct of the (single) root's &&
  /// was 0 for every lane, and the rows after it were not made.
  bool LastDecided = false;
  /// Uniform slots that lane steps read: broadcast into rows.
  std::vector<unsigned> Broadcast;
  /// Operands of the root's chain of && (a predicate's conjuncts): the
  /// lane-free ones, and whether the prepared sample made one of them 0;
  /// the per-lane ones as (index in LaneSteps, slot), in step order.
  std::vector<unsigned> UniformConjuncts;
  bool ZeroForAll = false;
  std::vector<std::pair<unsigned, unsigned>> LaneConjuncts;
  int64_t LaneX[WarpSize], LaneY[WarpSize], LaneZ[WarpSize];
  /// While compiling: node -> (its Expr, its slot).
  std::map<const void *, std::pair<Expr, unsigned>> Compiled;
  std::vector<unsigned> Roots; ///< The expressions' slots.
  unsigned Root = 0;           ///< Roots.front().
};

//===--- Simulate.cpp -----------------------------------------------------===//

/// What one request of an access costs is counted from: its width, its
/// atomic kind and its memory (sectors of global memory, wavefronts of
/// shared memory).
struct CostModel {
  unsigned AccessBytes = 4;
  AtomicKind Atomic = AtomicKind::None;
  AccessSpace Space = AccessSpace::Global;
};

/// The CostModel of \p Access.
inline CostModel costModelOf(const AccessPattern &Access) {
  return CostModel{Access.AccessBytes, Access.Atomic, Access.Space};
}

/// Sums over all sampled warp requests.
struct Totals {
  uint64_t Requests = 0;    ///< Warp executions with >= 1 active lane.
  uint64_t Sectors = 0;     ///< countRequestSectors() summed.
  uint64_t Ideal = 0;       ///< idealSectors() summed.
  uint64_t ActiveLanes = 0; ///< Active lanes summed.
  uint64_t UsedBytes = 0;   ///< Distinct bytes the lanes access, summed.
  /// Some active lane's address could not be evaluated (division by zero,
  /// a shift out of range).
  bool AddressUnknown = false;
  /// Some lane's predicate could not be evaluated (taken as active).
  bool ActiveUnknown = false;
  /// Every request's active lanes cover one gap-free run of distinct elements.
  bool AllContiguous = true;
  /// Every request had all lanes of its warp active.
  bool AllLanesActive = true;
  /// Every request's active lanes share one address...
  bool AllWarpUniform = true;
  /// ...and some request had more than one active lane.
  bool AnyMultiLane = false;

  double sectorsPerRequest() const { return double(Sectors) / Requests; }
  double idealPerRequest() const { return double(Ideal) / Requests; }
};

/// Simulates every warp of \p Block for every sample of \p Plan. \p Address
/// and \p Active must be free of fixed symbols (see bindValues).
Totals simulate(const Expr &Address, const Expr &Active, const CostModel &Cost,
                const BlockShape &Block, const SamplingPlan &Plan);

/// The same on compiled programs, whose fixed symbols left are bound by
/// \p Base: one compilation serves many values of those symbols.
Totals simulate(LaneProgram &AddressFn, LaneProgram &ActiveFn,
                const Bindings &Base, const CostModel &Cost,
                const BlockShape &Block, const SamplingPlan &Plan);

/// The same for several values of an unknown the address is linear in:
/// \p AddressAndStepFn has two expressions, the address at the first value
/// and the number of bytes one unit more adds to each lane's address (the
/// same in every lane or not), both free of the unknown; \p Offsets are the
/// other values less the first. One walk, one Totals per offset; nullopt
/// when a step cannot be evaluated.
std::optional<std::vector<Totals>>
simulateSteps(LaneProgram &AddressAndStepFn, LaneProgram &ActiveFn,
              const Bindings &Base, const CostModel &Cost,
              const BlockShape &Block, const SamplingPlan &Plan,
              const std::vector<int64_t> &Offsets);

/// The first request of the same walk whose sector count is nearest
/// \p MeanSectors, with every lane's address; nullopt when no lane executes
/// or an address cannot be evaluated. The loop counters in \p Starts (moved
/// by the guard search) are drawn from their starts.
std::optional<WarpRequest>
representativeRequest(const Expr &Address, const Expr &Active,
                      const CostModel &Cost, const BlockShape &Block,
                      const SamplingPlan &Plan, double MeanSectors,
                      const ValueMap &Starts = {});

//===--- Assumptions.cpp --------------------------------------------------===//

/// What predict() works on: the access with unmodelled conditions assumed
/// taken and the values of its fixed symbols.
struct Context {
  const AccessPattern *Access = nullptr;
  /// The predicate, with conjuncts on unmodelled values replaced by 1.
  Expr Active;
  BlockShape Block;
  /// Values of all fixed symbols (blockDim, parameters, gridDim, uniforms).
  ValueMap Fixed;
  /// Fixed symbols that got Opts.DefaultValue, in symbol order.
  std::vector<Symbol> Defaulted;
  /// First sampled value of varying symbols whose samples do not start at 0
  /// (the blocks or iterations that execute the access; see solveGuards).
  ValueMap Starts;
  /// The launch's gridDim values, where known.
  ValueMap Grid;
  int64_t DefaultValue = 1024;
  unsigned MaxSamples = 512;
};

/// The requests a launch makes of \p Access under the values of \p Ctx
/// (RequestCount.cpp): trip counts of its loops, the share of blocks,
/// warps and passes that run it, the grid.
RequestCount countRequests(const Context &Ctx, const AccessPattern &Access);

/// Replaces the conjuncts of \p Active that depend on unmodelled values by 1
/// and collects those values' names into \p Names.
Expr assumeBranchesTaken(const Expr &Active, std::set<std::string> &Names);

/// Values for the fixed symbols of \p Address and \p Active: blockDim from the
/// block shape, others from Opts.Params by name, else Opts.DefaultValue
/// (listed in \p Defaulted).
ValueMap fixedValues(const Expr &Address, const Expr &Active,
                     const PredictOptions &Opts,
                     std::vector<Symbol> &Defaulted);

/// An access's address and predicate with \p Fixed bound and the starts of
/// Ctx.Starts applied, and the samples planned for them.
struct BoundAccess {
  Expr Address;
  Expr Active;
  SamplingPlan Plan;
};
BoundAccess bindAccess(const Context &Ctx, const ValueMap &Fixed,
                       unsigned MaxSamples);

/// Binds \p Fixed, plans the samples (at most \p MaxSamples) and simulates.
Totals evaluateWith(const Context &Ctx, const ValueMap &Fixed,
                    unsigned MaxSamples);

/// representativeRequest() of the access of \p Ctx under Ctx.Fixed.
std::optional<WarpRequest> representativeWith(const Context &Ctx,
                                              double MeanSectors);

/// For a defaulted symbol in the lane-dependent part of the address: the
/// smallest T in 1..64 such that every value in [T, 64] predicts what the
/// default does; nullopt if even 64 differs.
std::optional<int64_t> probeStride(const Context &Ctx, const Symbol &S);

/// The effect of a defaulted symbol that only shifts the address.
struct Misalignment {
  double Best = 0, Worst = 0;
  std::string Term; ///< The shifting term, e.g. "4*off".
  /// The symbol is a row pitch: it multiplies a varying symbol (4*n*r,
  /// 4*n*blockIdx.y), so rows start on sectors only for some values. Stated
  /// as an assumption, not reported as possibly misaligned.
  bool Pitch = false;
};

/// For a defaulted symbol that occurs only in the lane-uniform part of the
/// address with a byte coefficient not a multiple of 32: the best and worst
/// sectors per request over the values default+0 .. default+P-1; nullopt when
/// it cannot shift the alignment.
std::optional<Misalignment> probeMisalignment(const Context &Ctx,
                                              const Symbol &S);

/// Formats an average for messages: "5", "4.875".
std::string formatAverage(double V);

//===--- GuardSolver.cpp --------------------------------------------------===//

/// An access no sampled lane executes, and what may change to let one.
struct GuardProblem {
  /// The predicate, free of unmodelled symbols.
  Expr Active;
  /// Values of all fixed symbols.
  ValueMap Fixed;
  /// Fixed symbols whose value may change, most preferred first.
  std::vector<Symbol> Free;
  /// The symbols of the address: changed only when nothing else helps.
  std::set<Symbol> InAddress;
  /// Varying symbols and how many values are sampled; their first sampled
  /// value may move up from 0.
  std::vector<std::pair<Symbol, unsigned>> Varying;
  BlockShape Block;
};

/// What solveGuards changes.
struct GuardSolution {
  /// New values of free symbols (only those that changed).
  ValueMap Values;
  /// New first sampled values of varying symbols (only those not 0).
  ValueMap Starts;
};

/// Searches values of the free symbols and first samples of the varying
/// ones under which every conjunct of the predicate holds for some lane at
/// some sample; nullopt when the greedy search finds none.
std::optional<GuardSolution> solveGuards(const GuardProblem &P);

//===--- GuardMemo.cpp ----------------------------------------------------===//

/// solveGuards() memoized over the accesses of one kernel. Accesses under one
/// guard (`if (i < n) { out[i] = a[i] + b[i + 1]; }`) pose the same problem
/// when their addresses use the same symbols, and the search is by far the
/// costliest step of their prediction. The key is the whole GuardProblem, so
/// an answer is reused only for an input solveGuards would see as equal.
class GuardMemo {
public:
  /// solveGuards(\p P), searched once per distinct \p P.
  std::optional<GuardSolution> solve(const GuardProblem &P);
  /// Calls answered from the memo so far.
  size_t hits() const { return Memo.hits(); }

private:
  HashMemo<GuardProblem, std::optional<GuardSolution>> Memo;
};

/// predict() with the guard searches of \p Guards shared (PredictionCache
/// keeps one per kernel).
Prediction predictWith(const AccessPattern &Access, const PredictOptions &Opts,
                       GuardMemo &Guards);

/// \p E with each varying symbol V of \p Starts replaced by V + start.
Expr shiftStarts(const Expr &E, const ValueMap &Starts);

//===--- Classifier.cpp ---------------------------------------------------===//

/// Everything classify() looks at.
struct ClassifyInput {
  const AccessPattern *Access = nullptr;
  BlockShape Block;
  const Totals *Base = nullptr;
  const Prediction *Numbers = nullptr; ///< Sectors, ideal, strides, worst.
  /// Byte stride of threadIdx.z, when linear and constant.
  std::optional<int64_t> DepthStrideBytesValue;
};

/// The class of a modelled access (not Indirect/Unknown).
Classification classify(const ClassifyInput &In);

} // namespace predictor
} // namespace coalesce

#endif // COALESCE_MODEL_PREDICTINTERNAL_H
