//===- Analyzer.cpp - Parse CUDA files and analyze their kernels ----------===//
//
// For each input: build the device-only clang command line (from the
// compilation database when there is one, nvcc flags translated), parse it
// with LibTooling, record compile errors without printing them, find the
// kernels, walk each one whose code compiled, and predict every access.
//
//===----------------------------------------------------------------------===//
#include "coalesce/Analyzer.h"

#include "FrontendInternal.h"
#include "coalesce/CompileFlags.h"
#include "coalesce/Findings.h"
#include "coalesce/KernelPrediction.h"
#include "HeaderCache.h"
#include "PredictionScheduler.h"
#include "WalkOrder.h"
#include "census/Census.h"
#include "driver/Isolation.h"

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

/// Records errors (with their locations) instead of printing them; warnings
/// in the user's code are not this tool's business.
class ErrorCollector : public DiagnosticConsumer {
public:
  std::vector<std::pair<clang::SourceLocation, CompileError>> Errors;
  const SourceManager *SM = nullptr;
  /// Where clang gave an error that nvcc does not (nvccAccepts()): the
  /// declarations marked invalid there are whole for the analysis.
  llvm::DenseSet<clang::SourceLocation> Tolerated;

  /// Errors of clang's where nvcc accepts the code (with a warning at most)
  /// and the AST is still what the code says: a __shared__ variable of a
  /// class with a constructor (`__shared__ cuda::barrier<...> bar;`, which
  /// nvcc leaves uninitialized, as the code expects: `init(&bar, n)`).
  static bool nvccAccepts(unsigned ID) {
    return ID == diag::err_shared_var_init;
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    if (nvccAccepts(Info.getID())) {
      Tolerated.insert(Info.getLocation());
      return;
    }
    llvm::SmallString<256> Msg;
    Info.FormatDiagnostic(Msg);
    CompileError E;
    E.Message = Msg.str().str();
    clang::SourceLocation Loc = Info.getLocation();
    if (Loc.isValid() && Info.hasSourceManager())
      E.Loc = frontend::toLocation(Info.getSourceManager(), Loc);
    Errors.push_back({Loc, std::move(E)});
  }
};

/// Finds kernels (and instantiations of kernel templates) with a body in
/// the user's files.
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  explicit KernelFinder(const SourceManager &SM) : SM(SM) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
      return true;
    if (frontend::inSystemHeader(SM, FD))
      return true;
    if (FD->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back(FD);
    else if (FD->hasAttr<CUDADeviceAttr>())
      DeviceFunctions.push_back(FD);
    return true;
  }

  /// A kernel template of the user's with no instantiation in the file.
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *FTD) {
    const FunctionDecl *FD = FTD->getTemplatedDecl();
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        frontend::inSystemHeader(SM, FD) || !FTD->isThisDeclarationADefinition())
      return true;
    if (FTD->specializations().empty())
      Uninstantiated.push_back(FTD);
    return true;
  }

  const SourceManager &SM;
  std::vector<const FunctionDecl *> Kernels, DeviceFunctions;
  std::vector<const FunctionTemplateDecl *> Uninstantiated;
};

/// Does \p FD's signature or body depend on code with errors (invalid
/// declarations, recovery expressions)? Declarations at \p Tolerated
/// (nvccAccepts()) and the uses of them clang could not build do not count:
/// the rest of the body is whole.
bool dependsOnErrors(const FunctionDecl *FD,
                     const llvm::DenseSet<clang::SourceLocation> &Tolerated) {
  if (FD->isInvalidDecl())
    return true;
  for (const ParmVarDecl *P : FD->parameters())
    if (P->isInvalidDecl())
      return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    const llvm::DenseSet<clang::SourceLocation> *Tolerated = nullptr;
    llvm::StringSet<> ToleratedNames;
    const ASTContext *Ctx = nullptr;
    /// A use of a tolerated declaration (`bar` in `init(&bar, n)`).
    bool tolerated(const RecoveryExpr *RE) const {
      StringRef Text = Lexer::getSourceText(
          CharSourceRange::getTokenRange(RE->getSourceRange()),
          Ctx->getSourceManager(), Ctx->getLangOpts());
      return ToleratedNames.count(Text);
    }
    static bool holdsRecovery(const Stmt *S) {
      if (isa<RecoveryExpr>(S))
        return true;
      for (const Stmt *C : S->children())
        if (C && holdsRecovery(C))
          return true;
      return false;
    }
    bool TraverseRecoveryExpr(RecoveryExpr *RE) {
      Found |= !tolerated(RE);
      return !Found;
    }
    bool VisitExpr(clang::Expr *E) {
      // An error in an expression comes from a recovery expression inside
      // it (judged on its own), or from something else.
      Found |= E->containsErrors() && !holdsRecovery(E);
      return !Found;
    }
    bool VisitDecl(Decl *D) {
      if (D->isInvalidDecl() && Tolerated->count(D->getLocation())) {
        if (const auto *ND = dyn_cast<NamedDecl>(D))
          ToleratedNames.insert(ND->getName());
        return true;
      }
      Found |= D->isInvalidDecl();
      return !Found;
    }
  } F;
  F.Tolerated = &Tolerated;
  F.Ctx = &FD->getASTContext();
  F.TraverseStmt(FD->getBody());
  return F.Found;
}

