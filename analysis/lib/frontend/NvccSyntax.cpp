//===- NvccSyntax.cpp - Syntax nvcc accepts and clang rejects -------------===//
#include "NvccSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace coalesce {
namespace frontend {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// The end of a bracket made of two \p C, blanks, and a third \p C that
/// starts at \p At (`<< <`, `>>  >`), or npos; \p Spaced tells whether
/// blanks split it (`<<<` and `>>>` count, unspaced).
size_t bracketEnd(llvm::StringRef Text, size_t At, char C, bool &Spaced) {
  if (At + 2 > Text.size() || Text[At] != C || Text[At + 1] != C)
    return llvm::StringRef::npos;
  size_t I = At + 2;
  while (I < Text.size() && isBlank(Text[I]))
    ++I;
  if (I >= Text.size() || Text[I] != C)
    return llvm::StringRef::npos;
  Spaced = I > At + 2;
  return I + 1;
}

/// Writes the bracket [At, End) as three \p C followed by its blanks.
void join(std::string &Out, size_t At, size_t End, char C) {
  for (size_t I = At; I < End; ++I)
    Out[I] = I < At + 3 ? C : ' ';
}

/// The closing bracket of the launch opened before \p From: the first
/// `>>>` or `>> >` outside parentheses, before the statement ends.
size_t findCloser(llvm::StringRef Text, size_t From, size_t &CloserEnd,
                  bool &Spaced) {
  int Depth = 0;
  for (size_t I = From; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(' || C == '[')
      ++Depth;
    else if (C == ')' || C == ']') {
      if (--Depth < 0)
        return llvm::StringRef::npos;
    } else if ((C == ';' || C == '{' || C == '}') && Depth == 0)
      return llvm::StringRef::npos;
    else if (C == '>' && Depth == 0) {
      CloserEnd = bracketEnd(Text, I, '>', Spaced);
      if (CloserEnd != llvm::StringRef::npos)
        return I;
    }
  }
  return llvm::StringRef::npos;
}

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Where the escape of the `%` at \p At of the asm string \p S ends, and
/// whether clang accepts it (GCCAsmStmt::AnalyzeAsmString's rules).
bool validEscape(llvm::StringRef S, size_t At, size_t &End) {
  End = At + 1;
  if (End >= S.size())
    return false;
  char C = S[End++];
  if (C == '%' || C == '=' || C == '{' || C == '|' || C == '}')
    return true;
  if (llvm::isAlpha(C)) { // A modifier letter: an operand must follow.
    if (End >= S.size())
      return false;
    C = S[End++];
  }
  return llvm::isDigit(C) || C == '[';
}

/// The string literals of the asm statement whose keyword ends at \p At
/// (`asm volatile ("..." "...":`), as [opening quote, closing quote]
/// pairs; empty unless operands follow them.
llvm::SmallVector<std::pair<size_t, size_t>, 2> asmStrings(llvm::StringRef Text,
                                                           size_t At) {
  llvm::SmallVector<std::pair<size_t, size_t>, 2> Strings;
  auto SkipSpace = [&] {
    while (At < Text.size() && llvm::isSpace(Text[At]))
      ++At;
  };
  SkipSpace();
  while (At < Text.size() && isIdentifierChar(Text[At])) { // volatile, goto
    size_t Word = At;
    while (At < Text.size() && isIdentifierChar(Text[At]))
      ++At;
    llvm::StringRef Q = Text.slice(Word, At);
    if (Q != "volatile" && Q != "__volatile__" && Q != "__volatile" &&
        Q != "inline" && Q != "__inline__" && Q != "goto")
      return {};
    SkipSpace();
  }
  if (At >= Text.size() || Text[At] != '(')
    return {};
  ++At;
  for (SkipSpace(); At < Text.size() && Text[At] == '"'; SkipSpace()) {
    size_t Open = At++;
    while (At < Text.size() && Text[At] != '"' && Text[At] != '\n')
      At += Text[At] == '\\' ? 2 : 1;
    if (At >= Text.size() || Text[At] != '"')
      return {};
    Strings.push_back({Open, At++});
  }
  if (At >= Text.size() || Text[At] != ':')
    return {};
  return Strings;
}

/// A blank to give up for a `%` added inside the string [Open, Close]: one
/// of the string after `,` or `;` or beside another blank, else any of the
/// string, else one after the string on the same line outside strings;
/// npos when there is none. \p Taken holds the blanks already given up.
size_t blankToTake(llvm::StringRef Text, size_t Open, size_t Close,
                   const llvm::SmallVectorImpl<size_t> &Taken) {
  auto Free = [&](size_t I) {
    return Text[I] == ' ' && !llvm::is_contained(Taken, I);
  };
  for (size_t I = Open + 1; I < Close; ++I)
    if (Free(I) && (Text[I - 1] == ',' || Text[I - 1] == ';' ||
                    Text[I - 1] == ' ' || Text[I + 1] == ' '))
      return I;
  for (size_t I = Open + 1; I < Close; ++I)
    if (Free(I))
      return I;
  bool InString = false;
  for (size_t I = Close + 1; I < Text.size() && Text[I] != '\n'; ++I) {
    if (Text[I] == '"' && Text[I - 1] != '\\')
      InString = !InString;
    else if (!InString && Free(I))
      return I;
  }
  return llvm::StringRef::npos;
}

/// A file read with the rewrites of NvccSyntax.h applied, in turn.
class NvccSyntaxFile : public llvm::vfs::File {
public:
  explicit NvccSyntaxFile(std::unique_ptr<llvm::vfs::File> Base)
      : Base(std::move(Base)) {}
  ~NvccSyntaxFile() override { Base->close(); }
  llvm::ErrorOr<llvm::vfs::Status> status() override { return Base->status(); }
  llvm::ErrorOr<std::string> getName() override { return Base->getName(); }
  std::error_code close() override { return Base->close(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &Name, int64_t FileSize,
            bool RequiresNullTerminator, bool IsVolatile) override {
    auto Buffer =
        Base->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (!Buffer)
      return Buffer;
    std::optional<std::string> Text;
    for (auto *Rewrite :
         {&joinSpacedLaunches, &blankPragmasInDefines, &escapeAsmPercents})
      if (std::optional<std::string> Out =
              Rewrite(Text ? llvm::StringRef(*Text) : (*Buffer)->getBuffer()))
        Text = std::move(Out);
    if (!Text)
      return Buffer;
    return llvm::MemoryBuffer::getMemBufferCopy(
        *Text, (*Buffer)->getBufferIdentifier());
  }

private:
  std::unique_ptr<llvm::vfs::File> Base;
};

class NvccSyntaxFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<NvccSyntaxFile>(std::move(*File)));
  }
};

} // namespace

