//===- Version.cpp - The tool's version string ----------------------------===//

#include "coalesce/Findings.h"

#ifndef COALESCE_VERSION
#error "COALESCE_VERSION must be set by the build (analysis/CMakeLists.txt)"
#endif

namespace coalesce {

const char *toolVersion() { return COALESCE_VERSION; }

} // namespace coalesce
