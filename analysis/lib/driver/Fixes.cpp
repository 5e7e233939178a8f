//===- Fixes.cpp - Fix-its: padding a conflicting shared array ------------===//

#include "coalesce/Fixes.h"

#include "coalesce/Analyzer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>

namespace coalesce {
namespace {

/// One array a fix-it may pad, with what its accesses need.
struct Candidate {
  SharedArrayDecl Array;
  unsigned ElemBytes = 4;
  unsigned Conflicts = 0; ///< Its accesses predicted bank-conflicting.
};

/// The arrays of \p R with a conflicting access and no escaping use.
std::vector<Candidate> candidates(const Report &R) {
  std::map<std::pair<std::string, unsigned>, Candidate> By;
  std::set<std::pair<std::string, unsigned>> Escaping;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses) {
      if (!A.SharedArray)
        continue;
      auto Key = std::make_pair(A.SharedArray->DimLoc.File,
                                A.SharedArray->DimOffset);
      if (A.SharedArray->Escapes)
        Escaping.insert(Key);
      Candidate &C = By[Key];
      C.Array = *A.SharedArray;
      C.ElemBytes = std::max(1u, A.ElemBytes);
      C.Conflicts += A.Predicted.Class == Classification::BankConflict;
    }
  std::vector<Candidate> Out;
  for (auto &[Key, C] : By)
    if (C.Conflicts && !Escaping.count(Key))
      Out.push_back(C);
  return Out;
}

/// The padded size text: `32` -> `33`, `TILE` -> `TILE + 1`.
std::string paddedText(const SharedArrayDecl &A, unsigned Pad) {
  llvm::StringRef T(A.DimText);
  uint64_t V;
  if (!T.getAsInteger(0, V))
    return std::to_string(V + Pad);
  return fmt::format("{} + {}", A.DimText, Pad);
}

/// Conflicting accesses of \p Name (declared at \p DeclLine) in \p R.
unsigned conflictsOf(const Report &R, const std::string &Name,
                     unsigned DeclLine) {
  unsigned N = 0;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses)
      if (A.SharedArray && A.SharedArray->Name == Name &&
          A.SharedArray->Decl.Line == DeclLine &&
          A.Predicted.Class == Classification::BankConflict)
        ++N;
  return N;
}

/// Analyzes \p Text as \p File would be (in a temporary directory, with
/// the file's own directory on the include path) and counts the conflicts
/// of the array \p C; nullopt when the analysis did not run.
std::optional<unsigned> conflictsAfter(const AnalysisConfig &Config,
                                       const std::string &File,
                                       const std::string &Text,
                                       const Candidate &C) {
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("coalesce-fix", Dir))
    return std::nullopt;
  llvm::SmallString<256> Copy(Dir);
  llvm::sys::path::append(Copy, llvm::sys::path::filename(File));
  std::optional<unsigned> Left;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Copy, EC);
    if (!EC) {
      OS << Text;
      OS.close();
      AnalysisConfig Padded = Config;
      Padded.Files = {std::string(Copy)};
      Padded.BuildDir.clear();
      Padded.SelfCheck = false;
      Padded.OnProgress = nullptr;
      std::string Own = llvm::sys::path::parent_path(File).str();
      if (Own.empty())
        Own = ".";
      Padded.ExtraArgs.push_back("-iquote" + Own);
      Padded.ExtraArgs.push_back("-I" + Own);
      llvm::Expected<Report> R = analyze(Padded);
      if (R && !R->Files.empty() && R->Files.front().Analyzed)
        Left = conflictsOf(*R, C.Array.Name, C.Array.Decl.Line);
      else if (!R)
        llvm::consumeError(R.takeError());
    }
  }
  llvm::sys::fs::remove(Copy);
  llvm::sys::fs::remove(Dir);
  return Left;
}

} // namespace

