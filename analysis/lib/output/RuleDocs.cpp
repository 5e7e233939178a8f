//===- RuleDocs.cpp - The rule documentation generated from Rules.def -----===//
//
// The rule table of README.md and docs/rules.md and each rule's section of
// docs/rules.md, as marked regions (<!-- NAME:begin --> ... <!-- NAME:end
// -->) that test/tools/check_rule_docs.py compares with the files.
//
//===----------------------------------------------------------------------===//
#include "coalesce/Output.h"
#include "coalesce/Rules.h"

#include <fmt/format.h>

#include <cctype>

namespace coalesce {

namespace {

/// "adjacent lanes ..." -> "Adjacent lanes ..."; a first word that is an
/// identifier ("threadIdx.x moves ...") keeps its case.
std::string sentence(llvm::StringRef Text) {
  std::string S = Text.str();
  llvm::StringRef First = Text.take_until([](char C) { return C == ' '; });
  bool Identifier = First.find_first_of("._") != llvm::StringRef::npos ||
                    llvm::any_of(First, [](char C) { return std::isupper(C); });
  if (!S.empty() && !Identifier)
    S[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(S[0])));
  return S;
}

void region(llvm::raw_ostream &OS, llvm::StringRef Name,
            const std::string &Body) {
  OS << "<!-- " << Name << ":begin -->\n"
     << Body << "<!-- " << Name << ":end -->\n";
}

std::string table(llvm::StringRef LinkPrefix) {
  std::string T = "| rule | summary |\n|---|---|\n";
  for (const RuleInfo &R : allRules())
    T += fmt::format("| [`{0}`]({1}#{0}) | {2} |\n", R.Id, LinkPrefix.str(),
                     R.Summary);
  return T;
}

std::string section(const RuleInfo &R) {
  std::string Reports =
      R.Kind == RuleKind::MisalignedOffset
          ? fmt::format("accesses the model classifies as `{}` for the known "
                        "values whose worst case over the unknown offsets "
                        "exceeds the ideal",
                        classificationName(R.Class))
          : fmt::format("the excess sectors of accesses the model classifies "
                        "as `{}`",
                        classificationName(R.Class));
  return fmt::format(
      "## {}\n\n**{}.**\n\n{}. Reports {}.\n\n{}\n\nBad:\n\n```cuda\n{}\n```\n\nGood:\n\n```cuda\n{}\n"
      "```\n\nSuggestion printed with each finding (made specific to the "
      "access where it can be): {}.\n",
      R.Id, sentence(R.Summary),
      R.OnByDefault ? "On by default" : "Off by default", Reports,
      R.Description, R.Bad, R.Good, R.Suggestion);
}

} // namespace

bool writeRuleDocs(llvm::StringRef Page, llvm::raw_ostream &OS) {
  if (Page == "readme") {
    region(OS, "rules-table", table("docs/rules.md"));
    return true;
  }
  if (Page != "rules")
    return false;
  region(OS, "rules-table", table(""));
  for (const RuleInfo &R : allRules())
    region(OS, fmt::format("rule:{}", R.Id), section(R));
  return true;
}

} // namespace coalesce
