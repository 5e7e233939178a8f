//===- TextOutput.cpp - The clang-style text report -----------------------===//
///
/// \file
/// file:line:col: warning: message [rule-id], the source line with a caret
/// under the expression, notes, a suggestion; optionally one greppable line
/// per access; compile errors first and a summary last.
///
//===----------------------------------------------------------------------===//

#include "coalesce/FindingGroups.h"
#include "coalesce/Output.h"

#include "findings/Format.h"
#include "output/TableFor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <set>

namespace coalesce {

namespace {

/// ANSI colors as clang uses them; empty strings when color is off.
struct Palette {
  const char *Bold = "", *Warning = "", *Error = "", *Note = "", *Caret = "",
             *Reset = "";

  explicit Palette(bool Color) {
    if (!Color)
      return;
    Bold = "\x1b[1m";
    Warning = "\x1b[0;1;35m";
    Error = "\x1b[0;1;31m";
    Note = "\x1b[0;1;30m";
    Caret = "\x1b[0;1;32m";
    Reset = "\x1b[0m";
  }
};

/// "1 warning", "2 warnings"; "1 access", "2 accesses".
std::string plural(unsigned N, const char *Word, const char *Suffix = "s") {
  return fmt::format("{} {}{}", N, Word, N == 1 ? "" : Suffix);
}

/// What a diagnostic line is.
enum class DiagKind { Warning, Error, Note };

/// One diagnostic line: "loc: kind: message".
void writeDiagnostic(llvm::raw_ostream &OS, const Palette &C,
                     const SourceLocation &Loc, DiagKind Kind,
                     const std::string &Message) {
  if (!Loc.File.empty())
    OS << C.Bold << formatLocation(Loc) << ": ";
  switch (Kind) {
  case DiagKind::Warning:
    OS << C.Warning << "warning: " << C.Reset << C.Bold;
    break;
  case DiagKind::Error:
    OS << C.Error << "error: " << C.Reset << C.Bold;
    break;
  case DiagKind::Note:
    OS << C.Note << "note: " << C.Reset;
    break;
  }
  OS << Message << C.Reset << "\n";
}

/// The source line of \p A and a caret line under its expression.
void writeSourceAndCaret(llvm::raw_ostream &OS, const Palette &C,
                         const AccessRecord &A) {
  std::string Line = A.SourceLine;
  while (!Line.empty() && (Line.back() == '\n' || Line.back() == '\r'))
    Line.pop_back();
  if (Line.empty() || A.Loc.Column == 0)
    return;
  std::string Caret;
  for (size_t I = 0; I + 1 < A.Loc.Column; ++I)
    Caret += I < Line.size() && Line[I] == '\t' ? '\t' : ' ';
  Caret += '^';
  bool SameLine = A.EndLoc.valid() && A.EndLoc.Line == A.Loc.Line &&
                  (A.EndLoc.File.empty() || A.EndLoc.File == A.Loc.File);
  if (SameLine && A.EndLoc.Column > A.Loc.Column) {
    size_t End = std::min<size_t>(A.EndLoc.Column, Line.size());
    for (size_t Col = A.Loc.Column + 1; Col <= End; ++Col)
      Caret += '~';
  }
  OS << Line << "\n" << C.Caret << Caret << C.Reset << "\n";
}

/// "n/a" for a missing number.
std::string numberOrNA(const std::optional<double> &V) {
  return V ? formatNumber(*V) : std::string("n/a");
}

/// The --print-accesses line of \p A.
void writeAccessLine(llvm::raw_ostream &OS, const KernelRecord &K,
                     const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  // Shared accesses on lines of their own ("shared:", in wavefronts), so
  // that tests of global accesses stay closed over "access:".
  bool Shared = A.Pattern.Space == AccessSpace::Shared;
  OS << fmt::format("{}: {}: kernel={} op={} base={} elem={} expr='{}' "
                    "{}s={} ideal={}",
                    formatLocation(A.Loc), Shared ? "shared" : "access",
                    A.Kernel.empty() ? K.Name : A.Kernel,
                    accessOpName(A.Pattern.Op), A.Base, A.ElemBytes,
                    A.Expression, costUnitName(A.Pattern.Space),
                    numberOrNA(P.SectorsPerRequest),
                    numberOrNA(P.IdealSectorsPerRequest));
  if (P.WorstSectorsPerRequest)
    OS << " worst=" << formatNumber(*P.WorstSectorsPerRequest);
  OS << " class=" << classificationName(P.Class) << " stride="
     << (P.LaneStrideBytesValue ? std::to_string(*P.LaneStrideBytesValue)
                                : std::string("n/a"))
     << " block=" << K.Block.str() << "(" << blockShapeSourceName(K.BlockSource)
     << ")\n";
}

/// The diagnostic kind a finding of severity \p S is printed as.
DiagKind diagKindOf(Severity S) {
  switch (S) {
  case Severity::Note:
    return DiagKind::Note;
  case Severity::Error:
    return DiagKind::Error;
  case Severity::Warning:
    break;
  }
  return DiagKind::Warning;
}

/// One finding group: the lead finding in full (at the call site when the
/// group is one call site's verdict of an access in a device function),
/// where it applies, the other verdicts of the same access in a line each,
/// and the suggestion unless this file already had the same one.
void writeGroup(llvm::raw_ostream &OS, const Palette &C, const FindingGroup &G,
                std::set<std::pair<std::string, std::string>> &Suggested,
                bool Verbose) {
  const TriagedFinding &Lead = G.lead();
  const AccessRecord &A = *Lead.Access;
  const Finding &F = Lead.F;
  writeDiagnostic(OS, C, G.Primary, diagKindOf(Lead.Level),
                  fmt::format("{} [{}]", F.Message, F.RuleId));
  if (G.AtCallSite)
    writeDiagnostic(OS, C, A.Loc, DiagKind::Note,
                    fmt::format("the access, in the function kernel '{}' "
                                "calls here",
                                A.Kernel.empty() ? Lead.Kernel->Name : A.Kernel));
  writeSourceAndCaret(OS, C, A);
  for (const Note &N : F.Notes) {
    // The call site is the diagnostic's own location.
    bool IsPrimary = G.AtCallSite && N.Loc.Line == G.Primary.Line &&
                     N.Loc.Column == G.Primary.Column &&
                     N.Loc.File == G.Primary.File;
    if (!IsPrimary)
      writeDiagnostic(OS, C, N.Loc, DiagKind::Note, N.Message);
  }
  if (F.Cost && F.Cost->ExcessBytes > 0)
    writeDiagnostic(OS, C, A.Loc, DiagKind::Note,
                    describeImpact(*F.Cost, A.Pattern.Op));
  for (const std::string &Line : verdictLines(G, /*NameOtherRules=*/true))
    writeDiagnostic(OS, C, A.Loc, DiagKind::Note, Line);
  if (F.Suggestion.empty() ||
      (!Verbose && !Suggested.insert({G.Primary.File, F.Suggestion}).second))
    return;
  writeDiagnostic(OS, C, SourceLocation(), DiagKind::Note,
                  "suggestion: " + F.Suggestion);
}

void writeCompileErrors(llvm::raw_ostream &OS, const Palette &C,
                        const FileResult &F, bool ShowAll) {
  if (!F.FatalError.empty())
    writeDiagnostic(OS, C, SourceLocation{F.File, 0, 0}, DiagKind::Error,
                    F.FatalError);
  // Headers clang could not find are named once: parsing went on past
  // them, and the kernels that need them report their own errors.
  std::vector<std::string> Missing;
  for (const CompileError &E : F.Errors) {
    llvm::StringRef M(E.Message);
    if (M.consume_back(" file not found") && M.size() > 2 &&
        std::find(Missing.begin(), Missing.end(), M.str()) == Missing.end())
      Missing.push_back(M.str());
  }
  if (!Missing.empty())
    writeDiagnostic(OS, C, SourceLocation{F.File, 0, 0}, DiagKind::Error,
                    fmt::format("missing header{} {} (add -I or -p "
                                "compile_commands.json); analysis continued "
                                "without {}",
                                Missing.size() > 1 ? "s" : "",
                                fmt::join(Missing, ", "),
                                Missing.size() > 1 ? "them" : "it"));
  unsigned Ignored = 0;
  const CompileError *First = nullptr;
  for (const CompileError &E : F.Errors) {
    // Errors inside kernels cost the analysis something: always listed.
    if (ShowAll || E.InKernel) {
      writeDiagnostic(OS, C, E.Loc, DiagKind::Error, E.Message);
      continue;
    }
    if (!First)
      First = &E;
    ++Ignored;
  }
  if (Ignored == 0)
    return;
  // Without a kernel analyzed the errors are the whole story.
  const char *What = F.KernelsAnalyzed ? "outside kernels ignored"
                                       : "and no kernel analyzed";
  OS << fmt::format("{}: {} {}; first: {}: {} (use --show-compile-errors to "
                    "list all)\n",
                    F.File, plural(Ignored, "compile error"), What,
                    formatLocation(First->Loc), First->Message);
}

/// "; 2 files failed: a.cu (compile errors), b.cu (unreadable)", or nothing
/// when every file was analyzed: in a many-file run the summary names the
/// files whose results are missing or incomplete.
std::string failedFiles(const Report &R) {
  std::vector<std::string> Failed;
  for (const FileResult &F : R.Files) {
    const char *Why = nullptr;
    if (F.TimedOut)
      Why = "timed out";
    else if (F.Crashed)
      Why = "crashed";
    else if (F.InputError)
      Why = llvm::StringRef(F.FatalError).starts_with("no such file")
                ? "no such file"
                : "unreadable";
    else if (!F.Analyzed || F.KernelsNotAnalyzed ||
             llvm::any_of(F.Errors,
                          [](const CompileError &E) { return E.InKernel; }))
      Why = "compile errors";
    if (Why)
      Failed.push_back(fmt::format("{} ({})", F.File, Why));
  }
  if (Failed.empty())
    return "";
  constexpr size_t Named = 5;
  unsigned Total = static_cast<unsigned>(Failed.size());
  std::string More =
      Total > Named ? fmt::format(" and {} more", Total - Named) : "";
  if (Total > Named)
    Failed.resize(Named);
  return fmt::format("; {} failed: {}{}", plural(Total, "file"),
                     fmt::join(Failed, ", "), More);
}

/// Kernel templates a file never instantiates (a header given alone): said,
/// with how to analyze them, instead of dropped without a word.
void writeUninstantiated(llvm::raw_ostream &OS, const Report &R) {
  for (const FileResult &F : R.Files)
    for (const auto &[Name, Loc] : F.UninstantiatedKernels)
      OS << fmt::format(
          "{}: note: kernel template '{}' is not instantiated in this file, so "
          "it is not analyzed: analyze a file that instantiates it (a .cu "
          "that includes this one and launches it), or add an explicit "
          "instantiation ('template __global__ void {}<float>(...);')\n",
          formatLocation(Loc), Name, Name);
}

/// Kernels that report no access although their source has memory
/// operations: why, once per kernel and reason (instances grouped), so that
/// "no finding" is not read as "checked and clean".
void writeNoAccess(llvm::raw_ostream &OS, const Report &R) {
  std::vector<std::pair<const KernelRecord *, unsigned>> Groups;
  for (const KernelRecord &K : R.Kernels) {
    if (K.NoAccessReason.empty())
      continue;
    auto Same = llvm::find_if(Groups, [&](const auto &G) {
      return G.first->Name == K.Name && G.first->Loc.File == K.Loc.File &&
             G.first->Loc.Line == K.Loc.Line &&
             G.first->NoAccessReason == K.NoAccessReason;
    });
    if (Same != Groups.end())
      ++Same->second;
    else
      Groups.push_back({&K, 1});
  }
  for (const auto &[K, Count] : Groups)
    OS << fmt::format("{}: note: kernel '{}'{} reports no access because "
                      "{}\n",
                      formatLocation(K->Loc), K->Name,
                      Count > 1 ? fmt::format(" ({} instances)", Count)
                                : std::string(),
                      K->NoAccessReason);
}

/// One row of the --summary tables: a kernel's or a file's findings and
/// what they waste per launch (the per-block and per-pass ones counted
/// apart: their bytes do not add to a launch's).
struct SummaryRow {
  std::string Name;
  unsigned Findings = 0, NotPerLaunch = 0;
  double Bytes = 0;
  const FindingGroup *Top = nullptr;
};

void writeSummaryTable(llvm::raw_ostream &OS, const char *Title,
                       const char *What, std::vector<SummaryRow> Rows) {
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const SummaryRow &A, const SummaryRow &B) {
                     return A.Bytes > B.Bytes;
                   });
  constexpr size_t Shown = 10;
  OS << fmt::format("{} (costliest first{}):\n", Title,
                    Rows.size() > Shown ? fmt::format(", {} of {}", Shown,
                                                      Rows.size())
                                        : "");
  OS << fmt::format("  {:<32} {:>8} {:>14}  {}\n", What, "findings",
                    "wastes/launch", "costliest");
  for (size_t I = 0; I < Rows.size() && I < Shown; ++I) {
    const SummaryRow &R = Rows[I];
    const TriagedFinding &T = R.Top->lead();
    std::string Bytes =
        R.Bytes > 0 ? formatBytes(R.Bytes) : std::string("-");
    std::string Apart =
        R.NotPerLaunch ? fmt::format(" (+{} per block or pass)", R.NotPerLaunch)
                       : "";
    OS << fmt::format("  {:<32} {:>8} {:>14}  {} {} '{}'{}\n", R.Name,
                      R.Findings, Bytes, formatLocation(R.Top->Primary),
                      T.F.RuleId, T.Access->Expression, Apart);
  }
}

