//===- TextPicture.h - A warp picture in characters -------------*- C++ -*-===//
///
/// \file
/// Draws a WarpPicture for a terminal (--explain-access): one row per lane
/// (consecutive lanes with the same row merged), one column group per
/// sector, '#' for the lane's bytes and '.' for fetched bytes no lane uses,
/// at a scale that keeps the lines within a width.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_TEXTPICTURE_H
#define COALESCE_OUTPUT_TEXTPICTURE_H

#include "output/WarpPicture.h"

#include <string>

namespace coalesce {

/// Widest line drawTextPicture() writes by default.
constexpr unsigned TextPictureWidth = 100;

/// \p P drawn in lines of at most \p Width columns (at least 80), each
/// prefixed by \p Indent: a legend with the scale, a header of sector
/// offsets (\p Base names the accessed array in it), the lane rows and an
/// "all lanes" row. Ends with a newline.
std::string drawTextPicture(const WarpPicture &P, const std::string &Base,
                            unsigned Width = TextPictureWidth,
                            const std::string &Indent = "  ");

} // namespace coalesce

#endif // COALESCE_OUTPUT_TEXTPICTURE_H
