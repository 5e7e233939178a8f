//===- Paths.cpp - Absolute and relative spellings of report paths --------===//

#include "findings/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace coalesce {

std::string absolutePath(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return llvm::sys::path::convert_to_slash(P);
}

std::optional<std::string> relativePath(llvm::StringRef Path,
                                        llvm::StringRef Root) {
  std::string File = absolutePath(Path);
  std::string Dir = absolutePath(Root.empty() ? "." : Root);
  if (Dir.size() > 1 && Dir.back() == '/')
    Dir.pop_back();
  if (File == Dir)
    return std::string(".");
  if (Dir == "/")
    return File.substr(1);
  if (!llvm::StringRef(File).starts_with(Dir + "/"))
    return std::nullopt;
  return File.substr(Dir.size() + 1);
}

std::string displayPath(llvm::StringRef Path) {
  if (std::optional<std::string> Rel = relativePath(Path, ""))
    return *Rel;
  return absolutePath(Path);
}

} // namespace coalesce
