//===- Rules.h - The registry of rules coalesce-lint reports ----*- C++ -*-===//
///
/// \file
/// The rules listed in Rules.def, as data: findings, --explain, the docs and
/// SARIF rule metadata read them from here.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_RULES_H
#define COALESCE_RULES_H

#include "coalesce/Predictor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace coalesce {

/// The rules, one enumerator per RULE of Rules.def.
enum class RuleKind {
#define RULE(Kind, Id, Class, OnByDefault, Summary, Description, Bad, Good,   \
             Suggestion)                                                      \
  Kind,
#include "coalesce/Rules.def"
};

/// One rule (the columns of Rules.def): its id ("coalesce-stride"), the
/// classification whose excess it reports, whether it is on by default, a
/// one-line summary, a paragraph of explanation, a bad and a good code
/// example, and the suggestion printed with each finding.
struct RuleInfo {
  RuleKind Kind;
  const char *Id;
  Classification Class;
  bool OnByDefault;
  const char *Summary;
  const char *Description;
  const char *Bad;
  const char *Good;
  const char *Suggestion;
};

/// All rules, in the order of Rules.def.
llvm::ArrayRef<RuleInfo> allRules();

/// The rule \p K.
const RuleInfo &rule(RuleKind K);

/// Whether rule \p Id reports unless a configuration or option says
/// otherwise (Rules.def's OnByDefault; false for an unknown id).
bool ruleOnByDefault(llvm::StringRef Id);

/// The rule named \p Id, or nullptr when there is none.
const RuleInfo *findRule(llvm::StringRef Id);

} // namespace coalesce

#endif // COALESCE_RULES_H
