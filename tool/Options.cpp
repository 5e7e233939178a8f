//===- Options.cpp - Parsing the command line ------------------------------===//
#include "Options.h"

#include "coalesce/Output.h"
#include "coalesce/Rules.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <set>

namespace cl = llvm::cl;

namespace coalesce {
namespace tool {

namespace {
const char *Overview = R"(coalesce-lint: predicts how many 32-byte sectors each global-memory access of
a CUDA kernel touches per warp request, and flags uncoalesced and misaligned
accesses.

  coalesce-lint [options] FILE.cu... [-- COMPILER_ARGS]

Exit codes: 0 no findings, 1 findings, 2 usage or input error, 3 an input or a
kernel does not compile, 4 GPU verification failed or found a mismatch, 5
--self-check found memory operations the report misses (a bug in coalesce-lint).
)";

llvm::Error usageError(const llvm::Twine &Msg) {
  return llvm::createStringError(std::errc::invalid_argument, "%s",
                                 Msg.str().c_str());
}
} // namespace

llvm::Expected<BlockOverride> parseBlock(llvm::StringRef S) {
  BlockOverride B;
  auto [Head, Tail] = S.rsplit(':');
  llvm::StringRef Dims = S;
  if (!Tail.empty() && Head != S) {
    B.Kernel = Head.str();
    Dims = Tail;
  }
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Dims.split(Parts, Dims.contains('x') ? 'x' : ',');
  unsigned V[3] = {1, 1, 1};
  if (Parts.empty() || Parts.size() > 3)
    return usageError("invalid --block '" + S + "': expected [KERNEL:]X[,Y[,Z]]");
  for (size_t I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, V[I]) || V[I] == 0 || V[I] > 1024)
      return usageError("invalid --block '" + S +
                        "': dimensions must be integers from 1 to 1024");
  B.Shape = BlockShape{V[0], V[1], V[2]};
  if (B.Shape.threads() > 1024)
    return usageError("invalid --block '" + S + "': more than 1024 threads");
  return B;
}

llvm::Expected<ParamValue> parseParam(llvm::StringRef S) {
  ParamValue P;
  auto [Lhs, Value] = S.split('=');
  if (Value.empty() && !S.contains('='))
    return usageError("invalid --param '" + S + "': expected [KERNEL:]NAME=VALUE");
  auto [Kernel, Name] = Lhs.rsplit(':');
  if (!Lhs.contains(':')) {
    Name = Lhs;
    Kernel = "";
  }
  if (Name.empty() || Value.trim().getAsInteger(0, P.Value))
    return usageError("invalid --param '" + S +
                      "': expected [KERNEL:]NAME=INTEGER");
  P.Kernel = Kernel.str();
  P.Name = Name.str();
  return P;
}

llvm::Error setFormat(llvm::StringRef Name, Options &O) {
  if (Name == "text")
    O.Format = OutputFormat::Text;
  else if (Name == "json")
    O.Format = OutputFormat::Json;
  else if (Name == "sarif")
    O.Format = OutputFormat::Sarif;
  else if (Name == "github")
    O.Format = OutputFormat::Github;
  else if (Name == "html")
    O.Format = OutputFormat::Html;
  else
    return usageError("invalid --format '" + Name +
                      "': expected text, json, sarif, github or html");
  return llvm::Error::success();
}

llvm::Error setFailOn(llvm::StringRef Level, Options &O) {
  if (Level != "warning" && Level != "error" && Level != "never")
    return usageError("invalid --fail-on '" + Level +
                      "': expected warning, error or never");
  O.FailOnFindings = Level != "never";
  O.FailLevel = Level == "error" ? Severity::Error : Severity::Warning;
  return llvm::Error::success();
}

