//===- Verification.cpp - --emit-harness and --verify-on-gpu ---------------===//
#include "Options.h"

#include "llvm/Support/WithColor.h"

namespace coalesce {
namespace tool {

int runVerification(Report &R, const Options &O, const char *Argv0) {
  llvm::WithColor::error(llvm::errs(), "coalesce-lint")
      << "GPU verification is not available in this build\n";
  return ExitUsage;
}

} // namespace tool
} // namespace coalesce
