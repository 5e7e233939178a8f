//===- GithubOutput.cpp - GitHub Actions workflow commands ----------------===//
///
/// \file
/// One "::warning file=F,line=L,col=C,endLine=L,endColumn=C,title=RULE::msg"
/// command per reported finding ("::error" and "::notice" for the other
/// severities). GitHub shows only the first 10 annotations of each level
/// per step, so findings come costliest first (most wasted sectors per
/// request), and a final plain line gives the total.
///
//===----------------------------------------------------------------------===//

#include "coalesce/FindingGroups.h"
#include "coalesce/Output.h"

#include "findings/Format.h"
#include "findings/Paths.h"
#include "output/TableFor.h"

#include <fmt/format.h>

#include <algorithm>

namespace coalesce {

namespace {

/// GitHub's escaping of a command's message: %, CR, LF.
std::string escapeData(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '%':
      Out += "%25";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

/// ... and of a property value: also ':' and ','.
std::string escapeProperty(llvm::StringRef S) {
  std::string Out;
  for (char C : escapeData(S)) {
    if (C == ':')
      Out += "%3A";
    else if (C == ',')
      Out += "%2C";
    else
      Out += C;
  }
  return Out;
}

const char *commandOf(Severity S) {
  switch (S) {
  case Severity::Note:
    return "notice";
  case Severity::Error:
    return "error";
  case Severity::Warning:
    break;
  }
  return "warning";
}

/// "file=F,line=L[,col=C][,endLine=L2][,endColumn=C2]". GitHub takes
/// columns only for a one-line range.
std::string locationProperties(const SourceLocation &Begin,
                               const SourceLocation &End = {}) {
  std::string Out = "file=" + escapeProperty(displayPath(Begin.File));
  if (!Begin.valid())
    return Out;
  Out += fmt::format(",line={}", Begin.Line);
  bool SameFile = End.File.empty() || End.File == Begin.File;
  bool EndKnown = End.valid() && SameFile && End.Line >= Begin.Line;
  if (Begin.Column && (!EndKnown || End.Line == Begin.Line))
    Out += fmt::format(",col={}", Begin.Column);
  if (EndKnown) {
    Out += fmt::format(",endLine={}", End.Line);
    if (Begin.Column && End.Line == Begin.Line && End.Column >= Begin.Column)
      Out += fmt::format(",endColumn={}", End.Column);
  }
  return Out;
}

/// The lead finding's message, its cost, then its notes, where the group's
/// verdicts hold, and the suggestion, each on its own line.
std::string annotationText(const FindingGroup &G) {
  const Finding &F = G.lead().F;
  const AccessRecord &A = *G.lead().Access;
  std::string Text = F.Message;
  auto Line = [&](const std::string &S) { Text += "\nnote: " + S; };
  if (F.Cost && F.Cost->ExcessBytes > 0)
    Line(describeImpact(*F.Cost, A.Pattern.Op));
  if (G.AtCallSite)
    Line(fmt::format("{}: the access, in the function this call reaches",
                     formatLocation(A.Loc)));
  for (const Note &N : F.Notes)
    Line(N.Loc.File.empty()
             ? N.Message
             : fmt::format("{}: {}", formatLocation(N.Loc), N.Message));
  for (const std::string &S : verdictLines(G, /*NameOtherRules=*/false))
    Line(S);
  if (!F.Suggestion.empty())
    Text += "\nsuggestion: " + F.Suggestion;
  return Text;
}

/// Compile errors that cost the analysis something.
void writeCompileErrors(llvm::raw_ostream &OS, const Report &R) {
  for (const FileResult &F : R.Files) {
    if (!F.FatalError.empty())
      OS << fmt::format("::error {},title=coalesce-lint::{}\n",
                        locationProperties(SourceLocation{F.File, 0, 0}),
                        escapeData(F.FatalError));
    for (const CompileError &E : F.Errors)
      if (E.InKernel)
        OS << fmt::format("::error {},title=compile error::{}\n",
                          locationProperties(E.Loc.File.empty()
                                                 ? SourceLocation{F.File, 0, 0}
                                                 : E.Loc),
                          escapeData(E.Message));
  }
}

} // namespace

unsigned writeGithub(const Report &R, const OutputOptions &Opts,
                     llvm::raw_ostream &OS) {
  FindingTable Local;
  const FindingTable &Table = tableFor(R, Opts, Local);
  writeCompileErrors(OS, R);

  // One annotation per source access (or call site), costliest first:
  // GitHub shows the first 10 of each level.
  std::vector<FindingGroup> Reported = groupFindings(Table);
  for (const FindingGroup &G : Reported) {
    const TriagedFinding &T = G.lead();
    OS << fmt::format("::{} {},title={}::{}\n", commandOf(T.Level),
                      locationProperties(G.Primary, G.AtCallSite
                                                        ? SourceLocation()
                                                        : T.Access->EndLoc),
                      escapeProperty(T.F.RuleId),
                      escapeData(annotationText(G)));
  }

  std::string Suppressed =
      Table.suppressedCount()
          ? fmt::format("; {} suppressed", Table.suppressedCount())
          : "";
  unsigned Accesses = R.accessCount();
  std::string Analyzed = fmt::format("{} access{} analyzed", Accesses,
                                     Accesses == 1 ? "" : "es");
  if (Reported.empty())
    OS << fmt::format("coalesce-lint: no findings ({}){}\n", Analyzed,
                      Suppressed);
  else
    OS << fmt::format("coalesce-lint: {} finding{} ({}), costliest first; "
                      "GitHub shows only the first 10 annotations of each "
                      "level per step{}\n",
                      Reported.size(), Reported.size() == 1 ? "" : "s",
                      Analyzed, Suppressed);
  return Reported.size();
}

} // namespace coalesce
