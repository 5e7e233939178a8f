//===- SvgPicture.cpp - A warp picture as inline SVG ----------------------===//

#include "output/SvgPicture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace coalesce {

namespace {

/// Geometry, in pixels.
constexpr unsigned LabelWidth = 52, HeaderHeight = 16, RowHeight = 8;
constexpr unsigned Gap = 3, GapSkipped = 7; ///< Between sectors.
constexpr unsigned PlotWidth = 700;         ///< Columns and gaps, at most.

/// Colors (also named by class for the page's legend).
constexpr const char *UsedFill = "#1f4e99", *WasteFill = "#f2a7a7",
                     *OtherFill = "#e8ecf2", *InactiveFill = "#f7f7f7";

/// "12.5" for pixel positions: at most 2 decimals.
std::string px(double V) {
  std::string S = fmt::format("{:.2f}", V);
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  return S;
}

/// Calls \p Run(first, count) for each run of set bits of \p Mask.
template <typename Fn> void forEachRun(uint32_t Mask, Fn Run) {
  for (unsigned B = 0; B < SectorBytes;) {
    if (!(Mask >> B & 1)) {
      ++B;
      continue;
    }
    unsigned E = B;
    while (E < SectorBytes && (Mask >> E & 1))
      ++E;
    Run(B, E - B);
    B = E;
  }
}

} // namespace

std::string escapeHtml(llvm::StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      if ((unsigned char)C < 0x20 && C != '\t')
        Out += "&#xFFFD;";
      else
        Out += C;
    }
  }
  return Out;
}

std::string drawSvgPicture(const WarpPicture &P, const std::string &Title) {
  size_t N = std::max<size_t>(P.Sectors.size(), 1);
  auto Adjacent = [&](size_t S) {
    return P.Sectors[S].Address ==
           P.Sectors[S - 1].Address + int64_t(SectorBytes);
  };
  double Gaps = 0;
  for (size_t S = 1; S < P.Sectors.size(); ++S)
    Gaps += Adjacent(S) ? Gap : GapSkipped;
  double Column = std::clamp(std::floor((PlotWidth - Gaps) / N), 12.0, 128.0);
  double Byte = Column / SectorBytes;
  // Left edge of each sector column.
  std::vector<double> X;
  double At = LabelWidth;
  for (size_t S = 0; S < P.Sectors.size(); ++S) {
    if (S > 0)
      At += Adjacent(S) ? Gap : GapSkipped;
    X.push_back(At);
    At += Column;
  }
  unsigned Rows = std::max<size_t>(P.Lanes.size(), 1);
  double Width = At + 4, Height = HeaderHeight + Rows * RowHeight + 2;
  std::string Out = fmt::format(
      "<svg class=\"warp\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" "
      "height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" "
      "font-family=\"monospace\" font-size=\"8\">\n<title>{}</title>\n",
      px(Width), px(Height), px(Width), px(Height), escapeHtml(Title));

  // Sector columns: used-by-some-lane background, waste shaded, offsets.
  double Every = std::ceil(40.0 / (Column + Gap)); // Labels 40 px apart.
  for (size_t S = 0; S < P.Sectors.size(); ++S) {
    const PictureSector &Sec = P.Sectors[S];
    double Top = HeaderHeight, Tall = Rows * RowHeight;
    Out += fmt::format("<g class=\"sector\" data-offset=\"{}\" "
                       "data-used-bytes=\"{}\">",
                       Sec.Address, Sec.usedBytes());
    Out += fmt::format("<rect class=\"other\" x=\"{}\" y=\"{}\" width=\"{}\" "
                       "height=\"{}\" fill=\"{}\"/>",
                       px(X[S]), Top, px(Column), Tall, OtherFill);
    forEachRun(~Sec.UsedMask, [&](unsigned B, unsigned Len) {
      Out +=
          fmt::format("<rect class=\"waste\" x=\"{}\" y=\"{}\" "
                      "width=\"{}\" height=\"{}\" fill=\"{}\"><title>"
                      "sector at byte {}: bytes {}-{} fetched, unused"
                      "</title></rect>",
                      px(X[S] + B * Byte), Top, px(Len * Byte), Tall, WasteFill,
                      Sec.Address, Sec.Address + B, Sec.Address + B + Len - 1);
    });
    if (S % size_t(Every) == 0)
      Out += fmt::format("<text x=\"{}\" y=\"11\">+{}</text>", px(X[S]),
                         Sec.Address);
    Out += "</g>\n";
  }

  // Lane rows: labels, then each lane's bytes.
  for (const PictureLane &L : P.Lanes) {
    double Y = HeaderHeight + L.Index * RowHeight;
    if (L.Index % 4 == 0 || L.Index + 1 == P.Lanes.size())
      Out += fmt::format("<text x=\"2\" y=\"{}\"{}>lane {}</text>",
                         px(Y + RowHeight - 1),
                         L.Active ? "" : " fill=\"#999\"", L.Index);
    if (!L.Active) {
      Out += fmt::format("<rect class=\"inactive\" x=\"{}\" y=\"{}\" "
                         "width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                         LabelWidth, px(Y), px(At - LabelWidth), RowHeight,
                         InactiveFill);
      continue;
    }
    std::string Rects;
    for (int S = std::max(P.sectorOf(L.Address), 0);
         size_t(S) < P.Sectors.size() &&
         P.Sectors[S].Address < L.Address + int64_t(P.AccessBytes);
         ++S)
      forEachRun(P.laneMask(L, P.Sectors[S]), [&](unsigned B, unsigned Len) {
        Rects += fmt::format("<rect class=\"used\" x=\"{}\" y=\"{}\" "
                             "width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                             px(X[S] + B * Byte), px(Y + 1), px(Len * Byte),
                             RowHeight - 2, UsedFill);
      });
    Out += fmt::format("<g class=\"lane\" data-lane=\"{}\"><title>lane {}: "
                       "bytes {}-{}</title>{}</g>\n",
                       L.Index, L.Index, L.Address,
                       L.Address + int64_t(P.AccessBytes) - 1, Rects);
  }
  Out += "</svg>";
  return Out;
}

} // namespace coalesce
