//===- Suppressions.cpp - Reading suppression comments from source text ---===//

#include "coalesce/Suppressions.h"

#include "coalesce/Policy.h"
#include "coalesce/Rules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <cctype>

namespace coalesce {

namespace {

constexpr llvm::StringLiteral IgnoreMarker = "coalesce-lint: ignore";

/// Whether any pattern of \p Rules matches a rule of the registry.
bool matchesAnyRule(const std::vector<std::string> &Rules) {
  for (const std::string &Pattern : Rules)
    for (const RuleInfo &R : allRules())
      if (ruleGlobMatches(Pattern, R.Id))
        return true;
  return false;
}

/// Splits "a, b" into trimmed, non-empty items.
std::vector<std::string> splitList(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  List.split(Parts, ',');
  std::vector<std::string> Out;
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim().str());
  return Out;
}

/// A directive found on a line, before deciding the lines it covers.
struct Directive {
  enum class Kind { NoLint, NextLine, Begin, End, Ignore };
  Kind K;
  size_t Column; ///< 0-based.
  std::string Text;
  std::vector<std::string> Rules;
};

/// Reads an optional "(list)" (or "[list]") at \p Rest into \p D. Returns
/// false when it is opened and never closed.
bool readList(llvm::StringRef Rest, char Open, char Close, Directive &D,
              size_t &Length) {
  if (!Rest.starts_with(llvm::StringRef(&Open, 1)))
    return true;
  size_t End = Rest.find(Close);
  if (End == llvm::StringRef::npos)
    return false;
  D.Rules = splitList(Rest.substr(1, End - 1));
  Length += End + 1;
  return true;
}

/// The directives on one line of source text.
std::vector<Directive> directivesOf(llvm::StringRef Line) {
  std::vector<Directive> Out;
  for (size_t Pos = Line.find("NOLINT"); Pos != llvm::StringRef::npos;
       Pos = Line.find("NOLINT", Pos + 1)) {
    llvm::StringRef Rest = Line.substr(Pos + 6);
    size_t Suffix = 0;
    while (Suffix < Rest.size() && std::isupper((unsigned char)Rest[Suffix]))
      ++Suffix;
    Directive D;
    llvm::StringRef Name = Rest.take_front(Suffix);
    if (Name.empty())
      D.K = Directive::Kind::NoLint;
    else if (Name == "NEXTLINE")
      D.K = Directive::Kind::NextLine;
    else if (Name == "BEGIN")
      D.K = Directive::Kind::Begin;
    else if (Name == "END")
      D.K = Directive::Kind::End;
    else
      continue;
    size_t Length = 6 + Suffix;
    if (!readList(Rest.drop_front(Suffix), '(', ')', D, Length))
      continue;
    D.Column = Pos;
    D.Text = Line.substr(Pos, Length).str();
    Out.push_back(std::move(D));
  }
  size_t Pos = Line.find(IgnoreMarker);
  if (Pos != llvm::StringRef::npos) {
    Directive D;
    D.K = Directive::Kind::Ignore;
    size_t Length = IgnoreMarker.size();
    if (readList(Line.substr(Pos + Length), '[', ']', D, Length)) {
      D.Column = Pos;
      D.Text = Line.substr(Pos, Length).str();
      Out.push_back(std::move(D));
    }
  }
  return Out;
}

/// Whether \p Line holds only a comment (no code before it).
bool commentOnly(llvm::StringRef Line) {
  llvm::StringRef T = Line.ltrim();
  return T.starts_with("//") || T.starts_with("/*");
}

} // namespace

bool SuppressionComment::covers(unsigned L, llvm::StringRef RuleId) const {
  if (L < FirstLine || L > LastLine)
    return false;
  if (Rules.empty())
    return true;
  return llvm::any_of(Rules, [&](const std::string &Pattern) {
    return ruleGlobMatches(Pattern, RuleId);
  });
}

bool SuppressionComment::namesCoalesceRules() const {
  return CommentKind == Kind::Ignore || !Rules.empty();
}

std::vector<SuppressionComment>
parseSuppressions(llvm::StringRef File, llvm::StringRef Text,
                  std::vector<std::string> &Problems) {
  std::vector<SuppressionComment> Out;
  std::vector<SuppressionComment> Open; // NOLINTBEGIN without its END yet.
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    unsigned LineNo = I + 1;
    for (Directive &D : directivesOf(Lines[I])) {
      // Only comments that are coalesce-lint's, or apply to every rule.
      if (!D.Rules.empty() && !matchesAnyRule(D.Rules))
        continue;
      SuppressionComment C;
      C.File = File.str();
      C.Line = LineNo;
      C.Column = D.Column + 1;
      C.Text = D.Text;
      C.Rules = D.Rules;
      C.FirstLine = C.LastLine = LineNo;
      switch (D.K) {
      case Directive::Kind::NoLint:
        C.CommentKind = SuppressionComment::Kind::NoLint;
        break;
      case Directive::Kind::NextLine:
        C.CommentKind = SuppressionComment::Kind::NoLintNextLine;
        C.FirstLine = C.LastLine = LineNo + 1;
        break;
      case Directive::Kind::Ignore:
        C.CommentKind = SuppressionComment::Kind::Ignore;
        if (commentOnly(Lines[I]))
          C.FirstLine = C.LastLine = LineNo + 1;
        break;
      case Directive::Kind::Begin:
        C.CommentKind = SuppressionComment::Kind::NoLintBegin;
        Open.push_back(std::move(C));
        continue;
      case Directive::Kind::End: {
        // An END closes the latest BEGIN with the same rule list.
        auto It = std::find_if(Open.rbegin(), Open.rend(),
                               [&](const SuppressionComment &B) {
                                 return B.Rules == D.Rules;
                               });
        if (It == Open.rend()) {
          Problems.push_back(
              fmt::format("{}:{}: unmatched {}", File.str(), LineNo, D.Text));
          continue;
        }
        SuppressionComment B = std::move(*It);
        Open.erase(std::next(It).base());
        B.LastLine = LineNo;
        Out.push_back(std::move(B));
        continue;
      }
      }
      Out.push_back(std::move(C));
    }
  }
  for (const SuppressionComment &B : Open)
    Problems.push_back(
        fmt::format("{}:{}: unmatched {}", File.str(), B.Line, B.Text));
  std::stable_sort(Out.begin(), Out.end(),
                   [](const SuppressionComment &A, const SuppressionComment &B) {
                     return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
                   });
  return Out;
}

void SuppressionIndex::load(const std::string &File) {
  if (Files.count(File))
    return;
  FileComments &FC = Files[File];
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf)
    return;
  FC.Comments = parseSuppressions(File, (*Buf)->getBuffer(), Problems);
  FC.Uses.assign(FC.Comments.size(), 0);
}

const SuppressionComment *SuppressionIndex::match(const std::string &File,
                                                  unsigned Line,
                                                  llvm::StringRef RuleId) {
  load(File);
  FileComments &FC = Files[File];
  for (size_t I = 0; I < FC.Comments.size(); ++I)
    if (FC.Comments[I].covers(Line, RuleId)) {
      ++FC.Uses[I];
      return &FC.Comments[I];
    }
  return nullptr;
}

std::vector<const SuppressionComment *> SuppressionIndex::unused() const {
  std::vector<const SuppressionComment *> Out;
  for (const auto &[File, FC] : Files)
    for (size_t I = 0; I < FC.Comments.size(); ++I)
      if (FC.Uses[I] == 0 && FC.Comments[I].namesCoalesceRules())
        Out.push_back(&FC.Comments[I]);
  return Out;
}

} // namespace coalesce