/// Is \p Loc inside the body of \p FD?
bool contains(const SourceManager &SM, const FunctionDecl *FD,
              clang::SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  SourceRange R = FD->getSourceRange();
  clang::SourceLocation L = SM.getExpansionLoc(Loc);
  clang::SourceLocation B = SM.getExpansionLoc(R.getBegin());
  clang::SourceLocation E = SM.getExpansionLoc(R.getEnd());
  return SM.getFileID(L) == SM.getFileID(E) &&
         !SM.isBeforeInTranslationUnit(L, B) &&
         !SM.isBeforeInTranslationUnit(E, L);
}

std::string kernelInstantiationName(const FunctionDecl *FD) {
  if (!FD->isTemplateInstantiation())
    return {};
  std::string S;
  llvm::raw_string_ostream OS(S);
  FD->getNameForDiagnostic(OS, FD->getASTContext().getPrintingPolicy(),
                           /*Qualified=*/false);
  return OS.str();
}

/// Applies \p Rename to every location of \p K.
void renameKernel(KernelRecord &K,
                  const std::function<void(SourceLocation &)> &Rename) {
  Rename(K.Loc);
  for (AccessRecord &A : K.Accesses) {
    Rename(A.Loc);
    Rename(A.EndLoc);
    Rename(A.LaneSourceLoc);
    for (SourceLocation &C : A.CallChain)
      Rename(C);
  }
  for (LaunchSite &L : K.Launches)
    Rename(L.Loc);
  for (ExcludedAccess &X : K.Excluded)
    Rename(X.Loc);
  for (CensusMiss &M : K.CensusMisses)
    Rename(M.Loc);
}

/// What the analysis of one file reads and writes.
struct FileContext {
  const AnalysisConfig &Config;
  Report &Out;
  FileResult &File;
  ErrorCollector &Errors;
  /// Launches found in every file so far, by kernelKey().
  std::map<std::string, std::vector<LaunchSite>> &ProjectLaunches;
  /// Names a location's file as the user spelled it (clang may see it by
  /// another path); applied to launches and kernels as they are found.
  std::function<void(SourceLocation &)> Rename;
  /// Called with each kernel as soon as it is walked (renamed), and its
  /// position among the file's kernels in the report; may be empty.
  std::function<void(size_t, const KernelRecord &)> OnKernel;
};

/// The per-file analysis, run when clang has built the AST.
class AnalysisConsumer : public ASTConsumer {
public:
  explicit AnalysisConsumer(FileContext &C)
      : Config(C.Config), Out(C.Out), File(C.File), Errors(C.Errors),
        ProjectLaunches(C.ProjectLaunches), Rename(C.Rename),
        OnKernel(C.OnKernel) {}