llvm::Expected<std::vector<FixIt>> paddingFixes(const Report &R,
                                                const AnalysisConfig &Config) {
  std::vector<FixIt> Out;
  for (const Candidate &C : candidates(R)) {
    const SharedArrayDecl &A = C.Array;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
        llvm::MemoryBuffer::getFile(A.DimLoc.File);
    if (!Buf)
      continue;
    std::string Text = (*Buf)->getBuffer().str();
    if (A.DimOffset + A.DimLength > Text.size() ||
        Text.compare(A.DimOffset, A.DimLength, A.DimText) != 0)
      continue; // The file changed since it was analyzed.
    // One 4-byte word per row: one element of 4 bytes or more, 4 / size of
    // smaller ones.
    unsigned Pad = C.ElemBytes >= 4 ? 1 : 4 / C.ElemBytes;
    FixIt F;
    F.File = A.DimLoc.File;
    F.Offset = A.DimOffset;
    F.Length = A.DimLength;
    F.Original = A.DimText;
    F.Replacement = paddedText(A, Pad);
    F.Loc = A.DimLoc;
    std::string Padded = Text;
    Padded.replace(F.Offset, F.Length, F.Replacement);
    std::optional<unsigned> Left = conflictsAfter(Config, F.File, Padded, C);
    if (!Left || *Left != 0)
      continue; // Padding does not remove every conflict of the array.
    F.Message = fmt::format(
        "pad each row of '{}' by {} element{} ([{}] -> [{}]): {} conflicting "
        "access{} of '{}' become{} conflict-free (the padded file was "
        "analyzed again)",
        A.Name, Pad, Pad == 1 ? "" : "s", A.DimText, F.Replacement,
        C.Conflicts == 1 ? "its" : fmt::format("its {}", C.Conflicts),
        C.Conflicts == 1 ? "" : "es", A.Name, C.Conflicts == 1 ? "s" : "");
    Out.push_back(std::move(F));
  }
  return Out;
}

llvm::Error applyFixes(const std::vector<FixIt> &Fixes) {
  std::map<std::string, std::vector<const FixIt *>> ByFile;
  for (const FixIt &F : Fixes)
    ByFile[F.File].push_back(&F);
  // Check every file first: nothing is written when one changed.
  std::map<std::string, std::string> Texts;
  for (auto &[File, List] : ByFile) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
        llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      return llvm::createStringError(Buf.getError(), "cannot read %s: %s",
                                     File.c_str(),
                                     Buf.getError().message().c_str());
    std::string Text = (*Buf)->getBuffer().str();
    std::sort(List.begin(), List.end(),
              [](const FixIt *A, const FixIt *B) { return A->Offset > B->Offset; });
    for (const FixIt *F : List) {
      if (F->Offset + F->Length > Text.size() ||
          Text.compare(F->Offset, F->Length, F->Original) != 0)
        return llvm::createStringError(
            std::errc::invalid_argument,
            "%s changed since it was analyzed: no fix applied",
            File.c_str());
      Text.replace(F->Offset, F->Length, F->Replacement);
    }
    Texts[File] = std::move(Text);
  }
  for (auto &[File, Text] : Texts) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write %s: %s", File.c_str(),
                                     EC.message().c_str());
    OS << Text;
  }
  return llvm::Error::success();
}

std::string fixesYaml(const std::vector<FixIt> &Fixes,
                      const std::string &MainSourceFile) {
  YAML::Emitter Y;
  Y << YAML::BeginDoc << YAML::BeginMap;
  Y << YAML::Key << "MainSourceFile" << YAML::Value << MainSourceFile;
  Y << YAML::Key << "Diagnostics" << YAML::Value << YAML::BeginSeq;
  for (const FixIt &F : Fixes) {
    Y << YAML::BeginMap;
    Y << YAML::Key << "DiagnosticName" << YAML::Value << F.RuleId;
    Y << YAML::Key << "DiagnosticMessage" << YAML::Value << YAML::BeginMap;
    Y << YAML::Key << "Message" << YAML::Value << F.Message;
    Y << YAML::Key << "FilePath" << YAML::Value << F.File;
    Y << YAML::Key << "FileOffset" << YAML::Value << F.Offset;
    Y << YAML::Key << "Replacements" << YAML::Value << YAML::BeginSeq;
    Y << YAML::BeginMap;
    Y << YAML::Key << "FilePath" << YAML::Value << F.File;
    Y << YAML::Key << "Offset" << YAML::Value << F.Offset;
    Y << YAML::Key << "Length" << YAML::Value << F.Length;
    Y << YAML::Key << "ReplacementText" << YAML::Value << YAML::DoubleQuoted
      << F.Replacement;
    Y << YAML::EndMap << YAML::EndSeq;
    Y << YAML::EndMap;
    Y << YAML::Key << "Level" << YAML::Value << "Warning";
    Y << YAML::EndMap;
  }
  Y << YAML::EndSeq << YAML::EndMap << YAML::EndDoc;
  return std::string(Y.c_str()) + "\n";
}

} // namespace coalesce
