//===- ExplainAccess.cpp - --explain-access FILE:LINE[:COL] ---------------===//
#include "Options.h"

#include "coalesce/Output.h"
#include "coalesce/Triage.h"

#include "llvm/Support/WithColor.h"

namespace coalesce {
namespace tool {

int explainAccessAt(const Report &R, const Options &O,
                    const FindingTable &Table) {
  llvm::Expected<AccessQuery> Q = parseAccessQuery(O.ExplainAccess);
  if (!Q) {
    llvm::WithColor::error(llvm::errs(), "coalesce-lint")
        << llvm::toString(Q.takeError()) << "\n";
    return ExitUsage;
  }
  OutputOptions Out;
  Out.Table = &Table;
  Out.Findings = O.Findings;
  llvm::Expected<unsigned> Explained = explainAccess(R, *Q, Out, llvm::outs());
  llvm::outs().flush();
  if (Explained)
    return ExitClean;
  // An unusable input was named already; there is nothing more to say.
  for (const FileResult &F : R.Files)
    if (F.File == Q->File && F.InputError) {
      llvm::consumeError(Explained.takeError());
      return ExitUsage;
    }
  llvm::WithColor::error(llvm::errs(), "coalesce-lint")
      << llvm::toString(Explained.takeError()) << "\n";
  // A file that could not be read or compiled says so with its own code.
  int Exit = exitCode(R, 0, O);
  if (Exit == ExitCompile)
    llvm::errs() << "coalesce-lint: note: the input has compile errors; run "
                    "without --explain-access to list them\n";
  return Exit == ExitClean ? ExitUsage : Exit;
}

} // namespace tool
} // namespace coalesce
