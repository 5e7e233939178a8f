//===- HarnessSource.h - The text of harness.cu -----------------*- C++ -*-===//
///
/// \file
/// Internal to the harness emitter: prints the CUDA source of one harness
/// executable from its plan.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_HARNESS_HARNESSSOURCE_H
#define COALESCE_HARNESS_HARNESSSOURCE_H

#include "HarnessPlan.h"

#include <string>

namespace coalesce {

/// The harness source for \p F; \p IncludePath is how it includes the copy
/// of the user's file (e.g. "src/k.cu").
std::string harnessSource(const HarnessFilePlan &F, const HarnessOptions &Opts,
                          const std::string &IncludePath);

} // namespace coalesce

#endif // COALESCE_HARNESS_HARNESSSOURCE_H
