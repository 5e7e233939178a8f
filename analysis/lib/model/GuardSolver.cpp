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
// same number at more points. The witness points that differ only in
// threadIdx are evaluated as the lanes of one warp, and all the conjuncts
// (or comparisons) one question needs through one shared program.
//
//===----------------------------------------------------------------------===//

#include "model/PredictInternal.h"

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

/// The threadIdx component \p D (0: x, 1: y, 2: z) of \p L.
unsigned &coordinate(Lane &L, unsigned D) {
  return D == 0 ? L.X : D == 1 ? L.Y : L.Z;
}

/// Witness points: every lane of Lanes with every binding of Groups (the
/// symbols other than threadIdx), lane-major: point I is lane I / G with
/// group I % G, G = Groups.size().
struct PointSet {
  std::vector<Lane> Lanes;
  std::vector<Bindings> Groups;
  size_t size() const { return Lanes.size() * Groups.size(); }
};

/// Values of several expressions, [expression][point].
using PointValues = std::vector<std::vector<std::optional<int64_t>>>;

/// Expressions compiled once (LanePrograms) and evaluated at many points:
/// the search evaluates the same conjuncts and comparisons at every witness
/// point of every move, and a compiled DAG costs a fraction of
/// Expr::evaluate's memoized walk. Expressions evaluated together share one
/// program (the comparisons along a value carried through a loop's samples
/// share most of their nodes), and the points of one group share the
/// lane-free steps and run as the lanes of warps. The values are
/// Expr::evaluate's.
class PointEvaluator {
public:
  /// The values of \p Es at each point of \p Points, in their order.
  PointValues operator()(const std::vector<Expr> &Es, const PointSet &Points) {
    size_t G = Points.Groups.size();
    PointValues Out(Es.size(),
                    std::vector<std::optional<int64_t>>(Points.size()));
    if (Es.empty())
      return Out;
    std::vector<const void *> Key;
    for (const Expr &E : Es)
      Key.push_back(E.identity());
    auto It = Programs.find(Key);
    if (It == Programs.end())
      It = Programs
               .try_emplace(std::move(Key), Es,
                            std::make_unique<LaneProgram>(Es))
               .first;
    LaneProgram &Program = *It->second.second;
    std::vector<Lane> Chunk;
    int64_t Values[WarpSize];
    for (size_t Group = 0; Group < G; ++Group) {
      Program.prepare(Points.Groups[Group]);
      for (size_t First = 0; First < Points.Lanes.size(); First += WarpSize) {
        size_t Last = std::min(Points.Lanes.size(), First + WarpSize);
        Chunk.assign(Points.Lanes.begin() + First, Points.Lanes.begin() + Last);
        Program.atWarp(Chunk, Values);
        for (size_t E = 0; E < Es.size(); ++E) {
          uint32_t Defined = Program.rootAt(E, Values);
          for (size_t L = First; L < Last; ++L)
            if ((Defined >> (L - First)) & 1)
              Out[E][L * G + Group] = Values[L - First];
        }
      }
    }
    return Out;
  }

private:
  /// By the expressions' nodes; the Exprs keep the nodes (and so the key)
  /// alive.
  std::map<std::vector<const void *>,
           std::pair<std::vector<Expr>, std::unique_ptr<LaneProgram>>>
      Programs;
};

