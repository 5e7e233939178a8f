//===- Output.h - Text, JSON, SARIF, GitHub and HTML reports ----*- C++ -*-===//
///
/// \file
/// Writers for the report formats. Text is clang-style
/// (file:line:col: warning: message [rule-id], source line, caret, notes);
/// JSON follows the schema documented in docs/json-schema.md (version 1);
/// SARIF 2.1.0 and GitHub workflow commands are for CI; HTML is one page to
/// look at, with a picture of a warp's sectors per finding, which
/// explainAccess() draws in text for one line.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_H
#define COALESCE_OUTPUT_H

#include "coalesce/Findings.h"
#include "coalesce/Report.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace coalesce {

class FindingTable;

/// The JSON schema version this build writes.
constexpr int JsonSchemaVersion = 1;


/// Options shared by the writers.
struct OutputOptions {
  FindingOptions Findings;
  bool Color = false;
  /// Text: also list every access with its numbers (--print-accesses).
  bool PrintAccesses = false;
  /// Text: list every compile error, not only their count.
  bool ShowAllErrors = false;
  /// Text: the suggestion after every finding, not once per rule and file.
  bool Verbose = false;
  /// Text: tables of the findings per kernel and per file, costliest
  /// first, instead of each finding (--summary).
  bool Summary = false;
  /// The triaged findings (Triage.h); null: every finding under Findings,
  /// none suppressed.
  const FindingTable *Table = nullptr;
};

/// Writes the clang-style text report. Returns the number of findings.
unsigned writeText(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS);

/// Writes the census misses of a --self-check run (KernelRecord::CensusMisses)
/// as clang-style errors, one per memory operation the report does not
/// account for, and a summary line. Returns the number of misses.
unsigned writeSelfCheck(const Report &R, llvm::raw_ostream &OS);

/// Writes the rule documentation generated from Rules.def for \p Page
/// ("readme": the table of README.md; "rules": the table and every rule's
/// section of docs/rules.md), as regions between `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->` lines. Returns false for another page name.
bool writeRuleDocs(llvm::StringRef Page, llvm::raw_ostream &OS);

/// Writes the JSON report. Returns the number of findings.
unsigned writeJson(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS);

/// Writes a SARIF 2.1.0 log for GitHub code scanning: rules from the
/// registry, one result per finding (suppressed ones marked). Returns the
/// number of reported findings.
unsigned writeSarif(const Report &R, const OutputOptions &Opts,
                    llvm::raw_ostream &OS);

/// Writes GitHub Actions workflow commands (::warning file=...::message),
/// costliest findings first, and a summary line. Returns the number of
/// reported findings.
unsigned writeGithub(const Report &R, const OutputOptions &Opts,
                     llvm::raw_ostream &OS);

/// Writes one self-contained HTML page (inline CSS and SVG, no script, no
/// external resource): a summary of the findings per rule, costliest first,
/// then per file and kernel the findings on their source lines, each with
/// its numbers and a picture of one warp's lanes against the 32-byte
/// sectors they touch. Suppressed and baselined findings are shown, marked.
/// Returns the number of reported findings.
unsigned writeHtml(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS);

/// A source position asked about with --explain-access FILE:LINE[:COL].
struct AccessQuery {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0; ///< 0: any column of the line.
};

/// Parses "FILE:LINE[:COL]" (FILE may itself contain ':').
llvm::Expected<AccessQuery> parseAccessQuery(llvm::StringRef S);

/// Explains every access of \p R at \p Q in text: its prediction and
/// finding, then a picture of one warp request (lanes against sectors, '#'
/// used bytes, '.' wasted ones) and its counts, within 100 columns. Returns
/// the number of accesses explained, or an error naming the nearest lines
/// that hold accesses when there is none at \p Q.
llvm::Expected<unsigned> explainAccess(const Report &R, const AccessQuery &Q,
                                       const OutputOptions &Opts,
                                       llvm::raw_ostream &OS);

} // namespace coalesce

#endif // COALESCE_OUTPUT_H
