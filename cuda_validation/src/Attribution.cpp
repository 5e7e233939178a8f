//===- Attribution.cpp - Measured sectors per request per access ----------===//

#include "Attribution.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <sstream>

namespace coalesce::verify {

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Confirmed:
    return "confirmed";
  case Verdict::Mismatch:
    return "mismatch";
  case Verdict::Unpredicted:
    return "unpredicted";
  case Verdict::NotExecuted:
    return "not-executed";
  case Verdict::KernelFailed:
    return "kernel-failed";
  case Verdict::NotProfiled:
    return "not-profiled";
  case Verdict::NotReplayed:
    return "not-replayed";
  }
  return "?";
}

bool takesOp(const ManifestAccess &A, MemOp Op) {
  switch (Op) {
  case MemOp::Load:
    return A.loads();
  case MemOp::Store:
    return A.stores();
  case MemOp::Atomic:
    return A.atomic();
  }
  return false;
}

bool withinTolerance(double Predicted, double Measured, double Tolerance) {
  return std::fabs(Measured - Predicted) <=
         Tolerance * std::max(1.0, Predicted) + 1e-9;
}

namespace {

/// How far below an access unclaimed instructions are looked for.
constexpr unsigned NearbyLines = 3;

/// Union-find over access indices.
struct Groups {
  std::vector<size_t> Parent;
  explicit Groups(size_t N) : Parent(N) {
    std::iota(Parent.begin(), Parent.end(), 0);
  }
  size_t find(size_t I) {
    while (Parent[I] != I)
      I = Parent[I] = Parent[Parent[I]];
    return I;
  }
  void join(size_t A, size_t B) { Parent[find(A)] = find(B); }
};

std::string fmtNumber(double V) {
  std::ostringstream SS;
  SS.precision(V == std::floor(V) ? 0 : 2);
  SS << std::fixed << V;
  return SS.str();
}

/// A global atomic: measured per kernel (the source page attributes atomics
/// to the CUDA headers). Shared-memory atomics are measured per instruction.
bool kernelAtomic(const ManifestAccess &A) { return A.atomic() && !A.shared(); }

/// True when instruction \p S can be access \p A: same space and kind.
bool sameKind(const SassInstruction &S, const ManifestAccess &A) {
  return S.Space == A.Space && takesOp(A, S.Op);
}

/// Instructions of function \p Fn matching the access's kinds on one line.
std::vector<size_t> instructionsAt(const SourcePage &P, const std::string &Fn,
                                   const std::string &FileBase, unsigned First,
                                   unsigned Last, const ManifestAccess &A) {
  std::vector<size_t> Out;
  for (size_t I = 0; I != P.Instructions.size(); ++I) {
    const SassInstruction &S = P.Instructions[I];
    if (S.Function != Fn || S.Line < First || S.Line > Last ||
        fileBaseName(S.File) != FileBase)
      continue;
    if (sameKind(S, A))
      Out.push_back(I);
  }
  return Out;
}

} // namespace

