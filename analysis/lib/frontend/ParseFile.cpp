//===- ParseFile.cpp - Parse one CUDA file and walk its kernels -----------===//
//
// Runs clang (LibTooling) on one planned command line, records compile
// errors without printing them, finds the kernels and kernel-template
// instantiations of the user's files, decides which of them compiled, and
// walks each one into a KernelRecord (and takes its census with
// --self-check).
//
//===----------------------------------------------------------------------===//
#include "ParseFile.h"

#include "FrontendInternal.h"
#include "LaunchConfig.h"
#include "NvccSyntax.h"
#include "WalkOrder.h"
#include "census/Census.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <set>

using namespace clang;

namespace coalesce {
namespace frontend {
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

/// Why \p K, walked from \p FD, reports no access, when it reports none
/// and its source has memory operations (KernelRecord::NoAccessReason).
std::string noAccessReason(const FunctionDecl *FD, const KernelRecord &K,
                           const SourceManager &SM, const LangOptions &LO) {
  if (!K.Accesses.empty())
    return "";
  unsigned Dead = llvm::count_if(K.Excluded, [](const ExcludedAccess &X) {
    return llvm::StringRef(X.Reason).starts_with("code that cannot run");
  });
  if (Dead > 0)
    return "all its memory operations are in code that cannot run in this "
           "instance (under conditions that never hold, or after a return "
           "or a trap, for these template arguments and the target "
           "architecture)";
  const Stmt *Body = FD->getBody();
  if (!Body)
    return "";
  // A body whose code the preprocessor left out for this architecture
  // (`#if __CUDA_ARCH__ == 750` around it): the directive, as written.
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionRange(Body->getSourceRange()).getAsRange());
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, LO);
  unsigned Line = SM.getExpansionLineNumber(Body->getBeginLoc());
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I].trim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!(L.starts_with("if") || L.starts_with("elif")) ||
        !L.contains("__CUDA_ARCH__"))
      continue;
    // The architecture it names (`== 750`, `>= 800`): sm_75, sm_80.
    std::string Arch = "sm_XX";
    llvm::SmallVector<llvm::StringRef, 3> M;
    if (llvm::Regex("__CUDA_ARCH__ *(==|>=) *([0-9]+)0").match(L, &M))
      Arch = ("sm_" + M[2]).str();
    return fmt::format("its code is compiled out for the target architecture "
                       "by '#{}' (line {}): analyze it for the architecture "
                       "the directive names (--cuda-gpu-arch={} after --)",
                       L.str(), Line + I, Arch);
  }
  return "";
}

/// The per-file analysis, run when clang has built the AST.
class AnalysisConsumer : public ASTConsumer {
public:
  explicit AnalysisConsumer(FileContext &C) : C(C) {}

  /// Bodies of library functions the walker never follows are not parsed.
  bool shouldSkipFunctionBody(Decl *D) override {
    return frontend::skipsLibraryBody(D);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    C.File.Analyzed = true;
    KernelFinder Finder(SM);
    frontend::traverseUserDecls(Finder, Ctx);
    for (const FunctionTemplateDecl *FTD : Finder.Uninstantiated) {
      SourceLocation Loc = frontend::toLocation(SM, FTD->getLocation());
      C.Rename(Loc);
      C.File.UninstantiatedKernels.push_back({FTD->getNameAsString(), Loc});
    }
    // Built on first use, shared by the host walk and every kernel's.
    frontend::SourceFacts Facts(Ctx);
    frontend::LaunchConfigFinder Launches(Ctx, Facts);
    for (const auto &[Key, Sites] : Launches.all())
      for (LaunchSite L : Sites) {
        C.Rename(L.Loc);
        C.ProjectLaunches[Key].push_back(std::move(L));
      }

    // Errors inside device code mark their kernel (or, for a __device__
    // function, every kernel) as not analyzable.
    llvm::SmallPtrSet<const FunctionDecl *, 8> Broken;
    bool BrokenDeviceFunction = false;
    for (auto &[Loc, Err] : C.Errors.Errors) {
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
      if (AnyError && !Broken.count(K) && dependsOnErrors(K, C.Errors.Tolerated)) {
        Broken.insert(K);
        CompileError E;
        E.Loc = frontend::toLocation(SM, K->getLocation());
        E.Message = fmt::format("kernel '{}' uses declarations that did not "
                                "compile (see the errors above); not analyzed",
                                K->getNameAsString());
        E.InKernel = true;
        C.Errors.Errors.push_back({K->getLocation(), std::move(E)});
      }

    std::vector<const FunctionDecl *> ToWalk;
    for (const FunctionDecl *FD : Finder.Kernels) {
      if (Broken.count(FD) || BrokenDeviceFunction)
        ++C.File.KernelsNotAnalyzed;
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
      frontend::KernelWalker Walker(Ctx, K, Facts);
      Walker.walkKernel(FD);
      K.NoAccessReason = noAccessReason(FD, K, SM, Ctx.getLangOpts());
      if (C.Config.SelfCheck) {
        std::vector<census::Entry> Census = census::takeCensus(Ctx, FD);
        K.CensusEntries = Census.size();
        K.CensusMisses = census::unmatchedEntries(Census, K);
      }
      ++C.File.KernelsAnalyzed;
      renameKernel(K, C.Rename);
      if (C.OnKernel)
        C.OnKernel(Position, K);
      Walked[Position] = std::move(K);
    }
    for (std::optional<KernelRecord> &K : Walked)
      C.Out.Kernels.push_back(std::move(*K));
  }

private:
  FileContext &C;
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
} // namespace

/// Parses one file and walks its kernels into \p Result (no prediction).
void parseFile(const FileJob &Job, const AnalysisConfig &Config,
               FileAnalysis &Result) {
  std::vector<std::string> Args = Job.Args;
  if (!Job.Pch.empty()) {
    Args.push_back("-include-pch");
    Args.push_back(Job.Pch);
  }
  tooling::FixedCompilationDatabase FileDB(Job.Directory, Args);
  // A file system of its own, with its own working directory: the process's
  // one (vfs::getRealFileSystem) is changed by ClangTool::run with chdir, so
  // files parsed at once on other threads would resolve their relative
  // include paths (`-I../include dir` of a database entry) against another
  // entry's directory.
  // Its files are read with spaced launch brackets joined (`<< <` ... `>>
  // >`, which nvcc accepts and clang does not) and the other syntax of
  // NvccSyntax.h.
  tooling::ClangTool Tool(
      FileDB, {Job.Input}, std::make_shared<PCHContainerOperations>(),
      withNvccSyntax(llvm::vfs::createPhysicalFileSystem()));
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

} // namespace frontend
} // namespace coalesce
