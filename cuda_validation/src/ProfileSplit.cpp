//===- ProfileSplit.cpp - An application profile per instance and launch --===//

#include "ProfileSplit.h"
#include "Strings.h"

#include "KernelName.h"

#include <algorithm>
#include <map>
#include <set>

namespace coalesce::verify {

namespace {

std::string quoted(const std::string &S) { return "'" + S + "'"; }

std::vector<std::string> quotedAll(const std::vector<std::string> &Items) {
  std::vector<std::string> Out;
  for (const std::string &S : Items)
    Out.push_back(quoted(S));
  return Out;
}

/// The manifest's accesses of one kernel name.
struct KernelAccesses {
  std::string Kernel;                 ///< As the manifest spells it.
  std::vector<std::string> Instances; ///< Distinct, in manifest order.
  std::map<std::string, std::vector<size_t>> ByInstance;
};

/// Launches of \p Fn in \p Page (at least 1).
unsigned launchesOf(const SourcePage &Page, const std::string &Fn) {
  unsigned N = 1;
  if (auto It = Page.Launches.find(Fn); It != Page.Launches.end())
    N = std::max(N, It->second);
  for (const SassInstruction &I : Page.Instructions)
    if (I.Function == Fn)
      N = std::max(N, I.Launch);
  return N;
}

/// The instructions of launch \p Launch of \p Fn, named \p Kernel.
SourcePage launchPage(const SourcePage &Page, const std::string &Fn,
                      unsigned Launch, const std::string &Kernel) {
  SourcePage Out;
  Out.FunctionInstructions[Kernel] = 0;
  Out.Launches[Kernel] = 1;
  for (const SassInstruction &I : Page.Instructions) {
    if (I.Function != Fn || I.Launch != Launch)
      continue;
    SassInstruction Copy = I;
    Copy.Function = Kernel;
    Copy.Launch = 1;
    Out.FunctionInstructions[Kernel] += I.Executed;
    Out.Instructions.push_back(std::move(Copy));
  }
  return Out;
}

/// The instructions of all of \p Fns, launches summed per instruction
/// (address), named \p Kernel.
SourcePage mergedPage(const SourcePage &Page,
                      const std::vector<std::string> &Fns,
                      const std::string &Kernel) {
  SourcePage Out;
  Out.FunctionInstructions[Kernel] = 0;
  Out.Launches[Kernel] = 1;
  std::set<std::string> Wanted(Fns.begin(), Fns.end());
  std::map<std::pair<std::string, std::string>, size_t> Index;
  for (const SassInstruction &I : Page.Instructions) {
    if (!Wanted.count(I.Function))
      continue;
    Out.FunctionInstructions[Kernel] += I.Executed;
    auto [It, New] = Index.emplace(std::make_pair(I.Function, I.Address),
                                   Out.Instructions.size());
    if (New) {
      SassInstruction Copy = I;
      Copy.Function = Kernel;
      Copy.Launch = 1;
      Out.Instructions.push_back(std::move(Copy));
      continue;
    }
    SassInstruction &Sum = Out.Instructions[It->second];
    Sum.Executed += I.Executed;
    Sum.Sectors += I.Sectors;
    Sum.IdealSectors += I.IdealSectors;
  }
  return Out;
}

/// Pairs each profiled function with one analyzed instance; returns why
/// that is not possible ("" when it is).
std::string pairInstances(const KernelAccesses &K,
                          const std::vector<std::string> &Fns,
                          std::map<std::string, std::string> &InstanceOfFn) {
  bool Named = std::any_of(K.Instances.begin(), K.Instances.end(),
                           [](const std::string &I) { return !I.empty(); });
  if (!Named) {
    if (Fns.size() == 1) {
      InstanceOfFn[Fns.front()] = "";
      return "";
    }
    return "the manifest names no instantiation of " + quoted(K.Kernel) +
           " (a kernel that is no template, or a manifest written before "
           "the instance column), and the profile holds " +
           std::to_string(Fns.size()) + " functions named " + quoted(K.Kernel) +
           ": " + joined(quotedAll(Fns));
  }
  std::map<std::string, std::string> FnOfInstance;
  for (const std::string &Fn : Fns) {
    KernelSignature P = parseKernelSignature(Fn);
    std::vector<std::string> Same, Compatible;
    for (const std::string &I : K.Instances) {
      InstanceRelation R =
          compareInstances(P, parseKernelSignature(I.empty() ? K.Kernel : I));
      if (R == InstanceRelation::Same)
        Same.push_back(I);
      else if (R == InstanceRelation::Compatible)
        Compatible.push_back(I);
    }
    const std::vector<std::string> &Candidates =
        Same.empty() ? Compatible : Same;
    if (Candidates.empty() && !P.Template)
      return "the profile names the kernel " + quoted(Fn) +
             " without template arguments (an export with "
             "--print-kernel-base function?), the manifest has " +
             std::to_string(K.Instances.size()) + " instance(s) of it";
    if (Candidates.empty())
      return "the profiled " + quoted(Fn) +
             " matches none of the analyzed instances (" +
             joined(quotedAll(K.Instances)) + ")";
    if (Candidates.size() > 1)
      return "the profiled " + quoted(Fn) + " matches " +
             std::to_string(Candidates.size()) + " analyzed instances (" +
             joined(quotedAll(Candidates)) + ")";
    auto [It, New] = FnOfInstance.emplace(Candidates.front(), Fn);
    if (!New)
      return "the profiled " + quoted(It->second) + " and " + quoted(Fn) +
             " both match the analyzed instance " + quoted(It->first);
    InstanceOfFn[Fn] = Candidates.front();
  }
  return "";
}

} // namespace

ProfileSplit splitProfile(const std::vector<ManifestAccess> &Accesses,
                          const SourcePage &Page) {
  // The manifest's kernels by unqualified name, in manifest order.
  std::vector<std::string> Order;
  std::map<std::string, KernelAccesses> Kernels;
  for (size_t I = 0; I != Accesses.size(); ++I) {
    const ManifestAccess &A = Accesses[I];
    std::string Name = unqualifiedKernelName(A.Kernel);
    auto [It, New] = Kernels.try_emplace(Name);
    if (New) {
      Order.push_back(Name);
      It->second.Kernel = A.Kernel;
    }
    std::vector<size_t> &Of = It->second.ByInstance[A.Instance];
    if (Of.empty())
      It->second.Instances.push_back(A.Instance);
    Of.push_back(I);
  }
  // The profiled functions by unqualified name.
  std::map<std::string, std::vector<std::string>> Profiled;
  for (const auto &[Fn, Count] : Page.FunctionInstructions)
    Profiled[unqualifiedKernelName(Fn)].push_back(Fn);

  ProfileSplit Out;
  for (const std::string &Name : Order) {
    const KernelAccesses &K = Kernels[Name];
    const std::vector<std::string> &Fns = Profiled[Name];
    std::map<std::string, std::string> InstanceOfFn;
    std::string Why = Fns.empty() ? "" : pairInstances(K, Fns, InstanceOfFn);
    if (!Why.empty()) {
      ProfileUnit U;
      U.Kernel = K.Kernel;
      U.ProfiledAs = joined(Fns, "; ");
      U.Merged = true;
      for (const std::string &Fn : Fns)
        U.Launches += launchesOf(Page, Fn);
      for (const std::string &I : K.Instances)
        U.Accesses.insert(U.Accesses.end(), K.ByInstance.at(I).begin(),
                          K.ByInstance.at(I).end());
      std::sort(U.Accesses.begin(), U.Accesses.end());
      U.Page = mergedPage(Page, Fns, K.Kernel);
      U.Note = "instantiations of " + quoted(K.Kernel) +
               " not told apart: " + Why + "; all " +
               std::to_string(U.Launches) + " profiled launch(es) of " +
               std::to_string(Fns.size()) +
               " function(s) are measured together against every analyzed "
               "instance";
      Out.Pairings.push_back(
          {K.Kernel, "", U.ProfiledAs, U.Launches, true, U.Note});
      Out.Units.push_back(std::move(U));
      continue;
    }
    for (const std::string &Instance : K.Instances) {
      std::string Fn;
      for (const auto &[F, I] : InstanceOfFn)
        if (I == Instance)
          Fn = F;
      ProfileUnit Base;
      Base.Kernel = K.Kernel;
      Base.Instance = Instance;
      Base.Accesses = K.ByInstance.at(Instance);
      if (Fn.empty()) {
        Base.Note =
            Instance.empty()
                ? ""
                : "instantiation " + quoted(Instance) +
                      " is not in the profile" +
                      (Fns.empty()
                           ? ""
                           : " (profiled: " + joined(quotedAll(Fns)) + ")");
        Out.Pairings.push_back({K.Kernel, Instance, "", 0, false, Base.Note});
        Out.Units.push_back(std::move(Base));
        continue;
      }
      Base.ProfiledAs = Fn;
      Base.Launches = launchesOf(Page, Fn);
      Out.Pairings.push_back(
          {K.Kernel, Instance, Fn, Base.Launches, false, ""});
      for (unsigned L = 1; L <= Base.Launches; ++L) {
        ProfileUnit U = Base;
        U.Launch = L;
        U.Page = launchPage(Page, Fn, L, K.Kernel);
        Out.Units.push_back(std::move(U));
      }
    }
  }
  return Out;
}

} // namespace coalesce::verify