  /// Bodies of library functions the walker never follows are not parsed.
  bool shouldSkipFunctionBody(Decl *D) override {
    return frontend::skipsLibraryBody(D);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    File.Analyzed = true;
    KernelFinder Finder(SM);
    frontend::traverseUserDecls(Finder, Ctx);
    for (const FunctionTemplateDecl *FTD : Finder.Uninstantiated) {
      SourceLocation Loc = frontend::toLocation(SM, FTD->getLocation());
      Rename(Loc);
      File.UninstantiatedKernels.push_back({FTD->getNameAsString(), Loc});
    }
    // Per function, built when a loop of it is first walked.
    frontend::LoopLiveness Liveness(Ctx);
    frontend::LaunchConfigFinder Launches(Ctx, Liveness);
    for (const auto &[Key, Sites] : Launches.all())
      for (LaunchSite L : Sites) {
        Rename(L.Loc);
        ProjectLaunches[Key].push_back(std::move(L));
      }

    // Errors inside device code mark their kernel (or, for a __device__
    // function, every kernel) as not analyzable.
    llvm::SmallPtrSet<const FunctionDecl *, 8> Broken;
    bool BrokenDeviceFunction = false;
    for (auto &[Loc, Err] : Errors.Errors) {
      for (const FunctionDecl *K : Finder.Kernels)
        if (contains(SM, K, Loc)) {
          Broken.insert(K);
          Err.InKernel = true;
        }
      for (const FunctionDecl *D : Finder.DeviceFunctions)
        if (contains(SM, D, Loc)) {
          BrokenDeviceFunction = true;
          Err.InKernel = true;
        }
    }

    // A kernel whose code depends on declarations with errors (a type from
    // a missing header: `vertices[i].position.x` on an invalid `Vertex`)
    // has no error of its own inside, but its accesses cannot be seen.
    // Invalid declarations and recovery expressions come only with errors.
    bool AnyError = Ctx.getDiagnostics().hasErrorOccurred();
    for (const FunctionDecl *K : Finder.Kernels)
      if (AnyError && !Broken.count(K) && dependsOnErrors(K, Errors.Tolerated)) {
        Broken.insert(K);
        CompileError E;
        E.Loc = frontend::toLocation(SM, K->getLocation());
        E.Message = fmt::format("kernel '{}' uses declarations that did not "
                                "compile (see the errors above); not analyzed",
                                K->getNameAsString());
        E.InKernel = true;
        Errors.Errors.push_back({K->getLocation(), std::move(E)});
      }

    std::vector<const FunctionDecl *> ToWalk;
    for (const FunctionDecl *FD : Finder.Kernels) {
      if (Broken.count(FD) || BrokenDeviceFunction)
        ++File.KernelsNotAnalyzed;
      else
        ToWalk.push_back(FD);
    }
    // The largest first, so that its predictions run beside the walk of
    // the others; the report keeps the source order.
    std::vector<std::optional<KernelRecord>> Walked(ToWalk.size());
    for (size_t Position : frontend::largestFirst(ToWalk)) {
      const FunctionDecl *FD = ToWalk[Position];
      KernelRecord K;
      K.Name = FD->getNameAsString();
      K.Instantiation = kernelInstantiationName(FD);
      K.Loc = frontend::toLocation(SM, FD->getLocation());
      K.Params = frontend::describeParameters(FD);
      K.Key = frontend::kernelKey(FD);
      K.Launches = Launches.launchesOf(FD);
      K.LaunchBounds = frontend::launchBoundsOf(FD);
      frontend::KernelWalker Walker(Ctx, K, Liveness);
      Walker.walkKernel(FD);
      if (Config.SelfCheck) {
        std::vector<census::Entry> Census = census::takeCensus(Ctx, FD);
        K.CensusEntries = Census.size();
        K.CensusMisses = census::unmatchedEntries(Census, K);
      }
      ++File.KernelsAnalyzed;
      renameKernel(K, Rename);
      if (OnKernel)
        OnKernel(Position, K);
      Walked[Position] = std::move(K);
    }
    for (std::optional<KernelRecord> &K : Walked)
      Out.Kernels.push_back(std::move(*K));
  }

private:
  const AnalysisConfig &Config;
  Report &Out;
  FileResult &File;
  ErrorCollector &Errors;
  std::map<std::string, std::vector<LaunchSite>> &ProjectLaunches;
  std::function<void(SourceLocation &)> Rename;
  std::function<void(size_t, const KernelRecord &)> OnKernel;
};

class AnalysisAction : public ASTFrontendAction {
public:
  explicit AnalysisAction(FileContext &C) : C(C) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<AnalysisConsumer>(C);
  }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // Keep parsing past a missing header, as clangd does: the kernels that
    // do not need it are still analyzed, the others report their errors.
    CI.getDiagnostics().setFatalsAsError(true);
    // Ask the consumer which function bodies to parse (system headers').
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }

private:
  FileContext &C;
};

class AnalysisActionFactory : public tooling::FrontendActionFactory {
public:
  explicit AnalysisActionFactory(FileContext &C) : C(C) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<AnalysisAction>(C);
  }

private:
  FileContext &C;
};

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


