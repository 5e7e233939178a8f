//===- Rules.cpp - The rule registry, generated from Rules.def ------------===//

#include "coalesce/Rules.h"

namespace coalesce {

namespace {
constexpr RuleInfo Rules[] = {
#define RULE(Kind, Id, Class, OnByDefault, Summary, Description, Bad, Good,   \
             Suggestion)                                                      \
  {RuleKind::Kind, Id,   Classification::Class, OnByDefault, Summary,         \
   Description,    Bad,  Good,                  Suggestion},
#include "coalesce/Rules.def"
};
} // namespace

llvm::ArrayRef<RuleInfo> allRules() { return Rules; }

const RuleInfo &rule(RuleKind K) {
  // The table is in enumerator order.
  return Rules[static_cast<size_t>(K)];
}

const RuleInfo *findRule(llvm::StringRef Id) {
  for (const RuleInfo &R : Rules)
    if (Id == R.Id)
      return &R;
  return nullptr;
}

bool ruleOnByDefault(llvm::StringRef Id) {
  const RuleInfo *R = findRule(Id);
  return R && R->OnByDefault;
}

} // namespace coalesce
