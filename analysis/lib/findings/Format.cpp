//===- Format.cpp - Number and location formatting for the reports --------===//

#include "findings/Format.h"

#include <fmt/format.h>

#include <cmath>

namespace coalesce {

std::string formatNumber(double V) {
  double Rounded = std::round(V * 100.0) / 100.0;
  if (Rounded == 0.0) // Also turns -0 into 0.
    return "0";
  std::string S = fmt::format("{:.2f}", Rounded);
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  return S;
}

std::string formatBytes(double B) {
  static const char *Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  unsigned U = 0;
  while (B >= 1024 && U + 1 < std::size(Units)) {
    B /= 1024;
    ++U;
  }
  double Rounded = B >= 100  ? std::round(B)
                   : B >= 10 ? std::round(B * 10) / 10
                             : std::round(B * 100) / 100;
  return fmt::format("{} {}", formatNumber(Rounded), Units[U]);
}

std::string formatLocation(const SourceLocation &Loc) {
  if (!Loc.valid())
    return Loc.File;
  return fmt::format("{}:{}:{}", Loc.File, Loc.Line, Loc.Column);
}

} // namespace coalesce