/// The value of \p S at which each comparison (A op B) turns, at each point
/// of \p Points, [comparison][point]: the floor of the root of A - B when
/// that is linear in S (checked at S = 0, 1, 2); nullopt otherwise.
/// \p Differences are the comparisons' A - B.
PointValues linearRoots(const std::vector<Expr> &Differences, const Symbol &S,
                        const PointSet &Points, PointEvaluator &Evaluate) {
  PointValues Y[3];
  size_t G = Points.Groups.size();
  if (S.Kind == SymbolKind::ThreadIdx) {
    // The three values are three lanes of one evaluation.
    unsigned D = unsigned(S.dimension());
    PointSet At{{}, Points.Groups};
    for (const Lane &L : Points.Lanes)
      for (unsigned X = 0; X < 3; ++X) {
        At.Lanes.push_back(L);
        coordinate(At.Lanes.back(), D) = X;
      }
    PointValues V = Evaluate(Differences, At);
    for (unsigned X = 0; X < 3; ++X) {
      Y[X].resize(Differences.size());
      for (size_t A = 0; A < Differences.size(); ++A)
        for (size_t I = 0; I < Points.size(); ++I)
          Y[X][A].push_back(V[A][((I / G) * 3 + X) * G + I % G]);
    }
  } else {
    for (int64_t X = 0; X < 3; ++X) {
      PointSet At = Points;
      for (Bindings &B : At.Groups)
        B.set(S, X);
      Y[X] = Evaluate(Differences, At);
    }
  }
  PointValues Roots(Differences.size(),
                    std::vector<std::optional<int64_t>>(Points.size()));
  for (size_t A = 0; A < Differences.size(); ++A)
    for (size_t I = 0; I < Points.size(); ++I) {
      const std::optional<int64_t> &Y0 = Y[0][A][I], &Y1 = Y[1][A][I],
                                   &Y2 = Y[2][A][I];
      if (!Y0 || !Y1 || !Y2)
        continue;
      int64_t Slope = *Y1 - *Y0;
      if (Slope == 0 || *Y2 - *Y1 != Slope)
        continue;
      int64_t Num = -*Y0, Root = Num / Slope;
      if ((Num % Slope != 0) && ((Num < 0) != (Slope < 0)))
        --Root;
      Roots[A][I] = Root;
    }
  return Roots;
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
      std::set<Symbol> Syms;
      for (const Expr &A : Atoms)
        if (A.evaluationCost() <= MaxLaneAtomCost) {
          LaneAtoms[D].push_back(comparisonDifference(A));
          std::set<Symbol> Of = A.symbols();
          Syms.insert(Of.begin(), Of.end());
        }
      LaneAtomSymbols[D].assign(Syms.begin(), Syms.end());
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
  PointSet points(const ValueMap &Vals, const ValueMap &St) {
    Bindings Base;
    for (const auto &[S, V] : Vals)
      Base.set(S, V);
    // Where lane guards (`threadIdx.x == df - 1`) turn, with the lanes and
    // varying symbols at 0.
    PointSet AtZero{{Lane{0, 0, 0, 0, 0}}, {Base}};
    for (const auto &[V, Period] : Problem.Varying)
      AtZero.Groups[0].set(V, St.at(V));
    const unsigned Dims[3] = {Problem.Block.X, Problem.Block.Y,
                              Problem.Block.Z};

    PointSet Out{{Lane{0, 0, 0, 0, 0}}, {Base}};
    for (unsigned D = 0; D < 3; ++D) {
      std::vector<int64_t> Lanes{0};
      auto AddLane = [&](int64_t L) {
        if (L >= 0 && L < int64_t(Dims[D]) && Lanes.size() < MaxLaneValues &&
            std::find(Lanes.begin(), Lanes.end(), L) == Lanes.end())
          Lanes.push_back(L);
      };
      AddLane(int64_t(Dims[D]) - 1);
      for (const std::optional<int64_t> &Root : laneRoots(D, AtZero))
        if (Root)
          for (int64_t R : {*Root, *Root + 1})
            AddLane(R);
      std::vector<Lane> Next;
      for (const Lane &B : Out.Lanes)
        for (int64_t L : Lanes) {
          Next.push_back(B);
          coordinate(Next.back(), D) = unsigned(L);
        }
      Out.Lanes = std::move(Next);
    }
    unsigned Corners = 0;
    for (const auto &[V, Period] : Problem.Varying) {
      int64_t First = St.at(V);
      bool Both = Period > 1 && Corners++ < MaxCornerSymbols;
      std::vector<Bindings> Next;
      for (const Bindings &B : Out.Groups) {
        Next.push_back(B);
        Next.back().set(V, First);
        if (Both) {
          Next.push_back(B);
          Next.back().set(V, First + Period - 1);
        }
      }
      Out.Groups = std::move(Next);
    }
    return Out;
  }

  /// The roots of the lane guards on threadIdx.\p D at \p AtZero (one
  /// point), memoized by the values of the guards' other symbols: most moves
  /// change a value the guards do not read.
  const std::vector<std::optional<int64_t>> &laneRoots(unsigned D,
                                                       const PointSet &AtZero) {
    std::vector<std::optional<int64_t>> Key;
    for (const Symbol &S : LaneAtomSymbols[D])
      Key.push_back(AtZero.Groups[0].lookup(S));
    auto [It, New] = LaneRoots[D].try_emplace(std::move(Key));
    if (New)
      for (const std::vector<std::optional<int64_t>> &R : linearRoots(
               LaneAtoms[D], Symbol::threadIdx(D), AtZero, Evaluate))
        It->second.push_back(R[0]);
    return It->second;
  }

  /// nullopt once the node budget is spent.
  std::optional<Score> score(const ValueMap &Vals, const ValueMap &St) {
    PointSet Points = points(Vals, St);
    uint64_t Cost = uint64_t(Points.size()) * ActiveNodes;
    if (Cost > Budget)
      return std::nullopt;
    Budget -= Cost;
    std::vector<unsigned> True(Points.size(), 0);
    for (const std::vector<std::optional<int64_t>> &V :
         Evaluate(Conjuncts, Points))
      for (size_t I = 0; I < Points.size(); ++I)
        True[I] += V[I] && *V[I] != 0;
    Score Sc{0, 0};
    for (unsigned T : True) {
      Sc.first = std::max(Sc.first, T);
      Sc.second += T;
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
    PointSet Points = points(Values, Starts);
    uint64_t RootCost = uint64_t(Points.size()) * AtomCost;
    if (RootCost <= Budget) {
      Budget -= RootCost;
      PointValues Roots = linearRoots(Atoms, U.S, Points, Evaluate);
      for (size_t Point = 0; Point < Points.size(); ++Point)
        for (const std::vector<std::optional<int64_t>> &R : Roots)
          if (const std::optional<int64_t> &Root = R[Point])
            for (int64_t V : {*Root, *Root + 1, *Root - 1})
              Add(V);
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
  PointEvaluator Evaluate; ///< Caches programs: not the state.
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
  /// The lane guards' symbols, and their roots by the symbols' values.
  std::vector<Symbol> LaneAtomSymbols[3];
  std::map<std::vector<std::optional<int64_t>>,
           std::vector<std::optional<int64_t>>>
      LaneRoots[3];
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
