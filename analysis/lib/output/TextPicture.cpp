//===- TextPicture.cpp - A warp picture in characters ---------------------===//

#include "output/TextPicture.h"

#include <fmt/format.h>

#include <algorithm>

namespace coalesce {

namespace {

/// Width of the row labels ("lanes 24-31 ").
constexpr unsigned LabelWidth = 12;

/// How the sectors are laid out in characters.
struct Layout {
  unsigned Scale = 1;     ///< Bytes per character.
  unsigned Cells = 32;    ///< Characters per sector.
  bool Separators = true; ///< A character between sectors.
};

/// The finest scale at which \p Sectors sectors fit in \p Avail characters,
/// with a separator between sectors when that costs no resolution.
Layout chooseLayout(size_t Sectors, unsigned Avail) {
  for (unsigned Scale = 1; Scale < SectorBytes; Scale *= 2) {
    unsigned Cells = SectorBytes / Scale;
    if (Sectors * Cells + (Sectors ? Sectors - 1 : 0) <= Avail)
      return Layout{Scale, Cells, true};
    if (Sectors * Cells <= Avail)
      return Layout{Scale, Cells, false};
  }
  return Layout{SectorBytes, 1, Sectors * 2 - 1 <= Avail};
}

/// The mask of the bytes character \p Cell of a sector covers.
uint32_t cellMask(unsigned Cell, unsigned Scale) {
  uint32_t Ones = Scale >= 32 ? ~uint32_t(0) : (uint32_t(1) << Scale) - 1;
  return Ones << (Cell * Scale);
}

/// Lays out one row: \p CellChar(sector, cell) per character, separators
/// between sectors ('|' adjacent in memory, ':' with a gap).
template <typename CellFn>
std::string drawRow(const WarpPicture &P, const Layout &L, CellFn CellChar) {
  std::string Row;
  for (size_t S = 0; S < P.Sectors.size(); ++S) {
    if (S > 0 && L.Separators)
      Row += P.Sectors[S].Address ==
                     P.Sectors[S - 1].Address + int64_t(SectorBytes)
                 ? '|'
                 : ':';
    for (unsigned C = 0; C < L.Cells; ++C)
      Row += CellChar(P.Sectors[S], cellMask(C, L.Scale));
  }
  return Row;
}

std::string label(const std::string &Text) {
  return fmt::format("{:<{}}", Text, LabelWidth);
}

/// "0, 32, 64" or "0, 4096, ..., 126976 (every 4096 bytes)".
std::string sectorList(const WarpPicture &P) {
  const std::vector<PictureSector> &S = P.Sectors;
  bool Even = S.size() > 3;
  for (size_t I = 2; Even && I < S.size(); ++I)
    Even = S[I].Address - S[I - 1].Address == S[1].Address - S[0].Address;
  if (Even)
    return fmt::format("{}, {}, ..., {} (every {} bytes)", S[0].Address,
                       S[1].Address, S.back().Address,
                       S[1].Address - S[0].Address);
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (I == 8 && S.size() > 9) {
      Out += fmt::format(", ... ({} more), {}", S.size() - 9, S.back().Address);
      break;
    }
    Out += (I ? ", " : "") + std::to_string(S[I].Address);
  }
  return Out;
}

/// The header row of sector offsets, or "" when the labels do not fit.
std::string offsetHeader(const WarpPicture &P, const Layout &L) {
  std::string Row;
  for (size_t S = 0; S < P.Sectors.size(); ++S) {
    std::string Text = fmt::format("+{}", P.Sectors[S].Address);
    if (Text.size() + (L.Separators ? 0 : 1) > L.Cells)
      return "";
    if (S > 0 && L.Separators)
      Row += ' ';
    Row += fmt::format("{:<{}}", Text, L.Cells);
  }
  while (!Row.empty() && Row.back() == ' ')
    Row.pop_back();
  return Row;
}

} // namespace

std::string drawTextPicture(const WarpPicture &P, const std::string &Base,
                            unsigned Width, const std::string &Indent) {
  std::string Out;
  if (P.Sectors.empty())
    return Indent + "no lane executes this request\n";
  unsigned Used = unsigned(Indent.size()) + LabelWidth;
  unsigned Avail =
      std::max(Width, 80u) > Used ? std::max(Width, 80u) - Used : 1;
  Layout L = chooseLayout(P.Sectors.size(), Avail);

  std::string Unit = L.Scale == 1 ? "1 byte" : fmt::format("{} bytes", L.Scale);
  Out += Indent + fmt::format("one character = {}, {} per 32-byte sector; "
                              "'|' starts a sector, ':' one after a gap\n",
                              Unit,
                              L.Cells == 1 ? "one" : std::to_string(L.Cells));
  Out += Indent + "'#' bytes of the lane, '.' fetched but used by no lane "
                  "(wasted)\n";
  Out += Indent + fmt::format("offsets: bytes from the start of '{}'\n", Base);

  std::string Header = offsetHeader(P, L);
  if (!Header.empty())
    Out += Indent + label("byte offset") + Header + "\n";
  else
    Out += Indent + fmt::format("sectors at offsets {}\n", sectorList(P));
  if (!L.Separators) {
    // A ruler instead: where each sector starts ('|', ':' after a gap).
    std::string Ruler;
    for (size_t S = 0; S < P.Sectors.size(); ++S) {
      bool Gap = S > 0 && P.Sectors[S].Address !=
                              P.Sectors[S - 1].Address + int64_t(SectorBytes);
      Ruler += Gap ? ':' : '|';
      Ruler += std::string(L.Cells - 1, '-');
    }
    Out += Indent + label("sectors") + Ruler + "\n";
  }

  // Lane rows; consecutive lanes drawn the same share one.
  std::vector<std::string> Rows;
  for (const PictureLane &Lane : P.Lanes) {
    if (!Lane.Active) {
      Rows.push_back("(inactive)");
      continue;
    }
    Rows.push_back(drawRow(P, L, [&](const PictureSector &S, uint32_t Cell) {
      if (P.laneMask(Lane, S) & Cell)
        return '#';
      return S.UsedMask & Cell ? ' ' : '.';
    }));
  }
  for (size_t I = 0; I < Rows.size();) {
    size_t J = I;
    while (J + 1 < Rows.size() && Rows[J + 1] == Rows[I])
      ++J;
    std::string Name =
        I == J ? fmt::format("lane {}", I) : fmt::format("lanes {}-{}", I, J);
    std::string Row = Rows[I];
    while (!Row.empty() && Row.back() == ' ')
      Row.pop_back();
    Out += Indent + label(Name) + Row + "\n";
    I = J + 1;
  }
  bool Partly = false;
  std::string All = drawRow(P, L, [&](const PictureSector &S, uint32_t Cell) {
    uint32_t U = S.UsedMask & Cell;
    if (U == Cell)
      return '#';
    if (U == 0)
      return '.';
    Partly = true;
    return '+';
  });
  Out += Indent + label("all lanes") + All + "\n";
  if (Partly)
    Out += Indent + label("") + "('+': some bytes of the character used)\n";
  return Out;
}

} // namespace coalesce
