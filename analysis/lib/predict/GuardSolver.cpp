//===- GuardSolver.cpp - Values under which some lane runs an access ------===//
//
// When no sampled lane executes an access, the defaults (every parameter
// 1024) or the sampled blocks and iterations (0..P-1) are usually what
// switches it off: `if (tid == k)`, `if (mask & 16)`, `if (blockIdx.x ==
// gridDim.x - 1)`, `if (x >= n - 64*blockIdx.x)`. A greedy search changes
// one value at a time, taking candidates from the guards themselves: for a
// comparison linear in the value (checked by finite differences), its root
// at a witness point (a corner lane with the first or last sampled value of
// each varying symbol), and the constants it compares or masks with. A move
// is kept when it satisfies more conjuncts at some witness point, or the
// same number at more points.
//
//===----------------------------------------------------------------------===//

#include "predict/PredictInternal.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace coalesce {
namespace predictor {
namespace {

/// Candidate values further from zero are not tried.
constexpr int64_t MaxCandidate = int64_t(1) << 31;
/// Varying symbols beyond this many are held at their first value in the
/// witness points (2^4 combinations at most).
constexpr unsigned MaxCornerSymbols = 4;
/// Values of one threadIdx component in the witness points: 0, the last,
/// and where lane guards turn.
constexpr size_t MaxLaneValues = 4;
/// Moves in one greedy descent.
constexpr unsigned MaxRounds = 10;
/// Descents tried, each from a different first move.
constexpr unsigned MaxDescents = 8;
/// Nodes the search may evaluate in all (predicate size times points, per
/// move tried): about a second at worst.
constexpr uint64_t NodeBudget = uint64_t(1) << 24;

/// One thing the search may change: the value of a fixed symbol, or the
/// first sampled value of a varying one.
struct Unknown {
  Symbol S;
  bool IsStart = false;
  int64_t Limit = 0; ///< For starts: exclusive upper bound (0: none).
  /// Preference: 0 for starts (the defaults stay), 1 for symbols only the
  /// guard uses, 2 for symbols of the address (the numbers change).
  unsigned Tier = 0;
};

/// Every comparison of \p E that mentions \p S, and every constant of those
/// comparisons, into \p Atoms and \p Constants. Each distinct node of the
/// DAG is visited once (a value followed through a loop's samples shares
/// its subtrees many times over).
void collectAtoms(const Expr &E, const Symbol &S, std::vector<Expr> &Atoms,
                  std::set<int64_t> &Constants) {
  std::unordered_set<const void *> Seen, SeenInAtoms;
  std::vector<Expr> Work{E};
  while (!Work.empty()) {
    Expr X = Work.back();
    Work.pop_back();
    if (!Seen.insert(X.identity()).second)
      continue;
    switch (X.getKind()) {
    case Expr::Kind::Lt:
    case Expr::Kind::Le:
    case Expr::Kind::Eq:
    case Expr::Kind::Ne:
      if (X.symbols().count(S)) {
        Atoms.push_back(X);
        std::vector<Expr> Inner = X.operands();
        while (!Inner.empty()) {
          Expr Y = Inner.back();
          Inner.pop_back();
          if (!SeenInAtoms.insert(Y.identity()).second)
            continue;
          if (Y.isConstant())
            Constants.insert(Y.getConstant());
          for (const Expr &Op : Y.operands())
            Inner.push_back(Op);
        }
      }
      break;
    default:
      break;
    }
    const std::vector<Expr> &Ops = X.operands();
    for (auto It = Ops.rbegin(); It != Ops.rend(); ++It)
      Work.push_back(*It);
  }
}

/// Expressions compiled once (LanePrograms) and evaluated at many points,
/// each binding every symbol, threadIdx included: the search evaluates the
/// same conjuncts and comparisons at every witness point of every move, and
/// a compiled DAG costs a fraction of Expr::evaluate's memoized walk. The
/// values are Expr::evaluate's.
class PointEvaluator {
public:
  std::optional<int64_t> operator()(const Expr &E, const Bindings &Point) {
    auto It = Programs.find(E.identity());
    if (It == Programs.end())
      It = Programs
               .try_emplace(E.identity(), E, std::make_unique<LaneProgram>(E))
               .first;
    LaneProgram &Program = *It->second.second;
    Program.prepare(Point);
    Lane L{0, 0, 0, 0, 0};
    unsigned *Dims[3] = {&L.X, &L.Y, &L.Z};
    for (unsigned D = 0; D < 3; ++D)
      if (std::optional<int64_t> V = Point.lookup(Symbol::threadIdx(D)))
        *Dims[D] = unsigned(*V);
    return Program.at(L);
  }

private:
  /// By node; the Expr keeps the node (and so the key) alive.
  std::unordered_map<const void *,
                     std::pair<Expr, std::unique_ptr<LaneProgram>>>
      Programs;
};

/// The value of \p S at which comparison \p Atom (A op B) turns, at
/// \p Point: the floor of the root of A - B when that is linear in S
/// (checked at S = 0, 1, 2); nullopt otherwise. \p Difference is A - B.
std::optional<int64_t> linearRoot(const Expr &Difference, const Symbol &S,
                                  const Bindings &Point,
                                  PointEvaluator &Evaluate) {
  std::optional<int64_t> Y[3];
  for (int64_t X = 0; X < 3; ++X) {
    Bindings B = Point;
    B.set(S, X);
    Y[X] = Evaluate(Difference, B);
  }
  if (!Y[0] || !Y[1] || !Y[2])
    return std::nullopt;
  int64_t Slope = *Y[1] - *Y[0];
  if (Slope == 0 || *Y[2] - *Y[1] != Slope)
    return std::nullopt;
  int64_t Num = -*Y[0], Root = Num / Slope;
  if ((Num % Slope != 0) && ((Num < 0) != (Slope < 0)))
    --Root;
  return Root;
}

/// The search state and its scoring.
class Search {
public:
  Search(const GuardProblem &P) : Problem(P) {
    collectConjuncts(P.Active, Conjuncts);
    ActiveNodes = P.Active.evaluationCost();
    std::set<int64_t> Unused;
    // Lane guards whose roots are cheap to find (three evaluations at every
    // point tried, outside the budget): a comparison over a value carried
    // through a loop's samples, a large DAG, is left to the lanes 0 and
    // last, else every move would cost more than the whole budget.
    for (unsigned D = 0; D < 3; ++D) {
      std::vector<Expr> Atoms;
      collectAtoms(P.Active, Symbol::threadIdx(D), Atoms, Unused);
      for (const Expr &A : Atoms)
        if (A.evaluationCost() <= MaxLaneAtomCost)
          LaneAtoms[D].push_back(comparisonDifference(A));
    }
    Values = P.Fixed;
    for (const Symbol &S : P.Free)
      Unknowns.push_back({S, false, 0, P.InAddress.count(S) ? 2u : 1u});
    for (const auto &[V, Period] : P.Varying) {
      (void)Period;
      int64_t Limit = 0;
      if (V.Kind == SymbolKind::BlockIdx) {
        auto It = P.Fixed.find(Symbol::gridDim(unsigned(V.dimension())));
        if (It != P.Fixed.end())
          Limit = It->second;
      }
      Unknowns.push_back({V, true, Limit, 0});
      Starts[V] = 0;
    }
  }

