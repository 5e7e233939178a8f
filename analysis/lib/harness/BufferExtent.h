//===- BufferExtent.h - Bytes a kernel's access reaches over a launch -*- C++ -*-===//
///
/// \file
/// Internal to the harness emitter. The byte range one access can touch
/// over the whole launch: every block of the grid, every thread, every
/// iteration its loop conditions allow (interval arithmetic, ExprBounds.h),
/// never sampled values. Buffers sized from it cannot be overrun by the
/// accesses the analysis modelled.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_HARNESS_BUFFEREXTENT_H
#define COALESCE_HARNESS_BUFFEREXTENT_H

#include "coalesce/ExprBounds.h"
#include "coalesce/Report.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace coalesce {

/// What the harness's launch fixes.
struct LaunchValues {
  BlockShape Block, Grid;
  /// Scalar parameters (and struct fields, "p.n") by symbol name.
  std::map<std::string, int64_t> Scalars;
  /// The values the harness's fill puts in memory, for indices loaded from
  /// it (IndirectValue); unset: such addresses are not bounded.
  std::optional<Interval> LoadedValues;
  /// Values loaded from memory that the harness itself wrote, by symbol
  /// name: a pointer field of a structure behind a pointer ("ps[i].a"),
  /// set to the start of its buffer, so its offset symbol is 0.
  std::map<std::string, int64_t> KnownLoads = {};
};

/// The byte range [first, second) that \p A can reach under \p V: {0, 0}
/// when the access never runs. nullopt when some symbol of the address
/// stays unbounded; then \p WhyNot names it.
std::optional<std::pair<int64_t, int64_t>>
accessByteRange(const AccessRecord &A, const LaunchValues &V,
                std::string *WhyNot = nullptr);

} // namespace coalesce

#endif // COALESCE_HARNESS_BUFFEREXTENT_H
