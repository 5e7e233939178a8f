//===- ChangedLines.cpp - The lines a change adds or modifies -------------===//
#include "coalesce/ChangedLines.h"

#include "findings/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace coalesce {

namespace {

/// The file name of a "+++ NAME[\tTIMESTAMP]" line, unquoted.
llvm::StringRef fileOfHeader(llvm::StringRef Line) {
  llvm::StringRef Name = Line.drop_front(4);
  Name = Name.split('\t').first.rtrim();
  if (Name.size() >= 2 && Name.front() == '"' && Name.back() == '"')
    Name = Name.drop_front().drop_back();
  return Name;
}

/// Reads "@@ -A[,B] +C[,D] @@": the first new line C and the count D.
bool parseHunkHeader(llvm::StringRef Line, unsigned &Start, unsigned &Count) {
  llvm::StringRef Rest = Line.drop_front(2).ltrim();
  size_t Plus = Rest.find('+');
  if (Plus == llvm::StringRef::npos)
    return false;
  llvm::StringRef New = Rest.drop_front(Plus + 1).split(' ').first;
  auto [S, C] = New.split(',');
  Count = 1;
  if (S.getAsInteger(10, Start))
    return false;
  return C.empty() || !C.getAsInteger(10, Count);
}

} // namespace

llvm::Expected<ChangedLines> ChangedLines::parse(llvm::StringRef Diff,
                                                 llvm::StringRef Root,
                                                 bool StripB) {
  ChangedLines Out;
  std::set<unsigned> *Current = nullptr;
  unsigned NewLine = 0, NewLeft = 0, LineNo = 0;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    ++LineNo;
    Line.consume_back("\r");
    if (NewLeft == 0 && Line.starts_with("+++ ")) {
      llvm::StringRef Name = fileOfHeader(Line);
      Current = nullptr;
      if (Name == "/dev/null")
        continue;
      if (StripB)
        Name.consume_front("b/");
      llvm::SmallString<256> Path;
      if (!llvm::sys::path::is_absolute(Name)) {
        Path = Root;
        llvm::sys::path::append(Path, Name);
      } else {
        Path = Name;
      }
      Current = &Out.Lines[absolutePath(Path)];
      continue;
    }
    if (Line.starts_with("@@")) {
      unsigned Start = 0, Count = 0;
      if (!parseHunkHeader(Line, Start, Count))
        return llvm::createStringError(
            std::errc::invalid_argument,
            "line %u of the diff: cannot read the hunk header '%s'", LineNo,
            Line.str().c_str());
      NewLine = Start;
      NewLeft = Count;
      continue;
    }
    if (!Current || NewLeft == 0)
      continue;
    if (Line.starts_with("+")) {
      Current->insert(NewLine++);
      --NewLeft;
    } else if (Line.starts_with(" ") || Line.empty()) {
      ++NewLine;
      --NewLeft;
    }
    // '-' lines and "\ No newline at end of file" leave the new side alone.
  }
  for (auto It = Out.Lines.begin(); It != Out.Lines.end();)
    It = It->second.empty() ? Out.Lines.erase(It) : std::next(It);
  return Out;
}

bool ChangedLines::touches(llvm::StringRef File, unsigned First,
                           unsigned Last) const {
  auto It = Lines.find(absolutePath(File));
  if (It == Lines.end())
    return false;
  auto L = It->second.lower_bound(First);
  return L != It->second.end() && *L <= std::max(First, Last);
}

} // namespace coalesce