std::optional<std::string> joinSpacedLaunches(llvm::StringRef Text) {
  std::optional<std::string> Out;
  size_t At = 0;
  // Each `<` by memchr, then its neighbour (StringRef::find of a
  // two-character needle compares byte by byte: 2% of a run).
  while ((At = Text.find('<', At)) != llvm::StringRef::npos) {
    if (At + 1 >= Text.size() || Text[At + 1] != '<') {
      ++At;
      continue;
    }
    bool Spaced = false;
    size_t End = bracketEnd(Text, At, '<', Spaced);
    // `<<<` inside a longer run of `<`, or `operator<< <T>`: not a launch.
    bool Launch = End != llvm::StringRef::npos && Spaced &&
                  (At == 0 || Text[At - 1] != '<') &&
                  (End >= Text.size() || Text[End] != '<') &&
                  !Text.take_front(At).rtrim().ends_with("operator");
    if (!Launch) {
      At = End == llvm::StringRef::npos ? At + 2 : End;
      continue;
    }
    size_t CloserEnd = 0;
    bool CloserSpaced = false;
    size_t Closer = findCloser(Text, End, CloserEnd, CloserSpaced);
    if (Closer == llvm::StringRef::npos) {
      At = End;
      continue;
    }
    if (!Out)
      Out = Text.str();
    join(*Out, At, End, '<');
    if (CloserSpaced)
      join(*Out, Closer, CloserEnd, '>');
    At = CloserEnd;
  }
  return Out;
}

