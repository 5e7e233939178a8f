//===- FindingGroups.cpp - One finding per source access ------------------===//

#include "coalesce/FindingGroups.h"

#include "findings/Format.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace coalesce {

namespace {

/// What a member's context is made of.
struct ContextParts {
  std::string Kernel;   ///< The instantiation, else the kernel's name.
  std::string Launch;   ///< AccessRecord::Launch.
  std::string CallSite; ///< The kernel's call of the function, or "".
};

ContextParts partsOf(const TriagedFinding &T) {
  ContextParts P;
  P.Kernel = T.Kernel->Instantiation.empty() ? T.Kernel->Name
                                             : T.Kernel->Instantiation;
  P.Launch = T.Access->Launch;
  if (!T.Access->CallChain.empty())
    P.CallSite = formatLocation(T.Access->CallChain.front());
  return P;
}

/// Fills the contexts of every verdict of \p G and its noun, naming only
/// the parts that vary among the group's members.
void nameContexts(FindingGroup &G) {
  std::set<std::string> Kernels, Names, Launches, CallSites;
  for (const Verdict &V : G.Verdicts)
    for (const TriagedFinding *T : V.Members) {
      ContextParts P = partsOf(*T);
      Kernels.insert(P.Kernel);
      Names.insert(T->Kernel->Name);
      Launches.insert(P.Launch);
      CallSites.insert(P.CallSite);
    }
  bool ByKernel = Kernels.size() > 1, ByLaunch = Launches.size() > 1,
       ByCall = CallSites.size() > 1;
  std::set<std::string> All;
  for (Verdict &V : G.Verdicts) {
    for (const TriagedFinding *T : V.Members) {
      ContextParts P = partsOf(*T);
      // "scale<float, 256>", "block 128 at f.cu:40", "k1 at f.cu:12:3",
      // "scale<float, 256> with block 128 at f.cu:40".
      std::string C;
      if (ByKernel || (ByCall && !P.CallSite.empty()))
        C = P.Kernel;
      if (ByLaunch && !P.Launch.empty())
        C += (C.empty() ? "" : " with ") + P.Launch;
      if (ByCall && !P.CallSite.empty())
        C += " at " + P.CallSite;
      if (!C.empty() &&
          std::find(V.Contexts.begin(), V.Contexts.end(), C) == V.Contexts.end())
        V.Contexts.push_back(C);
      if (!C.empty())
        All.insert(C);
    }
  }
  G.ContextCount = static_cast<unsigned>(All.size());
  if (ByCall)
    G.ContextNoun = "call site";
  else if (ByKernel && ByLaunch)
    G.ContextNoun = "use";
  else if (ByLaunch)
    G.ContextNoun = "launch shape";
  else
    G.ContextNoun = Names.size() > 1 ? "kernel" : "instantiation";
}

/// Where a finding's source access is: its findings form one group.
using AccessKey = std::tuple<std::string, unsigned, unsigned, int>;

AccessKey accessKey(const TriagedFinding &T) {
  const SourceLocation &L = T.Access->Loc;
  return {L.File, L.Line, L.Column, static_cast<int>(T.Access->Pattern.Op)};
}

/// The costliest member of \p V (costlier()): what the verdict costs.
const TriagedFinding &costliestOf(const Verdict &V) {
  const TriagedFinding *Best = V.Members.front();
  for (const TriagedFinding *T : V.Members)
    if (costlier(T->F, Best->F))
      Best = T;
  return *Best;
}

/// Orders by costlier() of the findings \p A and \p B, else by \p Tie.
bool costlierOr(const Finding &A, const Finding &B, bool Tie) {
  if (costlier(A, B))
    return true;
  return !costlier(B, A) && Tie;
}

/// Orders verdicts: the costliest first, each led by its costliest member,
/// then the most members, then report order (stable).
void orderVerdicts(std::vector<Verdict> &Vs) {
  for (Verdict &V : Vs) {
    const TriagedFinding *Lead = &costliestOf(V);
    std::stable_partition(V.Members.begin(), V.Members.end(),
                          [&](const TriagedFinding *T) { return T == Lead; });
  }
  std::stable_sort(Vs.begin(), Vs.end(), [](const Verdict &A, const Verdict &B) {
    return costlierOr(A.Members.front()->F, B.Members.front()->F,
                      A.Members.size() > B.Members.size());
  });
}

/// True when the access lies in a device function and each call site of it
/// has one verdict, which differ: each is then reported at its call sites.
bool differsPerCallSite(const std::vector<Verdict> &Vs) {
  if (Vs.size() < 2)
    return false;
  std::map<std::string, size_t> VerdictOf;
  for (size_t I = 0; I < Vs.size(); ++I)
    for (const TriagedFinding *T : Vs[I].Members) {
      if (T->Access->CallChain.empty())
        return false;
      std::string Site = formatLocation(T->Access->CallChain.front());
      auto [It, New] = VerdictOf.try_emplace(Site, I);
      if (!New && It->second != I)
        return false;
    }
  return true;
}

bool locationLess(const SourceLocation &A, const SourceLocation &B) {
  return std::tie(A.File, A.Line, A.Column) < std::tie(B.File, B.Line, B.Column);
}

} // namespace

