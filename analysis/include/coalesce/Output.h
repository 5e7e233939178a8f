//===- Output.h - Text and JSON reports -------------------------*- C++ -*-===//
///
/// \file
/// Writers for the report formats. Text is clang-style
/// (file:line:col: warning: message [rule-id], source line, caret, notes);
/// JSON follows the schema documented in docs/json-schema.md (version 1).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_H
#define COALESCE_OUTPUT_H

#include "coalesce/Findings.h"
#include "coalesce/Report.h"

#include "llvm/Support/raw_ostream.h"

namespace coalesce {

/// The JSON schema version this build writes.
constexpr int JsonSchemaVersion = 1;

/// The tool's version string.
const char *toolVersion();

/// Options shared by the writers.
struct OutputOptions {
  FindingOptions Findings;
  bool Color = false;
  /// Text: also list every access with its numbers (--print-accesses).
  bool PrintAccesses = false;
  /// Text: list every compile error, not only their count.
  bool ShowAllErrors = false;
};

/// Writes the clang-style text report. Returns the number of findings.
unsigned writeText(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS);

/// Writes the JSON report. Returns the number of findings.
unsigned writeJson(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS);

} // namespace coalesce

#endif // COALESCE_OUTPUT_H