/// --summary: the findings per kernel and per file, costliest first.
void writeSummaryTables(llvm::raw_ostream &OS,
                        const std::vector<FindingGroup> &Groups) {
  std::map<std::string, SummaryRow> Kernels, Files;
  for (const FindingGroup &G : Groups) {
    const TriagedFinding &T = G.lead();
    for (auto [Map, Key] : {std::pair{&Kernels, T.Kernel->Name},
                            std::pair{&Files, G.Primary.File}}) {
      SummaryRow &R = (*Map)[Key];
      R.Name = Key;
      ++R.Findings;
      if (!R.Top)
        R.Top = &G; // Groups come costliest first.
      if (T.F.Cost && T.F.Cost->Unit == Impact::Per::Launch)
        R.Bytes += T.F.Cost->ExcessBytes;
      else
        ++R.NotPerLaunch;
    }
  }
  auto Values = [](const std::map<std::string, SummaryRow> &M) {
    std::vector<SummaryRow> V;
    for (const auto &[K, R] : M)
      V.push_back(R);
    return V;
  };
  writeSummaryTable(OS, "findings per kernel", "kernel", Values(Kernels));
  writeSummaryTable(OS, "findings per file", "file", Values(Files));
}

/// A flagged global access's excess bytes per launch as predicted, and the
/// requests that figure counts (as Nsight Compute counts them: per
/// instruction, an update's load and store apart), where \p M measured the
/// launch it counts.
struct PredictedExcess {
  double Bytes = 0;
  double Requests = 0;
};
std::optional<PredictedExcess> predictedExcess(const AccessRecord &A,
                                               const Measurement &M) {
  if (!M.PredictedLaunch || !M.ExcessBytes || !A.Predicted.Requests)
    return std::nullopt;
  std::optional<double> PerLaunch = A.Predicted.Requests->perLaunch();
  std::optional<Finding> F = buildFinding(A, FindingOptions());
  if (!PerLaunch || !F || !F->Cost || F->Cost->Unit != Impact::Per::Launch ||
      F->Cost->Space != AccessSpace::Global)
    return std::nullopt;
  return PredictedExcess{F->Cost->ExcessBytes,
                         *PerLaunch * instructionsPerRequest(A)};
}

} // namespace

