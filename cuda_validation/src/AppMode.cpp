//===- AppMode.cpp - coalesce-verify --app from start to end --------------===//

#include "AppMode.h"

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
  RunData Data = runApp(O);
  if (!Data.FallbackNote.empty())
    std::cerr << "coalesce-verify: note: " << Data.FallbackNote << "\n";
  RunSummary Summary;
  Summary.Method = Data.Method;
  Summary.Tolerance = Tolerance;
  Attribution Result;
  LineComparison Lines;
  if (Data.ExitCode != ExitConfirmed) {
    std::cerr << "coalesce-verify: error: " << Data.Message << "\n";
    Summary.ExitCode = Data.ExitCode;
    Summary.Message = Data.Message;
  } else {
    AttributionInput In;
    In.Accesses = &Accesses;
    In.Source = &Data.Page;
    In.Tolerance = Tolerance;
    Result = attribute(In);
    Lines = compareLines(Accesses, Data.Page, LineCriteria());
    bool Mismatch = false;
    for (const AccessResult &R : Result.Results)
      Mismatch |= R.Result == Verdict::Mismatch;
    Summary.ExitCode = Mismatch ? ExitMismatch : ExitConfirmed;
    std::cout << "application: " << O.Command << "\n";
    writeTable(Result, Summary, std::cout);
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
      if (Compared)
        writeLineJson(Lines, Result, OS);
    });
  }
  return Summary.ExitCode;
}

} // namespace coalesce::verify
