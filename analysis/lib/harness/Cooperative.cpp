//===- Cooperative.cpp - Which kernels need a cooperative launch ----------===//

#include "Cooperative.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

namespace coalesce {

namespace {

/// The text of the function whose definition starts on \p Line: from that
/// line to the brace closing its body (comments and strings not skipped;
/// good enough to find identifiers).
std::string bodyAt(const std::string &Source, unsigned Line) {
  size_t Pos = 0;
  for (unsigned L = 1; L < Line && Pos != std::string::npos; ++L)
    Pos = Source.find('\n', Pos) == std::string::npos
              ? std::string::npos
              : Source.find('\n', Pos) + 1;
  if (Pos == std::string::npos)
    return "";
  size_t Open = Source.find('{', Pos);
  if (Open == std::string::npos)
    return "";
  int Depth = 0;
  for (size_t I = Open; I != Source.size(); ++I) {
    Depth += Source[I] == '{' ? 1 : Source[I] == '}' ? -1 : 0;
    if (Depth == 0)
      return Source.substr(Open, I - Open + 1);
  }
  return Source.substr(Open);
}

} // namespace

bool needsCooperativeLaunch(const std::string &Source, const std::string &Name,
                            unsigned Line) {
  std::string Escaped = llvm::Regex::escape(Name);
  llvm::Regex Launch("cudaLaunchCooperativeKernel[[:space:]]*\\([^,]*[^A-Za-z0-9_]" +
                     Escaped + "([^A-Za-z0-9_]|$)");
  if (Launch.match(Source))
    return true;
  std::string Body = bodyAt(Source, Line);
  return Body.find("this_grid") != std::string::npos ||
         Body.find("grid_group") != std::string::npos;
}

} // namespace coalesce