llvm::Expected<Options> parseOptions(int Argc, const char **Argv) {
  // Everything after "--" goes to the compiler.
  std::vector<const char *> ToolArgs;
  Options O;
  bool SeenDashDash = false;
  for (int I = 0; I < Argc; ++I) {
    if (!SeenDashDash && I > 0 && llvm::StringRef(Argv[I]) == "--") {
      SeenDashDash = true;
      continue;
    }
    if (SeenDashDash)
      O.Analysis.ExtraArgs.push_back(Argv[I]);
    else
      ToolArgs.push_back(Argv[I]);
  }

  // LLVM options register themselves globally and must outlive parsing.
  static cl::OptionCategory Cat("coalesce-lint options");
  static cl::OptionCategory GpuCat("GPU verification");
  static cl::list<std::string> Files(cl::Positional, cl::desc("<file.cu>..."),
                              cl::cat(Cat));
  static cl::opt<std::string> BuildDir("p", cl::desc("Build directory holding compile_commands.json"),
                                cl::value_desc("dir"), cl::cat(Cat));
  static cl::opt<std::string> Arch("arch", cl::desc("GPU architecture (default sm_90)"),
                            cl::init("sm_90"), cl::cat(Cat));
  static cl::opt<std::string> CudaPath("cuda-path",
                                cl::desc("CUDA toolkit (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)"),
                                cl::cat(Cat));
  static cl::opt<std::string> FormatOpt("format", cl::desc("Output format: text (default), json, sarif, github or html"),
                                 cl::init("text"), cl::cat(Cat));
  static cl::opt<std::string> Output("output", cl::desc("Write the report to a file"),
                              cl::value_desc("file"), cl::cat(Cat));
  static cl::alias OutputA("o", cl::aliasopt(Output), cl::desc("Alias for --output"));
  static cl::list<std::string> Blocks("block",
                               cl::desc("Block shape [KERNEL:]X[,Y[,Z]] (repeatable)"),
                               cl::cat(Cat));
  static cl::list<std::string> Params("param",
                               cl::desc("Value of a scalar parameter [KERNEL:]NAME=VALUE (repeatable)"),
                               cl::cat(Cat));
  static cl::opt<int64_t> DefaultValue("default-param",
                                cl::desc("Value assumed for parameters without --param (default 1024)"),
                                cl::init(1024), cl::cat(Cat));
  static cl::opt<unsigned> FileTimeout("timeout",
                                cl::desc("Seconds the analysis of one file may take; 0: no limit (default 120)"),
                                cl::init(120), cl::value_desc("seconds"), cl::cat(Cat));
  static cl::opt<unsigned> JobsOpt("j", cl::desc("Files analyzed at once (default: the number of cores); the output does not depend on it"),
                                cl::value_desc("N"), cl::Prefix, cl::cat(Cat));
  static cl::alias JobsA("jobs", cl::aliasopt(JobsOpt), cl::desc("Alias for -j"));
  static cl::opt<std::string> CacheDirOpt("cache-dir", cl::desc("Directory of the header cache (default: $XDG_CACHE_HOME/coalesce-lint or ~/.cache/coalesce-lint)"),
                                    cl::value_desc("dir"), cl::cat(Cat));
  static cl::opt<bool> NoHeaderCache("no-header-cache", cl::desc("Parse the CUDA headers afresh for every file instead of precompiling them once per compile configuration"),
                                cl::cat(Cat));
  static cl::opt<bool> SelfCheckOpt("self-check", cl::desc("Take a census of every memory operation in the code each kernel reaches, apart from the analysis, and report each one the report does not account for (as a prediction, an unknown or an exclusion) as an error: a bug in coalesce-lint (exit 5)"),
                                cl::cat(Cat));
  static cl::opt<std::string> ProgressOpt("progress", cl::desc("Progress bar on stderr: auto (default: on a terminal, several files), always or never"),
                                    cl::init("auto"), cl::cat(Cat));
  static cl::opt<bool> LauncherOpt("launcher", cl::desc("Compiler launcher mode: '--launcher [options] -- nvcc ARGS...' analyzes the CUDA source of the compile command, prints findings on stderr, then runs the compiler and returns its status (findings fail the build only with an explicit --fail-on)"),
                                cl::cat(Cat));
  static cl::opt<std::string> ShardOpt("shard", cl::desc("Analyze only shard K of N (K/N, 1-based) of the files, for a CI matrix; 'coalesce-lint merge' joins the reports"),
                                 cl::value_desc("K/N"), cl::cat(Cat));
  static cl::opt<double> Threshold("threshold",
                            cl::desc("Extra sectors per request above the ideal that make a finding (default 0)"),
                            cl::init(0.0), cl::cat(Cat));
  static cl::opt<std::string> MinImpactOpt("min-impact",
                            cl::desc("Report only findings that waste at least this much per launch: bytes ('4096', '512KiB', '1MiB') or a share of the kernel's predicted traffic ('5%'); findings without a per-launch figure are kept"),
                            cl::value_desc("BYTES|PERCENT"), cl::cat(Cat));
  static cl::opt<bool> Maybe("possibly-misaligned",
                        cl::desc("Report accesses misaligned only for some values of an unknown offset (rule coalesce-misaligned-offset, off by default)"),
                        cl::cat(Cat));
  static cl::opt<bool> NoMaybe("no-possibly-misaligned",
                        cl::desc("Do not report accesses that are misaligned only for some parameter values"),
                        cl::cat(Cat));
  static cl::opt<bool> NoIndirect("no-indirect", cl::desc("Do not report indirect (gather/scatter) accesses"),
                           cl::cat(Cat));
  static cl::opt<std::string> FailOn("fail-on",
                              cl::desc("Exit 1 on findings: warning (default), error (only errors) or never"),
                              cl::init("warning"), cl::cat(Cat));
  static cl::opt<bool> PrintAccesses("print-accesses",
                              cl::desc("List every access with its prediction (text format)"),
                              cl::cat(Cat));
  static cl::opt<bool> Verbose("verbose",
                              cl::desc("Text: print the suggestion after every finding, not once per rule and file"),
                              cl::cat(Cat));
  static cl::opt<bool> SummaryOpt("summary",
                              cl::desc("Text: tables of the findings per kernel and per file, costliest first, instead of each finding"),
                              cl::cat(Cat));
  static cl::opt<bool> ShowErrors("show-compile-errors",
                           cl::desc("List every compile error, not only their count"),
                           cl::cat(Cat));
  static cl::opt<std::string> ColorOpt("use-color", cl::desc("Colors in text output: auto (default), always or never"),
                                cl::init("auto"), cl::cat(Cat));
  static cl::opt<std::string> Explain("explain", cl::desc("Explain a rule and exit"),
                               cl::value_desc("rule-id"), cl::cat(Cat));
  static cl::opt<bool> ListRules("list-rules", cl::desc("List the rules and exit"), cl::cat(Cat));
  static cl::opt<std::string> RuleDocs("print-rule-docs",
                                cl::desc("Print the rule documentation generated from Rules.def for a page (readme or rules) and exit"),
                                cl::value_desc("page"), cl::Hidden, cl::cat(Cat));
  static cl::opt<std::string> ExplainAccess("explain-access",
                                      cl::desc("Analyze FILE and draw each access on LINE: a warp's lanes against the 32-byte sectors they touch"),
                                      cl::value_desc("file:line[:col]"), cl::cat(Cat));
  static cl::opt<bool> FixOpt("fix", cl::desc("Apply the fix-its (padding a shared array whose rows conflict, checked by analyzing the padded file again) to the files"),
                       cl::cat(Cat));
  static cl::opt<bool> FixDryRun("fix-dry-run", cl::desc("Print the fix-its without applying them"),
                          cl::cat(Cat));
  static cl::opt<std::string> ExportFixes("export-fixes", cl::desc("Write the fix-its to FILE as clang-tidy's YAML (clang-apply-replacements reads it)"),
                                    cl::value_desc("file"), cl::cat(Cat));
  static cl::opt<std::string> ConfigOpt("config", cl::desc("Configuration file (default: the nearest .coalesce-lint.yaml above each input)"),
                                  cl::value_desc("file"), cl::cat(Cat));
  static cl::opt<std::string> BaselineOpt("baseline", cl::desc("Report only findings not in this baseline file"),
                                    cl::value_desc("file"), cl::cat(Cat));
  static cl::opt<std::string> WriteBaseline("write-baseline", cl::desc("Record today's findings in a baseline file"),
                                      cl::value_desc("file"), cl::cat(Cat));
  static cl::opt<std::string> DiffBaseOpt("diff-base", cl::desc("Report only findings on lines changed since this git revision (a pull request's base)"),
                                    cl::value_desc("rev"), cl::cat(Cat));
  static cl::opt<std::string> DiffOpt("diff", cl::desc("Report only findings on lines this unified diff adds or modifies ('-': stdin)"),
                                cl::value_desc("file"), cl::cat(Cat));
  static cl::opt<bool> ListUnused("list-unused-suppressions",
                           cl::desc("List suppression comments that suppressed nothing"), cl::cat(Cat));
  static cl::opt<std::string> HeaderFilter("header-filter",
                                     cl::desc("Report findings in non-input files only when their path matches this regex"),
                                     cl::value_desc("regex"), cl::cat(Cat));
  static cl::opt<bool> Verify("verify-on-gpu",
                       cl::desc("Run flagged kernels on the GPU and compare measured sectors/request"),
                       cl::cat(GpuCat));
  static cl::opt<bool> VerifyAll("verify-all", cl::desc("Verify every kernel, not only those with findings"),
                          cl::cat(GpuCat));
  static cl::opt<std::string> EmitHarness("emit-harness",
                                   cl::desc("Write the verification harness to a directory (no GPU needed)"),
                                   cl::value_desc("dir"), cl::cat(GpuCat));
  static cl::opt<std::string> EmitManifest("emit-manifest",
                                   cl::desc("Write the predicted accesses of every kernel to a manifest for coalesce-verify --app (no GPU needed)"),
                                   cl::value_desc("file"), cl::cat(GpuCat));
  static cl::opt<std::string> RunCmd("run",
                              cl::desc("With --verify-on-gpu: profile this application command line (built with -lineinfo) instead of a harness"),
                              cl::value_desc("'CMD ARGS'"), cl::cat(GpuCat));
  static cl::opt<unsigned> LaunchCount("launch-count",
                                cl::desc("With --run: profile the first N kernel launches (default: the first launch of every kernel)"),
                                cl::init(0), cl::cat(GpuCat));
  static cl::opt<std::string> KernelRegex("kernel",
                                   cl::desc("With --run: profile only kernels whose name matches"),
                                   cl::value_desc("regex"), cl::cat(GpuCat));
  static cl::list<std::string> Buffers("buffer", cl::desc("Bytes to allocate for a pointer parameter NAME=BYTES"),
                                cl::cat(GpuCat));
  static cl::opt<std::string> GridOpt("grid", cl::desc("Grid of every harness launch X[,Y[,Z]] (default: the file's launch, else 64 blocks)"),
                                     cl::cat(GpuCat));
  static cl::opt<std::string> Fill("fill", cl::desc("Buffer contents: identity (default), zeros, permutation"),
                            cl::init("identity"), cl::cat(GpuCat));
  static cl::opt<double> Tolerance("tolerance", cl::desc("Relative tolerance of a confirmed prediction (default 0.05)"),
                            cl::init(0.05), cl::cat(GpuCat));
  static cl::opt<unsigned> Timeout("verify-timeout", cl::desc("Seconds a kernel may run (default 30)"),
                            cl::init(30), cl::cat(GpuCat));
  static cl::opt<bool> FailOnMismatch("fail-on-mismatch", cl::desc("Exit 4 when a measurement contradicts a prediction"),
                               cl::cat(GpuCat));
  static cl::opt<std::string> VerifyExe("verify-exe", cl::desc("Path of coalesce-verify (default: next to coalesce-lint)"),
                                 cl::cat(GpuCat));

  cl::HideUnrelatedOptions({&Cat, &GpuCat});
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "coalesce-lint " << toolVersion() << " (LLVM/Clang 22)\n";
  });
  std::string Errors;
  llvm::raw_string_ostream ErrOS(Errors);
  // --help and --version exit inside the parser; that is what users expect.
  if (!cl::ParseCommandLineOptions(static_cast<int>(ToolArgs.size()),
                                   ToolArgs.data(), Overview, &ErrOS))
    return usageError(llvm::StringRef(ErrOS.str()).trim());

  if (!Explain.empty()) {
    O.Action = RunAction::Explain;
    O.ExplainRule = Explain;
    return O;
  }
  if (ListRules) {
    O.Action = RunAction::ListRules;
    return O;
  }
  if (!RuleDocs.empty()) {
    if (RuleDocs != "readme" && RuleDocs != "rules")
      return usageError("--print-rule-docs takes 'readme' or 'rules'");
    O.Action = RunAction::PrintRuleDocs;
    O.RuleDocsPage = RuleDocs;
    return O;
  }
  if (LauncherOpt) {
    O.Launcher = true;
    if (O.Analysis.ExtraArgs.empty())
      return usageError("--launcher needs the compile command after '--' "
                        "(coalesce-lint --launcher -- nvcc ARGS...)");
    if (!Files.empty())
      return usageError("--launcher takes its input from the compile command, "
                        "not from file arguments");
  } else if (Files.empty() && BuildDir.empty() && ExplainAccess.empty())
    return usageError("no input files (give files, or -p DIR to analyze every "
                      "CUDA file of DIR/compile_commands.json)");

  AnalysisConfig &A = O.Analysis;
  A.Files.assign(Files.begin(), Files.end());
  if (!ExplainAccess.empty()) {
    llvm::Expected<AccessQuery> Q = parseAccessQuery(ExplainAccess);
    if (!Q)
      return Q.takeError();
    O.ExplainAccess = ExplainAccess;
    if (std::find(A.Files.begin(), A.Files.end(), Q->File) == A.Files.end())
      A.Files.push_back(Q->File);
  }
  O.Fix = FixOpt;
  O.FixDryRun = FixDryRun;
  O.ExportFixes = ExportFixes;
  A.BuildDir = BuildDir;
  A.Arch = Arch;
  O.ArchGiven = Arch.getNumOccurrences() > 0;
  if (!llvm::StringRef(A.Arch).starts_with("sm_"))
    return usageError("invalid --arch '" + Arch + "': expected sm_XX");
  A.CudaPath = CudaPath;
  A.DefaultValue = DefaultValue;
  A.TimeoutSeconds = FileTimeout;
  A.SelfCheck = SelfCheckOpt;
  A.Jobs = JobsOpt;
  if (!NoHeaderCache) {
    llvm::SmallString<256> Dir(CacheDirOpt);
    if (Dir.empty() && llvm::sys::path::cache_directory(Dir))
      llvm::sys::path::append(Dir, "coalesce-lint");
    A.HeaderCacheDir = Dir.str().str();
  }
  if (ProgressOpt != "auto" && ProgressOpt != "always" && ProgressOpt != "never")
    return usageError("invalid --progress '" + ProgressOpt + "': expected auto, always or never");
  O.Progress = ProgressOpt == "always" ||
               (ProgressOpt == "auto" && llvm::sys::Process::StandardErrIsDisplayed());
  if (!ShardOpt.empty()) {
    auto [K, N] = llvm::StringRef(ShardOpt).split('/');
    if (K.getAsInteger(10, O.Shard.Index) || N.getAsInteger(10, O.Shard.Count) ||
        O.Shard.Count == 0 || O.Shard.Index == 0 || O.Shard.Index > O.Shard.Count)
      return usageError("invalid --shard '" + ShardOpt + "': expected K/N with 1 <= K <= N");
  }
  for (const std::string &B : Blocks) {
    llvm::Expected<BlockOverride> P = parseBlock(B);
    if (!P)
      return P.takeError();
    A.Blocks.push_back(*P);
  }
  for (const std::string &S : Params) {
    llvm::Expected<ParamValue> P = parseParam(S);
    if (!P)
      return P.takeError();
    A.Params.push_back(*P);
  }

  if (llvm::Error E = setFormat(FormatOpt, O))
    return std::move(E);
  O.OutputFile = Output;
  if (Threshold < 0)
    return usageError("--threshold must not be negative");
  O.Findings.Threshold = Threshold;
  if (!MinImpactOpt.empty()) {
    llvm::Expected<MinImpact> M = parseMinImpact(MinImpactOpt);
    if (!M)
      return usageError("--min-impact: " + llvm::toString(M.takeError()));
    O.Findings.MinimumImpact = *M;
  }
  O.Findings.ReportPossiblyMisaligned = !NoMaybe;
  O.Findings.EnablePossiblyMisaligned = Maybe;
  O.Findings.ReportIndirect = !NoIndirect;
  if (llvm::Error E = setFailOn(FailOn, O))
    return std::move(E);
  O.ConfigFile = ConfigOpt;
  O.BaselineFile = BaselineOpt;
  O.WriteBaselineFile = WriteBaseline;
  O.DiffBase = DiffBaseOpt;
  O.DiffFile = DiffOpt;
  if (!O.DiffBase.empty() && !O.DiffFile.empty())
    return usageError("--diff-base and --diff are exclusive");
  O.ListUnusedSuppressions = ListUnused;
  if (HeaderFilter.getNumOccurrences()) {
    std::string Why;
    if (!llvm::Regex(HeaderFilter).isValid(Why))
      return usageError("invalid --header-filter '" + HeaderFilter + "': " + Why);
    O.HeaderFilter = HeaderFilter;
  }
  // What the command line sets overrides configuration files.
  for (cl::Option *Opt : std::initializer_list<cl::Option *>{
           &FormatOpt, &FailOn, &Threshold, &MinImpactOpt, &DefaultValue, &HeaderFilter,
           &Output, &FileTimeout, &VerifyAll, &LaunchCount, &KernelRegex,
           std::addressof(Buffers), &GridOpt, &Fill, &Tolerance, &Timeout, &FailOnMismatch})
    if (Opt->getNumOccurrences())
      O.Given.insert(Opt->ArgStr.str());
  O.PrintAccesses = PrintAccesses;
  O.ShowAllErrors = ShowErrors;
  O.Verbose = Verbose;
  O.Summary = SummaryOpt;
  if (ColorOpt == "always")
    O.Color = true;
  else if (ColorOpt == "auto")
    O.Color = llvm::sys::Process::StandardOutIsDisplayed();
  else if (ColorOpt != "never")
    return usageError("invalid --use-color '" + ColorOpt + "': expected auto, always or never");

  O.VerifyOnGpu = Verify;
  O.VerifyAll = VerifyAll;
  O.HarnessDir = EmitHarness;
  O.ManifestFile = EmitManifest;
  O.AppCommand = RunCmd;
  O.LaunchCount = LaunchCount;
  O.KernelRegex = KernelRegex;
  if (!O.AppCommand.empty() && !O.VerifyOnGpu)
    return usageError("--run needs --verify-on-gpu");
  O.FailOnMismatch = FailOnMismatch;
  O.Tolerance = Tolerance;
  O.VerifyTimeout = Timeout;
  O.VerifyExe = VerifyExe;
  if (Fill != "identity" && Fill != "zeros" && Fill != "permutation")
    return usageError("invalid --fill '" + Fill + "': expected identity, zeros or permutation");
  O.Fill = Fill;
  if (!GridOpt.empty()) {
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    llvm::StringRef(GridOpt).split(Parts, ',');
    unsigned V[3] = {1, 1, 1};
    if (Parts.size() > 3)
      return usageError("invalid --grid '" + GridOpt + "': expected X[,Y[,Z]]");
    for (size_t I = 0; I < Parts.size(); ++I)
      if (Parts[I].trim().getAsInteger(10, V[I]) || V[I] == 0)
        return usageError("invalid --grid '" + GridOpt +
                          "': dimensions must be positive integers");
    O.Grid = BlockShape{V[0], V[1], V[2]};
  }
  for (const std::string &B : Buffers) {
    auto [Name, Bytes] = llvm::StringRef(B).split('=');
    uint64_t N = 0;
    if (Name.empty() || Bytes.getAsInteger(0, N) || N == 0)
      return usageError("invalid --buffer '" + B + "': expected NAME=BYTES");
    O.Buffers[Name.str()] = N;
  }
  return O;
}

