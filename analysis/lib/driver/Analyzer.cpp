//===- Analyzer.cpp - Run the pipeline over the inputs --------------------===//
//
// For each input: build the device-only clang command line (from the
// compilation database when there is one, nvcc flags translated), hand it
// to the frontend (frontend/ParseFile.h) on a pool of isolated workers with
// the precompiled CUDA headers of its configuration, predict every access
// of every kernel walked (PredictionScheduler), and merge the launches
// found across files.
//
//===----------------------------------------------------------------------===//
#include "coalesce/Analyzer.h"

#include "HeaderCache.h"
#include "Isolation.h"
#include "PredictionScheduler.h"
#include "coalesce/CompileFlags.h"
#include "coalesce/KernelPrediction.h"
#include "frontend/ParseFile.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "clang/Lex/Lexer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <optional>

using namespace clang;

namespace coalesce {
namespace {

using frontend::FileAnalysis;
using frontend::FileJob;
using frontend::parseFile;


/// The compilation database to use: -p, else the nearest
/// compile_commands.json above the first file. Loaded as plain JSON, without
/// LibTooling's interpolation for files it does not list: a command guessed
/// from another file's nvcc line mangles nvcc's options.
std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(const AnalysisConfig &Config, std::string &Error) {
  auto Load = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, "compile_commands.json");
    return tooling::JSONCompilationDatabase::loadFromFile(
        Path, Error, tooling::JSONCommandLineSyntax::AutoDetect);
  };
  if (!Config.BuildDir.empty())
    return Load(Config.BuildDir);
  if (Config.Files.empty())
    return nullptr;
  llvm::SmallString<256> Dir(Config.Files.front());
  llvm::sys::fs::make_absolute(Dir);
  for (llvm::StringRef D = llvm::sys::path::parent_path(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Path(D);
    llvm::sys::path::append(Path, "compile_commands.json");
    if (llvm::sys::fs::exists(Path))
      return Load(D);
  }
  return nullptr;
}



/// The compile command of \p Path: from the database when it lists the
/// file (response files expanded, nvcc flags translated), plus the
/// device-only flags and "--" args. An error: a response file of the
/// database's command cannot be read.
llvm::Expected<FileJob> planFile(const AnalysisConfig &Config,
                                 const std::string &Cuda,
                                 const std::string &HostInclude,
                                 const tooling::CompilationDatabase *DB,
                                 const std::string &Path) {
  FileJob Job;
  Job.Path = Path;
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  Job.Abs = Abs.str().str();
  // Without a database, clang sees the path as the user spelled it, so
  // diagnostics name it the same way.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  Job.Directory = Cwd.str().str();
  Job.Input = Path;
  std::string Arch = Config.Arch.empty() ? "sm_90" : Config.Arch;
  std::vector<std::string> DbArgs;
  if (DB) {
    std::vector<tooling::CompileCommand> Cmds = DB->getCompileCommands(Abs);
    if (!Cmds.empty() && Cmds.front().CommandLine.size() > 1) {
      std::vector<std::string> Argv(Cmds.front().CommandLine.begin() + 1,
                                    Cmds.front().CommandLine.end());
      llvm::Expected<TranslatedFlags> T =
          translateCompileCommandIn(Argv, Cmds.front().Directory);
      if (!T)
        return T.takeError();
      DbArgs = std::move(T->Args);
      if (!T->Arch.empty() && Config.Arch == "sm_90")
        Arch = T->Arch;
      Job.Directory = Cmds.front().Directory;
      Job.Input = Job.Abs;
    }
  }
  Job.Args = cudaDeviceParseArgs(Cuda, Arch, HostInclude);
  Job.Args.insert(Job.Args.end(), DbArgs.begin(), DbArgs.end());
  Job.Args.insert(Job.Args.end(), Config.ExtraArgs.begin(),
                  Config.ExtraArgs.end());
  Job.Args.push_back("-w"); // The user's warnings are not this tool's output.
  // Errors outside kernels (host code CUDA 13 rejects) must not end the
  // parse before the kernels after them: clang stops at 20 by default.
  Job.Args.push_back("-ferror-limit=0");
  Job.Args.push_back("-fno-caret-diagnostics"); // No "N errors generated".
  return Job;
}

/// parseFile(), with the precompiled headers when the job has them; when
/// clang rejects them (a header changed since), they are dropped from the
/// cache and the file is parsed again without.
void analyzeFile(const FileJob &Job, const AnalysisConfig &Config,
                 FileAnalysis &Result) {
  parseFile(Job, Config, Result);
  if (Job.Pch.empty() ||
      llvm::none_of(Result.File.Errors, [](const CompileError &E) {
        return driver::rejectsPch(E.Message);
      }))
    return;
  llvm::sys::fs::remove(Job.Pch);
  FileJob Plain = Job;
  Plain.Pch.clear();
  Result = FileAnalysis();
  parseFile(Plain, Config, Result);
}

/// Why \p Path cannot be analyzed (missing, a directory, unreadable), or
/// nullopt when it can be opened.
std::optional<std::string> unreadableInput(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status))
    return fmt::format("no such file: '{}'", Path);
  if (llvm::sys::fs::is_directory(Status))
    return fmt::format("'{}' is a directory, not a source file", Path);
  llvm::Expected<llvm::sys::fs::file_t> F =
      llvm::sys::fs::openNativeFileForRead(Path);
  if (!F)
    return fmt::format("cannot read '{}': {}", Path,
                       llvm::toString(F.takeError()));
  llvm::sys::fs::closeFile(*F);
  return std::nullopt;
}

