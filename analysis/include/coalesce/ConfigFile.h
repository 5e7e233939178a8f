//===- ConfigFile.h - .coalesce-lint.yaml -----------------------*- C++ -*-===//
///
/// \file
/// A team's settings, committed next to the code: the nearest
/// .coalesce-lint.yaml above each input file (or --config FILE). Every key
/// is optional; the command line overrides what a file sets.
///
///   rules:                       # rule id or glob -> on/off/severity
///     coalesce-indirect: off
///     coalesce-stride: error
///     coalesce-misaligned: {enabled: true, severity: note}
///   threshold: 0.5               # extra sectors per request for a finding
///   min-impact: 1MiB             # or '5%': least excess per launch
///   default-param: 4096          # value of parameters without a value
///   block: [256]                 # block shape of every kernel
///   params: {N: 1024}            # parameter values of every kernel
///   kernels:                     # per kernel: block and params
///     transpose: {block: [32, 8], params: {width: 2048}}
///   header-filter: '^include/'   # findings in headers: only these
///   exclude: ['third_party/*']   # skipped paths, relative to this file
///   format: sarif                # text, json, sarif, github, html
///   fail-on: error               # warning, error, never
///
/// Unknown keys and bad values are errors naming the file and the line
/// (".coalesce-lint.yaml:3: unknown key 'rulez'").
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_CONFIGFILE_H
#define COALESCE_CONFIGFILE_H

#include "coalesce/Config.h"
#include "coalesce/Policy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

/// The name looked for in the directories above each input file.
constexpr const char *ConfigFileName = ".coalesce-lint.yaml";

/// The `verify:` section: GPU verification settings, as the options of the
/// same names (--tolerance, --verify-timeout, --fill, --grid, --buffer,
/// --launch-count, --kernel, --fail-on-mismatch, --verify-all).
struct VerifySettings {
  std::optional<double> Tolerance;
  std::optional<unsigned> Timeout;
  std::optional<std::string> Fill;
  std::optional<BlockShape> Grid;
  std::map<std::string, uint64_t> Buffers;
  std::optional<unsigned> LaunchCount;
  std::optional<std::string> Kernel;
  std::optional<bool> FailOnMismatch;
  std::optional<bool> All;
};

/// What one configuration file sets; unset fields leave the defaults.
struct ConfigFile {
  std::string Path; ///< Where it was read from (empty: no file).
  std::vector<RuleSetting> Rules;
  std::optional<double> Threshold;
  std::optional<MinImpact> MinimumImpact; ///< min-impact (--min-impact).
  std::optional<int64_t> DefaultParam;
  std::optional<unsigned> Timeout; ///< Seconds per file (--timeout).
  std::vector<BlockOverride> Blocks;
  std::vector<ParamValue> Params;
  std::optional<std::string> HeaderFilter;
  std::vector<std::string> Exclude;
  std::optional<std::string> Format; ///< text, json, sarif, github, html.
  std::optional<std::string> FailOn; ///< "warning", "error", "never".
  VerifySettings Verify;

  /// The directory exclude globs are relative to.
  std::string directory() const;
};

/// Parses the YAML text \p Text of the file \p Path.
llvm::Expected<ConfigFile> parseConfigFile(llvm::StringRef Text,
                                           llvm::StringRef Path);

/// Reads and parses \p Path.
llvm::Expected<ConfigFile> readConfigFile(llvm::StringRef Path);

/// The nearest .coalesce-lint.yaml in the directory of \p File or above it,
/// or "" when there is none.
std::string findConfigFile(llvm::StringRef File);

/// The analysis options for files under \p C: \p CommandLine with C's block
/// shapes and parameter values placed before the command line's (so those
/// win in the same scope), C's default-param unless \p DefaultGiven, and
/// C's timeout unless \p TimeoutGiven.
AnalysisConfig applyConfig(const ConfigFile &C,
                           const AnalysisConfig &CommandLine,
                           bool DefaultGiven, bool TimeoutGiven = false);

/// The finding policy of files under \p C: C's rules, threshold (unless
/// \p ThresholdGiven), header filter (unless \p HeaderFilter is given on
/// the command line), least impact (unless \p MinImpactGiven) and excluded
/// paths.
FindingPolicy policyOf(const ConfigFile &C, const FindingOptions &CommandLine,
                       bool ThresholdGiven,
                       const std::optional<std::string> &HeaderFilter,
                       bool MinImpactGiven = false);

/// The configuration of each file of a run, each file read once.
class ConfigSet {
public:
  /// \p Explicit: --config, used for every file; empty: the nearest
  /// .coalesce-lint.yaml above each file.
  explicit ConfigSet(std::string Explicit = "") : Explicit(std::move(Explicit)) {}

  /// The configuration for \p File (an empty one when none is found), or
  /// the error of reading or parsing it.
  llvm::Expected<const ConfigFile &> forFile(llvm::StringRef File);

private:
  std::string Explicit;
  /// By configuration path ("" for none).
  std::map<std::string, std::unique_ptr<ConfigFile>> Loaded;
  /// Directory -> configuration path, for files already looked up.
  std::map<std::string, std::string> PathOfDir;
};

} // namespace coalesce

#endif // COALESCE_CONFIGFILE_H
