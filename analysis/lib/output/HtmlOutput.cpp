//===- HtmlOutput.cpp - The report as one self-contained HTML page --------===//
///
/// \file
/// One page, like scan-build's: totals and the findings per rule (costliest
/// first) at the top, then per input file its kernels and, per kernel with
/// findings, the source lines around them with each finding below its line:
/// message, numbers, notes, suggestion and a picture of one warp request
/// (SvgPicture.h). Inline CSS and SVG only; deterministic (no time stamps).
///
//===----------------------------------------------------------------------===//

#include "coalesce/Output.h"

#include "coalesce/FindingGroups.h"
#include "findings/Format.h"
#include "findings/Paths.h"
#include "output/BankPicture.h"
#include "output/SvgPicture.h"
#include "output/TableFor.h"
#include "output/WarpPicture.h"

#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace coalesce {

namespace {

/// Lines of context around a finding's line.
constexpr unsigned ContextLines = 2;

const char *PageStyle = R"css(
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 40px;color:#1d1d1f}
h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;margin:26px 0 8px;border-bottom:1px solid #ccd}
h3{font-size:15px;margin:18px 0 6px}code,pre,.code{font-family:ui-monospace,Menlo,Consolas,monospace}
table.summary,table.kernels{border-collapse:collapse;margin:6px 0}
table.summary td,table.summary th,table.kernels td,table.kernels th{border:1px solid #d5d9e0;padding:2px 8px;text-align:left}
td.num,th.num{text-align:right}
.totals{color:#444}.muted{color:#777}.error{color:#a30000}
table.code{border-collapse:collapse;width:100%;font-size:12.5px;margin:4px 0 12px;background:#fbfbfd;border:1px solid #e2e5ea}
table.code td{padding:0 6px;vertical-align:top}
td.ln{color:#888;text-align:right;user-select:none;width:1%;white-space:nowrap;border-right:1px solid #e2e5ea}
td.src{white-space:pre;tab-size:8}tr.hit td.src{background:#fff4d6}tr.gap td{color:#aaa;text-align:center}
mark{background:#ffd45e;border-radius:2px}
.finding{border-left:4px solid #c77700;background:#fff;margin:4px 0 10px;padding:6px 10px;font-family:system-ui,sans-serif;white-space:normal;box-shadow:0 1px 2px #0002}
.finding.sev-error{border-color:#c00}.finding.sev-note{border-color:#57a}
.finding.suppressed,.finding.baselined{border-color:#aaa;opacity:.75}
.finding.member{box-shadow:none;padding:2px 10px;opacity:.85}.verdicts{margin:2px 0 2px 18px;padding:0;color:#333}
.finding p{margin:2px 0}.finding .head{font-weight:600}
.badge{display:inline-block;font-size:11px;font-weight:600;padding:0 6px;border-radius:8px;background:#eee;color:#333;margin-left:6px}
.badge.sev-warning{background:#ffe2b8}.badge.sev-error{background:#ffc9c9}.badge.sev-note{background:#d6e4ff}
.badge.suppressed{background:#ddd;color:#555}
.numbers b{font-size:15px}.notes{margin:2px 0 2px 18px;padding:0;color:#333}
figure.warp-picture{margin:8px 0 2px}svg.warp{max-width:100%;height:auto}figcaption{font-size:12px;color:#333;margin-bottom:3px}
.legend{font-size:12px;color:#444}.swatch{display:inline-block;width:11px;height:11px;vertical-align:-1px;margin:0 3px 0 10px;border:1px solid #0002}
)css";

/// The lines of the source files findings are in, read once.
class SourceFiles {
public:
  /// The lines of \p File, or null (with \p Why) when it cannot be read.
  const std::vector<std::string> *lines(const std::string &File,
                                        std::string &Why) {
    auto It = Files.find(File);
    if (It == Files.end()) {
      Entry E;
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
          llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
      if (!Buffer) {
        E.Why = Buffer.getError().message();
      } else {
        E.Readable = true;
        llvm::StringRef Text = (*Buffer)->getBuffer();
        while (!Text.empty()) {
          auto [Line, Rest] = Text.split('\n');
          E.Lines.push_back(Line.rtrim('\r').str());
          Text = Rest;
        }
      }
      It = Files.emplace(File, std::move(E)).first;
    }
    Why = It->second.Why;
    return It->second.Readable ? &It->second.Lines : nullptr;
  }

private:
  struct Entry {
    bool Readable = false;
    std::vector<std::string> Lines;
    std::string Why;
  };
  std::map<std::string, Entry> Files;
};

/// "1 finding", "2 findings".
std::string plural(size_t N, const char *Word, const char *Suffix = "s") {
  return fmt::format("{} {}{}", N, Word, N == 1 ? "" : Suffix);
}

std::string kernelTitle(const KernelRecord &K) {
  return K.Instantiation.empty() ? K.Name : K.Instantiation;
}

/// The source line \p Text with the columns of the accesses in \p Marks
/// (1-based, inclusive) highlighted; escaped.
std::string
highlightedLine(const std::string &Text,
                const std::vector<std::pair<unsigned, unsigned>> &Marks) {
  std::vector<bool> On(Text.size(), false);
  for (auto [From, To] : Marks)
    for (unsigned C = From; C <= To && C <= Text.size(); ++C)
      if (C > 0)
        On[C - 1] = true;
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    size_t J = I;
    while (J < Text.size() && On[J] == On[I])
      ++J;
    std::string Part = escapeHtml(llvm::StringRef(Text).slice(I, J));
    Out += On[I] ? "<mark>" + Part + "</mark>" : Part;
    I = J;
  }
  return Out;
}

/// The columns an access's expression spans on its first line.
std::pair<unsigned, unsigned> spanOf(const AccessRecord &A,
                                     const std::string &Line) {
  unsigned End = unsigned(Line.size());
  if (A.EndLoc.valid() && A.EndLoc.Line == A.Loc.Line &&
      A.EndLoc.Column >= A.Loc.Column)
    End = A.EndLoc.Column;
  return {A.Loc.Column, End};
}

/// Everything the page refers to findings by.
struct PageIndex {
  const FindingTable &Table;
  /// Index of each finding in Table.Findings: its anchor "f-N".
  std::map<const TriagedFinding *, size_t> Anchor;
  /// The reported findings, one group per source access (FindingGroups.h),
  /// the costliest first.
  std::vector<FindingGroup> Groups;
  /// The group and verdict of each reported finding.
  std::map<const TriagedFinding *, std::pair<const FindingGroup *,
                                             const Verdict *>>
      GroupOf;
};

/// A finding that another of its source access stands for (the same access
/// in another instantiation, launch or call site): a line that names its
/// verdict and links to the group's full box, instead of the box again.
void writeGroupMember(llvm::raw_ostream &OS, const PageIndex &Index,
                      const TriagedFinding &T, const FindingGroup &G,
                      const Verdict &V) {
  const char *Level = severityName(T.Level);
  std::string Where = describeContexts(G, V);
  OS << fmt::format(
      "<div class=\"finding member sev-{}\" id=\"f-{}\">\n<p class=\"head\">"
      "<span class=\"badge sev-{}\">{}</span><span class=\"badge rule\">{}"
      "</span> <code>{}</code> <span class=\"muted\">{}, kernel <code>{}"
      "</code></span></p>\n",
      Level, Index.Anchor.at(&T), Level, Level, escapeHtml(T.F.RuleId),
      escapeHtml(T.Access->Expression), escapeHtml(formatLocation(T.Access->Loc)),
      escapeHtml(kernelTitle(*T.Kernel)));
  if (&V == &G.Verdicts.front())
    OS << fmt::format("<p class=\"msg\">as <a href=\"#f-{}\">{} in kernel "
                      "<code>{}</code></a>{}</p>\n",
                      Index.Anchor.at(&G.lead()),
                      escapeHtml(formatLocation(G.lead().Access->Loc)),
                      escapeHtml(kernelTitle(*G.lead().Kernel)),
                      Where.empty() ? "" : ", " + escapeHtml(Where));
  else
    OS << fmt::format("<p class=\"msg\">{}</p>\n<p class=\"muted\">another "
                      "verdict of <a href=\"#f-{}\">the finding at {}</a>{}"
                      "</p>\n",
                      escapeHtml(T.F.Message), Index.Anchor.at(&G.lead()),
                      escapeHtml(formatLocation(G.lead().Access->Loc)),
                      Where.empty() ? "" : ": " + escapeHtml(Where));
  OS << "</div>\n";
}

/// One finding's box: heading, message, numbers, notes, suggestion, picture.
void writeFinding(llvm::raw_ostream &OS, const PageIndex &Index,
                  const TriagedFinding &T) {
  const FindingGroup *G = nullptr;
  if (auto It = Index.GroupOf.find(&T); It != Index.GroupOf.end()) {
    G = It->second.first;
    if (&G->lead() != &T)
      return writeGroupMember(OS, Index, T, *G, *It->second.second);
  }
  const AccessRecord &A = *T.Access;
  const Prediction &P = A.Predicted;
  const char *Level = severityName(T.Level);
  std::string State = T.SuppressedBy ? " suppressed"
                      : T.Baselined  ? " baselined"
                                     : "";
  OS << fmt::format("<div class=\"finding sev-{}{}\" id=\"f-{}\">\n", Level,
                    State, Index.Anchor.at(&T));
  OS << fmt::format("<p class=\"head\"><span class=\"badge sev-{}\">{}</span>"
                    "<span class=\"badge rule\">{}</span> <code>{}</code> "
                    "<span class=\"muted\">{}, kernel <code>{}</code>{}</span>",
                    Level, Level, escapeHtml(T.F.RuleId),
                    escapeHtml(A.Expression), escapeHtml(formatLocation(A.Loc)),
                    escapeHtml(kernelTitle(*T.Kernel)),
                    A.Launch.empty() ? "" : ", launch " + escapeHtml(A.Launch));
  if (T.SuppressedBy)
    OS << fmt::format("<span class=\"badge suppressed\">suppressed by "
                      "<code>{}</code> (line {})</span>",
                      escapeHtml(T.SuppressedBy->Text), T.SuppressedBy->Line);
  else if (T.Baselined)
    OS << "<span class=\"badge suppressed\">in the baseline</span>";
  OS << "</p>\n";
  OS << fmt::format("<p class=\"msg\">{}</p>\n", escapeHtml(T.F.Message));
  // Where the verdict holds and the access's other verdicts (the lines the
  // text report prints under a group's lead).
  std::vector<std::string> Verdicts;
  if (G)
    Verdicts = verdictLines(*G, /*NameOtherRules=*/true);
  if (!Verdicts.empty()) {
    OS << "<ul class=\"verdicts\">\n";
    for (const std::string &Line : Verdicts)
      OS << "<li>" << escapeHtml(Line) << "</li>\n";
    OS << "</ul>\n";
  }
  if (P.SectorsPerRequest)
    OS << fmt::format(
        "<p class=\"numbers\">predicted <b>{}</b> {}s per request, ideal "
        "<b>{}</b>{} &middot; {} of {} byte{} &middot; class {}</p>\n",
        formatNumber(*P.SectorsPerRequest),
        costUnitName(A.Pattern.Space),
        formatNumber(P.IdealSectorsPerRequest.value_or(0)),
        P.UsedBytesFraction
            ? fmt::format(" &middot; {}% of fetched bytes used",
                          formatNumber(*P.UsedBytesFraction * 100))
            : "",
        accessOpName(A.Pattern.Op), A.Pattern.AccessBytes,
        A.Pattern.AccessBytes == 1 ? "" : "s", classificationName(P.Class));
  if (T.F.Cost && T.F.Cost->ExcessBytes > 0)
    OS << fmt::format("<p class=\"numbers\">{}</p>\n",
                      escapeHtml(describeImpact(*T.F.Cost, A.Pattern.Op)));
  if (!T.F.Notes.empty()) {
    OS << "<ul class=\"notes\">\n";
    for (const Note &N : T.F.Notes)
      OS << "<li>"
         << (N.Loc.File.empty()
                 ? ""
                 : "<span class=\"muted\">" +
                       escapeHtml(formatLocation(N.Loc)) + ":</span> ")
         << escapeHtml(N.Message) << "</li>\n";
    OS << "</ul>\n";
  }
  if (!T.F.Suggestion.empty())
    OS << fmt::format("<p class=\"suggestion\"><b>suggestion:</b> {}</p>\n",
                      escapeHtml(T.F.Suggestion));
  if (A.Pattern.Space == AccessSpace::Shared) {
    // Shared memory: the lanes against the 32 banks, as --explain-access
    // draws them.
    if (const std::optional<WarpRequest> &R = P.Representative)
      OS << "<figure class=\"warp-picture\">\n<figcaption>"
         << escapeHtml(fmt::format("one request (warp {}) against the 32 "
                                   "banks of shared memory",
                                   R->Warp))
         << "</figcaption>\n<pre>"
         << escapeHtml(drawBankPicture(*R, A.Pattern.AccessBytes, A.Base))
         << "</pre>\n</figure>\n";
  } else if (std::optional<WarpPicture> Pic = warpPictureOf(A)) {
    std::string Caption = fmt::format(
        "one request ({}): {} of {} lanes active, {} sector{} touched (ideal "
        "{}), {} of {} fetched bytes used ({}%)",
        Pic->Where, Pic->ActiveLanes, Pic->Lanes.size(), Pic->Sectors.size(),
        Pic->Sectors.size() == 1 ? "" : "s", Pic->IdealSectors, Pic->UsedBytes,
        Pic->FetchedBytes, formatNumber(Pic->efficiency() * 100));
    OS << "<figure class=\"warp-picture\">\n<figcaption>" << escapeHtml(Caption)
       << "</figcaption>\n"
       << drawSvgPicture(*Pic, "lanes of " + Pic->Where +
                                   " against the 32-byte sectors of '" +
                                   A.Base + "' they touch")
       << "\n<div class=\"legend\"><span class=\"swatch\" "
          "style=\"background:#1f4e99\"></span>bytes the lane accesses"
          "<span class=\"swatch\" style=\"background:#e8ecf2\"></span>bytes "
          "of other lanes<span class=\"swatch\" style=\"background:#f2a7a7\">"
          "</span>fetched, used by no lane (wasted); columns: 32-byte "
          "sectors, labelled with their byte offset in <code>"
       << escapeHtml(A.Base) << "</code></div>\n</figure>\n";
  }
  OS << "</div>\n";
}

/// A kernel's findings on the source: hunks of lines around them.
void writeListing(llvm::raw_ostream &OS, const PageIndex &Index,
                  const std::vector<const TriagedFinding *> &Findings,
                  SourceFiles &Sources) {
  // By file (in order of appearance), then line.
  std::vector<std::string> Files;
  std::map<std::string, std::map<unsigned, std::vector<const TriagedFinding *>>>
      ByLine;
  for (const TriagedFinding *T : Findings) {
    const std::string &F = T->Access->Loc.File;
    if (!ByLine.count(F))
      Files.push_back(F);
    ByLine[F][T->Access->Loc.Line].push_back(T);
  }
  for (const std::string &File : Files) {
    const auto &Lines = ByLine[File];
    std::string Why;
    const std::vector<std::string> *Text = Sources.lines(File, Why);
    if (Files.size() > 1)
      OS << "<p class=\"muted\">in <code>" << escapeHtml(File)
         << "</code></p>\n";
    if (!Text) {
      OS << "<p class=\"muted nosource\">source not available ("
         << escapeHtml(Why) << ")</p>\n";
      for (const auto &[Line, Here] : Lines)
        for (const TriagedFinding *T : Here)
          writeFinding(OS, Index, *T);
      continue;
    }
    // Hunks: each finding line with its context, overlapping ones merged.
    std::vector<std::pair<unsigned, unsigned>> Hunks;
    for (const auto &[Line, Here] : Lines) {
      unsigned From = Line > ContextLines ? Line - ContextLines : 1;
      unsigned To = std::min<unsigned>(Line + ContextLines,
                                       std::max<size_t>(Text->size(), 1));
      if (!Hunks.empty() && From <= Hunks.back().second + 1)
        Hunks.back().second = std::max(Hunks.back().second, To);
      else
        Hunks.push_back({From, To});
    }
    OS << "<table class=\"code\">\n";
    for (size_t H = 0; H < Hunks.size(); ++H) {
      if (H > 0)
        OS << "<tr class=\"gap\"><td class=\"ln\">&#8942;</td><td></td></tr>\n";
      for (unsigned L = Hunks[H].first; L <= Hunks[H].second; ++L) {
        auto It = Lines.find(L);
        std::string Src = L <= Text->size() ? (*Text)[L - 1] : "";
        std::vector<std::pair<unsigned, unsigned>> Marks;
        if (It != Lines.end())
          for (const TriagedFinding *T : It->second)
            Marks.push_back(spanOf(*T->Access, Src));
        OS << fmt::format("<tr{}><td class=\"ln\">{}</td>"
                          "<td class=\"src\">{}</td></tr>\n",
                          It != Lines.end() ? " class=\"hit\"" : "", L,
                          highlightedLine(Src, Marks));
        if (It == Lines.end())
          continue;
        OS << "<tr class=\"findings\"><td class=\"ln\"></td><td>\n";
        for (const TriagedFinding *T : It->second)
          writeFinding(OS, Index, *T);
        OS << "</td></tr>\n";
      }
    }
    OS << "</table>\n";
  }
}

/// Findings per rule, costliest (most wasted sectors per request) first.
void writeSummary(llvm::raw_ostream &OS, const PageIndex &Index) {
  struct RuleCount {
    unsigned Reported = 0, Suppressed = 0;
    double Wasted = 0;
  };
  // A source access counts once (its group's lead), as the text report
  // counts it; suppressed findings are not grouped.
  std::map<std::string, RuleCount> Rules;
  for (const FindingGroup &G : Index.Groups) {
    RuleCount &C = Rules[G.lead().F.RuleId];
    ++C.Reported;
    C.Wasted += G.lead().F.WastedSectors;
  }
  for (const TriagedFinding &T : Index.Table.Findings)
    if (!T.reported())
      ++Rules[T.F.RuleId].Suppressed;
  std::vector<std::pair<std::string, RuleCount>> Order(Rules.begin(),
                                                       Rules.end());
  std::stable_sort(Order.begin(), Order.end(),
                   [](const auto &A, const auto &B) {
                     if (A.second.Wasted != B.second.Wasted)
                       return A.second.Wasted > B.second.Wasted;
                     return A.second.Reported > B.second.Reported;
                   });
  OS << "<section id=\"summary\">\n<h2>Findings by rule, costliest "
        "first</h2>\n";
  if (Order.empty()) {
    OS << "<p>No findings.</p>\n</section>\n";
    return;
  }
  OS << "<table class=\"summary\">\n<tr><th>rule</th><th class=\"num\">"
        "findings</th><th class=\"num\">suppressed</th><th class=\"num\">"
        "wasted sectors per request (sum)</th></tr>\n";
  for (const auto &[Rule, C] : Order)
    OS << fmt::format("<tr><td><code>{}</code></td><td class=\"num\">{}</td>"
                      "<td class=\"num\">{}</td><td class=\"num\">{}</td>"
                      "</tr>\n",
                      escapeHtml(Rule), C.Reported, C.Suppressed,
                      formatNumber(C.Wasted));
  OS << "</table>\n";

  // The costliest source accesses (groupFindings()' order), linked.
  size_t Shown = std::min<size_t>(Index.Groups.size(), 10);
  if (Shown) {
    OS << "<h3>Costliest findings</h3>\n<ol class=\"costliest\">\n";
    for (size_t I = 0; I < Shown; ++I) {
      const FindingGroup &G = Index.Groups[I];
      const TriagedFinding *T = &G.lead();
      std::string Cost = fmt::format(
          "{} wasted sector{} per request", formatNumber(T->F.WastedSectors),
          T->F.WastedSectors == 1 ? "" : "s");
      if (T->F.Cost && T->F.Cost->ExcessBytes > 0)
        Cost += "; " + describeImpact(*T->F.Cost, T->Access->Pattern.Op);
      if (std::string Where = describeContexts(G, G.Verdicts.front());
          !Where.empty())
        Cost += "; " + Where;
      OS << fmt::format("<li><a href=\"#f-{}\">{}</a> <code>{}</code> ({})</li>\n",
                        Index.Anchor.at(T),
                        escapeHtml(formatLocation(G.Primary)),
                        escapeHtml(T->F.RuleId), escapeHtml(Cost));
    }
    OS << "</ol>\n";
  }
  OS << "</section>\n";
}

/// A file's compile errors that cost the analysis something.
void writeFileProblems(llvm::raw_ostream &OS, const FileResult &F) {
  if (!F.FatalError.empty())
    OS << "<p class=\"error\">" << escapeHtml(F.FatalError) << "</p>\n";
  unsigned Other = 0;
  for (const CompileError &E : F.Errors) {
    if (!E.InKernel) {
      ++Other;
      continue;
    }
    OS << "<p class=\"error\">" << escapeHtml(formatLocation(E.Loc))
       << ": error: " << escapeHtml(E.Message) << "</p>\n";
  }
  if (Other)
    OS << fmt::format("<p class=\"muted\">{} outside kernels ignored</p>\n",
                      plural(Other, "compile error"));
  if (F.KernelsNotAnalyzed)
    OS << fmt::format("<p class=\"error\">{} not analyzed (compile "
                      "errors)</p>\n",
                      plural(F.KernelsNotAnalyzed, "kernel"));
}

} // namespace

unsigned writeHtml(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS) {
  FindingTable Local;
  const FindingTable &Table = tableFor(R, Opts, Local);
  PageIndex Index{Table, {}, groupFindings(Table), {}};
  for (size_t I = 0; I < Table.Findings.size(); ++I)
    Index.Anchor[&Table.Findings[I]] = I + 1;
  for (const FindingGroup &G : Index.Groups)
    for (const Verdict &V : G.Verdicts)
      for (const TriagedFinding *T : V.Members)
        Index.GroupOf.emplace(T, std::make_pair(&G, &V));

  // Kernels grouped by their file: the inputs in order, then any other.
  std::vector<std::string> Files;
  std::map<std::string, const FileResult *> Results;
  for (const FileResult &F : R.Files) {
    std::string Key = absolutePath(F.File);
    if (!Results.count(Key)) {
      Files.push_back(Key);
      Results[Key] = &F;
    }
  }
  std::map<std::string, std::vector<const KernelRecord *>> KernelsOf;
  for (const KernelRecord &K : R.Kernels) {
    std::string Key = absolutePath(K.Loc.File);
    if (!Results.count(Key) && !KernelsOf.count(Key))
      Files.push_back(Key);
    KernelsOf[Key].push_back(&K);
  }
  std::map<const KernelRecord *, std::vector<const TriagedFinding *>>
      FindingsOf;
  for (const TriagedFinding &T : Table.Findings)
    FindingsOf[T.Kernel].push_back(&T);

  unsigned Unknown = 0;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses)
      Unknown += A.Predicted.Class == Classification::Unknown;
  unsigned Reported = Table.reportedCount();
  size_t Accesses = Index.Groups.size();

  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
        "\n<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n"
     << fmt::format("<meta name=\"generator\" content=\"coalesce-lint {}\">\n",
                    escapeHtml(toolVersion()))
     << "<title>coalesce-lint report</title>\n<style>" << PageStyle
     << "</style>\n</head>\n<body>\n<h1>coalesce-lint report</h1>\n";
  std::string Suppressed =
      Table.suppressedCount()
          ? fmt::format(", {} suppressed", Table.suppressedCount())
          : "";
  OS << fmt::format("<p class=\"totals\" id=\"totals\">{}{} in {} of {}; {} "
                    "analyzed, {} unknown</p>\n",
                    plural(Accesses, "finding"), Suppressed,
                    plural(R.Kernels.size(), "kernel"),
                    plural(R.Files.size(), "file"),
                    plural(R.accessCount(), "access", "es"), Unknown);
  writeSummary(OS, Index);

  SourceFiles Sources;
  size_t KernelNumber = 0;
  for (size_t FI = 0; FI < Files.size(); ++FI) {
    const std::string &Key = Files[FI];
    auto RIt = Results.find(Key);
    const std::vector<const KernelRecord *> &Kernels = KernelsOf[Key];
    std::string Shown = RIt != Results.end() ? RIt->second->File
                        : Kernels.empty()    ? Key
                                             : Kernels.front()->Loc.File;
    OS << fmt::format("<section class=\"file\" id=\"file-{}\">\n<h2>{}</h2>\n",
                      FI + 1, escapeHtml(Shown));
    if (RIt != Results.end())
      writeFileProblems(OS, *RIt->second);
    if (Kernels.empty()) {
      OS << "<p class=\"muted\">no kernels analyzed</p>\n</section>\n";
      continue;
    }
    OS << "<table class=\"kernels\">\n<tr><th>kernel</th><th>line</th>"
          "<th>block</th><th class=\"num\">accesses</th><th class=\"num\">"
          "unknown</th><th class=\"num\">findings</th><th class=\"num\">"
          "suppressed</th></tr>\n";
    std::vector<std::pair<const KernelRecord *, size_t>> WithFindings;
    for (const KernelRecord *K : Kernels) {
      size_t Number = ++KernelNumber;
      unsigned KUnknown = 0, KReported = 0, KSuppressed = 0;
      for (const AccessRecord &A : K->Accesses)
        KUnknown += A.Predicted.Class == Classification::Unknown;
      auto FIt = FindingsOf.find(K);
      if (FIt != FindingsOf.end()) {
        for (const TriagedFinding *T : FIt->second)
          (T->reported() ? KReported : KSuppressed)++;
        WithFindings.push_back({K, Number});
      }
      std::string Name = escapeHtml(kernelTitle(*K));
      OS << fmt::format(
          "<tr><td>{}</td><td class=\"num\">{}</td><td>{} <span "
          "class=\"muted\">({})</span></td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{}</td><td "
          "class=\"num\">{}</td></tr>\n",
          FIt != FindingsOf.end()
              ? fmt::format("<a href=\"#k-{}\"><code>{}</code></a>", Number,
                            Name)
              : "<code>" + Name + "</code>",
          K->Loc.Line, K->Block.str(), blockShapeSourceName(K->BlockSource),
          K->Accesses.size(), KUnknown, KReported, KSuppressed);
    }
    OS << "</table>\n";
    for (const auto &[K, Number] : WithFindings) {
      const std::vector<const TriagedFinding *> &Here = FindingsOf[K];
      unsigned KReported = 0;
      for (const TriagedFinding *T : Here)
        KReported += T->reported();
      OS << fmt::format(
          "<section class=\"kernel\" id=\"k-{}\">\n<h3>kernel "
          "<code>{}</code> <span class=\"muted\">{}, {}</span>"
          "</h3>\n",
          Number, escapeHtml(kernelTitle(*K)),
          escapeHtml(formatLocation(K->Loc)),
          plural(KReported, "finding") +
              (Here.size() > KReported
                   ? fmt::format(", {} suppressed", Here.size() - KReported)
                   : ""));
      writeListing(OS, Index, Here, Sources);
      OS << "</section>\n";
    }
    OS << "</section>\n";
  }
  OS << fmt::format("<footer class=\"muted\"><p>coalesce-lint {}: sectors "
                    "per request are averages over the warps, blocks and "
                    "loop iterations simulated; each picture shows one "
                    "request.</p></footer>\n</body>\n</html>\n",
                    escapeHtml(toolVersion()));
  return Reported;
}

} // namespace coalesce