std::optional<std::string> blankPragmasInDefines(llvm::StringRef Text) {
  std::optional<std::string> Out;
  auto LineBegin = [&](size_t At) {
    size_t NL = Text.rfind('\n', At); // Searches before At.
    return NL == llvm::StringRef::npos ? 0 : NL + 1;
  };
  auto Continues = [&](size_t Begin) { // The line before Begin ends in `\`.
    if (Begin == 0)
      return false;
    llvm::StringRef Prev = Text.slice(LineBegin(Begin - 1), Begin - 1);
    return Prev.rtrim("\r").ends_with("\\");
  };
  for (size_t At = 0; (At = Text.find("pragma", At)) != llvm::StringRef::npos;
       At += 6) {
    size_t Hash = At;
    while (Hash > 0 && isBlank(Text[Hash - 1]))
      --Hash;
    if (Hash == 0 || Text[--Hash] != '#')
      continue;
    // The logical line it is on must be a #define.
    size_t First = LineBegin(Hash);
    while (Continues(First))
      First = LineBegin(First - 1);
    llvm::StringRef Start = Text.drop_front(First).ltrim(" \t");
    if (!Start.consume_front("#") || !Start.ltrim(" \t").starts_with("define"))
      continue;
    size_t End = Text.find('\n', At);
    if (End == llvm::StringRef::npos)
      End = Text.size();
    if (End > Hash && Text[End - 1] == '\r')
      --End;
    if (End > Hash && Text[End - 1] == '\\')
      --End;
    if (!Out)
      Out = Text.str();
    for (size_t I = Hash; I < End; ++I)
      (*Out)[I] = ' ';
  }
  return Out;
}

std::optional<std::string> escapeAsmPercents(llvm::StringRef Text) {
  llvm::SmallVector<size_t, 4> Added, Taken; // Before Added, none at Taken.
  for (size_t At = 0; (At = Text.find("asm", At)) != llvm::StringRef::npos;
       At += 3) {
    size_t Begin = At >= 2 && Text.substr(At - 2, 2) == "__" ? At - 2 : At;
    size_t End = Text.substr(At + 3, 2) == "__" ? At + 5 : At + 3;
    if ((Begin > 0 && isIdentifierChar(Text[Begin - 1])) ||
        (End < Text.size() && isIdentifierChar(Text[End])))
      continue;
    for (auto [Open, Close] : asmStrings(Text, End)) {
      llvm::StringRef S = Text.slice(Open + 1, Close);
      for (size_t I = 0, Next; I < S.size(); I = Next) {
        Next = I + 1;
        if (S[I] == '\\') {
          ++Next;
          continue;
        }
        if (S[I] != '%' || validEscape(S, I, Next))
          continue;
        Next = I + 1;
        size_t Blank = blankToTake(Text, Open, Close, Taken);
        if (Blank == llvm::StringRef::npos)
          continue;
        Added.push_back(Open + 1 + I);
        Taken.push_back(Blank);
      }
    }
  }
  if (Added.empty())
    return std::nullopt;
  llvm::sort(Added);
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0, A = 0; I < Text.size(); ++I) {
    for (; A < Added.size() && Added[A] == I; ++A)
      Out += '%';
    if (!llvm::is_contained(Taken, I))
      Out += Text[I];
  }
  return Out;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withNvccSyntax(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  return llvm::makeIntrusiveRefCnt<NvccSyntaxFileSystem>(std::move(Base));
}

} // namespace frontend
} // namespace coalesce
