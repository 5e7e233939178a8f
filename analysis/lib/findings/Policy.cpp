//===- Policy.cpp - Rule settings, header filter and excluded paths -------===//

#include "coalesce/Policy.h"
#include "coalesce/Rules.h"

#include "findings/Paths.h"

#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Regex.h"

namespace coalesce {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

std::optional<Severity> parseSeverity(llvm::StringRef Name) {
  for (Severity S : {Severity::Note, Severity::Warning, Severity::Error})
    if (Name == severityName(S))
      return S;
  return std::nullopt;
}

namespace {
/// Whether the glob \p Pattern matches \p Text; a malformed glob never does.
bool globMatches(llvm::StringRef Pattern, llvm::StringRef Text) {
  llvm::Expected<llvm::GlobPattern> G = llvm::GlobPattern::create(Pattern);
  if (!G) {
    llvm::consumeError(G.takeError());
    return false;
  }
  return G->match(Text);
}
} // namespace

bool ruleGlobMatches(llvm::StringRef Pattern, llvm::StringRef RuleId) {
  return globMatches(Pattern.trim(), RuleId);
}

bool FindingPolicy::enabled(llvm::StringRef RuleId) const {
  bool On = ruleOnByDefault(RuleId) ||
            (RuleId == rule(RuleKind::MisalignedOffset).Id &&
             Findings.EnablePossiblyMisaligned);
  for (const RuleSetting &S : Rules)
    if (S.Enabled && ruleGlobMatches(S.Pattern, RuleId))
      On = *S.Enabled;
  return On;
}

Severity FindingPolicy::severity(llvm::StringRef RuleId) const {
  Severity Level = Severity::Warning;
  for (const RuleSetting &S : Rules)
    if (S.Level && ruleGlobMatches(S.Pattern, RuleId))
      Level = *S.Level;
  return Level;
}

bool FindingPolicy::excludes(llvm::StringRef File) const {
  if (Exclude.empty())
    return false;
  std::optional<std::string> Rel = relativePath(File, ExcludeBase);
  for (const std::string &Glob : Exclude)
    if (globMatches(Glob, File) || (Rel && globMatches(Glob, *Rel)))
      return true;
  return false;
}

bool FindingPolicy::showsHeader(llvm::StringRef File) const {
  if (!HeaderFilter)
    return true;
  llvm::Regex Re(*HeaderFilter);
  return Re.isValid() && Re.match(File);
}

} // namespace coalesce