  /// Greedy descents: from the best first move, then, when that one gets
  /// stuck, from each other improving first move in turn.
  std::optional<GuardSolution> run() {
    if (Unknowns.empty())
      return std::nullopt;
    std::optional<Score> First = score(Values, Starts);
    if (!First)
      return std::nullopt;
    std::vector<Move> FirstMoves;
    if (!improvingMoves(*First, FirstMoves))
      return std::nullopt;
    ValueMap Values0 = Values, Starts0 = Starts;
    for (size_t I = 0; I < FirstMoves.size() && I < MaxDescents; ++I) {
      Values = Values0;
      Starts = Starts0;
      apply(FirstMoves[I]);
      std::optional<bool> Solved = descend(FirstMoves[I].Result);
      if (!Solved)
        return std::nullopt; // Out of budget.
      if (*Solved)
        return solution();
    }
    return std::nullopt;
  }

private:
  /// A change of one unknown and the score it reaches.
  struct Move {
    size_t Unknown = 0;
    int64_t Value = 0;
    std::pair<unsigned, unsigned> Result;
  };

  /// Every move that beats \p Current, most preferred first: moves that
  /// satisfy more conjuncts at one point before those that only satisfy
  /// them at more points; then by tier (for the latter, a symbol only the
  /// guard uses before a start: moving the samples is worth it only when it
  /// lets one more conjunct hold); for a symbol of the address, multiples of
  /// 32 first; then by score, stable. false when out of
  /// budget.
  bool improvingMoves(const std::pair<unsigned, unsigned> &Current,
                      std::vector<Move> &Out) {
    Out.clear();
    for (size_t U = 0; U < Unknowns.size(); ++U)
      for (int64_t V : candidates(Unknowns[U])) {
        ValueMap Vals = Values, St = Starts;
        (Unknowns[U].IsStart ? St : Vals)[Unknowns[U].S] = V;
        std::optional<std::pair<unsigned, unsigned>> Sc = score(Vals, St);
        if (!Sc)
          return false;
        if (*Sc > Current)
          Out.push_back({U, V, *Sc});
      }
    auto Rank = [&](const Move &M) {
      bool More = M.Result.first > Current.first;
      unsigned Tier = Unknowns[M.Unknown].Tier;
      static const unsigned SumOnly[3] = {1, 0, 2};
      // In the address, a multiple of 32 keeps the default's alignment.
      bool Shifts = Tier == 2 && M.Value % 32 != 0;
      return std::make_tuple(More ? 0u : 1u, More ? Tier : SumOnly[Tier],
                             Shifts);
    };
    std::stable_sort(Out.begin(), Out.end(), [&](const Move &A, const Move &B) {
      if (Rank(A) != Rank(B))
        return Rank(A) < Rank(B);
      return A.Result > B.Result;
    });
    return true;
  }

