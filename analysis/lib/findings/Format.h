//===- Format.h - Number and location formatting for reports -*- C++ -*-===//
//-*-===//
///
/// \file
/// Internal helpers shared by the diagnostic builder and the writers.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_FINDINGS_FORMAT_H
#define COALESCE_FINDINGS_FORMAT_H

#include "coalesce/Report.h"

#include <string>

namespace coalesce {

/// \p V as an integer when whole, else with at most 2 decimals and no
/// trailing zeros: 4 -> "4", 4.875 -> "4.88", 12.5 -> "12.5".
std::string formatNumber(double V);

/// "48 MiB", "1.5 KiB", "96 bytes": powers of 1024, three significant
/// digits at most.
std::string formatBytes(double B);

/// "file:line:col", or "file" when \p Loc has no line.
std::string formatLocation(const SourceLocation &Loc);

} // namespace coalesce

#endif // COALESCE_FINDINGS_FORMAT_H
