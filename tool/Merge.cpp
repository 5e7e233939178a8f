//===- Merge.cpp - The 'coalesce-lint merge' subcommand -------------------===//
#include "Merge.h"
#include "Options.h"

#include "coalesce/MergeReports.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace coalesce {
namespace tool {

namespace {

const char *Usage = R"(usage: coalesce-lint merge [-o FILE] REPORT...

Joins the JSON reports or SARIF logs of 'coalesce-lint --shard K/N' runs into
the one report a single run over all files gives. Writes to stdout, or to FILE
with -o. Exit codes: 0 merged, 2 usage or input error.
)";

int fail(const llvm::Twine &Msg) {
  llvm::WithColor::error(llvm::errs(), "coalesce-lint merge") << Msg << "\n";
  return ExitUsage;
}

} // namespace

int runMerge(int Argc, const char **Argv) {
  std::string Output;
  std::vector<std::string> Inputs;
  for (int I = 0; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      return ExitClean;
    }
    if (A == "-o" || A == "--output") {
      if (I + 1 >= Argc)
        return fail("'" + A + "' needs a file name");
      Output = Argv[++I];
    } else if (A.consume_front("--output=")) {
      Output = A.str();
    } else if (A.starts_with("-") && A != "-") {
      return fail("unknown option '" + A + "' (run 'coalesce-lint merge --help')");
    } else {
      Inputs.push_back(A.str());
    }
  }
  if (Inputs.empty())
    return fail("no reports to merge (run 'coalesce-lint merge --help')");
  std::vector<ReportText> Reports;
  for (const std::string &Path : Inputs) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
        llvm::MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
    if (!Buf)
      return fail("cannot read '" + Path + "': " + Buf.getError().message());
    Reports.push_back({Path, (*Buf)->getBuffer().str()});
  }
  llvm::Expected<std::string> Merged = mergeReports(Reports);
  if (!Merged)
    return fail(llvm::toString(Merged.takeError()));
  if (Output.empty()) {
    llvm::outs() << *Merged;
    return ExitClean;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC);
  if (EC)
    return fail("cannot write '" + Output + "': " + EC.message());
  OS << *Merged;
  return ExitClean;
}

} // namespace tool
} // namespace coalesce