Attribution attribute(const AttributionInput &In) {
  const std::vector<ManifestAccess> &Accesses = *In.Accesses;
  const SourcePage &Page = *In.Source;
  Attribution Out;
  Out.Results.resize(Accesses.size());

  // Exported function name per kernel base name.
  std::map<std::string, std::string> FunctionOf;
  for (const auto &[Fn, Count] : Page.FunctionInstructions)
    FunctionOf.emplace(kernelBaseName(Fn), Fn);

  // 1. Each plain access's instruction set.
  std::vector<std::vector<size_t>> Sets(Accesses.size());
  std::vector<std::string> Notes(Accesses.size());
  for (size_t I = 0; I != Accesses.size(); ++I) {
    const ManifestAccess &A = Accesses[I];
    Out.Results[I].Access = A;
    auto Fn = FunctionOf.find(kernelBaseName(A.Kernel));
    if (kernelAtomic(A) || Fn == FunctionOf.end())
      continue;
    Sets[I] = instructionsAt(Page, Fn->second, fileBaseName(A.File), A.Line,
                             A.EndLine, A);
    // Code inlined from a __device__ function may carry the call site's line.
    for (auto Site = A.CallSites.rbegin();
         Sets[I].empty() && Site != A.CallSites.rend(); ++Site) {
      Sets[I] = instructionsAt(Page, Fn->second, fileBaseName(Site->first),
                               Site->second, Site->second, A);
      if (!Sets[I].empty())
        Notes[I] = "attributed at the call site " +
                   fileBaseName(Site->first) + ":" +
                   std::to_string(Site->second);
    }
  }

  // 1b. -lineinfo may put a load on the line that uses its value (a vector
  //     load stored right away lands on the store's line). An access with no
  //     instruction takes the unclaimed ones of its kind on the nearest of
  //     the next few lines.
  std::set<size_t> Claimed;
  for (const std::vector<size_t> &S : Sets)
    Claimed.insert(S.begin(), S.end());
  for (size_t I = 0; I != Accesses.size(); ++I) {
    const ManifestAccess &A = Accesses[I];
    auto Fn = FunctionOf.find(kernelBaseName(A.Kernel));
    if (kernelAtomic(A) || !Sets[I].empty() || Fn == FunctionOf.end())
      continue;
    for (unsigned L = A.EndLine + 1; L <= A.EndLine + NearbyLines; ++L) {
      for (size_t Instr : instructionsAt(Page, Fn->second, fileBaseName(A.File),
                                         L, L, A))
        if (!Claimed.count(Instr))
          Sets[I].push_back(Instr);
      if (!Sets[I].empty()) {
        Claimed.insert(Sets[I].begin(), Sets[I].end());
        Notes[I] = "no instruction on line " + std::to_string(A.Line) +
                   "; took the unclaimed " + A.Op + " instruction(s) that "
                   "-lineinfo attributes to line " + std::to_string(L);
        break;
      }
    }
  }

  // 1c. Cache-hinted loads (__ldg, __ldcs, ...) are inlined from the CUDA
  //     headers, and -lineinfo attributes them there (sm_32_intrinsics.hpp).
  //     When exactly one access of a kernel and kind has no instruction, it
  //     takes the kernel's unclaimed instructions of that kind in headers.
  for (size_t I = 0; I != Accesses.size(); ++I) {
    const ManifestAccess &A = Accesses[I];
    auto Fn = FunctionOf.find(kernelBaseName(A.Kernel));
    if (A.atomic() || A.shared() || !Sets[I].empty() || Fn == FunctionOf.end())
      continue;
    unsigned Missing = 0;
    for (size_t J = 0; J != Accesses.size(); ++J)
      Missing += Sets[J].empty() && !Accesses[J].atomic() &&
                 kernelBaseName(Accesses[J].Kernel) == kernelBaseName(A.Kernel) &&
                 Accesses[J].loads() == A.loads() && !Accesses[J].shared() &&
                 Accesses[J].stores() == A.stores();
    if (Missing != 1)
      continue;
    std::string Header;
    for (size_t Instr = 0; Instr != Page.Instructions.size(); ++Instr) {
      const SassInstruction &S = Page.Instructions[Instr];
      bool Kind = sameKind(S, A);
      if (S.Function != Fn->second || !Kind || Claimed.count(Instr) ||
          fileBaseName(S.File) == fileBaseName(A.File) ||
          S.File.find("/include/") == std::string::npos)
        continue;
      Sets[I].push_back(Instr);
      Header = fileBaseName(S.File) + ":" + std::to_string(S.Line);
    }
    if (!Sets[I].empty()) {
      Claimed.insert(Sets[I].begin(), Sets[I].end());
      Notes[I] = "no instruction on line " + std::to_string(A.Line) +
                 "; took the kernel's only unclaimed " + A.Op +
                 " instruction(s), which -lineinfo attributes to the CUDA "
                 "header " + Header;
    }
  }

  // 2. Accesses sharing an instruction are measured together; so are all
  //    atomics of one kernel (the counters are per kernel).
  Groups G(Accesses.size());
  std::map<size_t, size_t> OwnerOf;
  std::map<std::string, size_t> AtomicOwner;
  for (size_t I = 0; I != Accesses.size(); ++I) {
    if (kernelAtomic(Accesses[I])) {
      auto [It, New] =
          AtomicOwner.emplace(kernelBaseName(Accesses[I].Kernel), I);
      if (!New)
        G.join(I, It->second);
      continue;
    }
    for (size_t Instr : Sets[I]) {
      auto [It, New] = OwnerOf.emplace(Instr, I);
      if (!New)
        G.join(I, It->second);
    }
  }
  std::map<size_t, std::vector<size_t>> Members;
  for (size_t I = 0; I != Accesses.size(); ++I)
    Members[G.find(I)].push_back(I);

  // 3. Measure each group.
  for (const auto &[Root, Ids] : Members) {
    const ManifestAccess &First = Accesses[Ids.front()];
    std::string Kernel = kernelBaseName(First.Kernel);
    AccessResult R;
    std::string Note;
    std::set<size_t> Instrs;
    for (size_t I : Ids)
      Instrs.insert(Sets[I].begin(), Sets[I].end());
    auto Fn = FunctionOf.find(Kernel);
    const KernelStatus *Status = nullptr;
    if (In.Statuses) {
      auto It = In.Statuses->find(Kernel);
      if (It != In.Statuses->end())
        Status = &It->second;
    }

    if (Status && Status->Status == "skipped") {
      R.Result = Verdict::NotProfiled;
      Note = "the harness skipped the kernel" +
             (Status->Reason.empty() ? "" : ": " + Status->Reason);
    } else if (Status && Status->Status != "ok") {
      R.Result = Verdict::KernelFailed;
      Note = "kernel " + Status->Status +
             (Status->Reason.empty() ? "" : ": " + Status->Reason);
    } else if (Fn == FunctionOf.end()) {
      R.Result = Verdict::NotProfiled;
      Note = "kernel '" + Kernel + "' is not in the profile";
    } else if (kernelAtomic(First)) {
      const KernelCounters *C = nullptr;
      if (In.Counters) {
        for (const auto &[Name, Counters] : *In.Counters)
          if (kernelBaseName(Name) == Kernel)
            C = &Counters;
      }
      if (C) {
        R.Sectors = C->RedSectors + C->AtomSectors;
        R.Requests = C->RedRequests + C->AtomRequests;
        R.Method = "ncu-metrics";
        Note = "kernel-level red/atom counters (atomics are attributed to the "
               "CUDA headers on the source page)";
      } else {
        for (size_t I = 0; I != Page.Instructions.size(); ++I) {
          const SassInstruction &S = Page.Instructions[I];
          if (S.Function == Fn->second && S.Op == MemOp::Atomic &&
              S.Space == MemSpace::Global)
            Instrs.insert(I);
        }
        for (size_t I : Instrs) {
          R.Sectors += Page.Instructions[I].Sectors;
          R.Requests += Page.Instructions[I].Executed;
        }
        // Theoretical sectors of same-address atomics report the ideal:
        // no ideal of their own here.
        R.Method = "ncu-source-counters";
        Note = "no metrics pass: per-instruction theoretical sectors, which "
               "report the ideal for same-address atomics";
      }
    } else {
      R.IdealSectors = 0;
      for (size_t I : Instrs) {
        R.Sectors += Page.Instructions[I].Sectors;
        R.Requests += Page.Instructions[I].Executed;
        *R.IdealSectors += Page.Instructions[I].IdealSectors;
        if (Page.Instructions[I].Executed > 0)
          R.InstructionValues.push_back(Page.Instructions[I].Sectors /
                                        Page.Instructions[I].Executed);
      }
      R.Method = "ncu-source-counters";
      if (Instrs.empty())
        Note = std::string("no ") + memSpaceName(First.Space) + " " +
               First.Op + " instruction on " +
               fileBaseName(First.File) + ":" + std::to_string(First.Line) +
               " (merged with a neighbouring access, kept in registers or "
               "removed by the compiler)";
    }

    if (R.Result != Verdict::KernelFailed && R.Result != Verdict::NotProfiled) {
      if (R.Requests <= 0) {
        R.Result = Verdict::NotExecuted;
        if (kernelAtomic(First))
          Note = "the kernel issued no atomic requests";
        else if (!Instrs.empty())
          Note = "its instructions were never executed";
      } else {
        R.Measured = R.Sectors / R.Requests;
      }
    }

    // The prediction to compare: the member's own, or the group's mean.
    std::optional<double> Pred;
    bool AllPredicted = true;
    double Sum = 0;
    for (size_t I : Ids) {
      if (!Accesses[I].Predicted)
        AllPredicted = false;
      else
        Sum += *Accesses[I].Predicted;
    }
    if (AllPredicted)
      Pred = Sum / static_cast<double>(Ids.size());
    if (R.Measured) {
      if (!Pred)
        R.Result = Verdict::Unpredicted;
      else
        R.Result = withinTolerance(*Pred, *R.Measured, In.Tolerance)
                       ? Verdict::Confirmed
                       : Verdict::Mismatch;
    }
    R.ComparedPrediction = Pred;
    if (Ids.size() > 1) {
      std::string IdList;
      for (size_t I : Ids) {
        R.Group.push_back(Accesses[I].Id);
        IdList += (IdList.empty() ? "" : ", ") + std::to_string(Accesses[I].Id);
      }
      std::string GroupNote =
          "measured together with " + std::to_string(Ids.size() - 1) +
          " other access" + (Ids.size() > 2 ? "es" : "") + " (ids " + IdList +
          ") sharing " +
          (kernelAtomic(First) ? "the kernel's atomic counters"
                          : "their instructions");
      if (Pred)
        GroupNote += "; compared with their mean prediction " + fmtNumber(*Pred);
      if (R.InstructionValues.size() > 1) {
        // Sorted distinct values with counts: "4, 8" or "2 (x32)".
        std::map<double, unsigned> Counts;
        for (double V : R.InstructionValues)
          ++Counts[V];
        std::string List;
        for (const auto &[V, N] : Counts)
          List += (List.empty() ? "" : ", ") + fmtNumber(V) +
                  (N > 1 ? " (x" + std::to_string(N) + ")" : "");
        GroupNote += "; per instruction: " + List;
      }
      Note = Note.empty() ? GroupNote : GroupNote + "; " + Note;
    }
    // The members' mean can miss when they do not run equally often (a
    // load+store kept in a register across the loop whose loads it shares a
    // line with). When every instruction measured one member's prediction,
    // each member whose prediction some instruction measured is confirmed.
    auto Measures = [&](size_t I, double V) {
      return Accesses[I].Predicted &&
             withinTolerance(*Accesses[I].Predicted, V, In.Tolerance);
    };
    bool Explained = R.Result == Verdict::Mismatch && Ids.size() > 1 &&
                     !R.InstructionValues.empty();
    for (double V : R.InstructionValues)
      Explained &= std::any_of(Ids.begin(), Ids.end(),
                               [&](size_t I) { return Measures(I, V); });
    for (size_t I : Ids) {
      AccessResult Copy = R;
      Copy.Access = Accesses[I];
      Copy.Note = Note;
      if (Explained &&
          std::any_of(R.InstructionValues.begin(), R.InstructionValues.end(),
                      [&](double V) { return Measures(I, V); })) {
        Copy.Result = Verdict::Confirmed;
        Copy.ComparedPrediction = Accesses[I].Predicted;
        Copy.Note += "; confirmed per instruction: every instruction "
                     "measured some member's prediction, and some measured "
                     "this one's";
      }
      if (!Notes[I].empty())
        Copy.Note = Copy.Note.empty() ? Notes[I] : Notes[I] + "; " + Copy.Note;
      Out.Results[I] = std::move(Copy);
    }
  }

  // 4. Memory instructions no access accounts for.
  std::set<std::string> ManifestKernels;
  for (const ManifestAccess &A : Accesses)
    ManifestKernels.insert(kernelBaseName(A.Kernel));
  for (size_t I = 0; I != Page.Instructions.size(); ++I) {
    const SassInstruction &S = Page.Instructions[I];
    bool KnownKernel = ManifestKernels.count(kernelBaseName(S.Function));
    bool CoveredAtomic = S.Op == MemOp::Atomic &&
                         S.Space == MemSpace::Global &&
                         AtomicOwner.count(kernelBaseName(S.Function));
    if (KnownKernel && !OwnerOf.count(I) && !CoveredAtomic)
      Out.Unattributed.push_back({S});
  }
  return Out;
}

} // namespace coalesce::verify