/// The message of a file (or a kernel's prediction) that did not finish.
std::string isolationFailure(IsolatedOutcome How,
                             const AnalysisConfig &Config) {
  if (How == IsolatedOutcome::TimedOut)
    return fmt::format("analysis stopped: it exceeded the time budget of {} "
                       "s per file (--timeout)",
                       Config.TimeoutSeconds);
  return "coalesce-lint crashed while analyzing this file; the other files "
         "are not affected (please report this input)";
}

/// Calls \p Body(0 .. Count-1) on up to Config.Jobs threads and waits for
/// all. Each call is expected to isolate its own work (IsolatedWorkers).
void forEachInParallel(const AnalysisConfig &Config, size_t Count,
                       const std::function<void(size_t)> &Body) {
  unsigned Threads = std::min<size_t>(threadsOf(Config), Count);
  if (Threads <= 1) {
    for (size_t I = 0; I < Count; ++I)
      Body(I);
    return;
  }
  llvm::StdThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (size_t I = 0; I < Count; ++I)
    Pool.async([&Body, I] { Body(I); });
  Pool.wait();
}

/// Tells Config.OnProgress how far a stage got; safe to call from the
/// threads of forEachInParallel. Steps made before the total is known
/// (kernels predicted while their file is still walked) are reported with
/// it.
class ProgressCounter {
public:
  ProgressCounter(const AnalysisConfig &Config, const char *Stage,
                  std::optional<size_t> Total)
      : Config(Config), Stage(Stage), Total(Total) {}
  void step() {
    std::lock_guard<std::mutex> Lock(M);
    ++Done;
    report();
  }
  void setTotal(size_t N) {
    std::lock_guard<std::mutex> Lock(M);
    Total = N;
    if (Done)
      report();
  }

private:
  void report() {
    if (Config.OnProgress && Total)
      Config.OnProgress(
          AnalysisProgress{Stage, std::min(Done, *Total), *Total});
  }

  const AnalysisConfig &Config;
  const char *Stage;
  std::optional<size_t> Total;
  size_t Done = 0;
  std::mutex M;
};

/// Gives every job the precompiled CUDA headers of its compile
/// configuration, building each missing one once (in parallel, isolated
/// like a file); a configuration whose headers cannot be precompiled parses
/// as before.
void useHeaderCache(const AnalysisConfig &Config,
                    const std::vector<std::optional<std::string>> &Skip,
                    std::vector<FileJob> &Jobs, IsolatedWorkers &Workers) {
  std::map<std::string, std::vector<size_t>> JobsOf; // PCH path -> jobs
  std::vector<driver::HeaderPch> Entries;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (Skip[I])
      continue;
    driver::HeaderPch P = driver::headerPchFor(
        Config.HeaderCacheDir, Jobs[I].Args, Jobs[I].Directory);
    std::vector<size_t> &Of = JobsOf[P.Path];
    if (Of.empty())
      Entries.push_back(P);
    Of.push_back(I);
  }
  std::vector<char> Built(Entries.size(), 0);
  forEachInParallel(Config, Entries.size(), [&](size_t E) {
    const std::vector<size_t> &Users = JobsOf[Entries[E].Path];
    // Building costs about 1.3 parses: worth it when it is used again, by
    // another file of this run or by a later run of a configuration seen
    // before (a developer linting one file again and again).
    if (Users.size() < 2 && !Config.HeaderCacheBuildAlways &&
        !llvm::sys::fs::exists(Entries[E].Path) &&
        !driver::seenBefore(Entries[E]))
      return;
    const FileJob &First = Jobs[Users.front()];
    auto Ok = std::make_shared<bool>(false);
    IsolatedOutcome How = Workers.run(
        [Pch = Entries[E], Args = First.Args, Dir = First.Directory, Ok] {
          *Ok = driver::ensureHeaderPch(Pch, Args, Dir);
        },
        timeoutOf(Config));
    Built[E] = How == IsolatedOutcome::Finished && *Ok;
  });
  for (size_t E = 0; E < Entries.size(); ++E)
    if (Built[E])
      for (size_t I : JobsOf[Entries[E].Path])
        Jobs[I].Pch = Entries[E].Path;
  driver::pruneHeaderCache(Config.HeaderCacheDir);
}

} // namespace

