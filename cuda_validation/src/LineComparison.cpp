//===- LineComparison.cpp - Measured waste per source line vs findings ----===//

#include "LineComparison.h"

#include "Attribution.h"
#include "KernelName.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace coalesce::verify {

namespace {

using LineKey = std::pair<std::string, unsigned>; // (file base name, line)

/// Where instruction \p I is counted: its own line, or the line of the one
/// predicted access it must belong to when the compiler moved it to a line
/// without any predicted access (same kernel, same kind, within three
/// lines, exactly one base among the candidates and one line).
LineKey placeOf(const SassInstruction &I, const std::vector<ManifestAccess> &M,
                const std::set<LineKey> &Predicted,
                const std::set<std::tuple<std::string, std::string, unsigned>>
                    &OwnInstruction,
                std::vector<std::string> &Moves) {
  std::string File = fileBaseName(I.File);
  LineKey Here{File, I.Line};
  if (Predicted.count(Here))
    return Here;
  std::set<unsigned> Lines;
  std::set<std::string> Bases;
  std::string Kernel = unqualifiedKernelName(I.Function);
  for (const ManifestAccess &A : M) {
    if (fileBaseName(A.File) != File ||
        unqualifiedKernelName(A.Kernel) != Kernel || !takesOp(A, I.Op))
      continue;
    unsigned D = A.Line > I.Line ? A.Line - I.Line : I.Line - A.Line;
    if (D == 0 || D > 3 || OwnInstruction.count({Kernel, File, A.Line}))
      continue;
    Lines.insert(A.Line);
    Bases.insert(A.Base.empty() ? A.Expr : A.Base);
  }
  if (Lines.size() != 1 || Bases.size() != 1)
    return Here;
  unsigned To = *Lines.begin();
  std::string Move = Kernel + "@" + File + ":" + std::to_string(I.Line) + " " +
                     memOpName(I.Op) + " " + I.Address + " counted on line " +
                     std::to_string(To) + " (the only predicted " +
                     memOpName(I.Op) + " of base " + *Bases.begin() +
                     " nearby without an instruction of its own)";
  // Once per instruction, not per launch of it.
  if (std::find(Moves.begin(), Moves.end(), Move) == Moves.end())
    Moves.push_back(std::move(Move));
  return {File, To};
}

std::optional<double> ratio(unsigned Num, unsigned Den) {
  if (Den == 0)
    return std::nullopt;
  return double(Num) / double(Den);
}

} // namespace

bool isToolkitHeader(const std::string &Path) {
  // A directory "cuda..." followed, at most three directories down, by
  // include/ (cuda/12.3/targets/x86_64-linux/include/ of the HPC SDK).
  for (size_t P = Path.find("cuda"); P != std::string::npos;
       P = Path.find("cuda", P + 1)) {
    if (P != 0 && Path[P - 1] != '/')
      continue;
    size_t Slash = Path.find('/', P);
    for (unsigned Depth = 0; Slash != std::string::npos && Depth != 4;
         ++Depth) {
      if (Path.compare(Slash + 1, 8, "include/") == 0)
        return true;
      Slash = Path.find('/', Slash + 1);
    }
  }
  return false;
}

bool lacksLineInfo(const SourcePage &Page) {
  if (Page.Instructions.empty())
    return false;
  for (const SassInstruction &I : Page.Instructions)
    if (I.Line != 0)
      return false;
  return true;
}

namespace {

/// Finding \p A's predicted excess for the profiled launches of its kernel
/// (its per-launch figure times them); nullopt when it has no per-launch
/// figure, its kernel has several instances or rows for several launch
/// shapes in the manifest (which of them ran is not known here), or no
/// launch of it was profiled.
std::optional<double>
predictedExcess(const ManifestAccess &A,
                const std::vector<ManifestAccess> &Accesses,
                const SourcePage &Page) {
  // One instance, and one row for this access.
  for (const ManifestAccess &B : Accesses)
    if (B.Kernel == A.Kernel && B.Id != A.Id &&
        (B.Instance != A.Instance ||
         (B.File == A.File && B.Line == A.Line && B.Column == A.Column &&
          B.Op == A.Op)))
      return std::nullopt;
  unsigned Launches = 0;
  for (const auto &[Function, N] : Page.Launches)
    if (unqualifiedKernelName(Function) == A.Kernel)
      Launches += N;
  if (!A.ExcessPerLaunch || Launches == 0)
    return std::nullopt;
  return *A.ExcessPerLaunch * Launches;
}

} // namespace

