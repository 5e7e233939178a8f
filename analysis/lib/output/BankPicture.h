//===- BankPicture.h - One shared-memory request against the banks -*- C++ -*-===//
///
/// \file
/// The text picture --explain-access draws for a shared-memory access: each
/// active lane of one request as a row over the 32 banks, grouped as the
/// hardware serves them (BankCounter.h), and the bank that needs the most
/// distinct words.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_OUTPUT_BANKPICTURE_H
#define COALESCE_OUTPUT_BANKPICTURE_H

#include "coalesce/Predictor.h"

#include <string>

namespace coalesce {

/// The picture of request \p R of an access of \p AccessBytes bytes per lane
/// to the shared variable \p Base, ending with its wavefronts and ideal.
std::string drawBankPicture(const WarpRequest &R, unsigned AccessBytes,
                            const std::string &Base);

} // namespace coalesce

#endif // COALESCE_OUTPUT_BANKPICTURE_H
