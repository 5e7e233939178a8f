//===- SvgPicture.h - A warp picture as inline SVG --------------*- C++ -*-===//
///
/// \file
/// Draws a WarpPicture for the HTML report: 32 lane rows against one column
/// per 32-byte sector touched, each lane's bytes filled, bytes fetched that
/// no lane uses shaded as waste.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_SVGPICTURE_H
#define COALESCE_OUTPUT_SVGPICTURE_H

#include "output/WarpPicture.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace coalesce {

/// An <svg class="warp"> element for \p P (self-contained: colors are
/// attributes), titled \p Title (plain text, escaped here).
std::string drawSvgPicture(const WarpPicture &P, const std::string &Title);

/// \p S with the characters HTML and XML give meaning to (& < > " ')
/// escaped, and control characters other than tab replaced by U+FFFD.
std::string escapeHtml(llvm::StringRef S);

} // namespace coalesce

#endif // COALESCE_OUTPUT_SVGPICTURE_H
