//===- ReplaySource.h - The text of replay.cu -------------------*- C++ -*-===//
///
/// \file
/// Internal to the harness emitter: replay.cu, the fallback measurement for
/// GPUs whose performance counters may not be read. It recomputes each
/// access's byte offset from the model's Address expression on the GPU, with
/// the harness's launch shape, and counts the distinct 32-byte sectors per
/// warp request. It checks the lane model and the launch, not the memory
/// system (docs/verification.md).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_HARNESS_REPLAYSOURCE_H
#define COALESCE_HARNESS_REPLAYSOURCE_H

#include "HarnessPlan.h"

#include <map>
#include <string>
#include <vector>

namespace coalesce {

/// Loop counters take the values 0 .. ReplayLoopSamples-1 each (fewer when
/// an access has several loops: at most ReplayMaxSamples combinations).
constexpr unsigned ReplayLoopSamples = 32;
constexpr unsigned ReplayMaxSamples = 1024;

/// CUDA C for \p E: a `long long` expression. threadIdx/blockIdx/blockDim/
/// gridDim map to the built-ins, Param symbols to their value in \p Params
/// (1024 when absent), the LoopIter symbol \p Loops[I] to `L[I]`. Division,
/// remainder and shifts go through helpers that clear the flag `Ok` where C
/// is undefined (the lane then does not take part).
std::string replayExprC(const Expr &E, const std::map<std::string, int64_t> &Params,
                        const std::vector<Symbol> &Loops);

/// Why \p A cannot be replayed (its address or predicate depends on values
/// the model does not know), or "".
std::string replayBlocker(const AccessRecord &A);

/// The whole replay.cu for \p Plan; ids as in the manifest.
std::string replaySource(const Report &R, const HarnessPlan &Plan);

} // namespace coalesce

#endif // COALESCE_HARNESS_REPLAYSOURCE_H