llvm::Expected<Report> analyze(const AnalysisConfig &Config) {
  llvm::Expected<std::string> Cuda = findCudaInstallation(Config.CudaPath);
  if (!Cuda)
    return Cuda.takeError();

  std::string DBError;
  std::unique_ptr<tooling::CompilationDatabase> DB = loadDatabase(Config, DBError);
  if (!Config.BuildDir.empty() && !DB)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot load compile_commands.json from "
                                   "'%s': %s",
                                   Config.BuildDir.c_str(), DBError.c_str());

  // Plan every file first (the database is read on this thread only), then
  // parse and walk the files on Config.Jobs threads, each into its own slot:
  // the report does not depend on the order the files finish in.
  const size_t NumFiles = Config.Files.size();
  const std::string HostInclude = hostCompilerIncludeDir();
  std::vector<std::optional<std::string>> InputErrors(NumFiles);
  std::vector<FileJob> Jobs(NumFiles);
  for (size_t I = 0; I < NumFiles; ++I) {
    // An input that cannot be read, or whose compile command cannot be
    // (a missing response file), is an input error of its own; the other
    // files are still analyzed.
    InputErrors[I] = unreadableInput(Config.Files[I]);
    if (InputErrors[I])
      continue;
    llvm::Expected<FileJob> Job =
        planFile(Config, *Cuda, HostInclude, DB.get(), Config.Files[I]);
    if (Job)
      Jobs[I] = std::move(*Job);
    else
      InputErrors[I] =
          fmt::format("compile_commands.json entry of '{}': {}",
                      Config.Files[I], llvm::toString(Job.takeError()));
  }
  // Every piece of isolated work of the run (a header build, a file, a
  // kernel's plan or chunk) runs on these threads, reused.
  auto Workers = std::make_shared<IsolatedWorkers>();
  if (!Config.HeaderCacheDir.empty())
    useHeaderCache(Config, InputErrors, Jobs, *Workers);
  // The kernels' distinct predictions are made on a pool, a large kernel's
  // split into chunks (PredictionScheduler). In a run on one file every
  // launch is known once its host code is read: each kernel is handed over
  // as soon as it is walked, and predicted beside the walk of the next.
  ProgressCounter Kernels(Config, "predicting", std::nullopt);
  auto Scheduler = std::make_shared<PredictionScheduler>(
      Config, Workers, [&Kernels] { Kernels.step(); });
  if (NumFiles == 1 && !InputErrors[0] && threadsOf(Config) > 1)
    Jobs[0].PredictEarly = [Scheduler](const KernelRecord &K,
                                       std::vector<LaunchSite> Launches) {
      return Scheduler->start(K, std::move(Launches));
    };
  std::vector<std::shared_ptr<FileAnalysis>> Results(NumFiles);
  std::vector<IsolatedOutcome> Outcomes(NumFiles, IsolatedOutcome::Finished);
  ProgressCounter Parsed(Config, "parsing", NumFiles);
  forEachInParallel(Config, NumFiles, [&](size_t I) {
    if (!InputErrors[I]) {
      // The worker owns its inputs and outputs: when it runs out of time it
      // is left running, and must not touch anything this function frees.
      auto Result = std::make_shared<FileAnalysis>();
      Outcomes[I] = Workers->run(
          [Job = Jobs[I], Config, Result] {
            analyzeFile(Job, Config, *Result);
          },
          timeoutOf(Config));
      Results[I] = std::move(Result);
    }
    Parsed.step();
  });

  Report Out;
  std::map<std::string, std::vector<LaunchSite>> ProjectLaunches;
  // Per kernel of Out.Kernels: the number its predictions got, when they
  // were started while its file was walked.
  std::vector<std::optional<size_t>> Started;
  for (size_t I = 0; I < NumFiles; ++I) {
    const std::string &Path = Config.Files[I];
    FileResult File;
    File.File = Path;
    if (InputErrors[I]) {
      File.FatalError = *InputErrors[I];
      File.InputError = true;
      Out.Files.push_back(std::move(File));
      continue;
    }
    if (Outcomes[I] != IsolatedOutcome::Finished) {
      File.FatalError = isolationFailure(Outcomes[I], Config);
      File.TimedOut = Outcomes[I] == IsolatedOutcome::TimedOut;
      File.Crashed = Outcomes[I] == IsolatedOutcome::Crashed;
      Out.Files.push_back(std::move(File));
      continue;
    }
    FileAnalysis &Result = *Results[I];
    Out.Files.push_back(std::move(Result.File));
    bool Early = Result.Predicting.size() == Result.Kernels.size() &&
                 llvm::none_of(Result.Predicting,
                               [](size_t N) { return N == SIZE_MAX; });
    for (size_t K = 0; K < Result.Kernels.size(); ++K) {
      Out.Kernels.push_back(std::move(Result.Kernels[K]));
      Started.push_back(Early ? std::optional<size_t>(Result.Predicting[K])
                              : std::nullopt);
    }
    for (auto &[Key, Sites] : Result.Launches) {
      std::vector<LaunchSite> &All = ProjectLaunches[Key];
      All.insert(All.end(), Sites.begin(), Sites.end());
    }
  }
  // Every file is parsed: a kernel launched only in another translation
  // unit (declared in a header) gets that launch's shape and values.
  Kernels.setTotal(Out.Kernels.size());
  std::vector<size_t> Number(Out.Kernels.size());
  for (size_t I = 0; I < Out.Kernels.size(); ++I) {
    if (Started[I]) {
      Number[I] = *Started[I];
      continue;
    }
    auto It = ProjectLaunches.find(Out.Kernels[I].Key);
    Number[I] = Scheduler->start(Out.Kernels[I],
                                 It == ProjectLaunches.end()
                                     ? std::vector<LaunchSite>()
                                     : It->second);
  }
  std::vector<PredictionScheduler::Outcome> Predicted = Scheduler->finish();
  for (size_t I = 0; I < Out.Kernels.size(); ++I) {
    PredictionScheduler::Outcome &P = Predicted[Number[I]];
    IsolatedOutcome How = P.How;
    if (How == IsolatedOutcome::Finished) {
      Out.Kernels[I] = std::move(P.Kernel);
      continue;
    }
    // The walk is kept; only the numbers are missing.
    KernelRecord &K = Out.Kernels[I];
    for (AccessRecord &A : K.Accesses) {
      A.Predicted = Prediction();
      A.Predicted.Reason = isolationFailure(How, Config);
    }
    for (FileResult &F : Out.Files)
      if (F.File == K.Loc.File)
        (How == IsolatedOutcome::TimedOut ? F.TimedOut : F.Crashed) = true;
  }
  // Accesses in kernels are attributed to the file given on the command line.
  Out.sort();
  return Out;
}

