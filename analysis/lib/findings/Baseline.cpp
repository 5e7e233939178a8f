//===- Baseline.cpp - Fingerprints, and reading and writing baselines -----===//

#include "coalesce/Baseline.h"

#include "coalesce/Findings.h"
#include "coalesce/Triage.h"

#include "findings/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <map>
#include <tuple>

namespace coalesce {

std::string normalizeExpression(llvm::StringRef Expr) {
  std::string Out;
  for (char C : Expr)
    if (!std::isspace(static_cast<unsigned char>(C)))
      Out += C;
  return Out;
}

std::string findingFingerprint(llvm::StringRef Kernel, llvm::StringRef Expr,
                               llvm::StringRef RuleId) {
  std::string Key = (Kernel + llvm::StringRef("\0", 1) +
                     normalizeExpression(Expr) + llvm::StringRef("\0", 1) +
                     RuleId)
                        .str();
  auto Digest = llvm::SHA1::hash(llvm::arrayRefFromStringRef(Key));
  return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest).take_front(8),
                     /*LowerCase=*/true);
}

std::string Baseline::directory() const {
  return llvm::sys::path::parent_path(absolutePath(Path)).str();
}

std::string Baseline::fileKey(llvm::StringRef File) const {
  if (std::optional<std::string> Rel = relativePath(File, directory()))
    return *Rel;
  return absolutePath(File);
}

namespace {

llvm::Error baselineError(llvm::StringRef Path, const llvm::Twine &What) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 "baseline '%s': %s", Path.str().c_str(),
                                 What.str().c_str());
}

/// Reads one entry; \p Why says what is missing.
std::optional<BaselineEntry> readEntry(const llvm::json::Value &V,
                                       std::string &Why) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O) {
    Why = "an entry of 'findings' is not an object";
    return std::nullopt;
  }
  BaselineEntry E;
  for (auto [Key, Field] :
       {std::pair<const char *, std::string *>{"file", &E.File},
        {"kernel", &E.Kernel},
        {"rule", &E.Rule},
        {"fingerprint", &E.Fingerprint}}) {
    std::optional<llvm::StringRef> S = O->getString(Key);
    if (!S) {
      Why = std::string("an entry has no string '") + Key + "'";
      return std::nullopt;
    }
    *Field = S->str();
  }
  E.Expr = O->getString("expr").value_or("").str();
  std::optional<int64_t> Count = O->getInteger("count");
  if (!Count || *Count < 1) {
    Why = "an entry has no positive integer 'count'";
    return std::nullopt;
  }
  E.Count = static_cast<unsigned>(*Count);
  return E;
}

} // namespace

llvm::Expected<Baseline> readBaseline(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return baselineError(Path, "cannot read: " + Buf.getError().message());
  llvm::Expected<llvm::json::Value> Doc = llvm::json::parse((*Buf)->getBuffer());
  if (!Doc)
    return baselineError(Path, "not JSON: " + llvm::toString(Doc.takeError()));
  const llvm::json::Object *Top = Doc->getAsObject();
  std::optional<int64_t> Version = Top ? Top->getInteger("baseline") : std::nullopt;
  if (!Version || *Version != BaselineFormatVersion)
    return baselineError(Path, "not a coalesce-lint baseline of format " +
                                   llvm::Twine(BaselineFormatVersion) +
                                   " (write one with --write-baseline)");
  const llvm::json::Array *Entries = Top->getArray("findings");
  if (!Entries)
    return baselineError(Path, "no 'findings' array");
  Baseline B;
  B.Path = Path.str();
  for (const llvm::json::Value &V : *Entries) {
    std::string Why;
    std::optional<BaselineEntry> E = readEntry(V, Why);
    if (!E)
      return baselineError(Path, Why);
    B.Entries.push_back(std::move(*E));
  }
  return B;
}

Baseline baselineOf(const FindingTable &Table, llvm::StringRef Path) {
  Baseline B;
  B.Path = Path.str();
  std::map<std::tuple<std::string, std::string, std::string, std::string,
                      std::string>,
           unsigned>
      Counts;
  for (const TriagedFinding &T : Table.Findings) {
    if (T.SuppressedBy)
      continue;
    const AccessRecord &A = *T.Access;
    Counts[{B.fileKey(A.Loc.File), A.Kernel.empty() ? T.Kernel->Name : A.Kernel,
            T.F.RuleId, normalizeExpression(A.Expression), T.Fingerprint}]++;
  }
  for (const auto &[Key, Count] : Counts) {
    const auto &[File, Kernel, Rule, Expr, Fingerprint] = Key;
    B.Entries.push_back({File, Kernel, Rule, Expr, Fingerprint, Count});
  }
  return B;
}

llvm::Error writeBaseline(const Baseline &B) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(B.Path, EC);
  if (EC)
    return baselineError(B.Path, "cannot write: " + EC.message());
  llvm::json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("tool", "coalesce-lint");
    J.attribute("version", toolVersion());
    J.attribute("baseline", int64_t(BaselineFormatVersion));
    J.attributeArray("findings", [&] {
      for (const BaselineEntry &E : B.Entries)
        J.object([&] {
          J.attribute("file", E.File);
          J.attribute("kernel", E.Kernel);
          J.attribute("rule", E.Rule);
          J.attribute("expr", E.Expr);
          J.attribute("fingerprint", E.Fingerprint);
          J.attribute("count", int64_t(E.Count));
        });
    });
  });
  OS << "\n";
  OS.flush();
  if (OS.has_error()) {
    EC = OS.error();
    OS.clear_error();
    return baselineError(B.Path, "cannot write: " + EC.message());
  }
  return llvm::Error::success();
}

} // namespace coalesce
