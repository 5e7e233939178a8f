//===- KernelPrediction.cpp - Predictions of a kernel's accesses ----------===//
#include "coalesce/KernelPrediction.h"

#include "model/PredictionCache.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace coalesce {

namespace {

/// One way the kernel runs: a block shape, where it comes from, and the
/// values its launch gives.
struct LaunchContext {
  BlockShape Block;
  BlockShapeSource Source = BlockShapeSource::Assumed;
  const LaunchSite *Site = nullptr;
  std::string Note; ///< "block shape 128 from the launch at f.cu:40".
  /// The launch's grid: the site's, or the one it computes from the
  /// kernel's arguments with the values given (resolveGrid()).
  std::optional<BlockShape> Grid;
  /// "grid 16 x 1 x 1 (computed from M)", for the launch's values; or the
  /// note naming the --param values that would give the grid.
  std::string GridFrom, GridHint;
};

/// Whether an address or a condition of \p K's global accesses depends on
/// threadIdx.y (shared ones do not decide it: cub's block primitives index
/// their TempStorage by a linear thread index that names threadIdx.y also
/// in 1-D blocks).
bool readsThreadIdxY(const KernelRecord &K) {
  for (const AccessRecord &A : K.Accesses)
    for (const Expr *E : {&A.Pattern.Address, &A.Pattern.Active})
      for (const Symbol &S : E->symbols())
        if (S == Symbol::threadIdx(1) &&
            A.Pattern.Space == AccessSpace::Global)
          return true;
  return false;
}

/// The parameters launch \p Site passes the same value as \p Name
/// (LaunchSite::SameValueAs, either way round), \p Name not included.
std::vector<std::string> sameValueParams(const LaunchSite &Site,
                                         const std::string &Name) {
  std::vector<std::string> Out;
  for (const auto &[Later, Earlier] : Site.SameValueAs)
    if (Earlier == Name)
      Out.push_back(Later);
    else if (Later == Name)
      Out.push_back(Earlier);
  return Out;
}

/// Sets \p C's grid: the launch's own, or the one it computes from the
/// kernel's arguments (LaunchSite::GridOfParams) with the values the user
/// gave (--param) or the launch passes. A default value never makes up the
/// count of blocks: without a value, C.GridHint names the parameters.
void resolveGrid(LaunchContext &C, const KernelRecord &K,
                 const AnalysisConfig &Config) {
  if (!C.Site)
    return;
  C.Grid = C.Site->Grid;
  if (C.Grid || !C.Site->GridOfParams)
    return;
  std::map<std::string, int64_t> Known = C.Site->Params;
  for (const auto &[Name, Value] : Config.paramsFor(K.Name))
    Known[Name] = Value;
  // A parameter the launch passes the same value as another (`k<<<g,
  // b>>>(n, n)`) gives the grid too: Names holds the one whose value was
  // used, Hints each alternative ("inputElements (or opElements)").
  std::vector<std::string> Names, Hints;
  Bindings B;
  bool Missing = false;
  for (const Expr &D : *C.Site->GridOfParams)
    for (const Symbol &S : D.symbols()) {
      std::vector<std::string> Same{S.Name};
      for (std::string &Other : sameValueParams(*C.Site, S.Name))
        Same.push_back(std::move(Other));
      auto Given = std::find_if(Same.begin(), Same.end(), [&](auto &N) {
        return Known.count(N) != 0;
      });
      const std::string &Name = Given != Same.end() ? *Given : S.Name;
      if (std::find(Names.begin(), Names.end(), Name) != Names.end())
        continue;
      Names.push_back(Name);
      Hints.push_back(Same.size() == 1
                          ? Name
                          : fmt::format("{} (or {}: the same value there)",
                                        S.Name,
                                        fmt::join(Same.begin() + 1, Same.end(),
                                                  ", ")));
      if (Given != Same.end())
        B.set(S, Known.at(Name));
      else
        Missing = true;
    }
  unsigned Dims[3];
  for (unsigned I = 0; I < 3 && !Missing; ++I) {
    std::optional<int64_t> V = (*C.Site->GridOfParams)[I].evaluate(B);
    Missing = !V || *V <= 0 || *V > int64_t(UINT32_MAX);
    Dims[I] = Missing ? 0 : unsigned(*V);
  }
  if (!Missing) {
    C.Grid = BlockShape{Dims[0], Dims[1], Dims[2]};
    C.GridFrom = fmt::format("grid {} x {} x {} (computed from {})", Dims[0],
                             Dims[1], Dims[2], fmt::join(Names, ", "));
  } else if (!Names.empty()) {
    C.GridHint = fmt::format(
        "the launch at {}:{} computes the grid from {}: --param {} {} the "
        "cost per launch",
        C.Site->Loc.File, C.Site->Loc.Line, fmt::join(Hints, " and "),
        fmt::format("{}=...", fmt::join(Names, "=... --param ")),
        Names.size() == 1 ? "gives" : "give");
  }
}

std::vector<LaunchContext> contextsOf(const KernelRecord &K,
                                      const AnalysisConfig &Config,
                                      const std::vector<LaunchSite> &Sites) {
  std::vector<LaunchContext> Out;
  if (std::optional<BlockShape> User = Config.blockFor(K.Name)) {
    LaunchContext C{*User, BlockShapeSource::CommandLine, nullptr, ""};
    // The user's shape, with the values of a launch when there is one.
    if (!Sites.empty())
      C.Site = &Sites.front();
    C.Note = describeBlockShape(C.Block, C.Source, {});
    resolveGrid(C, K, Config);
    Out.push_back(C);
    return Out;
  }
  for (const LaunchSite &S : Sites) {
    LaunchContext C{S.Block, BlockShapeSource::LaunchSite, &S, ""};
    C.Note = describeBlockShape(C.Block, C.Source, S.Loc);
    if (!S.Unresolved.empty())
      C.Note += fmt::format(" ({} not known there: 1 used, which does not "
                            "change the lanes of a warp)",
                            S.Unresolved);
    resolveGrid(C, K, Config);
    Out.push_back(C);
  }
  if (!Out.empty())
    return Out;
  LaunchContext C;
  unsigned Threads = 256;
  if (K.LaunchBounds && *K.LaunchBounds > 0) {
    Threads = *K.LaunchBounds;
    C.Source = BlockShapeSource::LaunchBounds;
  }
  C.Block = BlockShape{Threads, 1, 1};
  // A kernel that indexes with threadIdx.y is not launched with a 1-D
  // block (threadIdx.y would be 0 everywhere): rows of a warp, the shape
  // such kernels use (ggml's dim3(warp_size, nwarps)).
  if (Threads > 32 && Threads % 32 == 0 && readsThreadIdxY(K))
    C.Block = BlockShape{32, Threads / 32, 1};
  C.Note = describeBlockShape(C.Block, C.Source, {});
  Out.push_back(C);
  return Out;
}

bool samePrediction(const Prediction &A, const Prediction &B) {
  return A.Class == B.Class && A.SectorsPerRequest == B.SectorsPerRequest &&
         A.IdealSectorsPerRequest == B.IdealSectorsPerRequest &&
         A.BestSectorsPerRequest == B.BestSectorsPerRequest &&
         A.WorstSectorsPerRequest == B.WorstSectorsPerRequest;
}

/// One prediction an access needs under one launch: the distinct input it
/// asks the cache for, and what that launch adds to its assumptions.
struct Request {
  size_t Input = 0;
  std::vector<std::string> Assumptions;
};

Request requestIn(const AccessRecord &A, const KernelRecord &K,
                  const LaunchContext &C, const AnalysisConfig &Config,
                  PredictionCache &Cache) {
  PredictOptions Opts;
  Opts.Block = C.Block;
  Opts.DefaultValue = Config.DefaultValue;
  std::map<std::string, int64_t> User = Config.paramsFor(K.Name);
  std::vector<std::string> FromLaunch;
  AccessPattern Pattern = A.Pattern;
  if (C.Site) {
    for (const auto &[Name, Value] : C.Site->Params)
      if (!User.count(Name)) {
        Opts.Params[Name] = Value;
        FromLaunch.push_back(fmt::format("{} = {}", Name, Value));
      }
    static const char *GridNames[] = {"gridDim.x", "gridDim.y", "gridDim.z"};
    if (!C.GridFrom.empty())
      FromLaunch.push_back(C.GridFrom);
    if (C.Grid)
      for (unsigned I = 0; I < 3; ++I) {
        unsigned V = I == 0 ? C.Grid->X : I == 1 ? C.Grid->Y : C.Grid->Z;
        if (!User.count(GridNames[I]))
          Opts.Params[GridNames[I]] = V;
      }
    // A pointer argument into the middle of an allocation (d_a + 1).
    auto Off = C.Site->PointerOffsets.find(A.Base);
    if (Off != C.Site->PointerOffsets.end()) {
      Pattern.Address = Pattern.Address + Expr::constant(Off->second);
      FromLaunch.push_back(fmt::format("'{}' starts {} bytes into its allocation",
                                       A.Base, Off->second));
    }
  }
  for (const auto &[Name, Value] : User)
    Opts.Params[Name] = Value;
  // A parameter the launch passes the same value as one the user gave
  // (`square<<<g, b>>>(n, n)` with --param cols=...) has that value.
  if (C.Site)
    for (const auto &[From, Value] : User)
      for (const std::string &To : sameValueParams(*C.Site, From))
        if (!User.count(To)) {
          Opts.Params[To] = Value;
          FromLaunch.push_back(fmt::format(
              "{} = {} (the value it passes as {})", To, Value, From));
        }
  Request R;
  R.Input = Cache.add(Pattern, Opts);
  if (!FromLaunch.empty()) {
    std::string List;
    for (const std::string &S : FromLaunch)
      List += (List.empty() ? "" : ", ") + S;
    R.Assumptions.push_back(fmt::format("{} from the launch at {}:{}", List,
                                        C.Site->Loc.File, C.Site->Loc.Line));
  }
  R.Assumptions.push_back(C.Note);
  if (!C.GridHint.empty())
    R.Assumptions.push_back(C.GridHint);
  return R;
}

} // namespace