void applyVerifySettings(const VerifySettings &V, Options &O) {
  auto Unset = [&](const char *Name) { return !O.Given.count(Name); };
  if (V.Tolerance && Unset("tolerance"))
    O.Tolerance = *V.Tolerance;
  if (V.Timeout && Unset("verify-timeout"))
    O.VerifyTimeout = *V.Timeout;
  if (V.Fill && Unset("fill"))
    O.Fill = *V.Fill;
  if (V.Grid && Unset("grid"))
    O.Grid = *V.Grid;
  if (Unset("buffer"))
    for (const auto &[Name, Bytes] : V.Buffers)
      O.Buffers[Name] = Bytes;
  if (V.LaunchCount && Unset("launch-count"))
    O.LaunchCount = *V.LaunchCount;
  if (V.Kernel && Unset("kernel"))
    O.KernelRegex = *V.Kernel;
  if (V.FailOnMismatch && Unset("fail-on-mismatch"))
    O.FailOnMismatch = *V.FailOnMismatch;
  if (V.All && Unset("verify-all"))
    O.VerifyAll = *V.All;
}

int explainRule(llvm::StringRef Id, llvm::raw_ostream &OS) {
  const RuleInfo *R = findRule(Id);
  if (!R) {
    llvm::errs() << "coalesce-lint: error: unknown rule '" << Id
                 << "' (see --list-rules)\n";
    return ExitUsage;
  }
  OS << R->Id << ": " << R->Summary << "\n\n"
     << R->Description << "\n\n  bad:  " << R->Bad << "\n  good: " << R->Good
     << "\n";
  return ExitClean;
}

