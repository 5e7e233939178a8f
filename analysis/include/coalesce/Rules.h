//===- Rules.h - The registry of rules coalesce-lint reports ----*- C++ -*-===//
///
/// \file
/// The rules listed in Rules.def, as data: --explain, docs and SARIF rule
/// metadata read them from here.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_RULES_H
#define COALESCE_RULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace coalesce {

/// One rule: its id ("coalesce-stride"), a one-line summary, a paragraph of
/// explanation, and a bad and a good code example.
struct RuleInfo {
  const char *Id;
  const char *Summary;
  const char *Description;
  const char *Bad;
  const char *Good;
};

/// All rules, in the order of Rules.def.
llvm::ArrayRef<RuleInfo> allRules();

/// Whether rule \p Id reports unless a configuration or option says
/// otherwise (coalesce-misaligned-offset does not).
bool ruleOnByDefault(llvm::StringRef Id);

/// The rule named \p Id, or nullptr when there is none.
const RuleInfo *findRule(llvm::StringRef Id);

} // namespace coalesce

#endif // COALESCE_RULES_H