/// Block shapes tried, in order, when the assumed shape runs no lane of an
/// access whose condition reads blockDim (FastGEMV's `if (blockDim.x <=
/// WARP_SIZE) res[row] = ...` under the assumed 256 threads, or its wide
/// rows under the 32x8 assumed for a kernel that reads threadIdx.y:
/// FastGEMV's test launches 128x8).
const BlockShape OtherAssumedShapes[] = {{32, 8, 1}, {32, 1, 1},
                                         {128, 8, 1}, {1024, 1, 1},
                                         {16, 16, 1}};

/// For an access no lane runs in the assumed block shape because of a
/// condition on blockDim: the prediction in the first other shape that runs
/// it, with the shape stated. Nullopt when none does. Through \p Cache:
/// the instantiations of a template ask for the same predictions.
std::optional<Prediction> inOtherAssumedShape(const AccessPattern &Pattern,
                                              const PredictOptions &Opts,
                                              PredictionCache &Cache,
                                              std::string &Shape) {
  std::set<Symbol> InActive = Pattern.Active.symbols();
  if (!InActive.count(Symbol::blockDim(0)) &&
      !InActive.count(Symbol::blockDim(1)) &&
      !InActive.count(Symbol::blockDim(2)))
    return std::nullopt;
  for (const BlockShape &B : OtherAssumedShapes) {
    if (B == Opts.Block)
      continue;
    PredictOptions Other = Opts;
    Other.Block = B;
    Prediction P = Cache.get(Pattern, Other);
    if (P.NoLaneExecutes || P.Class == Classification::Unknown)
      continue;
    Shape = B.str();
    return P;
  }
  return std::nullopt;
}