/// Predicted vs measured, one row per verified access (--verify-on-gpu),
/// and the excess bytes of the flagged accesses that have a per-launch
/// figure against the bytes the launch moved beyond the ideal.
void writeVerificationTable(llvm::raw_ostream &OS, const Report &R) {
  unsigned Verified = 0, Confirmed = 0;
  unsigned Costed = 0, Within2x = 0, OtherLaunch = 0;
  double PredictedBytes = 0, MeasuredBytes = 0;
  bool AnyGroup = false;
  std::string Rows;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses) {
      if (!A.Measured)
        continue;
      const Measurement &M = *A.Measured;
      std::string Excess;
      if (std::optional<PredictedExcess> P = predictedExcess(A, M)) {
        // Compared only where the launch measured made the requests the
        // figure counts (a recording of another harness may have passed
        // other values).
        if (std::abs(M.Requests - P->Requests) > 0.05 * P->Requests) {
          Excess = fmt::format(
              "  excess {} (predicted {} for {} requests; the launch "
              "measured made {})",
              formatBytes(*M.ExcessBytes), formatBytes(P->Bytes),
              formatNumber(P->Requests), formatNumber(M.Requests));
          ++OtherLaunch;
        } else {
          Excess = fmt::format("  excess {} (predicted {})",
                               formatBytes(*M.ExcessBytes),
                               formatBytes(P->Bytes));
          ++Costed;
          PredictedBytes += P->Bytes;
          MeasuredBytes += *M.ExcessBytes;
          Within2x += *M.ExcessBytes > 0 ? P->Bytes >= *M.ExcessBytes / 2 &&
                                               P->Bytes <= *M.ExcessBytes * 2
                                         : P->Bytes == 0;
        }
      }
      bool Grouped = llvm::StringRef(M.Note).starts_with("measured together");
      AnyGroup |= Grouped;
      auto Num = [](std::optional<double> V) {
        return V ? formatNumber(*V) : std::string("-");
      };
      std::string Op = accessOpName(A.Pattern.Op);
      if (A.Pattern.Space == AccessSpace::Shared) // In wavefronts.
        Op = "shared " + Op;
      Rows += fmt::format("{:<20} {:>5}:{:<4} {:<28} {:<12} {:>9} {:>9} {:<12} {}{}\n",
                          K.Name, A.Loc.Line, A.Loc.Column,
                          A.Expression.substr(0, 28), Op,
                          Num(A.Predicted.SectorsPerRequest),
                          Num(M.SectorsPerRequest) + (Grouped ? "*" : ""),
                          M.Verdict, M.Method, Excess);
      if (M.Verdict == "confirmed" || M.Verdict == "mismatch")
        ++Verified;
      Confirmed += M.Verdict == "confirmed";
    }
  if (Rows.empty())
    return;
  OS << fmt::format("{:<20} {:>10} {:<28} {:<12} {:>9} {:>9} {:<12} {}\n",
                    "kernel", "line:col", "access", "op", "predicted",
                    "measured", "verdict", "method")
     << Rows;
  if (AnyGroup)
    OS << "* measured together with other accesses that share instructions or "
          "counters, against their mean prediction (see verification_note in "
          "--format=json)\n";
  if (Costed)
    OS << fmt::format("excess beyond the ideal in the launch measured, {} "
                      "flagged access{} with a per-launch figure: predicted "
                      "{}, measured {}; {} of {} within 2x of the measured\n",
                      Costed, Costed == 1 ? "" : "es",
                      formatBytes(PredictedBytes), formatBytes(MeasuredBytes),
                      Within2x, Costed);
  if (OtherLaunch)
    OS << fmt::format("({} flagged access{} with a per-launch figure not "
                      "compared: the launch measured made other requests "
                      "than the figure counts)\n",
                      OtherLaunch, OtherLaunch == 1 ? "" : "es");
  OS << fmt::format("GPU verification: {} of {} verified accesses confirmed\n",
                    Confirmed, Verified);
}

