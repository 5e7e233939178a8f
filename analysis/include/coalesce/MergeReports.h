//===- MergeReports.h - Join the reports of CI shards -----------*- C++ -*-===//
///
/// \file
/// `coalesce-lint --shard K/N` analyzes a stable subset of the files, so a CI
/// matrix can split a project; `coalesce-lint merge` joins the JSON or SARIF
/// reports of the shards into the one report a single run would give.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_MERGEREPORTS_H
#define COALESCE_MERGEREPORTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace coalesce {

/// One report to merge: its name (for error messages) and its text.
struct ReportText {
  std::string Name;
  std::string Text;
};

/// Merges JSON reports (schema 1) or SARIF 2.1.0 logs written by
/// coalesce-lint; all inputs must have the same format.
///
/// JSON: files sorted by path (each once), kernels sorted as a single run
/// sorts them, `findings` and `suppressed_findings` summed. SARIF: one run
/// (the first input's tool, rules and SRCROOT) holding every result, sorted
/// by file, line, column and rule; the invocation succeeded only if every
/// shard's did. Returns the merged document, pretty-printed, or an error
/// naming the input that is not a coalesce-lint report.
llvm::Expected<std::string> mergeReports(llvm::ArrayRef<ReportText> Reports);

} // namespace coalesce

#endif // COALESCE_MERGEREPORTS_H