/// Where record \p R of an access reaches it, against \p Kept, another
/// record of the same access: its launch when they differ, else the first
/// call of its chain that differs ("sparse.cu:1122"); empty for the kernel
/// body.
std::string whereReached(const AccessRecord &R, const AccessRecord &Kept) {
  if (!R.Launch.empty() && R.Launch != Kept.Launch)
    return fmt::format("for the launch {}", R.Launch);
  for (size_t I = 0; I < R.CallChain.size(); ++I) {
    const SourceLocation &At = R.CallChain[I];
    if (I < Kept.CallChain.size() && Kept.CallChain[I].Line == At.Line &&
        Kept.CallChain[I].Column == At.Column &&
        Kept.CallChain[I].File == At.File)
      continue;
    std::string File = At.File;
    if (size_t Slash = File.find_last_of('/'); Slash != std::string::npos)
      File = File.substr(Slash + 1);
    return fmt::format("through the call at {}:{}", File, At.Line);
  }
  return "";
}

/// Records of one access (its location and operation) that no lane runs
/// under the assumed values, through one path of inlined calls or for one
/// launch, when another record of the access has a prediction: that path
/// adds no request the tool can count, so it is a note on the prediction
/// (Warp's sparse.cu reaches its row sort through three calls, one of them
/// behind a loop whose exit the defaults contradict), not an unknown.
void foldUnreachedCopies(std::vector<AccessRecord> &Records) {
  auto SameAccess = [](const AccessRecord &A, const AccessRecord &B) {
    return A.Loc.Line == B.Loc.Line && A.Loc.Column == B.Loc.Column &&
           A.Pattern.Op == B.Pattern.Op && A.Loc.File == B.Loc.File;
  };
  std::vector<bool> Gone(Records.size(), false);
  std::map<size_t, std::vector<std::string>> Notes;
  for (size_t I = 0; I < Records.size(); ++I) {
    const Prediction &P = Records[I].Predicted;
    if (!P.NoLaneExecutes || P.Class != Classification::Unknown)
      continue;
    for (size_t J = 0; J < Records.size(); ++J) {
      if (J == I || Gone[J] || !SameAccess(Records[I], Records[J]) ||
          Records[J].Predicted.Class == Classification::Unknown)
        continue;
      std::string Where = whereReached(Records[I], Records[J]);
      if (Where.empty())
        break;
      Gone[I] = true;
      if (!llvm::is_contained(Notes[J], Where))
        Notes[J].push_back(std::move(Where));
      break;
    }
  }
  for (auto &[J, Where] : Notes)
    Records[J].Predicted.Assumptions.push_back(fmt::format(
        "no lane runs this access {} under the assumed values: not predicted "
        "there",
        fmt::join(Where, ", ")));
  if (Notes.empty())
    return;
  size_t Out = 0;
  for (size_t I = 0; I < Records.size(); ++I)
    if (!Gone[I]) {
      if (Out != I)
        Records[Out] = std::move(Records[I]);
      ++Out;
    }
  Records.resize(Out);
}