LineComparison compareLines(const std::vector<ManifestAccess> &Accesses,
                            const SourcePage &Page, const LineCriteria &C,
                            const std::set<std::string> &Unpredicted) {
  // Every file the manifest names counts, whatever space its accesses are
  // in: a conflict in an analyzed file without predicted shared accesses
  // is missed.
  std::set<std::string> Files;
  std::vector<ManifestAccess> InSpace;
  for (const ManifestAccess &A : Accesses) {
    Files.insert(fileBaseName(A.File));
    if (A.Space == C.Space)
      InSpace.push_back(A);
  }
  std::set<LineKey> Predicted;
  std::map<LineKey, std::set<std::string>> Rules;
  // The findings' predicted excess per line; a line one of whose findings
  // has none is in NoExcess.
  std::map<LineKey, double> Excess;
  std::set<LineKey> NoExcess;
  for (const ManifestAccess &A : InSpace) {
    std::string F = fileBaseName(A.File);
    for (unsigned L = A.Line; L <= std::max(A.Line, A.EndLine); ++L)
      Predicted.insert({F, L});
    if (!A.Rule.empty() && A.Rule != "-") {
      Rules[{F, A.Line}].insert(A.Rule);
      if (std::optional<double> E = predictedExcess(A, Accesses, Page))
        Excess[{F, A.Line}] += *E;
      else
        NoExcess.insert({F, A.Line});
    }
  }
  // Lines whose accesses have instructions of their own, per kernel (all
  // instantiations and launches of it together).
  std::set<std::tuple<std::string, std::string, unsigned>> Own;
  for (const SassInstruction &I : Page.Instructions)
    if (I.Space == C.Space)
      Own.insert({unqualifiedKernelName(I.Function), fileBaseName(I.File),
                I.Line});

  LineComparison Out;
  Out.Space = C.Space;
  std::map<LineKey, LineResult> ByLine;
  std::map<LineKey, unsigned> MovedIn;
  for (const SassInstruction &I : Page.Instructions) {
    if (I.Line == 0 || I.Space != C.Space)
      continue;
    std::string Kernel = unqualifiedKernelName(I.Function);
    bool Unseen = Unpredicted.count(Kernel) != 0;
    if (!Files.count(fileBaseName(I.File)) &&
        (!Unseen || isToolkitHeader(I.File)))
      continue;
    LineKey K = placeOf(I, InSpace, Predicted, Own, Out.Moves);
    LineResult &R = ByLine[K];
    if (Unseen && std::find(R.Unpredicted.begin(), R.Unpredicted.end(),
                            Kernel) == R.Unpredicted.end())
      R.Unpredicted.push_back(Kernel);
    R.Sectors += I.Sectors;
    R.Ideal += I.IdealSectors;
    R.Requests += I.Executed;
    if (K.second != I.Line)
      ++MovedIn[K];
  }
  for (const auto &[K, Set] : Rules)
    ByLine[K]; // Findings on lines without instructions too.
  for (auto &[K, R] : ByLine) {
    R.File = K.first;
    R.Line = K.second;
    R.Measured = R.Requests >= C.MinRequests;
    R.Wasteful = R.Measured && R.Sectors > C.Ratio * R.Ideal;
    if (auto It = Rules.find(K); It != Rules.end())
      for (const std::string &Rule : It->second)
        R.Rules += (R.Rules.empty() ? "" : ",") + Rule;
    if (auto It = Excess.find(K);
        It != Excess.end() && !NoExcess.count(K) && C.Space == MemSpace::Global)
      R.PredictedExcess = It->second;
    if (unsigned N = MovedIn[K])
      R.Note = std::to_string(N) + " instruction(s) moved here by the compiler";
    bool Flagged = !R.Rules.empty();
    if (R.Wasteful) {
      ++Out.Wasteful;
      R.Verdict = Flagged ? "true-positive" : "missed";
    } else if (Flagged) {
      R.Verdict = R.Measured ? "false-alarm" : "not-measured";
    } else {
      R.Verdict = "ok";
    }
    if (Flagged && R.Measured)
      ++Out.FlaggedMeasured;
    Out.TruePositives += R.Verdict == "true-positive";
    Out.FalseAlarms += R.Verdict == "false-alarm";
    Out.Missed += R.Verdict == "missed";
    Out.FlaggedNotMeasured += R.Verdict == "not-measured";
    Out.Lines.push_back(R);
  }
  Out.Precision = ratio(Out.TruePositives, Out.FlaggedMeasured);
  Out.Recall = ratio(Out.TruePositives, Out.Wasteful);
  return Out;
}

} // namespace coalesce::verify
