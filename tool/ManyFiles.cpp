//===- ManyFiles.cpp - Which files a run analyzes, and its progress -------===//
#include "ManyFiles.h"

#include "coalesce/Analyzer.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

namespace coalesce {
namespace tool {

std::vector<std::string> shardOf(std::vector<std::string> Files,
                                 unsigned Index, unsigned Count) {
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  std::vector<std::string> Mine;
  for (size_t I = Index - 1; I < Files.size(); I += Count)
    Mine.push_back(Files[I]);
  return Mine;
}

llvm::Error selectFiles(Options &O) {
  AnalysisConfig &A = O.Analysis;
  if (A.Files.empty()) {
    llvm::Expected<std::vector<std::string>> All =
        cudaFilesOfDatabase(A.BuildDir);
    if (!All)
      return All.takeError();
    if (All->empty())
      return llvm::createStringError(
          std::errc::invalid_argument,
          "'%s/compile_commands.json' lists no CUDA file", A.BuildDir.c_str());
    A.Files = std::move(*All);
  }
  if (O.Shard.Count)
    A.Files = shardOf(std::move(A.Files), O.Shard.Index, O.Shard.Count);
  return llvm::Error::success();
}

void attachProgressBar(Options &O) {
  if (!O.Progress || O.Analysis.Files.size() < 2)
    return;
  O.Analysis.OnProgress = [](const AnalysisProgress &P) {
    constexpr size_t Width = 30;
    size_t Filled = P.Total ? P.Done * Width / P.Total : Width;
    llvm::errs() << fmt::format("\r\x1b[Kcoalesce-lint: [{}{}] {}/{} {}",
                                std::string(Filled, '#'),
                                std::string(Width - Filled, ' '), P.Done,
                                P.Total,
                                llvm::StringRef(P.Stage) == "parsing"
                                    ? "files"
                                    : "kernels");
    llvm::errs().flush();
  };
}

void clearProgressBar(const Options &O) {
  if (O.Analysis.OnProgress)
    llvm::errs() << "\r\x1b[K";
}

} // namespace tool
} // namespace coalesce