  void apply(const Move &M) {
    const Unknown &U = Unknowns[M.Unknown];
    (U.IsStart ? Starts : Values)[U.S] = M.Value;
  }

  /// Takes the best improving move until every conjunct holds at a witness
  /// point (true) or none improves (false); nullopt when out of budget.
  std::optional<bool> descend(std::pair<unsigned, unsigned> Best) {
    std::vector<Move> Moves;
    for (unsigned Round = 1; Round < MaxRounds && !solved(Best); ++Round) {
      if (!improvingMoves(Best, Moves))
        return std::nullopt;
      if (Moves.empty())
        return false;
      apply(Moves.front());
      Best = Moves.front().Result;
    }
    return solved(Best);
  }

  GuardSolution solution() const {
    GuardSolution Out;
    for (const Symbol &S : Problem.Free)
      if (Values.at(S) != Problem.Fixed.at(S))
        Out.Values[S] = Values.at(S);
    for (const auto &[V, Start] : Starts)
      if (Start != 0)
        Out.Starts[V] = Start;
    return Out;
  }

  /// Most conjuncts true at one witness point, then the sum over points.
  using Score = std::pair<unsigned, unsigned>;

  bool solved(const Score &S) const { return S.first == Conjuncts.size(); }

  /// The witness points: corner lanes times the first and last sampled
  /// value of each varying symbol (shifted by \p St).
  std::vector<Bindings> points(const ValueMap &Vals, const ValueMap &St) const {
    Bindings Base;
    for (const auto &[S, V] : Vals)
      Base.set(S, V);
    // Where lane guards (`threadIdx.x == df - 1`) turn, with the lanes and
    // varying symbols at 0.
    Bindings AtZero = Base;
    for (unsigned D = 0; D < 3; ++D)
      AtZero.set(Symbol::threadIdx(D), 0);
    for (const auto &[V, Period] : Problem.Varying)
      AtZero.set(V, St.at(V));
    std::vector<Bindings> Out{Base};
    const unsigned Dims[3] = {Problem.Block.X, Problem.Block.Y,
                              Problem.Block.Z};

    for (unsigned D = 0; D < 3; ++D) {
      std::vector<int64_t> Lanes{0};
      auto AddLane = [&](int64_t L) {
        if (L >= 0 && L < int64_t(Dims[D]) && Lanes.size() < MaxLaneValues &&
            std::find(Lanes.begin(), Lanes.end(), L) == Lanes.end())
          Lanes.push_back(L);
      };
      AddLane(int64_t(Dims[D]) - 1);
      for (const Expr &A : LaneAtoms[D])
        if (std::optional<int64_t> Root =
                linearRoot(A, Symbol::threadIdx(D), AtZero, Evaluate))
          for (int64_t R : {*Root, *Root + 1})
            AddLane(R);
      std::vector<Bindings> Next;
      for (const Bindings &B : Out)
        for (int64_t L : Lanes) {
          Next.push_back(B);
          Next.back().set(Symbol::threadIdx(D), L);
        }
      Out = std::move(Next);
    }
    unsigned Corners = 0;
    for (const auto &[V, Period] : Problem.Varying) {
      int64_t First = St.at(V);
      bool Both = Period > 1 && Corners++ < MaxCornerSymbols;
      std::vector<Bindings> Next;
      for (const Bindings &B : Out) {
        Next.push_back(B);
        Next.back().set(V, First);
        if (Both) {
          Next.push_back(B);
          Next.back().set(V, First + Period - 1);
        }
      }
      Out = std::move(Next);
    }
    return Out;
  }

