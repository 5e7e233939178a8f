//===- AppMode.cpp - coalesce-verify --app from start to end --------------===//

#include "AppMode.h"

#include "AppAttribution.h"
#include "AppReport.h"
#include "Csv.h"
#include "LineComparison.h"
#include "ResultWriter.h"

#include <fstream>
#include <iostream>

namespace coalesce::verify {

int runAppMode(const AppOptions &O, const std::string &ManifestPath,
               double Tolerance, const std::string &JsonFile) {
  std::optional<std::string> Text = readFile(ManifestPath);
  std::vector<ManifestAccess> Accesses;
  std::string Error;
  if (!Text) {
    std::cerr << "coalesce-verify: error: cannot read " << ManifestPath
              << " (write it with coalesce-lint --emit-manifest FILE)\n";
    return ExitUsage;
  }
  if (!parseManifest(*Text, Accesses, Error)) {
    std::cerr << "coalesce-verify: error: " << ManifestPath << ": " << Error
              << "\n";
    return ExitUsage;
  }
  AppOptions Run = O;
  for (const ManifestAccess &A : Accesses)
    Run.ManifestKernels.push_back(A.Kernel);
  RunData Data = runApp(Run);
  RunSummary Summary = startSummary(Data, Tolerance);
  Attribution Result;
  ProfileSplit Split;
  LineComparison Lines;
  if (Summary.ExitCode == ExitConfirmed) {
    Split = splitProfile(Accesses, Data.Page);
    Result = attributeUnits(Split, Accesses, Tolerance);
    Lines = compareLines(Accesses, Data.Page, LineCriteria());
    bool Mismatch = false;
    for (const AccessResult &R : Result.Results)
      Mismatch |= R.Result == Verdict::Mismatch;
    Summary.ExitCode = Mismatch ? ExitMismatch : ExitConfirmed;
    std::cout << "application: " << O.Command << "\n";
    writeTable(Result, Summary, std::cout);
    writePairings(Split, std::cout);
    writeLineTable(Lines, std::cout);
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
        writeLineJson(Lines, Result, OS);
      }
    });
  }
  return Summary.ExitCode;
}

} // namespace coalesce::verify
