//===- LintReport.h - coalesce-lint's JSON report, as far as read -*- C++ -*-===//
///
/// \file
/// Application mode reads the JSON report of the coalesce-lint run that
/// wrote the manifest (`coalesce-lint --format=json -o R --emit-manifest M`,
/// schema 1, docs/json-schema.md) to say why a kernel that ran has no rows
/// in the manifest: its file did not compile or could not be analyzed, the
/// report lists it with no access, or it is no kernel the report knows.
///
/// Only the members needed for that are kept. The JSON reader is a small
/// one of its own (the verifier uses the standard library alone).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_LINTREPORT_H
#define COALESCE_VERIFY_LINTREPORT_H

#include <string>
#include <vector>

namespace coalesce::verify {

/// One parsed JSON value.
struct JsonValue {
  /// Which JSON type the value has.
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind K = Kind::Null; ///< The value's type.
  bool Bool = false;   ///< Kind::Bool's value.
  double Number = 0;   ///< Kind::Number's value.
  std::string String;  ///< Kind::String's value (UTF-8, escapes resolved).
  std::vector<JsonValue> Items;    ///< Array elements, or object values.
  std::vector<std::string> Keys;   ///< Object keys, parallel to Items.

  /// The member \p Key of an object; nullptr when absent or no object.
  const JsonValue *get(const std::string &Key) const;
  /// The member \p Key as a string; "" when absent or of another kind.
  std::string str(const std::string &Key) const;
  /// The member \p Key as a number; \p Default when absent or not one.
  double num(const std::string &Key, double Default = 0) const;
};

/// Parses one JSON document (RFC 8259). Returns false with \p Error giving
/// the byte offset of the first problem.
bool parseJson(const std::string &Text, JsonValue &Out, std::string &Error);

/// One compile error of an input file.
struct LintError {
  std::string File; ///< As the report spells it ("" when clang gave none).
  unsigned Line = 0;
  std::string Message;
  bool InKernel = false; ///< Inside a kernel or a function a kernel calls.
};

/// One input file of the report.
struct LintFile {
  std::string Path;     ///< As given to coalesce-lint.
  bool Analyzed = true; ///< The AST was built and walked.
  std::string FatalError; ///< Why nothing was analyzed; "" when it was.
  std::vector<LintError> Errors; ///< Compile errors, in report order.
  /// Kernel templates the file defines and never instantiates.
  std::vector<std::string> Uninstantiated;
};

/// One kernel (or template instantiation) of the report.
struct LintKernel {
  std::string Name;          ///< The __global__ function's name.
  std::string File;          ///< Where it is declared.
  unsigned Line = 0;         ///< Line of its name.
  std::string Instantiation; ///< "" for a kernel that is no template.
  unsigned Accesses = 0;     ///< Accesses the report lists for it.
};

/// The parts of the report application mode uses.
struct LintReport {
  std::vector<LintFile> Files;     ///< In command-line order.
  std::vector<LintKernel> Kernels; ///< Every kernel and instantiation.
};

/// Reads a coalesce-lint JSON report. Returns false with \p Error when the
/// text is no JSON or not a coalesce-lint report of schema 1.
bool parseLintReport(const std::string &Text, LintReport &Out,
                     std::string &Error);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_LINTREPORT_H
