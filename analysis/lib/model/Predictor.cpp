//===- Predictor.cpp - Sectors per request of one access ------------------===//
//
// Orchestrates the pipeline of PredictInternal.h: screen, bind, sample,
// simulate, probe the defaults, classify.
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <fmt/format.h>

#include <functional>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace coalesce {
namespace predictor {
namespace {

/// Names of the symbols of \p E of kind \p K, joined by ", ", each once.
std::string namesOfKind(const Expr &E, SymbolKind K) {
  return llvm::join(E.symbolNames(K), ", ");
}

/// Marks \p P indirect or unknown when the address depends on per-lane values
/// the engine cannot see. Returns true when it did.
bool screenAddress(const AccessPattern &Access, Prediction &P) {
  if (!Access.UnknownReason.empty()) {
    P.Class = Classification::Unknown;
    P.Reason = Access.UnknownReason;
    return true;
  }
  const Expr &Address = Access.Address;
  std::string Indirect = namesOfKind(Address, SymbolKind::IndirectValue);
  if (!Indirect.empty()) {
    P.Class = Classification::Indirect;
    P.Reason = "index loaded from memory: " + Indirect;
    return true;
  }
  std::string Opaque = namesOfKind(Address, SymbolKind::LaneValue);
  if (!Opaque.empty()) {
    P.Class = Classification::Unknown;
    P.Reason = !Access.OpaqueReason.empty()
                   ? Access.OpaqueReason
                   : "address depends on a per-lane value the engine cannot "
                     "model: " +
                         Opaque;
    return true;
  }
  return false;
}

/// Adds \p Text to \p P's assumptions unless it is there: two versions of
/// one load (Symbol::Version) print alike and are assumed alike.
void assume(Prediction &P, std::string Text) {
  if (!llvm::is_contained(P.Assumptions, Text))
    P.Assumptions.push_back(std::move(Text));
}

/// d(address)/d(threadIdx.D): symbolic, and its value under \p Fixed.
std::pair<std::optional<Expr>, std::optional<int64_t>>
laneStride(const Expr &Address, unsigned D, const ValueMap &Fixed) {
  std::optional<Expr> C = Address.linearCoefficient(Symbol::threadIdx(D));
  if (!C)
    return {std::nullopt, std::nullopt};
  return {C, bindValues(*C, Fixed).asConstant()};
}

/// States the default value of \p S, probing what it hides. Updates the
/// best/worst fields of \p P for a shifting unknown.
void assumeDefault(const Context &Ctx, const Symbol &S, const Expr &LanePart,
                   Prediction &P) {
  int64_t Default = Ctx.Fixed.at(S);
  if (LanePart.symbols().count(S)) {
    if (std::optional<int64_t> T = probeStride(Ctx, S))
      assume(P, fmt::format("assuming {} >= {} ({} = {} used)", S.Name, *T,
                            S.Name, Default));
    else
      assume(P, fmt::format("assuming {} = {}", S.Name, Default));
    return;
  }
  // Shared memory: a shift moves every lane to another bank together.
  std::optional<Misalignment> M;
  if (Ctx.Access->Space == AccessSpace::Global)
    M = probeMisalignment(Ctx, S);
  if (!M) {
    assume(P, fmt::format("assuming {} = {}", S.Name, Default));
    return;
  }
  double Used = *P.SectorsPerRequest;
  if (M->Pitch) {
    // A row pitch: `m[r * n + col]` is fine when rows of n elements start on
    // sectors. Say so, and leave the finding to a run with --param n=...
    assume(P, fmt::format("assuming {} = {}: rows start on 32-byte sectors; {} "
                          "to {} sectors per request for other values (give "
                          "--param {}=...)",
                          S.Name, Default, formatAverage(M->Best),
                          formatAverage(M->Worst), S.Name));
    return;
  }
  if (M->Best + Epsilon >= Used)
    assume(P, fmt::format("assuming {} is a multiple of 32 bytes; up to {} "
                          "sectors per request otherwise",
                          M->Term, formatAverage(M->Worst)));
  else
    assume(
        P,
        fmt::format(
            "assuming {} = {} ({} sectors per request); {} to {} depending on "
            "{} modulo 32 bytes",
            S.Name, Default, formatAverage(Used), formatAverage(M->Best),
            formatAverage(M->Worst), M->Term));
  if (!P.WorstSectorsPerRequest || M->Worst > *P.WorstSectorsPerRequest) {
    P.BestSectorsPerRequest = M->Best;
    P.WorstSectorsPerRequest = M->Worst;
    P.MisalignmentTerm = M->Term;
  }
}

/// A defaulted symbol that only bounds the access (`if (i + off < n)`) can
/// switch every lane off when all parameters get the same default. If no
/// lane executes, such symbols are all given \p Value instead, when that
/// lets the access run: a large bound ("n is large enough" is what the code
/// intends) or 0 (a flag: `c ? a[i] : b[i]` with c unknown reaches b[i]
/// only when c == 0). Updates \p Ctx.Fixed and \p Base, adds the symbols
/// to \p Bounds and returns the assumption to state.
std::optional<std::string> assumeBoundsPass(Context &Ctx, Totals &Base,
                                            std::set<Symbol> &Bounds,
                                            int64_t Value) {
  std::set<Symbol> InAddress = Ctx.Access->Address.symbols();
  ValueMap Fixed = Ctx.Fixed;
  std::string Names;
  // A block or grid size is at least 1.
  auto Takes = [&](const Symbol &S) {
    return !InAddress.count(S) &&
           (Value > 0 || (S.Kind != SymbolKind::GridDim &&
                          S.Kind != SymbolKind::BlockDim));
  };
  for (const Symbol &S : Ctx.Defaulted)
    if (Takes(S)) {
      Fixed[S] = Value;
      Names += (Names.empty() ? "" : ", ") + S.Name;
    }
  if (Names.empty())
    return std::nullopt;
  Totals T = evaluateWith(Ctx, Fixed, Ctx.MaxSamples);
  if (T.AddressUnknown || T.Requests == 0)
    return std::nullopt;
  Ctx.Fixed = std::move(Fixed);
  Base = T;
  for (const Symbol &S : Ctx.Defaulted)
    if (Takes(S))
      Bounds.insert(S);
  if (Value == 0)
    return fmt::format("assuming {} = 0 so that the access executes", Names);
  return fmt::format("assuming {} large enough for the access to execute "
                     "({} used)",
                     Names, Value);
}

/// \p Active without its conjuncts that are the same for every lane of a
/// block (no threadIdx in them): `if (jt*ncols1 + j >= ne01) return;` with
/// jt and ne01 defaulted.
Expr laneConditions(const Expr &Active) {
  if (!Active.isLaneDependent())
    return Expr::constant(1);
  if (Active.getKind() != Expr::Kind::LAnd)
    return Active;
  Expr Kept = Expr::constant(1);
  for (const Expr &C : Active.operands())
    Kept = Expr::logicalAnd(Kept, laneConditions(C));
  return Kept;
}

/// Quotients of defaulted values (`C / NH` with both 1024: 1) hide the
/// shape of the real data: a head-size loop of one iteration, a row of one
/// element. Names the first such quotient in the address or the condition
/// whose value under the defaults is 0 or 1, for the note.
std::optional<std::string> degenerateQuotient(const Context &Ctx) {
  std::set<Symbol> Defaulted(Ctx.Defaulted.begin(), Ctx.Defaulted.end());
  llvm::SmallPtrSet<const void *, 32> Seen;
  std::optional<std::string> Found;
  std::function<void(const Expr &)> Visit = [&](const Expr &E) {
    if (Found || E.operands().empty() || !Seen.insert(E.identity()).second)
      return;
    if (E.getKind() == Expr::Kind::Div) {
      std::set<Symbol> Used = E.symbols();
      bool AllDefaulted =
          !Used.empty() && llvm::all_of(Used, [&](const Symbol &S) {
            return Defaulted.count(S) > 0;
          });
      std::optional<int64_t> V = bindValues(E, Ctx.Fixed).asConstant();
      if (AllDefaulted && V && (*V == 0 || *V == 1)) {
        std::string Names;
        for (const Symbol &S : Used)
          Names += fmt::format("{}{}=...", Names.empty() ? "" : " --param ",
                               S.Name);
        std::string Text = E.str();
        if (Text.size() > 2 && Text.front() == '(' && Text.back() == ')')
          Text = Text.substr(1, Text.size() - 2);
        Found = fmt::format("the defaults make {} = {}, which real sizes "
                            "rarely are: the verdict may change with the "
                            "real values (give --param {})",
                            Text, *V, Names);
        return;
      }
    }
    for (const Expr &Op : E.operands())
      Visit(Op);
  };
  Visit(Ctx.Access->Address);
  Visit(Ctx.Active);
  return Found;
}

/// When the condition of the access depends on blockIdx (a causal mask,
/// a triangular tile loop) and only the first blocks of the grid are
/// simulated, two windows of blocks inside the grid (the launch's, else the
/// default count) are simulated too; if one runs the access with another
/// figure, the note says that the figure is for the first blocks and what
/// that window gives.
std::optional<std::string> laterBlocksNote(const Context &Ctx,
                                           const Totals &Base) {
  // Binding substitutes constants, so a condition without blockIdx has none
  // after it either: nothing to bind (most accesses).
  const std::set<Symbol> &Before = Ctx.Active.symbols();
  if (std::none_of(Before.begin(), Before.end(), [&](const Symbol &S) {
        return S.Kind == SymbolKind::BlockIdx && !Ctx.Starts.count(S);
      }))
    return std::nullopt;
  BoundAccess Bound = bindAccess(Ctx, Ctx.Fixed, Ctx.MaxSamples);
  std::set<Symbol> InActive = Bound.Active.symbols();
  const SamplingPlan &Plan = Bound.Plan;
  for (size_t I = 0; I < Plan.Symbols.size(); ++I) {
    const Symbol &B = Plan.Symbols[I];
    if (B.Kind != SymbolKind::BlockIdx || !InActive.count(B) ||
        Ctx.Starts.count(B))
      continue;
    Symbol GridDim = Symbol::gridDim(unsigned(B.dimension()));
    int64_t Blocks = Ctx.DefaultValue;
    if (auto It = Ctx.Grid.find(GridDim); It != Ctx.Grid.end())
      Blocks = It->second;
    else if (auto F = Ctx.Fixed.find(GridDim); F != Ctx.Fixed.end())
      Blocks = F->second;
    int64_t Sampled = Plan.Periods[I];
    if (Blocks <= Sampled)
      continue;
    // Two windows inside the grid, away from the first blocks and from the
    // ragged last ones a bounds guard trims, at uneven fractions of it so
    // that they do not fall in step with a power-of-two period of the
    // index (`(idx / T) % T` is 0 again in the middle of the grid).
    // A note's figure, not a prediction: an eighth of the samples keeps
    // its cost well under the prediction's own.
    unsigned Samples = std::max(16u, Ctx.MaxSamples / 8);
    double First = Base.sectorsPerRequest();
    std::optional<std::pair<int64_t, double>> Other;
    for (int64_t Start : {Blocks * 37 / 100, Blocks * 71 / 100}) {
      if (Start < Sampled || Start + Sampled > Blocks)
        continue;
      Context Inside = Ctx;
      Inside.Starts[B] = Start;
      Totals T = evaluateWith(Inside, Ctx.Fixed, Samples);
      if (T.AddressUnknown || T.Requests == 0)
        continue;
      double Figure = T.sectorsPerRequest();
      if (std::abs(First - Figure) > 0.05 * std::max(First, Figure) &&
          (!Other || std::abs(First - Figure) > std::abs(First - Other->second)))
        Other = std::pair{Start, Figure};
    }
    if (!Other)
      continue;
    std::string Grid = Ctx.Grid.count(GridDim)
                           ? "the launch's grid"
                           : fmt::format("an assumed {} blocks", Blocks);
    return fmt::format(
        "the access's condition depends on {}: blocks 0 to {} (simulated) "
        "give {:.3g} sectors per request, blocks {} to {} of {} give {:.3g}; "
        "the figure is for the first blocks",
        B.Name, Sampled - 1, First, Other->first,
        Other->first + Sampled - 1, Grid, Other->second);
  }
  return std::nullopt;
}

/// The last resort when solveGuardsPass finds nothing: one defaulted symbol
/// of the predicate at a time, also one the address uses, at a few fixed
/// values, among them values that are not powers of two (the `else` of
/// `if (!(n & (n - 1)))`), a large bound that still fits an int (a loop
/// over lines of a grid-wide step of millions: TransformerEngine's
/// userbuffers) and last one beyond 32 bits (a 64-bit key whose high half
/// is a row: Warp's `row_col >> 32`). Updates like assumeBoundsPass.
std::optional<std::string> assumeOneValuePass(Context &Ctx, Totals &Base,
                                              std::set<Symbol> &Bounds) {
  std::set<Symbol> InActive = Ctx.Active.symbols();
  for (const Symbol &S : Ctx.Defaulted) {
    if (!InActive.count(S))
      continue;
    for (int64_t Value :
         {int64_t(0), int64_t(1) << 20, int64_t(1000), int64_t(1000003),
          int64_t(1), int64_t(1) << 30, int64_t(1) << 40}) {
      if (Value == 0 && (S.Kind == SymbolKind::GridDim ||
                         S.Kind == SymbolKind::BlockDim))
        continue; // A size is at least 1.
      ValueMap Fixed = Ctx.Fixed;
      Fixed[S] = Value;
      Totals T = evaluateWith(Ctx, Fixed, Ctx.MaxSamples);
      if (T.AddressUnknown || T.Requests == 0)
        continue;
      Ctx.Fixed = std::move(Fixed);
      Base = T;
      Bounds.insert(S);
      return fmt::format("assuming {} = {} so that the access executes", S.Name,
                         Value);
    }
  }
  return std::nullopt;
}

/// When a large bound does not let a lane run the access, searches the
/// guards (solveGuards): the first sampled block or iteration, values of the
/// defaulted symbols, those of the address last (Gaussian elimination's
/// `if (i >= Size - 1 - t) return;` with Size = t = 1024 runs no lane), through
/// \p Guards. Updates \p Ctx, \p Base and \p Bounds like assumeBoundsPass and
/// returns the assumption to state.
std::optional<std::string> solveGuardsPass(Context &Ctx, Totals &Base,
                                           std::set<Symbol> &Bounds,
                                           GuardMemo &Guards) {
  GuardProblem Problem;
  Problem.Active = Ctx.Active;
  Problem.Fixed = Ctx.Fixed;
  Problem.Block = Ctx.Block;
  std::set<Symbol> InAddress = Ctx.Access->Address.symbols();
  Problem.InAddress = InAddress;
  for (bool Address : {false, true})
    for (const Symbol &S : Ctx.Defaulted)
      if (InAddress.count(S) == Address)
        Problem.Free.push_back(S);
  // The samples with the free symbols left open: bound, they can fold the
  // guard to 0 and drop the varying symbols it compares.
  ValueMap Given = Ctx.Fixed;
  for (const Symbol &S : Ctx.Defaulted)
    Given.erase(S);
  SamplingPlan Plan =
      planSamples(bindValues(Ctx.Access->Address, Given),
                  bindValues(Ctx.Active, Given), Ctx.MaxSamples, Ctx.Grid);
  for (size_t I = 0; I < Plan.Symbols.size(); ++I)
    Problem.Varying.emplace_back(Plan.Symbols[I], Plan.Periods[I]);
  if (Plan.Ranged)
    Problem.Varying.emplace_back(Plan.Ranged->Iter, Plan.Ranged->Period);
  std::optional<GuardSolution> Found = Guards.solve(Problem);
  if (!Found)
    return std::nullopt;
  // A block found this way is taken alone (the edge block of `if (x >=
  // n - 64)`, the last of `if (blockIdx.x == gridDim.x - 1)`): the blocks
  // after it would be beyond the grid the code means. A loop iteration is a
  // start: the iterations after it run while the loop's condition holds.
  Context Tried = Ctx;
  for (const auto &[S, V] : Found->Values)
    Tried.Fixed[S] = V;
  for (const auto &[V, Start] : Found->Starts) {
    if (V.Kind == SymbolKind::BlockIdx)
      Tried.Fixed[V] = Start;
    else
      Tried.Starts[V] = Start;
  }
  Totals T = evaluateWith(Tried, Tried.Fixed, Tried.MaxSamples);
  // The search's witness may be the last value it sampled of a loop counter
  // (start 9 of 3 samples for `j == 11`) where this plan samples fewer: the
  // iterations from that value on.
  if (T.Requests == 0 && !T.AddressUnknown && !T.ActiveUnknown) {
    Context Later = Tried;
    bool Moved = false;
    for (const auto &[V, Period] : Problem.Varying) {
      auto It = Later.Starts.find(V);
      if (It == Later.Starts.end() || Period <= 1)
        continue;
      It->second += Period - 1;
      Moved = true;
    }
    Totals TL = Moved ? evaluateWith(Later, Later.Fixed, Later.MaxSamples) : T;
    if (Moved && TL.Requests > 0) {
      Tried = std::move(Later);
      T = TL;
    }
  }
  // A value that leaves the guard undefined (a divisor of 0) is no answer.
  if (T.AddressUnknown || T.ActiveUnknown || T.Requests == 0)
    return std::nullopt;
  Ctx = std::move(Tried);
  Base = T;
  std::string Names;
  for (const Symbol &S : Ctx.Defaulted) // In the order of the other notes.
    if (Found->Values.count(S)) {
      Bounds.insert(S);
      Names += fmt::format("{}{} = {}", Names.empty() ? "" : ", ", S.Name,
                           Found->Values.at(S));
    }
  for (const auto &[V, Start] : Found->Starts) {
    bool Block = V.Kind == SymbolKind::BlockIdx;
    Names += fmt::format("{}{} {} {}", Names.empty() ? "" : ", ", V.Name,
                         Block ? "=" : ">=",
                         Block ? Start : Ctx.Starts.at(V));
  }
  return fmt::format("assuming {} so that the access executes", Names);
}

/// When no value of the defaulted symbols lets a lane run the access but
/// the conditions that keep it from running are the same for all lanes of a
/// block (ggml's stream-k fixup returns for every block under the default
/// tile index), the warps that do run it make the requests: predicted
/// without those conditions, and said so. When the lanes' own conditions
/// still let none run under the defaults (the fallback instance's `if (i >
/// i_max) return;` with i_max from the defaulted tile index), the guards
/// that remain are searched (solveGuardsPass). Updates \p Ctx and \p Base
/// (and \p Bounds with the values the search fixed).
std::optional<std::string> dropBlockConditionsPass(Context &Ctx, Totals &Base,
                                                   std::set<Symbol> &Bounds,
                                                   GuardMemo &Guards) {
  Expr Lane = laneConditions(Ctx.Active);
  if (Lane == Ctx.Active)
    return std::nullopt;
  // Only where a default decides: a block condition on known values (the
  // launch's grid) that lets no block through is code that does not run.
  std::set<Symbol> Dropped = Ctx.Active.symbols(), Kept = Lane.symbols();
  if (llvm::none_of(Ctx.Defaulted, [&](const Symbol &S) {
        return Dropped.count(S) && !Kept.count(S);
      }))
    return std::nullopt;
  Context Without = Ctx;
  Without.Active = Lane;
  Totals T = evaluateWith(Without, Ctx.Fixed, Ctx.MaxSamples);
  std::string Solved;
  if (!T.AddressUnknown && T.Requests == 0) {
    std::set<Symbol> Fixed;
    std::optional<std::string> Found =
        solveGuardsPass(Without, T, Fixed, Guards);
    if (!Found)
      return std::nullopt;
    Bounds.insert(Fixed.begin(), Fixed.end());
    Solved = "; " + *Found;
  }
  if (T.AddressUnknown || T.Requests == 0)
    return std::nullopt;
  Ctx = std::move(Without);
  Base = T;
  return "assuming some blocks pass the access's block-wide conditions "
         "(under the assumed values none of the simulated blocks does)" +
         Solved;
}

/// \p S taken as the same in every lane of a warp: a uniform unknown of its
/// name and version, in \p Address's context.
Expr uniformTwin(const Expr &Address, const Symbol &S) {
  return ExprContext::of(Address).symbol(
      {SymbolKind::UniformValue, S.Name, S.Version});
}

/// \p Access with each loaded value of its address that is read from one
/// address per warp (the load itself predicts uniform), and each opaque
/// per-lane value all of whose inputs are the same in a warp's lanes, made
/// a uniform unknown, with a note per value; nullopt when some gathered or
/// opaque value of the address is neither. A data-dependent value of the
/// condition only that is no load (`__syncthreads_or(found)`) stays: the
/// prediction assumes its branch taken.
std::optional<AccessPattern>
withWarpUniformValues(const AccessPattern &Access, const PredictOptions &Opts,
                      GuardMemo &Guards, std::vector<std::string> &Notes) {
  std::map<Symbol, Expr> Uniform;
  std::set<Symbol> InAddress = Access.Address.symbols();
  std::set<Symbol> Gathered = InAddress;
  for (const Symbol &S : Access.Active.symbols())
    Gathered.insert(S);
  for (const Symbol &S : Gathered) {
    if (S.Kind != SymbolKind::IndirectValue && S.Kind != SymbolKind::LaneValue)
      continue;
    bool Any = false, AllUniform = true;
    for (const auto &[Of, From] : Access.LoadAddresses) {
      if (!(Of == S))
        continue;
      Any = true;
      AccessPattern Load;
      Load.Address = From;
      Load.Active = Access.Active;
      if (predictWith(Load, Opts, Guards).Class != Classification::Uniform) {
        AllUniform = false;
        break;
      }
      if (S.Kind == SymbolKind::IndirectValue)
        break; // One address per load.
    }
    if (!Any) {
      if (InAddress.count(S))
        return std::nullopt;
      continue;
    }
    if (!AllUniform)
      return std::nullopt;
    Uniform[S] = uniformTwin(Access.Address, S);
    std::string Note =
        S.Kind == SymbolKind::IndirectValue
            ? fmt::format("'{}' is read from one address per warp: the same "
                          "value in all its lanes",
                          S.Name)
            : fmt::format("'{}' is computed from values the same in all "
                          "lanes of a warp: the same value in all its lanes",
                          S.Name);
    if (!llvm::is_contained(Notes, Note)) // Versions of one load: one note.
      Notes.push_back(std::move(Note));
  }
  AccessPattern Q = Access;
  Q.Address = Access.Address.substitute(Uniform);
  Q.Active = Access.Active.substitute(Uniform);
  Q.LoadAddresses.clear();
  Q.OpaqueReason.clear();
  return Q;
}

/// For an access whose address holds per-lane values the engine cannot
/// model, executed by one lane of each warp (`if (tid == 0)
/// logits[total.p] = ...`): whatever that lane's address, one request of
/// one element. The prediction with those values taken as unknowns the
/// same in all lanes, when it shows one active lane per request; nullopt
/// otherwise.
std::optional<Prediction> oneLanePrediction(const AccessPattern &Access,
                                            const PredictOptions &Opts,
                                            GuardMemo &Guards) {
  bool ValuesUnknown = Access.UnknownReason.empty() ||
                       Access.UnknownReason == Access.OpaqueReason;
  if (!ValuesUnknown || !Access.Active.isLaneDependent())
    return std::nullopt;
  std::map<Symbol, Expr> Uniform;
  std::vector<std::string> Names;
  for (const Symbol &S : Access.Address.symbols())
    if (S.Kind == SymbolKind::IndirectValue ||
        S.Kind == SymbolKind::LaneValue) {
      Uniform[S] = uniformTwin(Access.Address, S);
      if (!llvm::is_contained(Names, S.Name))
        Names.push_back(S.Name);
    }
  if (Uniform.empty())
    return std::nullopt;
  AccessPattern Q = Access;
  Q.Address = Access.Address.substitute(Uniform);
  Q.LoadAddresses.clear();
  Q.OpaqueReason.clear();
  Q.UnknownReason.clear();
  Prediction P = predictWith(Q, Opts, Guards);
  if (P.Class == Classification::Unknown || !P.ActiveLanesPerRequest ||
      *P.ActiveLanesPerRequest != 1.0)
    return std::nullopt;
  P.Assumptions.insert(
      P.Assumptions.begin(),
      fmt::format("one lane of each warp executes the access: its address "
                  "(through {}, not modelled per lane) is one element",
                  llvm::join(Names, ", ")));
  return P;
}

} // namespace

Prediction predictWith(const AccessPattern &Access, const PredictOptions &Opts,
                       GuardMemo &Guards) {
  if (!Access.LoadAddresses.empty() && Access.UnknownReason.empty()) {
    std::vector<std::string> Notes;
    if (std::optional<AccessPattern> Q =
            withWarpUniformValues(Access, Opts, Guards, Notes)) {
      Prediction P = predictWith(*Q, Opts, Guards);
      // An address the engine cannot model even then stays a gather: that
      // is what it is, and the reason says more.
      if (P.Class != Classification::Unknown) {
        P.Assumptions.insert(P.Assumptions.begin(), Notes.begin(), Notes.end());
        return P;
      }
    }
  }
  Prediction P;
  if (screenAddress(Access, P)) {
    if (std::optional<Prediction> One = oneLanePrediction(Access, Opts, Guards))
      return *One;
    return P;
  }
  // Bounded cost: the lanes evaluate each distinct node of the address once
  // (shared subtrees cost once), so an address with a huge number of them
  // (values merged over many paths of long functions) is not evaluated lane
  // by lane; a huge condition is dropped with a note.
  constexpr size_t MaxNodes = 20000;
  if (Access.Address.distinctNodes(MaxNodes + 1) > MaxNodes) {
    P.Class = Classification::Unknown;
    P.Reason = fmt::format("the address expression is too large to evaluate "
                           "({}+ distinct nodes)",
                           MaxNodes);
    return P;
  }
  if (Access.Active.distinctNodes(MaxNodes + 1) > MaxNodes) {
    AccessPattern Simpler = Access;
    Simpler.Active = Expr::constant(1);
    Prediction Q = predictWith(Simpler, Opts, Guards);
    Q.Assumptions.push_back("assuming every lane executes the access (its "
                            "condition is too large to evaluate)");
    return Q;
  }

  std::set<std::string> Untracked;
  Context Ctx;
  Ctx.Access = &Access;
  Ctx.Active = assumeBranchesTaken(Access.Active, Untracked);
  Ctx.Block = Opts.Block;
  Ctx.Fixed = fixedValues(Access.Address, Ctx.Active, Opts, Ctx.Defaulted);
  Ctx.DefaultValue = Opts.DefaultValue;
  Ctx.MaxSamples = std::max(Opts.MaxSamples, 1u);
  for (unsigned D = 0; D < 3; ++D) {
    Symbol Grid = Symbol::gridDim(D);
    auto It = Opts.Params.find(Grid.Name);
    if (It != Opts.Params.end())
      Ctx.Grid[Grid] = It->second;
  }
  for (const std::string &Name : Untracked)
    assume(P,
           fmt::format("assuming all lanes take the branch that depends on {}",
                       Name));

  Totals Base = evaluateWith(Ctx, Ctx.Fixed, Ctx.MaxSamples);
  std::set<Symbol> Bounds; // Defaulted symbols assumed large instead.
  if (!Base.AddressUnknown && Base.Requests == 0) {
    // A large bound, then a search of the guards, then every flag 0, then
    // one value at a time.
    std::optional<std::string> Stated =
        assumeBoundsPass(Ctx, Base, Bounds, int64_t(1) << 20);
    if (!Stated)
      Stated = solveGuardsPass(Ctx, Base, Bounds, Guards);
    if (!Stated)
      Stated = assumeBoundsPass(Ctx, Base, Bounds, 0);
    if (!Stated)
      Stated = assumeOneValuePass(Ctx, Base, Bounds);
    if (!Stated)
      Stated = dropBlockConditionsPass(Ctx, Base, Bounds, Guards);
    if (Stated)
      assume(P, *Stated);
  }
  for (const Symbol &S : Ctx.Defaulted) {
    // Two values that print alike (a load before and after a store that
    // may change it): the larger, whichever of the two sorts first.
    auto [It, New] = P.AssumedValues.try_emplace(S.Name, Ctx.Fixed.at(S));
    if (!New)
      It->second = std::max(It->second, Ctx.Fixed.at(S));
  }
  // The strides from the values the sectors were counted with (the passes
  // above may have changed them: `n > 100000` needs a larger n).
  std::tie(P.LaneStrideBytes, P.LaneStrideBytesValue) =
      laneStride(Access.Address, 0, Ctx.Fixed);
  std::tie(P.RowStrideBytes, P.RowStrideBytesValue) =
      laneStride(Access.Address, 1, Ctx.Fixed);
  if (Base.AddressUnknown || Base.Requests == 0) {
    P.Class = Classification::Unknown;
    P.NoLaneExecutes = !Base.AddressUnknown;
    if (P.NoLaneExecutes) {
      // False with only the values that are not defaults bound?
      ValueMap Known = Ctx.Fixed;
      for (const Symbol &S : Ctx.Defaulted)
        Known.erase(S);
      // A dimension of one thread has index 0 (`if (threadIdx.y > 0)` in a
      // block of 32x1 from the launch: ggml's mul_mat_vec_q as fastllm
      // launches it).
      unsigned Dims[3] = {Ctx.Block.X, Ctx.Block.Y, Ctx.Block.Z};
      for (unsigned D = 0; D < 3; ++D)
        if (Dims[D] == 1)
          Known[Symbol::threadIdx(D)] = 0;
      std::optional<int64_t> C = bindValues(Ctx.Active, Known).asConstant();
      P.DeadUnderKnownValues = C && *C == 0;
    }
    P.Reason = Base.AddressUnknown
                   ? "the address cannot be evaluated for some lane (a "
                     "division by zero, or a shift by less than 0 or more "
                     "than 63, under the assumed values)"
                   : "no lane executes the access under the assumptions";
    for (const Symbol &S : Ctx.Defaulted)
      assume(P, fmt::format("assuming {} = {}", S.Name, Ctx.Fixed.at(S)));
    return P;
  }
  if (Base.ActiveUnknown)
    assume(P, "assuming the access executes in lanes whose "
              "condition cannot be evaluated");
  if (!Access.IssuedAs.empty())
    assume(P, Access.IssuedAs);
  if (std::optional<std::string> Later = laterBlocksNote(Ctx, Base))
    assume(P, *Later);
  if (std::optional<std::string> Quotient = degenerateQuotient(Ctx))
    assume(P, *Quotient);

  P.SectorsPerRequest = Base.sectorsPerRequest();
  P.IdealSectorsPerRequest = Base.idealPerRequest();
  P.ActiveLanesPerRequest = double(Base.ActiveLanes) / Base.Requests;
  if (Access.Space == AccessSpace::Global)
    P.UsedBytesFraction =
        Base.Sectors ? std::min(1.0, double(Base.UsedBytes) /
                                         (double(Base.Sectors) * SectorBytes))
                     : 0.0;

  P.Representative = representativeWith(Ctx, *P.SectorsPerRequest);
  P.Requests = countRequests(Ctx, Access);

  Expr LanePart = Access.Address.splitLaneUniform().first;
  for (const Symbol &S : Ctx.Defaulted)
    if (!Bounds.count(S))
      assumeDefault(Ctx, S, LanePart, P);

  ClassifyInput In;
  In.Access = &Access;
  In.Block = Opts.Block;
  In.Base = &Base;
  In.Numbers = &P;
  In.DepthStrideBytesValue = laneStride(Access.Address, 2, Ctx.Fixed).second;
  P.Class = classify(In);
  return P;
}

} // namespace predictor

Prediction predict(const AccessPattern &Access, const PredictOptions &Opts) {
  predictor::GuardMemo Guards;
  return predictor::predictWith(Access, Opts, Guards);
}

} // namespace coalesce
