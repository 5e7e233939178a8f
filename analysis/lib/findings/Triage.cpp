//===- Triage.cpp - Policy, suppressions and baseline over the findings ---===//

#include "coalesce/Triage.h"

#include "findings/Paths.h"

#include <algorithm>
#include <set>
#include <utility>

namespace coalesce {

const TriagedFinding *FindingTable::find(const AccessRecord &A) const {
  auto It = Index.find(&A);
  return It == Index.end() ? nullptr : &Findings[It->second];
}

unsigned FindingTable::reportedCount() const {
  unsigned N = 0;
  for (const TriagedFinding &T : Findings)
    N += T.reported();
  return N;
}

unsigned FindingTable::reportedAtLeast(Severity Level) const {
  unsigned N = 0;
  for (const TriagedFinding &T : Findings)
    N += T.reported() && T.Level >= Level;
  return N;
}

unsigned FindingTable::suppressedCount() const {
  return Findings.size() - reportedCount();
}

void FindingTable::reindex() {
  Index.clear();
  for (size_t I = 0; I < Findings.size(); ++I)
    Index[Findings[I].Access] = I;
}

FindingTable triage(const Report &R, const TriageOptions &Opts) {
  FindingPolicy Default;
  std::set<std::string> MainFiles;
  for (const FileResult &F : R.Files)
    MainFiles.insert(absolutePath(F.File));

  // (file key, fingerprint) -> findings the baseline still accepts.
  std::map<std::pair<std::string, std::string>, unsigned> Known;
  if (Opts.KnownFindings)
    for (const BaselineEntry &E : Opts.KnownFindings->Entries)
      Known[{E.File, E.Fingerprint}] += E.Count;
  std::map<std::pair<std::string, std::string>, unsigned> Seen;

  // Thousands of accesses name a handful of files.
  std::map<std::string, std::string> AbsoluteOf;
  auto Absolute = [&](const std::string &File) -> const std::string & {
    auto [It, New] = AbsoluteOf.try_emplace(File);
    if (New)
      It->second = absolutePath(File);
    return It->second;
  };

  FindingTable Table;
  Table.HasBaseline = Opts.KnownFindings != nullptr;
  for (const KernelRecord &K : R.Kernels) {
    std::optional<std::optional<double>> Traffic; // Computed on first use.
    for (const AccessRecord &A : K.Accesses) {
      const std::string &File = A.Loc.File;
      const FindingPolicy &P = Opts.PolicyFor ? Opts.PolicyFor(File) : Default;
      std::optional<Finding> F = buildFinding(A, P.Findings);
      if (!F || !P.enabled(F->RuleId) || P.excludes(File))
        continue;
      if (!MainFiles.count(Absolute(File)) && !P.showsHeader(File))
        continue;
      TriagedFinding T;
      T.Kernel = &K;
      T.Access = &A;
      T.Level = P.severity(F->RuleId);
      T.Fingerprint = findingFingerprint(A.Kernel.empty() ? K.Name : A.Kernel,
                                         A.Expression, F->RuleId);
      T.Occurrence = Seen[{Absolute(File), T.Fingerprint}]++;
      if (Opts.Changed &&
          !Opts.Changed->touches(File, A.Loc.Line,
                                 A.EndLoc.File == A.Loc.File
                                     ? std::max(A.Loc.Line, A.EndLoc.Line)
                                     : A.Loc.Line)) {
        ++Table.OutsideDiff;
        continue;
      }
      if (Opts.Suppressions)
        if (const SuppressionComment *C =
                Opts.Suppressions->match(File, A.Loc.Line, F->RuleId))
          T.SuppressedBy = *C;
      if (Opts.KnownFindings && !T.SuppressedBy) {
        auto It = Known.find(
            {Opts.KnownFindings->fileKey(File), T.Fingerprint});
        if (It != Known.end() && It->second > 0) {
          --It->second;
          T.Baselined = true;
        }
      }
      if (F->Cost && F->Cost->Unit == Impact::Per::Launch) {
        if (!Traffic)
          Traffic = kernelTrafficPerLaunch(K);
        if (*Traffic && **Traffic > 0 && F->Cost->Space == AccessSpace::Global)
          F->Cost->KernelShare = F->Cost->ExcessBytes / **Traffic;
        const MinImpact &Min = P.Findings.MinimumImpact;
        if ((Min.Bytes && F->Cost->ExcessBytes < *Min.Bytes) ||
            (Min.Share && F->Cost->KernelShare &&
             *F->Cost->KernelShare < *Min.Share)) {
          ++Table.BelowMinImpact;
          continue;
        }
      }
      T.F = std::move(*F);
      Table.Findings.push_back(std::move(T));
    }
  }
  for (const auto &[Key, Left] : Known)
    Table.StaleBaselineEntries += Left;
  Table.reindex();
  return Table;
}

FindingTable triage(const Report &R, const FindingOptions &Opts) {
  FindingPolicy P;
  P.Findings = Opts;
  TriageOptions T;
  T.PolicyFor = [&P](const std::string &) -> const FindingPolicy & {
    return P;
  };
  return triage(R, T);
}

} // namespace coalesce
