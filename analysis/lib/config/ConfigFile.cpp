//===- ConfigFile.cpp - Reading .coalesce-lint.yaml with yaml-cpp ---------===//
///
/// \file
/// yaml-cpp reports syntax errors with exceptions; they are caught here and
/// become llvm::Errors, like every bad key or value, as "FILE:LINE: what".
///
//===----------------------------------------------------------------------===//

#include "coalesce/ConfigFile.h"

#include "coalesce/Rules.h"

#include "findings/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace coalesce {

namespace {

/// Walks the YAML tree into a ConfigFile; the first error stops it.
class ConfigParser {
public:
  explicit ConfigParser(llvm::StringRef Path) : Shown(displayPath(Path)) {}

  llvm::Expected<ConfigFile> parse(const YAML::Node &Root, ConfigFile C);

private:
  std::string Shown; ///< The path as error messages spell it.
  std::optional<std::string> Failure;

  /// Records the first error, at \p N's line; returns false.
  bool fail(const YAML::Node &N, const std::string &Message) {
    if (!Failure)
      Failure = fmt::format("{}:{}: {}", Shown, N.Mark().line + 1, Message);
    return false;
  }
  bool scalar(const YAML::Node &N, llvm::StringRef Key, std::string &Out) {
    if (!N.IsScalar())
      return fail(N, fmt::format("'{}' must be a single value", Key.str()));
    Out = N.Scalar();
    return true;
  }
  bool integer(const YAML::Node &N, llvm::StringRef Key, int64_t &Out) {
    std::string S;
    if (!scalar(N, Key, S))
      return false;
    if (llvm::StringRef(S).trim().getAsInteger(0, Out))
      return fail(N, fmt::format("'{}' must be an integer, not '{}'",
                                 Key.str(), S));
    return true;
  }
  /// One of \p Choices.
  bool choice(const YAML::Node &N, llvm::StringRef Key,
              std::initializer_list<const char *> Choices,
              std::optional<std::string> &Out) {
    std::string S;
    if (!scalar(N, Key, S))
      return false;
    for (const char *C : Choices)
      if (S == C) {
        Out = S;
        return true;
      }
    return fail(N, fmt::format("invalid {} '{}': expected {}", Key.str(), S,
                               fmt::join(Choices, ", ")));
  }

