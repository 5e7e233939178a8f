//===- Rules.cpp - The rule registry, generated from Rules.def ------------===//

#include "coalesce/Rules.h"

namespace coalesce {

namespace {
constexpr RuleInfo Rules[] = {
#define RULE(Id, Summary, Description, Bad, Good)                              \
  {Id, Summary, Description, Bad, Good},
#include "coalesce/Rules.def"
};
} // namespace

llvm::ArrayRef<RuleInfo> allRules() { return Rules; }

const RuleInfo *findRule(llvm::StringRef Id) {
  for (const RuleInfo &R : Rules)
    if (Id == R.Id)
      return &R;
  return nullptr;
}

bool ruleOnByDefault(llvm::StringRef Id) {
  return Id != "coalesce-misaligned-offset";
}

} // namespace coalesce
