//===- BankPicture.cpp - One shared-memory request against the banks ------===//

#include "output/BankPicture.h"

#include "coalesce/BankCounter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace coalesce {

std::string drawBankPicture(const WarpRequest &R, unsigned AccessBytes,
                            const std::string &Base) {
  auto [Addresses, Mask] = activeLanesOf(R);
  std::string Out = fmt::format(
      "  offsets: bytes from the start of '{}'; one column per bank (4 "
      "bytes), '#' the banks a lane needs\n",
      Base);
  Out += "  bank        0         1         2         3 \n";
  Out += "              01234567890123456789012345678901\n";
  unsigned PerGroup = lanesPerWavefrontGroup(AccessBytes);
  size_t Next = 0;
  for (unsigned Lane = 0; Lane < 32 && Next < Addresses.size(); ++Lane) {
    if (Lane % PerGroup == 0 && PerGroup < 32)
      Out += fmt::format("  lanes {}-{} are served together:\n", Lane,
                         Lane + PerGroup - 1);
    if (!((Mask >> Lane) & 1))
      continue;
    int64_t A = Addresses[Next++];
    std::string Row(32, '.');
    for (unsigned B = 0; B < std::max(AccessBytes, 1u); B += BankBytes)
      Row[bankOf(A + B)] = '#';
    Out += fmt::format("  lane {:<7}{}  offset {}\n", Lane, Row, A);
  }
  WorstBank W = worstBankOf(Addresses, Mask, AccessBytes);
  if (W.Ways > 1)
    Out += fmt::format("  bank {} needs {} different words (lanes {}): a "
                       "{}-way conflict\n",
                       W.Bank, W.Ways, fmt::join(W.Lanes, ", "), W.Ways);
  Out += fmt::format("  wavefronts: {}, ideal {}\n",
                     countWavefronts(Addresses, Mask, AccessBytes),
                     idealWavefronts(Addresses, Mask, AccessBytes));
  return Out;
}

} // namespace coalesce
