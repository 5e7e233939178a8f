//===- Csv.h - RFC 4180 CSV reading for Nsight Compute exports --*- C++ -*-===//
///
/// \file
/// A small CSV reader: quoted fields, doubled quotes, commas and newlines
/// inside quotes, CRLF line ends. Plus the number format Nsight Compute uses
/// ("1,179,648", "-" for nothing).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_CSV_H
#define COALESCE_VERIFY_CSV_H

#include <optional>
#include <string>
#include <vector>

namespace coalesce::verify {

using CsvRow = std::vector<std::string>;

/// Splits \p Text into rows of fields. Empty lines give no row.
std::vector<CsvRow> parseCsv(const std::string &Text);

/// Parses an Nsight Compute number: thousands separators are dropped;
/// "", "-" and "n/a" give nullopt, as does anything that is not a number.
std::optional<double> parseNcuNumber(const std::string &Field);

/// Reads a whole file; nullopt when it cannot be opened.
std::optional<std::string> readFile(const std::string &Path);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_CSV_H
