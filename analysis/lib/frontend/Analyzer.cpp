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

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

using namespace clang;

namespace coalesce {
namespace {

/// Records errors (with their locations) instead of printing them; warnings
/// in the user's code are not this tool's business.
class ErrorCollector : public DiagnosticConsumer {
public:
  std::vector<std::pair<clang::SourceLocation, CompileError>> Errors;
  const SourceManager *SM = nullptr;

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
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
    // The declaration begins inside host_defines.h (the __global__ macro):
    // judge by the name's location.
    if (SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return true;
    if (FD->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back(FD);
    else if (FD->hasAttr<CUDADeviceAttr>())
      DeviceFunctions.push_back(FD);
    return true;
  }

  const SourceManager &SM;
  std::vector<const FunctionDecl *> Kernels, DeviceFunctions;
};

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

/// What the analysis of one file reads and writes.
struct FileContext {
  const AnalysisConfig &Config;
  Report &Out;
  FileResult &File;
  ErrorCollector &Errors;
  /// Launches found in every file so far, by kernelKey().
  std::map<std::string, std::vector<LaunchSite>> &ProjectLaunches;
};

/// The per-file analysis, run when clang has built the AST.
class AnalysisConsumer : public ASTConsumer {
public:
  explicit AnalysisConsumer(FileContext &C)
      : Config(C.Config), Out(C.Out), File(C.File), Errors(C.Errors),
        ProjectLaunches(C.ProjectLaunches) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    File.Analyzed = true;
    KernelFinder Finder(SM);
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
    frontend::LaunchConfigFinder Launches(Ctx);
    for (const auto &[Key, Sites] : Launches.all()) {
      std::vector<LaunchSite> &All = ProjectLaunches[Key];
      All.insert(All.end(), Sites.begin(), Sites.end());
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

    for (const FunctionDecl *FD : Finder.Kernels) {
      if (Broken.count(FD) || BrokenDeviceFunction) {
        ++File.KernelsNotAnalyzed;
        continue;
      }
      KernelRecord K;
      K.Name = FD->getNameAsString();
      K.Instantiation = kernelInstantiationName(FD);
      K.Loc = frontend::toLocation(SM, FD->getLocation());
      K.Params = frontend::describeParameters(FD);
      K.Key = frontend::kernelKey(FD);
      K.Launches = Launches.launchesOf(FD);
      K.LaunchBounds = frontend::launchBoundsOf(FD);
      frontend::KernelWalker Walker(Ctx, K);
      Walker.walkKernel(FD);
      ++File.KernelsAnalyzed;
      Out.Kernels.push_back(std::move(K));
    }
  }

private:
  const AnalysisConfig &Config;
  Report &Out;
  FileResult &File;
  ErrorCollector &Errors;
  std::map<std::string, std::vector<LaunchSite>> &ProjectLaunches;
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

} // namespace

llvm::Expected<Report> analyze(const AnalysisConfig &Config) {
  llvm::Expected<std::string> Cuda = findCudaInstallation(Config.CudaPath);
  if (!Cuda)
    return Cuda.takeError();
  for (const std::string &F : Config.Files)
    if (!llvm::sys::fs::is_regular_file(F))
      return llvm::createStringError(
          std::make_error_code(std::errc::no_such_file_or_directory),
          "no such file: '%s'", F.c_str());

  std::string DBError;
  std::unique_ptr<tooling::CompilationDatabase> DB = loadDatabase(Config, DBError);
  if (!Config.BuildDir.empty() && !DB)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "cannot load compile_commands.json from "
                                   "'%s': %s",
                                   Config.BuildDir.c_str(), DBError.c_str());

  Report Out;
  std::map<std::string, std::vector<LaunchSite>> ProjectLaunches;
  for (const std::string &Path : Config.Files) {
    llvm::SmallString<256> Abs(Path);
    llvm::sys::fs::make_absolute(Abs);

    // Without a database, clang sees the path as the user spelled it, so
    // diagnostics name it the same way.
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    std::string Directory = Cwd.str().str();
    std::string Input = Path;
    std::string Arch = Config.Arch.empty() ? "sm_90" : Config.Arch;
    std::vector<std::string> DbArgs;
    if (DB) {
      std::vector<tooling::CompileCommand> Cmds = DB->getCompileCommands(Abs);
      if (!Cmds.empty() && Cmds.front().CommandLine.size() > 1) {
        std::vector<std::string> Argv(Cmds.front().CommandLine.begin() + 1,
                                      Cmds.front().CommandLine.end());
        TranslatedFlags T = translateCompileCommand(Argv);
        DbArgs = std::move(T.Args);
        if (!T.Arch.empty() && Config.Arch == "sm_90")
          Arch = T.Arch;
        Directory = Cmds.front().Directory;
        Input = Abs.str().str();
      }
    }

    std::vector<std::string> Args = cudaDeviceParseArgs(*Cuda, Arch);
    Args.insert(Args.end(), DbArgs.begin(), DbArgs.end());
    Args.insert(Args.end(), Config.ExtraArgs.begin(), Config.ExtraArgs.end());
    Args.push_back("-w"); // The user's warnings are not this tool's output.
    Args.push_back("-fno-caret-diagnostics"); // No "N errors generated".

    tooling::FixedCompilationDatabase FileDB(Directory, Args);
    tooling::ClangTool Tool(FileDB, {Input});
    ErrorCollector Errors;
    Tool.setDiagnosticConsumer(&Errors);
    Tool.setPrintErrorMessage(false);

    Out.Files.emplace_back();
    FileResult &File = Out.Files.back();
    File.File = Path;
    size_t FirstKernel = Out.Kernels.size();
    FileContext Context{Config, Out, File, Errors, ProjectLaunches};
    AnalysisActionFactory Factory(Context);
    Tool.run(&Factory);
    for (auto &Entry : Errors.Errors)
      File.Errors.push_back(Entry.second);

    // Name the input as the user spelled it, as clang does.
    auto Rename = [&](SourceLocation &L) {
      if (L.File == Abs.str())
        L.File = Path;
    };
    for (CompileError &E : File.Errors)
      Rename(E.Loc);
    for (size_t I = FirstKernel; I < Out.Kernels.size(); ++I) {
      KernelRecord &K = Out.Kernels[I];
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
    }
    for (auto &Entry : ProjectLaunches)
      for (LaunchSite &L : Entry.second)
        Rename(L.Loc);
    if (!File.Analyzed)
      File.FatalError = File.Errors.empty()
                            ? "clang could not parse the file"
                            : File.Errors.front().Message;
  }
  // Every file is parsed: a kernel launched only in another translation
  // unit (declared in a header) gets that launch's shape and values.
  static const std::vector<LaunchSite> None;
  for (KernelRecord &K : Out.Kernels) {
    auto It = ProjectLaunches.find(K.Key);
    predictKernel(K, Config, It == ProjectLaunches.end() ? None : It->second);
  }
  // Accesses in kernels are attributed to the file given on the command line.
  Out.sort();
  return Out;
}

} // namespace coalesce