  bool rules(const YAML::Node &N, ConfigFile &C);
  bool ruleValue(const YAML::Node &N, RuleSetting &S);
  bool block(const YAML::Node &N, const std::string &Kernel, ConfigFile &C);
  bool params(const YAML::Node &N, const std::string &Kernel, ConfigFile &C);
  bool kernels(const YAML::Node &N, ConfigFile &C);
  bool exclude(const YAML::Node &N, ConfigFile &C);
  bool verify(const YAML::Node &N, VerifySettings &V);
  bool boolean(const YAML::Node &N, llvm::StringRef Key,
               std::optional<bool> &Out);
  bool topLevel(const YAML::Node &KeyNode, const YAML::Node &V, ConfigFile &C);
};

/// The items of a sequence, or \p N itself as the only one.
std::vector<YAML::Node> itemsOf(const YAML::Node &N) {
  if (!N.IsSequence())
    return {N};
  std::vector<YAML::Node> Items;
  for (const auto &I : N)
    Items.push_back(I);
  return Items;
}

bool ConfigParser::ruleValue(const YAML::Node &N, RuleSetting &S) {
  if (N.IsMap()) {
    for (const auto &KV : N) {
      std::string Key = KV.first.Scalar(), V;
      if (!scalar(KV.second, Key, V))
        return false;
      if (Key == "enabled") {
        if (V != "true" && V != "false")
          return fail(KV.second, "'enabled' must be true or false, not '" +
                                     V + "'");
        S.Enabled = V == "true";
      } else if (Key == "severity") {
        if (!(S.Level = parseSeverity(V)))
          return fail(KV.second, "invalid severity '" + V +
                                     "': expected note, warning or error");
      } else {
        return fail(KV.first, "unknown key '" + Key +
                                  "' in a rule (expected enabled, severity)");
      }
    }
    return true;
  }
  std::string V;
  if (!scalar(N, "rule", V))
    return false;
  if (V == "on" || V == "true")
    S.Enabled = true;
  else if (V == "off" || V == "false")
    S.Enabled = false;
  else if ((S.Level = parseSeverity(V)))
    S.Enabled = true;
  else
    return fail(N, "invalid rule setting '" + V +
                       "': expected on, off, note, warning or error");
  return true;
}

bool ConfigParser::rules(const YAML::Node &N, ConfigFile &C) {
  if (!N.IsMap())
    return fail(N, "'rules' must map rule ids or globs to settings");
  for (const auto &KV : N) {
    RuleSetting S;
    S.Pattern = KV.first.Scalar();
    bool Known = false;
    for (const RuleInfo &R : allRules())
      Known |= ruleGlobMatches(S.Pattern, R.Id);
    if (!Known)
      return fail(KV.first, "unknown rule '" + S.Pattern +
                                "' (see coalesce-lint --list-rules)");
    if (!ruleValue(KV.second, S))
      return false;
    C.Rules.push_back(std::move(S));
  }
  return true;
}

bool ConfigParser::block(const YAML::Node &N, const std::string &Kernel,
                         ConfigFile &C) {
  std::vector<YAML::Node> Dims = itemsOf(N);
  if (Dims.empty() || Dims.size() > 3)
    return fail(N, "'block' must be 1 to 3 dimensions, e.g. [32, 8]");
  unsigned V[3] = {1, 1, 1};
  for (size_t I = 0; I < Dims.size(); ++I) {
    int64_t D = 0;
    if (!integer(Dims[I], "block", D))
      return false;
    if (D < 1 || D > 1024)
      return fail(Dims[I], "block dimensions must be from 1 to 1024");
    V[I] = static_cast<unsigned>(D);
  }
  BlockOverride B{Kernel, BlockShape{V[0], V[1], V[2]}};
  if (B.Shape.threads() > 1024)
    return fail(N, "a block has at most 1024 threads");
  C.Blocks.push_back(B);
  return true;
}

bool ConfigParser::params(const YAML::Node &N, const std::string &Kernel,
                          ConfigFile &C) {
  if (!N.IsMap())
    return fail(N, "'params' must map parameter names to integers");
  for (const auto &KV : N) {
    ParamValue P;
    P.Kernel = Kernel;
    P.Name = KV.first.Scalar();
    if (!integer(KV.second, P.Name, P.Value))
      return false;
    C.Params.push_back(P);
  }
  return true;
}

bool ConfigParser::kernels(const YAML::Node &N, ConfigFile &C) {
  if (!N.IsMap())
    return fail(N, "'kernels' must map kernel names to {block, params}");
  for (const auto &KV : N) {
    std::string Kernel = KV.first.Scalar();
    if (!KV.second.IsMap())
      return fail(KV.second, "kernel '" + Kernel + "' must have block or params");
    for (const auto &Entry : KV.second) {
      std::string Key = Entry.first.Scalar();
      bool Ok = Key == "block"    ? block(Entry.second, Kernel, C)
                : Key == "params" ? params(Entry.second, Kernel, C)
                                  : fail(Entry.first,
                                         "unknown key '" + Key +
                                             "' for kernel '" + Kernel +
                                             "' (expected block, params)");
      if (!Ok)
        return false;
    }
  }
  return true;
}

bool ConfigParser::boolean(const YAML::Node &N, llvm::StringRef Key,
                           std::optional<bool> &Out) {
  std::string S;
  if (!scalar(N, Key, S))
    return false;
  if (S != "true" && S != "false")
    return fail(N, fmt::format("'{}' must be true or false, not '{}'",
                               Key.str(), S));
  Out = S == "true";
  return true;
}

bool ConfigParser::verify(const YAML::Node &N, VerifySettings &V) {
  if (!N.IsMap())
    return fail(N, "'verify' must map settings to values");
  for (const auto &KV : N) {
    std::string Key = KV.first.Scalar();
    const YAML::Node &Val = KV.second;
    int64_t I = 0;
    std::string S;
    if (Key == "tolerance") {
      double D = 0;
      if (!scalar(Val, Key, S))
        return false;
      if (llvm::StringRef(S).trim().getAsDouble(D) || D < 0 || D > 1)
        return fail(Val, "'tolerance' must be a number from 0 to 1, not '" +
                             S + "'");
      V.Tolerance = D;
    } else if (Key == "timeout" || Key == "launch-count") {
      if (!integer(Val, Key, I))
        return false;
      if (I < 0 || I > 86400)
        return fail(Val, fmt::format("'{}' must be from 0 to 86400", Key));
      (Key == "timeout" ? V.Timeout : V.LaunchCount) =
          static_cast<unsigned>(I);
    } else if (Key == "fill") {
      if (!choice(Val, Key, {"identity", "zeros", "permutation"}, V.Fill))
        return false;
    } else if (Key == "kernel") {
      std::string Why;
      if (!scalar(Val, Key, S))
        return false;
      if (!llvm::Regex(S).isValid(Why))
        return fail(Val, "invalid kernel regex '" + S + "': " + Why);
      V.Kernel = S;
    } else if (Key == "grid") {
      std::vector<YAML::Node> Dims = itemsOf(Val);
      if (Dims.empty() || Dims.size() > 3)
        return fail(Val, "'grid' must be 1 to 3 dimensions, e.g. [64, 8]");
      unsigned G[3] = {1, 1, 1};
      for (size_t D = 0; D < Dims.size(); ++D) {
        if (!integer(Dims[D], Key, I))
          return false;
        if (I < 1 || I > (int64_t(1) << 31) - 1)
          return fail(Dims[D], "grid dimensions must be positive");
        G[D] = static_cast<unsigned>(I);
      }
      V.Grid = BlockShape{G[0], G[1], G[2]};
    } else if (Key == "buffers") {
      if (!Val.IsMap())
        return fail(Val, "'buffers' must map parameter names to bytes");
      for (const auto &B : Val) {
        if (!integer(B.second, B.first.Scalar(), I))
          return false;
        if (I <= 0)
          return fail(B.second, "buffer sizes must be positive byte counts");
        V.Buffers[B.first.Scalar()] = static_cast<uint64_t>(I);
      }
    } else if (Key == "fail-on-mismatch") {
      if (!boolean(Val, Key, V.FailOnMismatch))
        return false;
    } else if (Key == "all") {
      if (!boolean(Val, Key, V.All))
        return false;
    } else {
      return fail(KV.first, "unknown key '" + Key +
                                "' in 'verify' (expected tolerance, timeout, "
                                "fill, grid, buffers, launch-count, kernel, "
                                "fail-on-mismatch, all)");
    }
  }
  return true;
}

bool ConfigParser::exclude(const YAML::Node &N, ConfigFile &C) {
  for (const YAML::Node &I : itemsOf(N)) {
    std::string Glob;
    if (!scalar(I, "exclude", Glob))
      return false;
    if (llvm::Expected<llvm::GlobPattern> G = llvm::GlobPattern::create(Glob);
        !G) {
      std::string Why = llvm::toString(G.takeError());
      return fail(I, "invalid exclude glob '" + Glob + "': " + Why);
    }
    C.Exclude.push_back(Glob);
  }
  return true;
}

bool ConfigParser::topLevel(const YAML::Node &KeyNode, const YAML::Node &V,
                            ConfigFile &C) {
  std::string Key = KeyNode.Scalar();
  if (Key == "rules")
    return rules(V, C);
  if (Key == "threshold") {
    std::string S;
    double D = 0;
    if (!scalar(V, Key, S))
      return false;
    if (llvm::StringRef(S).trim().getAsDouble(D) || D < 0)
      return fail(V, "'threshold' must be a number >= 0, not '" + S + "'");
    C.Threshold = D;
    return true;
  }
  if (Key == "min-impact") {
    std::string S;
    if (!scalar(V, Key, S))
      return false;
    llvm::Expected<MinImpact> M = parseMinImpact(S);
    if (!M)
      return fail(V, "'min-impact': " + llvm::toString(M.takeError()));
    C.MinimumImpact = *M;
    return true;
  }
  if (Key == "default-param") {
    int64_t I = 0;
    if (!integer(V, Key, I))
      return false;
    C.DefaultParam = I;
    return true;
  }
  if (Key == "timeout") {
    int64_t I = 0;
    if (!integer(V, Key, I))
      return false;
    if (I < 0 || I > 86400)
      return fail(V, "'timeout' must be 0 (no limit) to 86400 seconds");
    C.Timeout = static_cast<unsigned>(I);
    return true;
  }
  if (Key == "block")
    return block(V, "", C);
  if (Key == "params")
    return params(V, "", C);
  if (Key == "kernels")
    return kernels(V, C);
  if (Key == "header-filter") {
    std::string S, Why;
    if (!scalar(V, Key, S))
      return false;
    if (!llvm::Regex(S).isValid(Why))
      return fail(V, "invalid header-filter '" + S + "': " + Why);
    C.HeaderFilter = S;
    return true;
  }
  if (Key == "exclude")
    return exclude(V, C);
  if (Key == "format")
    return choice(V, "format", {"text", "json", "sarif", "github", "html"}, C.Format);
  if (Key == "fail-on")
    return choice(V, "fail-on", {"warning", "error", "never"}, C.FailOn);
  if (Key == "verify")
    return verify(V, C.Verify);
  return fail(KeyNode, "unknown key '" + Key +
                     "' (expected rules, threshold, min-impact, default-param, timeout, "
                     "block, params, kernels, header-filter, exclude, "
                     "format, fail-on, verify)");
}

llvm::Expected<ConfigFile> ConfigParser::parse(const YAML::Node &Root,
                                               ConfigFile C) {
  if (Root.IsNull())
    return C; // An empty file sets nothing.
  if (!Root.IsMap())
    fail(Root, "expected a mapping of keys to values");
  else
    for (const auto &KV : Root)
      if (!topLevel(KV.first, KV.second, C))
        break;
  if (Failure)
    return llvm::createStringError(std::errc::invalid_argument, "%s",
                                   Failure->c_str());
  return C;
}

} // namespace