/// Everything the analysis of one file needs, computed before it starts.
struct FileJob {
  std::string Path;      ///< As the user spelled it.
  std::string Abs;       ///< Absolute.
  std::string Directory; ///< Working directory of the compile command.
  std::string Input;     ///< The path clang is given.
  std::vector<std::string> Args;
  /// The precompiled CUDA headers to load (HeaderCache.h); empty: none.
  std::string Pch;
  /// When set, each kernel is handed to it as soon as it is walked (paths
  /// as reported), with its launches in the file; it returns the number
  /// the kernel's predictions got (PredictionScheduler::start).
  std::function<size_t(const KernelRecord &, std::vector<LaunchSite>)>
      PredictEarly;
};

/// What the analysis of one file produced.
struct FileAnalysis {
  FileResult File;
  std::vector<KernelRecord> Kernels;
  /// Launches found in the file's host code, by kernelKey().
  std::map<std::string, std::vector<LaunchSite>> Launches;
  /// With FileJob::PredictEarly: the number of each of Kernels' predictions
  /// (SIZE_MAX: not handed over).
  std::vector<size_t> Predicting;
};

/// The compile command of \p Path: from the database when it lists the
/// file (response files expanded, nvcc flags translated), plus the
/// device-only flags and "--" args. An error: a response file of the
/// database's command cannot be read.
llvm::Expected<FileJob> planFile(const AnalysisConfig &Config,
                                 const std::string &Cuda,
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
  Job.Args = cudaDeviceParseArgs(Cuda, Arch);
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

/// Parses one file and walks its kernels into \p Result (no prediction).
void parseFile(const FileJob &Job, const AnalysisConfig &Config,
               FileAnalysis &Result) {
  std::vector<std::string> Args = Job.Args;
  if (!Job.Pch.empty()) {
    Args.push_back("-include-pch");
    Args.push_back(Job.Pch);
  }
  tooling::FixedCompilationDatabase FileDB(Job.Directory, Args);
  tooling::ClangTool Tool(FileDB, {Job.Input});
  ErrorCollector Errors;
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);

  FileResult &File = Result.File;
  File.File = Job.Path;
  Report Out;
  // Name the input as the user spelled it, as clang does.
  auto Rename = [&](SourceLocation &L) {
    if (L.File == Job.Abs)
      L.File = Job.Path;
  };
  FileContext Context{Config, Out, File, Errors, Result.Launches, Rename,
                      nullptr};
  if (Job.PredictEarly)
    Context.OnKernel = [&](size_t Position, const KernelRecord &K) {
      std::vector<LaunchSite> Launches;
      auto It = Result.Launches.find(K.Key);
      if (It != Result.Launches.end())
        Launches = It->second;
      if (Result.Predicting.size() <= Position)
        Result.Predicting.resize(Position + 1, SIZE_MAX);
      Result.Predicting[Position] = Job.PredictEarly(K, std::move(Launches));
    };
  AnalysisActionFactory Factory(Context);
  Tool.run(&Factory);
  for (auto &Entry : Errors.Errors)
    File.Errors.push_back(Entry.second);

  for (CompileError &E : File.Errors)
    Rename(E.Loc);
  Result.Kernels = std::move(Out.Kernels);
  if (!File.Analyzed)
    File.FatalError = File.Errors.empty() ? "clang could not parse the file"
                                          : File.Errors.front().Message;
}

/// parseFile(), with the precompiled headers when the job has them; when
/// clang rejects them (a header changed since), they are dropped from the
/// cache and the file is parsed again without.
void analyzeFile(const FileJob &Job, const AnalysisConfig &Config,
                 FileAnalysis &Result) {
  parseFile(Job, Config, Result);
  if (Job.Pch.empty() ||
      llvm::none_of(Result.File.Errors, [](const CompileError &E) {
        return frontend::rejectsPch(E.Message);
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
  std::vector<frontend::HeaderPch> Entries;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (Skip[I])
      continue;
    frontend::HeaderPch P = frontend::headerPchFor(
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
        !frontend::seenBefore(Entries[E]))
      return;
    const FileJob &First = Jobs[Users.front()];
    auto Ok = std::make_shared<bool>(false);
    IsolatedOutcome How = Workers.run(
        [Pch = Entries[E], Args = First.Args, Dir = First.Directory, Ok] {
          *Ok = frontend::ensureHeaderPch(Pch, Args, Dir);
        },
        timeoutOf(Config));
    Built[E] = How == IsolatedOutcome::Finished && *Ok;
  });
  for (size_t E = 0; E < Entries.size(); ++E)
    if (Built[E])
      for (size_t I : JobsOf[Entries[E].Path])
        Jobs[I].Pch = Entries[E].Path;
  frontend::pruneHeaderCache(Config.HeaderCacheDir);
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
        planFile(Config, *Cuda, DB.get(), Config.Files[I]);
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
