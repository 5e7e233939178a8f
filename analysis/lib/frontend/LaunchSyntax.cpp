//===- LaunchSyntax.cpp - Kernel launches written with spaced brackets ----===//
#include "LaunchSyntax.h"

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

class JoiningFile : public llvm::vfs::File {
public:
  explicit JoiningFile(std::unique_ptr<llvm::vfs::File> Base)
      : Base(std::move(Base)) {}
  ~JoiningFile() override { Base->close(); }
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
    std::optional<std::string> Joined =
        joinSpacedLaunches((*Buffer)->getBuffer());
    std::optional<std::string> Blanked =
        blankPragmasInDefines(Joined ? *Joined : (*Buffer)->getBuffer());
    if (!Joined && !Blanked)
      return Buffer;
    return llvm::MemoryBuffer::getMemBufferCopy(
        Blanked ? *Blanked : *Joined, (*Buffer)->getBufferIdentifier());
  }

private:
  std::unique_ptr<llvm::vfs::File> Base;
};

class JoiningFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    auto File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<JoiningFile>(std::move(*File)));
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

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withJoinedLaunches(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  return llvm::makeIntrusiveRefCnt<JoiningFileSystem>(std::move(Base));
}

} // namespace frontend
} // namespace coalesce
