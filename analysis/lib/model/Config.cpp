//===- Config.cpp - Per-kernel lookups in the analysis options ------------===//

#include "coalesce/Config.h"

namespace coalesce {

std::optional<BlockShape>
AnalysisConfig::blockFor(const std::string &Kernel) const {
  // The last matching entry wins within each scope, as on a command line.
  std::optional<BlockShape> Global, PerKernel;
  for (const BlockOverride &B : Blocks) {
    if (B.Kernel.empty())
      Global = B.Shape;
    else if (B.Kernel == Kernel)
      PerKernel = B.Shape;
  }
  return PerKernel ? PerKernel : Global;
}

std::map<std::string, int64_t>
AnalysisConfig::paramsFor(const std::string &Kernel) const {
  std::map<std::string, int64_t> Values;
  for (const ParamValue &P : Params)
    if (P.Kernel.empty())
      Values[P.Name] = P.Value;
  for (const ParamValue &P : Params)
    if (!P.Kernel.empty() && P.Kernel == Kernel)
      Values[P.Name] = P.Value;
  return Values;
}

} // namespace coalesce