unsigned writeText(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS) {
  Palette C(Opts.Color);
  for (const FileResult &F : R.Files)
    writeCompileErrors(OS, C, F, Opts.ShowAllErrors);

  FindingTable Local;
  const FindingTable &Table = tableFor(R, Opts, Local);
  std::vector<FindingGroup> Groups = groupFindings(Table);
  // Every group is printed (or tabled) once, whatever the mode.
  unsigned Findings = static_cast<unsigned>(Groups.size());
  unsigned BySeverity[3] = {0, 0, 0};
  for (const FindingGroup &G : Groups)
    ++BySeverity[static_cast<int>(G.lead().Level)];
  std::set<std::pair<std::string, std::string>> Suggested;
  auto Write = [&](const FindingGroup &G) {
    writeGroup(OS, C, G, Suggested, Opts.Verbose);
  };
  if (Opts.PrintAccesses) {
    // Each group after the line of the first access of it in report order.
    std::map<const TriagedFinding *, size_t> GroupOf;
    for (size_t I = 0; I < Groups.size(); ++I)
      for (const Verdict &V : Groups[I].Verdicts)
        for (const TriagedFinding *T : V.Members)
          GroupOf.emplace(T, I);
    std::vector<bool> Written(Groups.size());
    for (const KernelRecord &K : R.Kernels)
      for (const AccessRecord &A : K.Accesses) {
        writeAccessLine(OS, K, A);
        auto It = GroupOf.find(Table.find(A));
        if (It != GroupOf.end() && !Written[It->second]) {
          Written[It->second] = true;
          Write(Groups[It->second]);
        }
      }
  } else if (Opts.Summary) {
    if (!Groups.empty())
      writeSummaryTables(OS, Groups);
  } else {
    for (const FindingGroup &G : Groups)
      Write(G);
  }
  writeVerificationTable(OS, R);
  writeUninstantiated(OS, R);
  writeNoAccess(OS, R);
  // Always a summary, so that "clean" and "saw nothing" read differently:
  // "0 warnings in 3 kernels (12 accesses analyzed, 2 unknown)", or
  // "1 error, 2 warnings, 1 note in ..." when severities differ.
  unsigned Suppressed = Table.suppressedCount();
  std::string Silenced =
      Suppressed ? fmt::format("; {} suppressed", Suppressed) : "";
  unsigned Unknown = 0;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses)
      Unknown += A.Predicted.Class == Classification::Unknown;
  std::vector<std::string> Counts;
  if (BySeverity[int(Severity::Error)])
    Counts.push_back(plural(BySeverity[int(Severity::Error)], "error"));
  if (BySeverity[int(Severity::Warning)] || Findings == 0)
    Counts.push_back(plural(BySeverity[int(Severity::Warning)], "warning"));
  if (BySeverity[int(Severity::Note)])
    Counts.push_back(plural(BySeverity[int(Severity::Note)], "note"));
  unsigned NotAnalyzed = 0;
  for (const FileResult &F : R.Files)
    NotAnalyzed += F.KernelsNotAnalyzed;
  std::string Skipped =
      NotAnalyzed ? fmt::format("; {} not analyzed (compile errors)",
                                plural(NotAnalyzed, "kernel"))
                  : "";
  OS << fmt::format("{} in {} ({} analyzed, {} unknown){}{}{}\n",
                    fmt::join(Counts, ", "),
                    plural(static_cast<unsigned>(R.Kernels.size()), "kernel"),
                    plural(R.accessCount(), "access", "es"), Unknown, Silenced,
                    Skipped, failedFiles(R));
  return Findings;
}

} // namespace coalesce
