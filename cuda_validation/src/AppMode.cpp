//===- AppMode.cpp - coalesce-verify --app from start to end --------------===//

#include "AppMode.h"

#include "AppAttribution.h"
#include "AppCoverage.h"
#include "AppReport.h"
#include "Csv.h"
#include "KernelName.h"
#include "LineComparison.h"
#include "ResultWriter.h"

#include <fstream>
#include <iostream>

namespace coalesce::verify {

namespace {

/// Reads the manifest (and the lint report, when given) into \p Accesses
/// and \p Report; an error message when one cannot be read.
std::string readInputs(const AppOptions &O, const std::string &ManifestPath,
                       std::vector<ManifestAccess> &Accesses,
                       LintReport &Report) {
  std::optional<std::string> Text = readFile(ManifestPath);
  std::string Error;
  if (!Text)
    return "cannot read " + ManifestPath +
           " (write it with coalesce-lint --emit-manifest FILE)";
  if (!parseManifest(*Text, Accesses, Error))
    return ManifestPath + ": " + Error;
  if (O.LintReport.empty())
    return "";
  std::optional<std::string> Json = readFile(O.LintReport);
  if (!Json)
    return "cannot read " + O.LintReport +
           " (write it with coalesce-lint --format=json -o FILE)";
  if (!parseLintReport(*Json, Report, Error))
    return O.LintReport + ": " + Error;
  return "";
}

/// The kernels the profile filter selects: the manifest's, then those the
/// lint report lists without rows (accesses dropped, none predicted).
std::vector<std::string> filterKernels(const std::vector<ManifestAccess> &M,
                                       const LintReport *Report) {
  std::vector<std::string> Out;
  for (const ManifestAccess &A : M)
    Out.push_back(A.Kernel);
  if (Report)
    for (const LintKernel &K : Report->Kernels)
      Out.push_back(unqualifiedKernelName(K.Name));
  return Out;
}

/// A note when the profile filter is the listed kernels and the lint report
/// has files whose kernels it may not list (compile errors, not analyzed,
/// templates never instantiated): those are not profiled; "" otherwise.
std::string filterNote(const AppOptions &Run, const LintReport *Report) {
  if (!Report || !Run.FromRecording.empty() || !appUsesManifestFilter(Run))
    return "";
  std::string Files;
  for (const LintFile &F : Report->Files)
    if (!F.Analyzed || !F.FatalError.empty() || !F.Errors.empty() ||
        !F.Uninstantiated.empty())
      Files += (Files.empty() ? "" : ", ") + fileBaseName(F.Path);
  if (Files.empty())
    return "";
  return "coalesce-lint's report has files with compile errors, not analyzed "
         "or with templates never instantiated (" +
         Files +
         "): kernels it does not list are not profiled with the listed "
         "kernels as filter; --all-kernels profiles the first launch of "
         "every kernel";
}

} // namespace

int runAppMode(const AppOptions &O, const std::string &ManifestPath,
               double Tolerance, const std::string &JsonFile) {
  std::vector<ManifestAccess> Accesses;
  LintReport Lint;
  if (std::string Error = readInputs(O, ManifestPath, Accesses, Lint);
      !Error.empty()) {
    std::cerr << "coalesce-verify: error: " << Error << "\n";
    return ExitUsage;
  }
  const LintReport *Report = O.LintReport.empty() ? nullptr : &Lint;
  AppOptions Run = O;
  Run.ManifestKernels = filterKernels(Accesses, Report);
  if (std::string Note = filterNote(Run, Report); !Note.empty())
    std::cerr << "coalesce-verify: note: " << Note << "\n";
  RunData Data = runApp(Run);
  RunSummary Summary = startSummary(Data, Tolerance);
  Attribution Result;
  ProfileSplit Split;
  LineComparison Lines, SharedLines;
  std::vector<UnpredictedKernel> Unpredicted;
  if (Summary.ExitCode == ExitConfirmed) {
    Split = splitProfile(Accesses, Data.Page);
    Result = attributeUnits(Split, Accesses, Tolerance);
    Unpredicted = findUnpredictedKernels(Accesses, Data.Page, Report);
    Lines = compareLines(Accesses, Data.Page, LineCriteria(),
                         unpredictedNames(Unpredicted));
    countUnpredictedLines(Unpredicted, Lines);
    LineCriteria Shared;
    Shared.Space = MemSpace::Shared;
    SharedLines = compareLines(Accesses, Data.Page, Shared,
                               unpredictedNames(Unpredicted));
    bool Mismatch = false;
    for (const AccessResult &R : Result.Results)
      Mismatch |= R.Result == Verdict::Mismatch;
    Summary.ExitCode = Mismatch ? ExitMismatch : ExitConfirmed;
    if (nothingPredictedRan(Unpredicted, Data.Page)) {
      Summary.ExitCode = ExitNothingCompared;
      Summary.Message = "no access compared: " + describeUnpredicted(Unpredicted);
      std::cerr << "coalesce-verify: error: " << Summary.Message << "\n";
    } else if (!Unpredicted.empty()) {
      std::cerr << "coalesce-verify: warning: "
                << describeUnpredicted(Unpredicted) << "\n";
    }
    std::cout << "application: "
              << (O.Command.empty() ? "(recording " + O.FromRecording + ")"
                                    : O.Command)
              << "\n";
    writeTable(Result, Summary, std::cout);
    writePairings(Split, std::cout);
    writeUnpredicted(Unpredicted, std::cout);
    writeLineTable(Lines, std::cout);
    if (!SharedLines.Lines.empty())
      writeLineTable(SharedLines, std::cout);
    std::ofstream Tsv(O.Dir + "/results.tsv");
    if (Tsv)
      writeTsv(Result, Tsv);
  }
  if (!JsonFile.empty()) {
    std::ofstream Json(JsonFile);
    if (!Json) {
      std::cerr << "coalesce-verify: error: cannot write " << JsonFile << "\n";
      return ExitUsage;
    }
    bool Compared = Data.ExitCode == ExitConfirmed;
    writeJson(Result, Summary, Json, [&](std::ostream &OS) {
      OS << "  \"mode\": \"app\",\n  \"command\": " << jsonString(O.Command)
         << ",\n";
      if (Compared) {
        writePairingsJson(Split, OS);
        writeUnpredictedJson(Unpredicted, OS);
        writeLineJson(Lines, SharedLines, Result, OS);
      }
    });
  }
  return Summary.ExitCode;
}

} // namespace coalesce::verify
