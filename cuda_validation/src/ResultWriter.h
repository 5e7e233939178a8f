//===- ResultWriter.h - coalesce-verify's table, TSV and JSON ---*- C++ -*-===//
///
/// \file
/// The three outputs of a verification: a table on stdout, DIR/results.tsv
/// and (with --json) a JSON document that `coalesce-lint --verify-on-gpu`
/// reads back (schema in docs/verification.md).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_RESULTWRITER_H
#define COALESCE_VERIFY_RESULTWRITER_H

#include "Attribution.h"

#include <functional>
#include <ostream>
#include <string>

namespace coalesce::verify {

/// Run-level facts written next to the results.
struct RunSummary {
  std::string Method;     ///< "ncu" or "replay" or "recording".
  std::string Device;     ///< As the harness reported it; may be empty.
  double Tolerance = 0.05;
  int ExitCode = 0;
  std::string Message;    ///< Why the run failed, when it did.
  std::map<std::string, KernelStatus> Kernels;
};

/// Formats a sectors-per-request number: "4", "4.88", "-" when absent.
std::string formatValue(const std::optional<double> &V);

/// The human-readable table with a one-line summary and the notes.
void writeTable(const Attribution &A, const RunSummary &S, std::ostream &OS);

/// results.tsv: one row per access, header first.
void writeTsv(const Attribution &A, std::ostream &OS);

/// The JSON document (version 1). \p Extra writes members of its own (each
/// line ending in ",\n") right after "tool" (application mode's lines).
void writeJson(const Attribution &A, const RunSummary &S, std::ostream &OS,
               const std::function<void(std::ostream &)> &Extra = {});

/// Escapes \p S as a JSON string literal, quotes included.
std::string jsonString(const std::string &S);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_RESULTWRITER_H
