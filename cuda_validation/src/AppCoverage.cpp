//===- AppCoverage.cpp - Kernels that ran without predictions -------------===//

#include "AppCoverage.h"
#include "Strings.h"

#include "KernelName.h"
#include "ResultWriter.h"

#include <algorithm>
#include <map>

namespace coalesce::verify {

namespace {

void addOnce(std::vector<std::string> &To, const std::string &S) {
  if (std::find(To.begin(), To.end(), S) == To.end())
    To.push_back(S);
}

std::string plural(unsigned N, const std::string &One,
                   const std::string &Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

/// "a.cu:12: message" for one compile error.
std::string errorText(const LintError &E) {
  std::string Where = E.File.empty() ? "" : fileBaseName(E.File);
  if (!Where.empty() && E.Line)
    Where += ":" + std::to_string(E.Line);
  return (Where.empty() ? "" : Where + ": ") + E.Message;
}

/// "has N compile error(s) (first in a kernel: a.cu:3: ...)".
std::string errorsText(const LintFile &F) {
  const LintError *First = &F.Errors.front();
  for (const LintError &E : F.Errors)
    if (E.InKernel) {
      First = &E;
      break;
    }
  return "has " + plural(static_cast<unsigned>(F.Errors.size()),
                         "compile error", "compile errors") +
         " (" + (First->InKernel ? "first in a kernel" : "first") + ": " +
         errorText(*First) + ")";
}

/// The first compile error inside a kernel between \p K's declaration and
/// the next kernel the report lists in its file: likely in \p K's code.
const LintError *errorAfter(const LintKernel &K, const LintReport &R) {
  std::string File = fileBaseName(K.File);
  unsigned Next = ~0u;
  for (const LintKernel &O : R.Kernels)
    if (fileBaseName(O.File) == File && O.Line > K.Line)
      Next = std::min(Next, O.Line);
  for (const LintFile &F : R.Files)
    for (const LintError &E : F.Errors)
      if (E.InKernel && fileBaseName(E.File) == File && E.Line >= K.Line &&
          E.Line < Next)
        return &E;
  return nullptr;
}

/// What coalesce-lint's report says of kernel \p K with instructions in
/// \p Files; "" when the report does not tell.
std::string reportReason(const std::string &K,
                         const std::vector<std::string> &Files,
                         const LintReport &R) {
  unsigned Listed = 0, Accesses = 0;
  const LintKernel *First = nullptr;
  for (const LintKernel &L : R.Kernels)
    if (unqualifiedKernelName(L.Name) == K) {
      ++Listed;
      Accesses += L.Accesses;
      First = First ? First : &L;
    }
  const LintFile *File = nullptr;
  for (const LintFile &F : R.Files)
    if (!File && std::find(Files.begin(), Files.end(),
                           fileBaseName(F.Path)) != Files.end())
      File = &F;
  if (First) {
    std::string Where =
        fileBaseName(First->File) + ":" + std::to_string(First->Line);
    if (Accesses)
      return "coalesce-lint's report lists " +
             plural(Accesses, "access", "accesses") + " of it (" + Where +
             ") but the manifest has none: were both written by the same run?";
    std::string Text =
        "coalesce-lint's report lists it with no access (" + Where +
        (Listed > 1 ? ", " + plural(Listed, "instantiation", "instantiations")
                    : "") +
        ")";
    if (const LintError *E = errorAfter(*First, R))
      return Text + "; a compile error follows its declaration (" +
             errorText(*E) + ")";
    return Text;
  }
  for (const LintFile &F : R.Files)
    for (const std::string &U : F.Uninstantiated)
      if (unqualifiedKernelName(U) == K)
        return "coalesce-lint's report lists it as a template " +
               fileBaseName(F.Path) +
               " never instantiates (the file was analyzed without the code "
               "that launches it)";
  if (File && (!File->Analyzed || !File->FatalError.empty()))
    return fileBaseName(File->Path) + " was not analyzed" +
           (File->FatalError.empty() ? "" : ": " + File->FatalError);
  if (File && !File->Errors.empty())
    return "not in coalesce-lint's report; " + fileBaseName(File->Path) + " " +
           errorsText(*File);
  if (File)
    return "not in coalesce-lint's report, though " +
           fileBaseName(File->Path) + " was analyzed";
  if (!Files.empty())
    return joined(Files) + (Files.size() == 1 ? " is" : " are") +
           " not among the files of coalesce-lint's report";
  return "";
}

} // namespace

std::vector<UnpredictedKernel>
findUnpredictedKernels(const std::vector<ManifestAccess> &Accesses,
                       const SourcePage &Page, const LintReport *Report) {
  std::set<std::string> Predicted, ManifestFiles;
  for (const ManifestAccess &A : Accesses) {
    Predicted.insert(unqualifiedKernelName(A.Kernel));
    ManifestFiles.insert(fileBaseName(A.File));
  }
  std::vector<UnpredictedKernel> Out;
  std::map<std::string, size_t> Index;
  auto Entry = [&](const std::string &Fn) -> UnpredictedKernel * {
    std::string K = unqualifiedKernelName(Fn);
    if (Predicted.count(K))
      return nullptr;
    auto [It, New] = Index.emplace(K, Out.size());
    if (New) {
      Out.emplace_back();
      Out.back().Kernel = K;
    }
    return &Out[It->second];
  };
  // Page.Launches is ordered by name; the instructions give profile order.
  for (const SassInstruction &I : Page.Instructions)
    if (UnpredictedKernel *U = Entry(I.Function)) {
      addOnce(U->ProfiledAs, I.Function);
      if (I.Line != 0 && !isToolkitHeader(I.File))
        addOnce(U->Files, fileBaseName(I.File));
    }
  for (const auto &[Fn, N] : Page.Launches)
    if (UnpredictedKernel *U = Entry(Fn)) {
      addOnce(U->ProfiledAs, Fn);
      U->Launches += N;
    }
  for (UnpredictedKernel &U : Out) {
    if (Report)
      U.Reason = reportReason(U.Kernel, U.Files, *Report);
    if (!U.Reason.empty())
      continue;
    bool FileKnown = std::any_of(
        U.Files.begin(), U.Files.end(),
        [&](const std::string &F) { return ManifestFiles.count(F) != 0; });
    if (Accesses.empty())
      U.Reason = "the manifest has no rows at all";
    else if (!U.Files.empty() && !FileKnown)
      U.Reason = joined(U.Files) + (U.Files.size() == 1 ? " is" : " are") +
                 " not in the manifest (not analyzed, failed to compile, or "
                 "no access predicted there)";
    else
      U.Reason = "no rows in the manifest";
  }
  return Out;
}

std::set<std::string>
unpredictedNames(const std::vector<UnpredictedKernel> &Kernels) {
  std::set<std::string> Out;
  for (const UnpredictedKernel &K : Kernels)
    Out.insert(K.Kernel);
  return Out;
}

void countUnpredictedLines(std::vector<UnpredictedKernel> &Kernels,
                           const LineComparison &Lines) {
  for (UnpredictedKernel &K : Kernels) {
    K.MeasuredLines = K.WastefulLines = 0;
    for (const LineResult &R : Lines.Lines)
      if (std::find(R.Unpredicted.begin(), R.Unpredicted.end(), K.Kernel) !=
          R.Unpredicted.end()) {
        K.MeasuredLines += R.Measured;
        K.WastefulLines += R.Wasteful;
      }
  }
}

bool nothingPredictedRan(const std::vector<UnpredictedKernel> &Kernels,
                         const SourcePage &Page) {
  std::set<std::string> Names = unpredictedNames(Kernels);
  if (Page.Launches.empty())
    return false;
  for (const auto &[Fn, N] : Page.Launches)
    if (!Names.count(unqualifiedKernelName(Fn)))
      return false;
  return true;
}

std::string describeUnpredicted(const std::vector<UnpredictedKernel> &Kernels) {
  // Kernels grouped by reason, reasons in order of first appearance.
  std::vector<std::string> Reasons;
  std::map<std::string, std::vector<std::string>> ByReason;
  unsigned Wasteful = 0;
  for (const UnpredictedKernel &K : Kernels) {
    addOnce(Reasons, K.Reason);
    ByReason[K.Reason].push_back(K.Kernel);
    Wasteful += K.WastefulLines;
  }
  std::vector<std::string> Groups;
  for (const std::string &R : Reasons)
    Groups.push_back(joined(ByReason[R]) + " (" + R + ")");
  return plural(static_cast<unsigned>(Kernels.size()), "kernel", "kernels") +
         " ran without predictions in the manifest, " +
         plural(Wasteful, "wasteful line", "wasteful lines") +
         " counted as missed: " + joined(Groups, "; ");
}

void writeUnpredicted(const std::vector<UnpredictedKernel> &Kernels,
                      std::ostream &OS) {
  if (Kernels.empty())
    return;
  OS << "\nkernels profiled without predictions (their wasteful lines count "
        "as missed):\n";
  for (const UnpredictedKernel &K : Kernels) {
    OS << "  " << K.Kernel;
    // The instantiations profiled, for a template kernel (the JSON has
    // every exported name).
    if (std::any_of(K.ProfiledAs.begin(), K.ProfiledAs.end(),
                    [](const std::string &F) {
                      return F.find('<') != std::string::npos;
                    }))
      OS << " (" << joined(K.ProfiledAs, "; ") << ")";
    OS << "  " << plural(K.Launches, "launch", "launches") << ", "
       << (K.Files.empty() ? "no global-memory line" : joined(K.Files))
       << ", " << K.WastefulLines << " of " << K.MeasuredLines
       << " measured lines wasteful: " << K.Reason << "\n";
  }
}

void writeUnpredictedJson(const std::vector<UnpredictedKernel> &Kernels,
                          std::ostream &OS) {
  OS << "  \"unpredicted_kernels\": [";
  bool First = true;
  for (const UnpredictedKernel &K : Kernels) {
    OS << (First ? "\n" : ",\n") << "    {\"kernel\": " << jsonString(K.Kernel)
       << ", \"profiled_as\": [";
    for (size_t I = 0; I != K.ProfiledAs.size(); ++I)
      OS << (I ? ", " : "") << jsonString(K.ProfiledAs[I]);
    OS << "], \"launches\": " << K.Launches << ", \"files\": [";
    for (size_t I = 0; I != K.Files.size(); ++I)
      OS << (I ? ", " : "") << jsonString(K.Files[I]);
    OS << "], \"measured_lines\": " << K.MeasuredLines
       << ", \"wasteful_lines\": " << K.WastefulLines
       << ", \"reason\": " << jsonString(K.Reason) << "}";
    First = false;
  }
  OS << (First ? "],\n" : "\n  ],\n");
}

} // namespace coalesce::verify
