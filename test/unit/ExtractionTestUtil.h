//===- ExtractionTestUtil.h - Helpers for analyzing in-memory snippets -*- C++
//-*-===//
///
/// \file
/// Helpers for the extraction unit tests: write a CUDA snippet to a temporary
/// .cu file, run coalesce::analyze() on it, and find accesses by the position
/// of a piece of text in the snippet, so that tests never hard-code columns.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TEST_EXTRACTIONTESTUTIL_H
#define COALESCE_TEST_EXTRACTIONTESTUTIL_H

#include "coalesce/Analyzer.h"
#include "coalesce/CompileFlags.h"
#include "coalesce/Report.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace coalesce {
namespace testutil {

/// A test that analyzes snippets: skipped when no CUDA installation is found.
class SnippetTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::Expected<std::string> Cuda = findCudaInstallation("");
    if (!Cuda) {
      std::string Why = llvm::toString(Cuda.takeError());
      GTEST_SKIP() << "no CUDA installation: " << Why;
    }
  }
};

/// A 1-based line and column in a snippet.
struct Pos {
  unsigned Line = 0, Column = 0;
  bool valid() const { return Line != 0; }
  std::string str() const { return fmt::format("{}:{}", Line, Column); }
  friend bool operator==(const Pos &A, const Pos &B) {
    return A.Line == B.Line && A.Column == B.Column;
  }
};

inline Pos posOfOffset(llvm::StringRef Source, size_t Offset) {
  llvm::StringRef Before = Source.take_front(Offset);
  Pos P;
  P.Line = static_cast<unsigned>(Before.count('\n')) + 1;
  size_t LineStart = Before.rfind('\n');
  P.Column = static_cast<unsigned>(
      LineStart == llvm::StringRef::npos ? Offset + 1 : Offset - LineStart);
  return P;
}

/// The position of \p Needle inside the first occurrence of \p Context in
/// \p Source (\p Context must be unique). Records a test failure and returns
/// an invalid position when either is missing.
inline Pos posIn(llvm::StringRef Source, llvm::StringRef Context,
                 llvm::StringRef Needle) {
  size_t C = Source.find(Context);
  if (C == llvm::StringRef::npos) {
    ADD_FAILURE() << "context '" << Context.str() << "' not in the snippet";
    return {};
  }
  if (Source.find(Context, C + 1) != llvm::StringRef::npos)
    ADD_FAILURE() << "context '" << Context.str() << "' is not unique";
  size_t N = Source.substr(C, Context.size()).find(Needle);
  if (N == llvm::StringRef::npos) {
    ADD_FAILURE() << "'" << Needle.str() << "' not in '" << Context.str()
                  << "'";
    return {};
  }
  return posOfOffset(Source, C + N);
}

/// The position of the unique text \p Needle in \p Source.
inline Pos posOf(llvm::StringRef Source, llvm::StringRef Needle) {
  return posIn(Source, Needle, Needle);
}

inline Pos posOf(const SourceLocation &L) { return {L.Line, L.Column}; }

/// One line per access and per compile error, for failure messages.
inline std::string describe(const Report &R) {
  std::string S;
  for (const FileResult &F : R.Files) {
    S += fmt::format("file {} analyzed={} fatal='{}'\n", F.File, F.Analyzed,
                     F.FatalError);
    for (const CompileError &E : F.Errors)
      S += fmt::format("  error {}:{} in-kernel={} {}\n", E.Loc.Line,
                       E.Loc.Column, E.InKernel, E.Message);
  }
  for (const KernelRecord &K : R.Kernels) {
    S += fmt::format("kernel {} [{}] block={} ({})\n", K.Name, K.Instantiation,
                     K.Block.str(), blockShapeSourceName(K.BlockSource));
    for (const AccessRecord &A : K.Accesses)
      S += fmt::format(
          "  {}:{} op={} base={} elem={} expr='{}' address={} active={} "
          "class={} sectors={} ideal={} chain={}\n",
          A.Loc.Line, A.Loc.Column, accessOpName(A.Pattern.Op), A.Base,
          A.ElemBytes, A.Expression, A.Pattern.Address.str(),
          A.Pattern.Active.str(), classificationName(A.Predicted.Class),
          A.Predicted.SectorsPerRequest ? *A.Predicted.SectorsPerRequest : -1.0,
          A.Predicted.IdealSectorsPerRequest
              ? *A.Predicted.IdealSectorsPerRequest
              : -1.0,
          A.CallChain.size());
  }
  return S;
}

/// The kernel named \p Name (and, when given, whose Instantiation is
/// \p Instantiation), or null.
inline const KernelRecord *findKernel(const Report &R, llvm::StringRef Name,
                                      llvm::StringRef Instantiation = "") {
  for (const KernelRecord &K : R.Kernels)
    if (K.Name == Name &&
        (Instantiation.empty() || K.Instantiation == Instantiation))
      return &K;
  return nullptr;
}

/// The accesses of \p K that start at \p P.
inline std::vector<const AccessRecord *> accessesAt(const KernelRecord &K,
                                                    Pos P) {
  std::vector<const AccessRecord *> Found;
  for (const AccessRecord &A : K.Accesses)
    if (posOf(A.Loc) == P)
      Found.push_back(&A);
  return Found;
}

/// The one access of \p K at \p P; records a failure (with the whole report)
/// and returns null when there is none or more than one.
inline const AccessRecord *accessAt(const Report &R, const KernelRecord &K,
                                    Pos P) {
  std::vector<const AccessRecord *> Found = accessesAt(K, P);
  if (Found.size() != 1) {
    ADD_FAILURE() << "expected one access of kernel " << K.Name << " at "
                  << P.str() << ", found " << Found.size() << "\n"
                  << describe(R);
    return nullptr;
  }
  return Found.front();
}

/// A snippet written to a temporary .cu file, removed on destruction.
class TempSource {
public:
  explicit TempSource(llvm::StringRef Source) {
    int FD = -1;
    llvm::SmallString<128> P;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "coalesce-extraction", "cu", FD, P)) {
      ADD_FAILURE() << "cannot create a temporary file: " << EC.message();
      return;
    }
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Source;
    Path = P.str().str();
  }
  ~TempSource() {
    if (!Path.empty())
      llvm::sys::fs::remove(Path);
  }
  TempSource(const TempSource &) = delete;
  TempSource &operator=(const TempSource &) = delete;

  std::string Path;
};

/// Writes \p Source to a temporary file and analyzes it with \p Config (whose
/// Files are replaced). Records a failure and returns an empty report when
/// analyze() fails.
inline Report analyzeSnippet(llvm::StringRef Source,
                             AnalysisConfig Config = {}) {
  TempSource File(Source);
  if (File.Path.empty())
    return {};
  Config.Files = {File.Path};
  llvm::Expected<Report> R = analyze(Config);
  if (!R) {
    ADD_FAILURE() << "analyze() failed: " << llvm::toString(R.takeError());
    return {};
  }
  return std::move(*R);
}

} // namespace testutil
} // namespace coalesce

#endif // COALESCE_TEST_EXTRACTIONTESTUTIL_H