std::string ConfigFile::directory() const {
  return llvm::sys::path::parent_path(absolutePath(Path)).str();
}

llvm::Expected<ConfigFile> parseConfigFile(llvm::StringRef Text,
                                           llvm::StringRef Path) {
  ConfigFile C;
  C.Path = Path.str();
  YAML::Node Root;
  try {
    Root = YAML::Load(Text.str());
  } catch (const YAML::Exception &E) {
    return llvm::createStringError(
        std::errc::invalid_argument, "%s:%d: %s", displayPath(Path).c_str(),
        E.mark.line + 1, E.msg.c_str());
  }
  return ConfigParser(Path).parse(Root, std::move(C));
}

llvm::Expected<ConfigFile> readConfigFile(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(Buf.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buf.getError().message().c_str());
  return parseConfigFile((*Buf)->getBuffer(), Path);
}

std::string findConfigFile(llvm::StringRef File) {
  std::string Dir = llvm::sys::path::parent_path(absolutePath(File)).str();
  while (!Dir.empty()) {
    llvm::SmallString<256> Candidate(Dir);
    llvm::sys::path::append(Candidate, ConfigFileName);
    if (llvm::sys::fs::is_regular_file(Candidate))
      return displayPath(Candidate);
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent.str();
  }
  return "";
}

} // namespace coalesce