struct KernelPredictionPlan::Impl {
  KernelRecord K;
  /// The launches the contexts point into (never resized).
  std::vector<LaunchSite> Sites;
  std::vector<LaunchContext> Contexts;
  PredictionCache Cache;
  /// Per access, per context (in Contexts order).
  std::vector<std::vector<Request>> Requests;

  Prediction predictionOf(const Request &R) const {
    Prediction P = Cache.result(R.Input);
    P.Assumptions.insert(P.Assumptions.end(), R.Assumptions.begin(),
                         R.Assumptions.end());
    return P;
  }
};

KernelPredictionPlan::KernelPredictionPlan(
    const KernelRecord &Kernel, const AnalysisConfig &Config,
    const std::vector<LaunchSite> &ProjectLaunches,
    std::shared_ptr<SharedPredictions> Shared)
    : P(std::make_unique<Impl>()) {
  if (Shared)
    P->Cache.share(std::move(Shared));
  P->K = Kernel;
  KernelRecord &K = P->K;
  P->Sites = K.Launches.empty() ? ProjectLaunches : K.Launches;
  P->Contexts = contextsOf(K, Config, P->Sites);
  K.Block = P->Contexts.front().Block;
  K.BlockSource = P->Contexts.front().Source;
  // The launch's grid, also when computed from the kernel's arguments.
  if (P->Contexts.front().Grid)
    K.LaunchGrid = P->Contexts.front().Grid;

  mergeVectorFields(K);
  mergeAdjacentElements(K);
  for (const AccessRecord &A : K.Accesses) {
    std::vector<Request> &Of = P->Requests.emplace_back();
    for (const LaunchContext &C : P->Contexts)
      Of.push_back(requestIn(A, K, C, Config, P->Cache));
  }
}

KernelPredictionPlan::~KernelPredictionPlan() = default;

size_t KernelPredictionPlan::size() const { return P->Cache.size(); }

void KernelPredictionPlan::compute(size_t I) { P->Cache.compute(I); }