  /// nullopt once the node budget is spent.
  std::optional<Score> score(const ValueMap &Vals, const ValueMap &St) {
    std::vector<Bindings> Points = points(Vals, St);
    uint64_t Cost = uint64_t(Points.size()) * ActiveNodes;
    if (Cost > Budget)
      return std::nullopt;
    Budget -= Cost;
    Score Sc{0, 0};
    for (const Bindings &B : Points) {
      unsigned True = 0;
      for (const Expr &C : Conjuncts) {
        std::optional<int64_t> V = Evaluate(C, B);
        True += V && *V != 0;
      }
      Sc.first = std::max(Sc.first, True);
      Sc.second += True;
    }
    return Sc;
  }

  /// Values to try for \p U, in order of preference: a large bound, then
  /// the others nearest the current value first (for a symbol of the
  /// address, multiples of 32 before the others). Never negative: sizes,
  /// counts, flags and indices are what guards compare.
  std::vector<int64_t> candidates(const Unknown &U) {
    int64_t Current = (U.IsStart ? Starts : Values).at(U.S);
    std::vector<int64_t> Out;
    auto Add = [&](int64_t V) {
      if (V < 0 || V > MaxCandidate || V == Current)
        return;
      if (U.IsStart && U.Limit > 0 && V >= U.Limit)
        return;
      if (std::find(Out.begin(), Out.end(), V) == Out.end())
        Out.push_back(V);
    };
    if (!U.IsStart) {
      Add(int64_t(1) << 20);
      Add(0);
      Add(1);
    }
    auto [It, New] = AtomsOf.try_emplace(U.S);
    auto &[Atoms, Constants, AtomCost] = It->second;
    if (New) {
      collectAtoms(Problem.Active, U.S, Atoms, Constants);
      for (Expr &A : Atoms) {
        AtomCost += 3 * A.evaluationCost();
        A = comparisonDifference(A);
      }
    }
    // The roots cost three evaluations of each comparison per point, from
    // the same budget as the scores (a value carried through a loop's
    // samples makes many large comparisons).
    std::vector<Bindings> Points = points(Values, Starts);
    uint64_t RootCost = uint64_t(Points.size()) * AtomCost;
    if (RootCost <= Budget) {
      Budget -= RootCost;
      for (const Bindings &Point : Points)
        for (const Expr &A : Atoms)
          if (std::optional<int64_t> Root =
                  linearRoot(A, U.S, Point, Evaluate))
            for (int64_t R : {*Root, *Root + 1, *Root - 1})
              Add(R);
    }
    // The constants of non-linear guards: `mask & 16`, `n % 32`.
    for (int64_t C : Constants)
      Add(C);
    // A symbol of the address shifts or scales it: multiples of 32 first,
    // which keep the alignment the default has (a chosen value must not
    // create a misalignment that the default would not).
    size_t Keep = !U.IsStart && !Out.empty() && Out.front() == int64_t(1) << 20;
    bool Aligned = U.Tier == 2;
    auto Key = [&](int64_t V) {
      return std::make_pair(Aligned && V % 32 != 0, std::llabs(V - Current));
    };
    std::stable_sort(Out.begin() + Keep, Out.end(),
                     [&](int64_t A, int64_t B) { return Key(A) < Key(B); });
    return Out;
  }


  const GuardProblem &Problem;
  mutable PointEvaluator Evaluate; ///< Caches programs: not the state.
  /// Per unknown symbol: the differences (A - B) of the comparisons that
  /// mention it, their constants, and what finding their roots at one point
  /// costs.
  std::map<Symbol, std::tuple<std::vector<Expr>, std::set<int64_t>, uint64_t>>
      AtomsOf;
  std::vector<Expr> Conjuncts;
  size_t ActiveNodes = 0;
  /// The differences (A - B) of the predicate's comparisons on threadIdx.x,
  /// .y, .z.
  std::vector<Expr> LaneAtoms[3];
  /// The largest evaluationCost() of a lane guard whose roots are searched.
  static constexpr uint64_t MaxLaneAtomCost = 4096;
  uint64_t Budget = NodeBudget;
  std::vector<Unknown> Unknowns;
  ValueMap Values;
  ValueMap Starts;
};

} // namespace

std::optional<GuardSolution> solveGuards(const GuardProblem &P) {
  return Search(P).run();
}

} // namespace predictor
} // namespace coalesce