llvm::Expected<std::vector<std::string>>
cudaFilesOfDatabase(const std::string &BuildDir) {
  AnalysisConfig C;
  C.BuildDir = BuildDir;
  std::string Error;
  std::unique_ptr<tooling::CompilationDatabase> DB = loadDatabase(C, Error);
  if (!DB)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot load compile_commands.json from "
                                   "'%s': %s",
                                   BuildDir.c_str(), Error.c_str());
  std::set<std::string> Files;
  for (const tooling::CompileCommand &Cmd : DB->getAllCompileCommands()) {
    llvm::SmallString<256> Path(Cmd.Filename);
    if (!llvm::sys::path::is_absolute(Path)) {
      llvm::SmallString<256> Dir(Cmd.Directory);
      llvm::sys::path::append(Dir, Path);
      Path = Dir;
    }
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    llvm::StringRef Ext = llvm::sys::path::extension(Path);
    bool Cuda = Ext == ".cu" || Ext == ".cuh";
    const std::vector<std::string> &Argv = Cmd.CommandLine;
    if (!Argv.empty() &&
        llvm::sys::path::filename(Argv.front()).starts_with("nvcc"))
      Cuda = true;
    for (size_t I = 0; I + 1 < Argv.size(); ++I)
      if (Argv[I] == "-x" && (Argv[I + 1] == "cuda" || Argv[I + 1] == "cu"))
        Cuda = true;
    if (Cuda)
      Files.insert(Path.str().str());
  }
  return std::vector<std::string>(Files.begin(), Files.end());
}

} // namespace coalesce