int listRules(llvm::raw_ostream &OS) {
  for (const RuleInfo &R : allRules())
    OS << fmt::format("{:<28} {}\n", R.Id, R.Summary);
  return ExitClean;
}

void warnUnmatchedKernels(const Report &R, const Options &O,
                          llvm::raw_ostream &OS) {
  std::set<std::string> Named;
  for (const BlockOverride &B : O.Analysis.Blocks)
    if (!B.Kernel.empty())
      Named.insert(B.Kernel);
  for (const ParamValue &P : O.Analysis.Params)
    if (!P.Kernel.empty())
      Named.insert(P.Kernel);
  for (const KernelRecord &K : R.Kernels)
    Named.erase(K.Name);
  for (const std::string &N : Named)
    OS << "coalesce-lint: warning: no kernel named '" << N
       << "' in the input; its --block/--param options are unused\n";
}

int exitCode(const Report &R, unsigned Findings, const Options &O) {
  for (const FileResult &F : R.Files)
    if (F.InputError)
      return ExitUsage;
  for (const FileResult &F : R.Files) {
    // Crashed or ran out of time: the file's results are incomplete.
    if (F.Crashed || F.TimedOut)
      return ExitCompile;
    if (!F.Analyzed)
      return ExitCompile;
    for (const CompileError &E : F.Errors)
      if (E.InKernel)
        return ExitCompile;
    // Errors and nothing analyzed: the file is not CUDA we can read.
    if (!F.Errors.empty() && F.KernelsAnalyzed == 0)
      return ExitCompile;
  }
  if (Findings > 0 && O.FailOnFindings)
    return ExitFindings;
  return ExitClean;
}

} // namespace tool
} // namespace coalesce
