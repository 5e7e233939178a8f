//===- Csv.cpp - RFC 4180 CSV reading for Nsight Compute exports ----------===//

#include "Csv.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace coalesce::verify {

std::vector<CsvRow> parseCsv(const std::string &Text) {
  std::vector<CsvRow> Rows;
  CsvRow Row;
  std::string Field;
  bool InQuotes = false, RowHasData = false;
  auto EndField = [&] {
    Row.push_back(std::move(Field));
    Field.clear();
  };
  auto EndRow = [&] {
    if (RowHasData) {
      EndField();
      Rows.push_back(std::move(Row));
    }
    Row.clear();
    Field.clear();
    RowHasData = false;
  };
  for (size_t I = 0, E = Text.size(); I != E; ++I) {
    char C = Text[I];
    if (InQuotes) {
      if (C == '"' && I + 1 < E && Text[I + 1] == '"') {
        Field += '"';
        ++I;
      } else if (C == '"') {
        InQuotes = false;
      } else {
        Field += C;
      }
      continue;
    }
    switch (C) {
    case '"':
      InQuotes = true;
      RowHasData = true;
      break;
    case ',':
      EndField();
      RowHasData = true;
      break;
    case '\r':
      break;
    case '\n':
      EndRow();
      break;
    default:
      Field += C;
      RowHasData = true;
    }
  }
  EndRow();
  return Rows;
}

std::optional<double> parseNcuNumber(const std::string &Field) {
  std::string Digits;
  for (char C : Field)
    if (C != ',' && C != ' ')
      Digits += C;
  if (Digits.empty() || Digits == "-" || Digits == "n/a")
    return std::nullopt;
  char *End = nullptr;
  double V = std::strtod(Digits.c_str(), &End);
  if (End != Digits.c_str() + Digits.size())
    return std::nullopt;
  return V;
}

std::optional<std::string> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return std::nullopt;
  std::ostringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

} // namespace coalesce::verify
