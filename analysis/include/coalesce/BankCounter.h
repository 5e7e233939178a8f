//===- BankCounter.h - Shared-memory wavefronts of one request --*- C++ -*-===//
///
/// \file
/// The shared-memory bank model measured on sm_90 (docs/bank-model.md,
/// cuda_validation/banks/): 32 banks of 4 bytes; one wavefront serves at most
/// one 4-byte word per bank, and lanes reading the same word share it.
/// Accesses up to 4 bytes are served for the whole warp at once; 8-byte
/// accesses half a warp at a time (16 lanes, 128 bytes), 16-byte accesses a
/// quarter at a time (8 lanes). Two quarters of one half-warp share a
/// wavefront when each needs one and together they fit in one (at most 128
/// bytes of distinct elements counted per quarter, no bank holding two of
/// their words); a 64-bit request whose lanes all read one address needs one.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_BANKCOUNTER_H
#define COALESCE_BANKCOUNTER_H

#include "coalesce/Predictor.h"

#include <cstdint>
#include <vector>

namespace coalesce {

constexpr unsigned BankCount = 32;
constexpr unsigned BankBytes = 4;

/// Wavefronts one warp request of shared memory needs (Nsight Compute's
/// "L1 Wavefronts Shared"). \p Addresses holds the byte offsets of the
/// active lanes in lane order; bit I of \p LaneMask is set for each active
/// lane I (as many bits as addresses). Offsets are from a base aligned to
/// 128 bytes; a shift of the base by a multiple of 4 bytes changes nothing.
unsigned countWavefronts(const std::vector<int64_t> &Addresses,
                         uint32_t LaneMask, unsigned AccessBytes);

/// Nsight Compute's "L1 Wavefronts Shared Ideal" for the same request: the
/// wavefronts it would need without bank conflicts (one per group of lanes
/// served together, after the same sharing rules).
unsigned idealWavefronts(const std::vector<int64_t> &Addresses,
                         uint32_t LaneMask, unsigned AccessBytes);

/// Lanes served together for \p AccessBytes: 32 up to 4 bytes, 16 for 8,
/// 8 for 16.
unsigned lanesPerWavefrontGroup(unsigned AccessBytes);

/// The bank of byte offset \p Address (also for negative offsets).
unsigned bankOf(int64_t Address);

/// The most contended bank of one request (arguments as countWavefronts()):
/// within one group of lanes served together, the bank holding the most
/// distinct words, and the first lane to reach each of those words.
struct WorstBank {
  unsigned Bank = 0;
  /// Distinct words of the bank the group needs: an N-way conflict.
  unsigned Ways = 0;
  /// The lanes that need them, one per word, in lane order.
  std::vector<unsigned> Lanes;
};
WorstBank worstBankOf(const std::vector<int64_t> &Addresses, uint32_t LaneMask,
                      unsigned AccessBytes);

/// The active lanes of \p R as the counters take them: their addresses in
/// lane order and the mask of their lanes.
struct ActiveLanes {
  std::vector<int64_t> Addresses;
  uint32_t Mask = 0;
};
ActiveLanes activeLanesOf(const WarpRequest &R);

} // namespace coalesce

#endif // COALESCE_BANKCOUNTER_H