std::vector<FindingGroup> groupFindings(const FindingTable &Table) {
  std::map<AccessKey, size_t> GroupOf;
  std::vector<std::vector<Verdict>> ByAccess;
  for (const TriagedFinding &T : Table.Findings) {
    if (!T.reported())
      continue;
    auto [It, New] = GroupOf.try_emplace(accessKey(T), ByAccess.size());
    if (New)
      ByAccess.emplace_back();
    std::vector<Verdict> &Vs = ByAccess[It->second];
    auto Same = std::find_if(Vs.begin(), Vs.end(), [&](const Verdict &V) {
      const TriagedFinding &L = *V.Members.front();
      return L.F.RuleId == T.F.RuleId && L.F.Message == T.F.Message &&
             L.Level == T.Level;
    });
    if (Same == Vs.end())
      Vs.push_back(Verdict{{&T}, {}});
    else
      Same->Members.push_back(&T);
  }

  std::vector<FindingGroup> Groups;
  for (std::vector<Verdict> &Vs : ByAccess) {
    orderVerdicts(Vs);
    if (differsPerCallSite(Vs)) {
      for (Verdict &V : Vs) {
        FindingGroup G;
        G.Primary = V.Members.front()->Access->CallChain.front();
        G.AtCallSite = true;
        G.Verdicts.push_back(std::move(V));
        nameContexts(G);
        Groups.push_back(std::move(G));
      }
      continue;
    }
    FindingGroup G;
    G.Primary = Vs.front().Members.front()->Access->Loc;
    G.Verdicts = std::move(Vs);
    nameContexts(G);
    Groups.push_back(std::move(G));
  }
  std::stable_sort(Groups.begin(), Groups.end(),
                   [](const FindingGroup &A, const FindingGroup &B) {
                     return costlierOr(A.lead().F, B.lead().F,
                                       locationLess(A.Primary, B.Primary));
                   });
  return Groups;
}

std::string describeContexts(const FindingGroup &G, const Verdict &V) {
  if (G.ContextCount <= 1 || V.Contexts.empty())
    return "";
  constexpr size_t Shown = 4;
  std::vector<std::string> Names(
      V.Contexts.begin(),
      V.Contexts.begin() + std::min(V.Contexts.size(), Shown));
  if (V.Contexts.size() > Shown)
    Names.push_back(fmt::format("{} more", V.Contexts.size() - Shown));
  unsigned N = static_cast<unsigned>(V.Contexts.size());
  std::string Noun = G.ContextNoun + (G.ContextCount == 1 ? "" : "s");
  std::string Count = N == G.ContextCount
                          ? fmt::format("all {}", G.ContextCount)
                          : fmt::format("{} of {}", N, G.ContextCount);
  return fmt::format("in {} {} ({})", Count, Noun, fmt::join(Names, "; "));
}

std::vector<std::string> verdictLines(const FindingGroup &G,
                                      bool NameOtherRules) {
  std::vector<std::string> Lines;
  const Finding &Lead = G.lead().F;
  if (std::string Where = describeContexts(G, G.Verdicts.front());
      !Where.empty())
    Lines.push_back(Where);
  for (size_t I = 1; I < G.Verdicts.size(); ++I) {
    const Finding &F = G.Verdicts[I].Members.front()->F;
    std::string Rule = NameOtherRules && F.RuleId != Lead.RuleId
                           ? fmt::format(" [{}]", F.RuleId)
                           : std::string();
    std::string Where = describeContexts(G, G.Verdicts[I]);
    Lines.push_back(fmt::format("{}{}{}", Where.empty() ? "" : Where + ": ",
                                F.Message, Rule));
  }
  return Lines;
}

} // namespace coalesce