KernelRecord KernelPredictionPlan::finish() {
  KernelRecord K = std::move(P->K);
  const std::vector<LaunchContext> &Contexts = P->Contexts;
  std::vector<AccessRecord> Out;
  Out.reserve(K.Accesses.size());
  for (size_t AI = 0; AI < K.Accesses.size(); ++AI) {
    AccessRecord &A = K.Accesses[AI];
    const std::vector<Request> &Requests = P->Requests[AI];
    // Distinct predictions over the launches, in launch order.
    std::vector<std::pair<Prediction, const LaunchContext *>> Distinct;
    unsigned Dead = 0;
    for (size_t CI = 0; CI < Contexts.size(); ++CI) {
      const LaunchContext &C = Contexts[CI];
      Prediction Pr = P->predictionOf(Requests[CI]);
      // Code a real launch never runs (`if (blockSize >= 64)` in the
      // blockSize = 1 instance) is not an unknown: that launch has no
      // request here. Only values the launch gave count as real: either
      // none was defaulted, or the condition is false without them
      // (`if (loff != -1)` with loff = -1 from the launch).
      if (Pr.NoLaneExecutes && C.Site &&
          (Pr.AssumedValues.empty() || Pr.DeadUnderKnownValues)) {
        ++Dead;
        continue;
      }
      bool Seen = false;
      for (const auto &D : Distinct)
        Seen |= samePrediction(D.first, Pr);
      if (!Seen)
        Distinct.emplace_back(std::move(Pr), &C);
    }
    // No launch found, and the assumed shape switches the access off
    // through blockDim: another assumed shape that runs it.
    if (Distinct.size() == 1 && Contexts.size() == 1 &&
        Contexts.front().Source == BlockShapeSource::Assumed &&
        Distinct.front().first.NoLaneExecutes) {
      // Copies: get() may grow the cache's inputs.
      auto [Pattern, Opts] = P->Cache.input(Requests.front().Input);
      std::string Shape;
      if (std::optional<Prediction> Other =
              inOtherAssumedShape(Pattern, Opts, P->Cache, Shape)) {
        Other->Assumptions.push_back(fmt::format(
            "assuming a {} block so that the access executes (in the assumed "
            "{} threads its condition on blockDim is false; no launch found: "
            "use --block)",
            Shape, Opts.Block.str()));
        Distinct.front().first = std::move(*Other);
      }
    }
    if (Distinct.empty() && !K.Instantiation.empty())
      continue; // Dead in this instance; the instances that run it report it.
    if (Distinct.empty()) {
      // No launch runs it: one record says so.
      Prediction Pr = P->predictionOf(Requests.front());
      Pr.Reason = fmt::format("not executed by any of the {} launches found",
                              Contexts.size());
      Distinct.emplace_back(std::move(Pr), &Contexts.front());
    } else if (Dead > 0) {
      Distinct.front().first.Assumptions.push_back(fmt::format(
          "not executed by {} of the {} launch shapes", Dead, Contexts.size()));
    }
    if (Contexts.size() > 1 && Distinct.size() == 1 && Dead == 0)
      Distinct.front().first.Assumptions.push_back(fmt::format(
          "the same for all {} launch shapes of this kernel", Contexts.size()));
    for (auto &[Pr, C] : Distinct) {
      // The last prediction takes the record itself.
      AccessRecord Copy = &Pr == &Distinct.back().first ? std::move(A) : A;
      Copy.Predicted = std::move(Pr);
      if (Distinct.size() > 1)
        Copy.Launch = C->Site ? fmt::format("block {} at {}:{}", C->Block.str(),
                                            C->Site->Loc.File,
                                            C->Site->Loc.Line)
                              : fmt::format("block {}", C->Block.str());
      Out.push_back(std::move(Copy));
    }
  }
  foldUnreachedCopies(Out);
  K.Accesses = std::move(Out);
  return K;
}

void predictKernel(KernelRecord &K, const AnalysisConfig &Config,
                   const std::vector<LaunchSite> &ProjectLaunches) {
  KernelPredictionPlan Plan(K, Config, ProjectLaunches);
  for (size_t I = 0; I < Plan.size(); ++I)
    Plan.compute(I);
  K = Plan.finish();
}

std::string describeBlockShape(const BlockShape &Shape, BlockShapeSource Source,
                               const SourceLocation &LaunchLoc) {
  std::string Threads = Shape.Y == 1 && Shape.Z == 1
                            ? fmt::format("a 1-D block of {} threads", Shape.X)
                            : fmt::format("a {} block", Shape.str());
  switch (Source) {
  case BlockShapeSource::CommandLine:
    return fmt::format("block shape {} from --block", Shape.str());
  case BlockShapeSource::LaunchSite:
    if (!LaunchLoc.valid())
      return fmt::format("block shape {} from a launch in this file",
                         Shape.str());
    return fmt::format("block shape {} from the launch at {}:{}", Shape.str(),
                       LaunchLoc.File, LaunchLoc.Line);
  case BlockShapeSource::LaunchBounds:
    if (Shape.Y > 1)
      return fmt::format("assuming a {} block ({} threads from "
                         "__launch_bounds__, in rows of 32 since the kernel "
                         "reads threadIdx.y)",
                         Shape.str(), Shape.X * Shape.Y);
    return fmt::format("assuming {} (from __launch_bounds__)", Threads);
  case BlockShapeSource::Assumed:
    if (Shape.Y > 1)
      return fmt::format("assuming a {} block (no launch found; rows of 32 "
                         "since the kernel reads threadIdx.y; use --block)",
                         Shape.str());
    return fmt::format("assuming {} (no launch found; use --block)", Threads);
  }
  return "";
}

} // namespace coalesce
