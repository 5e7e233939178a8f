//===- CompileFlags.cpp - nvcc command lines to clang arguments ----------===//
///
/// \file
/// translateCompileCommand: turns a compile command written for nvcc (or for
/// clang/gcc) into the arguments clang 22 accepts for a device-only parse.
///
/// translateCompileCommandIn first expands the command's response files
/// (expandResponseFiles: "@FILE", nvcc's --options-file/-optf), which CMake
/// uses for include directories (includes_CUDA.rsp), with
/// llvm::cl::ExpansionContext; nvcc's spellings are rewritten to "@FILE",
/// also inside the files, by the tokenizer it is given.
///
/// The command is then read in three steps:
///   1. cut at the first chained command ("&&", "||", ";", "|");
///   2. unwrap -Xcompiler/--compiler-options values (comma-separated) in
///      place, so that a flag and its value split over two -Xcompiler are
///      seen together;
///   3. read each argument: nvcc options are found in one table (by their
///      name without leading dashes, so "-rdc" and "--rdc" are the same) and
///      translated or dropped with their value ("-o X", "-ccbin=X");
///      positional arguments (the input files) are left out; everything else
///      is kept as written, since it is a host compiler flag clang knows.
///
//===----------------------------------------------------------------------===//

#include "coalesce/CompileFlags.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <fmt/format.h>

#include <optional>

using llvm::ArrayRef;
using llvm::StringRef;

namespace coalesce {
namespace {

/// What to do with one option of the table.
enum class OptKind {
  Drop,          ///< nvcc-only flag without a value: drop it.
  DropValue,     ///< option with a value that clang must not see: drop both.
  KeepValue,     ///< clang option with a separate value: keep both.
  Arch,          ///< names GPU architectures: record the newest, drop.
  Include,       ///< -I / --include-path DIR[,DIR] -> -IDIR.
  SystemInclude, ///< -isystem / --system-include DIR[,DIR] -> -isystem DIR.
  PreInclude,    ///< -include / --pre-include FILE[,FILE] -> -include FILE.
  Define,        ///< -D / --define-macro X -> -DX.
  Undefine,      ///< -U / --undefine-macro X -> -UX.
  Std,           ///< -std / --std X -> -std=X.
  Optimize,      ///< --optimize N / -O N -> -ON.
  Language,      ///< -x cu -> -x cuda; other languages dropped.
  Rdc,           ///< -rdc=true -> -fgpu-rdc.
  DeviceC,       ///< -dc (compile relocatable device code) -> -fgpu-rdc.
  FastMath,      ///< --use_fast_math -> -ffast-math.
  Ftz,           ///< --ftz=true -> -fgpu-flush-denormals-to-zero.
  Fmad,          ///< --fmad=false -> -ffp-contract=off.
  DefaultStream, ///< --default-stream per-thread -> -D..PER_THREAD...
  Machine,       ///< --machine 64 -> -m64.
  NoWarnings,    ///< --disable-warnings -> -w.
  Debug,         ///< --debug -> -g.
  Werror,        ///< -Werror[=X] [nvcc kinds]: dropped (see below).
  ExtendedLambda,   ///< --extended-lambda -> -D__CUDACC_EXTENDED_LAMBDA__.
  RelaxedConstexpr, ///< --expt-relaxed-constexpr -> -D__CUDACC_RELAXED_CONSTEXPR__.
  Xcompiler,     ///< handled before the main pass.
};

struct OptInfo {
  const char *Name;
  OptKind Kind;
};

// Names are written without their leading dashes; nvcc accepts one or two.
constexpr OptInfo OptTable[] = {
    // Host compiler wrappers.
    {"Xcompiler", OptKind::Xcompiler},
    {"compiler-options", OptKind::Xcompiler},
    // GPU architectures.
    {"arch", OptKind::Arch},
    {"gpu-architecture", OptKind::Arch},
    {"code", OptKind::Arch},
    {"gpu-code", OptKind::Arch},
    {"gencode", OptKind::Arch},
    {"generate-code", OptKind::Arch},
    {"cuda-gpu-arch", OptKind::Arch},
    {"offload-arch", OptKind::Arch},
    // Translated.
    {"I", OptKind::Include},
    {"include-path", OptKind::Include},
    {"isystem", OptKind::SystemInclude},
    {"system-include", OptKind::SystemInclude},
    {"include", OptKind::PreInclude},
    {"pre-include", OptKind::PreInclude},
    {"D", OptKind::Define},
    {"define-macro", OptKind::Define},
    {"U", OptKind::Undefine},
    {"undefine-macro", OptKind::Undefine},
    {"std", OptKind::Std},
    {"O", OptKind::Optimize},
    {"optimize", OptKind::Optimize},
    {"x", OptKind::Language},
    {"rdc", OptKind::Rdc},
    {"relocatable-device-code", OptKind::Rdc},
    {"dc", OptKind::DeviceC},
    {"device-c", OptKind::DeviceC},
    {"use_fast_math", OptKind::FastMath},
    {"use-fast-math", OptKind::FastMath},
    {"ftz", OptKind::Ftz},
    {"fmad", OptKind::Fmad},
    {"default-stream", OptKind::DefaultStream},
    {"m", OptKind::Machine},
    {"machine", OptKind::Machine},
    {"disable-warnings", OptKind::NoWarnings},
    {"debug", OptKind::Debug},
    {"Werror", OptKind::Werror},
    // Clang options whose value is the next argument: kept as a pair.
    {"iquote", OptKind::KeepValue},
    {"idirafter", OptKind::KeepValue},
    {"imacros", OptKind::KeepValue},
    {"isysroot", OptKind::KeepValue},
    {"sysroot", OptKind::KeepValue},
    {"iprefix", OptKind::KeepValue},
    {"iwithprefix", OptKind::KeepValue},
    {"iwithprefixbefore", OptKind::KeepValue},
    {"cxx-isystem", OptKind::KeepValue},
    {"Xclang", OptKind::KeepValue},
    {"mllvm", OptKind::KeepValue},
    {"target", OptKind::KeepValue},
    {"Xpreprocessor", OptKind::KeepValue},
    {"Xarch_device", OptKind::KeepValue},
    {"Xarch_host", OptKind::KeepValue},
    {"resource-dir", OptKind::KeepValue},
    // Dropped with their value.
    {"o", OptKind::DropValue},
    {"output-file", OptKind::DropValue},
    {"odir", OptKind::DropValue},
    {"output-directory", OptKind::DropValue},
    {"ccbin", OptKind::DropValue},
    {"compiler-bindir", OptKind::DropValue},
    {"Xptxas", OptKind::DropValue},
    {"ptxas-options", OptKind::DropValue},
    {"Xcudafe", OptKind::DropValue},
    {"Xnvlink", OptKind::DropValue},
    {"nvlink-options", OptKind::DropValue},
    {"Xlinker", OptKind::DropValue},
    {"linker-options", OptKind::DropValue},
    {"Xarchive", OptKind::DropValue},
    {"archive-options", OptKind::DropValue},
    {"Xfatbin", OptKind::DropValue},
    {"fatbin-options", OptKind::DropValue},
    {"Xcuda-ptxas", OptKind::DropValue},
    {"Xcuda-fatbinary", OptKind::DropValue},
    {"diag_suppress", OptKind::DropValue},
    {"diag-suppress", OptKind::DropValue},
    {"diag_warn", OptKind::DropValue},
    {"diag-warn", OptKind::DropValue},
    {"diag_error", OptKind::DropValue},
    {"diag-error", OptKind::DropValue},
    {"diag_default", OptKind::DropValue},
    {"diag-default", OptKind::DropValue},
    {"maxrregcount", OptKind::DropValue},
    {"threads", OptKind::DropValue},
    {"t", OptKind::DropValue},
    {"split-compile", OptKind::DropValue},
    {"split-compile-extended", OptKind::DropValue},
    {"prec-div", OptKind::DropValue},
    {"prec-sqrt", OptKind::DropValue},
    {"cudart", OptKind::DropValue},
    {"cudadevrt", OptKind::DropValue},
    {"keep-dir", OptKind::DropValue},
    {"time", OptKind::DropValue},
    {"options-file", OptKind::DropValue},
    {"optf", OptKind::DropValue},
    {"run-args", OptKind::DropValue},
    {"input-drive-prefix", OptKind::DropValue},
    {"dependency-drive-prefix", OptKind::DropValue},
    {"drive-prefix", OptKind::DropValue},
    {"entries", OptKind::DropValue},
    {"e", OptKind::DropValue},
    {"library", OptKind::DropValue},
    {"l", OptKind::DropValue},
    {"library-path", OptKind::DropValue},
    {"L", OptKind::DropValue},
    {"dopt", OptKind::DropValue},
    {"optimization-info", OptKind::DropValue},
    {"opt-info", OptKind::DropValue},
    {"Ofast-compile", OptKind::DropValue},
    {"Ofc", OptKind::DropValue},
    {"qpp-config", OptKind::DropValue},
    {"jump-table-density", OptKind::DropValue},
    {"device-stack-protector", OptKind::DropValue},
    {"static-global-template-stub", OptKind::DropValue},
    {"fdevice-time-trace", OptKind::DropValue},
    {"MF", OptKind::DropValue},
    {"MT", OptKind::DropValue},
    {"MQ", OptKind::DropValue},
    {"MJ", OptKind::DropValue},
    {"dependency-output", OptKind::DropValue},
    {"dependency-target-name", OptKind::DropValue},
    {"cuda-path", OptKind::DropValue},
    {"no-cuda-gpu-arch", OptKind::DropValue},
    {"no-offload-arch", OptKind::DropValue},
    // Host compiler options with a separate value that play no part in a
    // device-only parse (assembler, linker, precompiled headers, tuning).
    {"Xassembler", OptKind::DropValue},
    {"Xoffload-linker", OptKind::DropValue},
    {"z", OptKind::DropValue},
    {"u", OptKind::DropValue},
    {"T", OptKind::DropValue},
    {"include-pch", OptKind::DropValue},
    {"param", OptKind::DropValue},
    // Dropped, no value.
    {"c", OptKind::Drop},
    {"compile", OptKind::Drop},
    {"E", OptKind::Drop},
    {"preprocess", OptKind::Drop},
    {"S", OptKind::Drop},
    {"emit-llvm", OptKind::Drop},
    {"save-temps", OptKind::Drop},
    {"G", OptKind::Drop},
    {"device-debug", OptKind::Drop},
    {"lineinfo", OptKind::Drop},
    {"generate-line-info", OptKind::Drop},
    // Features clang has without a flag; nvcc announces them with a macro
    // that code written for it may test (cuco: #error without
    // __CUDACC_EXTENDED_LAMBDA__).
    {"expt-relaxed-constexpr", OptKind::RelaxedConstexpr},
    {"expt-extended-lambda", OptKind::ExtendedLambda},
    {"extended-lambda", OptKind::ExtendedLambda},
    {"allow-unsupported-compiler", OptKind::Drop},
    {"forward-unknown-to-host-compiler", OptKind::Drop},
    {"forward-unknown-to-host-linker", OptKind::Drop},
    {"forward-unknown-opts", OptKind::Drop},
    {"dw", OptKind::Drop},
    {"device-w", OptKind::Drop},
    {"dlink", OptKind::Drop},
    {"device-link", OptKind::Drop},
    {"lib", OptKind::Drop},
    {"link", OptKind::Drop},
    {"run", OptKind::Drop},
    {"cuda", OptKind::Drop},
    {"ptx", OptKind::Drop},
    {"cubin", OptKind::Drop},
    {"fatbin", OptKind::Drop},
    {"optix-ir", OptKind::Drop},
    {"lto", OptKind::Drop},
    {"dlto", OptKind::Drop},
    {"dlink-time-opt", OptKind::Drop},
    {"gen-opt-lto", OptKind::Drop},
    {"shared", OptKind::Drop},
    {"keep", OptKind::Drop},
    {"keep-device-functions", OptKind::Drop},
    {"dryrun", OptKind::Drop},
    {"v", OptKind::Drop},
    {"verbose", OptKind::Drop},
    {"V", OptKind::Drop},
    {"version", OptKind::Drop},
    {"res-usage", OptKind::Drop},
    {"resource-usage", OptKind::Drop},
    {"src-in-ptx", OptKind::Drop},
    {"source-in-ptx", OptKind::Drop},
    {"restrict", OptKind::Drop},
    {"ewp", OptKind::Drop},
    {"extensible-whole-program", OptKind::Drop},
    {"nohdinitlist", OptKind::Drop},
    {"no-host-device-initializer-list", OptKind::Drop},
    {"nohdmoveforward", OptKind::Drop},
    {"no-host-device-move-forward", OptKind::Drop},
    {"err-no", OptKind::Drop},
    {"display-error-number", OptKind::Drop},
    {"no-display-error-number", OptKind::Drop},
    {"no-compress", OptKind::Drop},
    {"objdir-as-tempdir", OptKind::Drop},
    {"extra-device-vectorization", OptKind::Drop},
    {"fdevice-syntax-only", OptKind::Drop},
    {"noprof", OptKind::Drop},
    {"profile", OptKind::Drop},
    {"host-relocatable-link", OptKind::Drop},
    {"list-gpu-arch", OptKind::Drop},
    {"list-gpu-code", OptKind::Drop},
    {"Wno-deprecated-gpu-targets", OptKind::Drop},
    {"Wext-lambda-captures-this", OptKind::Drop},
    {"Wdefault-stream-launch", OptKind::Drop},
    {"Wmissing-launch-bounds", OptKind::Drop},
    {"M", OptKind::Drop},
    {"MM", OptKind::Drop},
    {"MD", OptKind::Drop},
    {"MMD", OptKind::Drop},
    {"MP", OptKind::Drop},
    {"MG", OptKind::Drop},
    {"generate-dependencies", OptKind::Drop},
    {"generate-nonsystem-dependencies", OptKind::Drop},
    {"generate-dependencies-with-compile", OptKind::Drop},
    {"generate-nonsystem-dependencies-with-compile", OptKind::Drop},
    {"generate-dependency-targets", OptKind::Drop},
    {"nocudalib", OptKind::Drop},
    {"nocudainc", OptKind::Drop},
    {"nogpulib", OptKind::Drop},
    {"nogpuinc", OptKind::Drop},
    {"cuda-device-only", OptKind::Drop},
    {"cuda-host-only", OptKind::Drop},
    {"cuda-compile-host-device", OptKind::Drop},
    {"cuda-path-ignore-env", OptKind::Drop},
    {"pedantic-errors", OptKind::Drop},
};

std::optional<OptKind> lookupOption(StringRef Name) {
  for (const OptInfo &Info : OptTable)
    if (Name == Info.Name)
      return Info.Kind;
  return std::nullopt;
}

/// True for an argument that ends the first command of a shell line, or its
/// options: after "--" only input files follow, and inputs are left out.
bool isCommandSeparator(StringRef Arg) {
  return Arg == "&&" || Arg == "||" || Arg == ";" || Arg == "|" || Arg == "--";
}

/// Splits \p Value at any of \p Separators, leaving out empty pieces and the
/// blanks around each piece.
llvm::SmallVector<StringRef, 4> splitList(StringRef Value,
                                          StringRef Separators = ",") {
  llvm::SmallVector<StringRef, 4> Pieces;
  while (!Value.empty()) {
    size_t End = Value.find_first_of(Separators);
    StringRef Head = Value.take_front(End).trim();
    if (!Head.empty())
      Pieces.push_back(Head);
    Value = End == StringRef::npos ? StringRef() : Value.drop_front(End + 1);
  }
  return Pieces;
}

/// One GPU architecture: its number (90 for sm_90) and whether it is the
/// architecture-specific variant ("sm_90a"), which is a superset of sm_90.
struct GpuArch {
  unsigned Number = 0;
  bool Specific = false;

  bool operator<(const GpuArch &O) const {
    return Number != O.Number ? Number < O.Number : !Specific && O.Specific;
  }
  std::string name() const {
    return fmt::format("sm_{}{}", Number, Specific ? "a" : "");
  }
};

/// Parses "sm_90", "compute_90a", "lto_80" or "sm_100f" ("f" family variants
/// count as the base architecture: clang 22 does not know them).
std::optional<GpuArch> parseGpuArch(StringRef Token) {
  StringRef Rest = Token;
  if (!Rest.consume_front("sm_") && !Rest.consume_front("compute_") &&
      !Rest.consume_front("lto_"))
    return std::nullopt;
  GpuArch Arch;
  if (Rest.consume_back("a"))
    Arch.Specific = true;
  else
    Rest.consume_back("f");
  if (Rest.getAsInteger(10, Arch.Number) || Arch.Number == 0)
    return std::nullopt;
  return Arch;
}

/// Words with which nvcc's -Werror names its own warning classes.
bool isNvccWarningKindList(StringRef Value) {
  static constexpr llvm::StringLiteral Kinds[] = {"all-warnings",
                                                  "cross-execution-space-call",
                                                  "reorder",
                                                  "default-stream-launch",
                                                  "missing-launch-bounds",
                                                  "ext-lambda-captures-this",
                                                  "deprecated-declarations"};
  llvm::SmallVector<StringRef, 4> Pieces = splitList(Value);
  if (Pieces.empty())
    return false;
  for (StringRef Piece : Pieces)
    if (!llvm::is_contained(Kinds, Piece))
      return false;
  return true;
}

/// Reads one command line into a TranslatedFlags.
class Translator {
public:
  TranslatedFlags run(ArrayRef<std::string> Argv);

private:
  void readArg(ArrayRef<std::string> Args, size_t &I);
  void apply(OptKind Kind, StringRef Arg, StringRef Value,
             std::optional<StringRef> Separate);
  void noteArchs(StringRef Value);
  void keep(StringRef A) { Out.Args.push_back(A.str()); }
  void drop(StringRef A) { Out.Dropped.push_back(A.str()); }

  TranslatedFlags Out;
  std::optional<GpuArch> Newest;
};

/// Steps 1 and 2: the first command (and the separator that ends it), with
/// -Xcompiler values unwrapped.
std::vector<std::string> unwrapHostFlags(ArrayRef<std::string> Argv,
                                         std::vector<std::string> &Dropped) {
  std::vector<std::string> Args;
  for (size_t I = 0; I < Argv.size(); ++I) {
    StringRef Arg = Argv[I];
    if (isCommandSeparator(Arg)) {
      Args.push_back(Arg.str()); // Kept last, to be reported as dropped.
      break;
    }
    StringRef Name = Arg.ltrim('-').split('=').first;
    if (!Arg.starts_with("-") || lookupOption(Name) != OptKind::Xcompiler) {
      Args.push_back(Arg.str());
      continue;
    }
    StringRef Value;
    if (Arg.contains('='))
      Value = Arg.split('=').second;
    else if (I + 1 < Argv.size() && !isCommandSeparator(Argv[I + 1]))
      Value = Argv[++I];
    else {
      Dropped.push_back(Arg.str());
      continue;
    }
    for (StringRef Piece : splitList(Value, ", \t"))
      Args.push_back(Piece.str());
  }
  return Args;
}

TranslatedFlags Translator::run(ArrayRef<std::string> Argv) {
  std::vector<std::string> Args = unwrapHostFlags(Argv, Out.Dropped);
  for (size_t I = 0; I < Args.size(); ++I)
    readArg(Args, I);
  if (Newest)
    Out.Arch = Newest->name();
  return std::move(Out);
}

void Translator::readArg(ArrayRef<std::string> Args, size_t &I) {
  StringRef Arg = Args[I];
  if (isCommandSeparator(Arg))
    return drop(
        fmt::format("{} (and the chained command after it)", Arg.str()));
  // Positional arguments are the input files (and a stray "-"): left out
  // of the arguments, listed apart.
  if (!Arg.starts_with("-") || Arg == "-") {
    if (Arg != "-")
      Out.Inputs.push_back(Arg.str());
    return;
  }
  StringRef Body = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
  auto [Name, Inline] = Body.split('=');
  std::optional<OptKind> Kind = lookupOption(Name);

  if (!Kind) {
    // Joined forms of a few families; everything else is a host flag.
    bool SingleDash = !Arg.starts_with("--");
    if (SingleDash && (Body.starts_with("l") || Body.starts_with("L") ||
                       Body.starts_with("Wl,")))
      return drop(Arg); // Linker inputs and flags.
    if (SingleDash && Body.starts_with("x") && Body.size() > 1)
      return apply(OptKind::Language, Arg, Body.drop_front(), std::nullopt);
    return keep(Arg);
  }

  bool TakesValue = true;
  switch (*Kind) {
  case OptKind::Drop:
  case OptKind::FastMath:
  case OptKind::DeviceC:
  case OptKind::NoWarnings:
  case OptKind::Debug:
  case OptKind::Xcompiler:
  case OptKind::ExtendedLambda:
  case OptKind::RelaxedConstexpr:
    TakesValue = false;
    break;
  default:
    break;
  }
  // "-opt=value" carries its value; "-opt value" takes the next argument,
  // except for the few options whose value is optional.
  bool HasInline = Body.contains('=');
  if (!TakesValue || HasInline)
    return apply(*Kind, Arg, Inline, std::nullopt);

  bool OptionalValue = *Kind == OptKind::Optimize || *Kind == OptKind::Rdc ||
                       *Kind == OptKind::Werror;
  if (I + 1 >= Args.size()) {
    if (OptionalValue)
      return apply(*Kind, Arg, "", std::nullopt);
    return drop(Arg); // The value is missing: nothing sensible to keep.
  }
  StringRef Next = Args[I + 1];
  if (OptionalValue) {
    bool NextIsValue =
        (*Kind == OptKind::Optimize && Next.size() <= 2 &&
         !Next.starts_with("-") && !Next.contains('.')) ||
        (*Kind == OptKind::Rdc && (Next == "true" || Next == "false")) ||
        (*Kind == OptKind::Werror && isNvccWarningKindList(Next));
    if (!NextIsValue)
      return apply(*Kind, Arg, "", std::nullopt);
  }
  ++I;
  apply(*Kind, Arg, Next, Next);
}

/// Applies one option; \p Value is its value (inline or separate), and
/// \p Separate is set when the value was the next argument.
void Translator::apply(OptKind Kind, StringRef Arg, StringRef Value,
                       std::optional<StringRef> Separate) {
  std::string Written =
      Separate ? fmt::format("{} {}", Arg.str(), Separate->str()) : Arg.str();
  switch (Kind) {
  case OptKind::Drop:
  case OptKind::DropValue:
  case OptKind::Xcompiler:
    return drop(Written);
  case OptKind::KeepValue:
    keep(Arg);
    if (Separate)
      keep(*Separate);
    return;
  case OptKind::Arch:
    noteArchs(Value);
    return drop(Written);
  case OptKind::Include:
    for (StringRef Dir : splitList(Value))
      keep(("-I" + Dir).str());
    return;
  case OptKind::SystemInclude:
  case OptKind::PreInclude:
    for (StringRef Path : splitList(Value)) {
      keep(Kind == OptKind::SystemInclude ? "-isystem" : "-include");
      keep(Path);
    }
    return;
  case OptKind::Define:
    return keep(("-D" + Value).str());
  case OptKind::Undefine:
    return keep(("-U" + Value).str());
  case OptKind::Std:
    return keep(("-std=" + Value).str());
  case OptKind::Optimize:
    return keep(("-O" + Value).str());
  case OptKind::Language:
    if (Value == "cu" || Value == "cuda") {
      keep("-x");
      return keep("cuda");
    }
    return drop(Written); // The tool always parses the input as CUDA.
  case OptKind::Rdc:
    if (Value.empty() || Value == "true")
      return keep("-fgpu-rdc");
    return drop(Written);
  case OptKind::DeviceC:
    return keep("-fgpu-rdc");
  case OptKind::FastMath:
    return keep("-ffast-math");
  case OptKind::Ftz:
    if (Value == "true")
      return keep("-fgpu-flush-denormals-to-zero");
    return drop(Written);
  case OptKind::Fmad:
    if (Value == "false")
      return keep("-ffp-contract=off");
    return drop(Written);
  case OptKind::DefaultStream:
    if (Value == "per-thread")
      return keep("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    return drop(Written);
  case OptKind::Machine:
    if (Value == "64" || Value == "32")
      return keep(("-m" + Value).str());
    return drop(Written);
  case OptKind::NoWarnings:
    return keep("-w");
  case OptKind::Debug:
    return keep("-g");
  case OptKind::ExtendedLambda:
    return keep("-D__CUDACC_EXTENDED_LAMBDA__");
  case OptKind::RelaxedConstexpr:
    return keep("-D__CUDACC_RELAXED_CONSTEXPR__");
  case OptKind::Werror:
    // Warnings turned into errors would only make the parse fail; the tool
    // reports its own findings.
    return drop(Written);
  }
}

/// Records every architecture named in an -arch/-gencode/-code value such as
/// "sm_90", "native" or "arch=compute_90,code=[sm_90,compute_90]".
void Translator::noteArchs(StringRef Value) {
  for (StringRef Token : splitList(Value, ",=[]\"' \t"))
    if (std::optional<GpuArch> Arch = parseGpuArch(Token))
      if (!Newest || *Newest < *Arch)
        Newest = *Arch;
}

//===--- Response files ---------------------------------------------------===//

/// True for the name (without its dashes) of nvcc's option that includes
/// options files.
bool isOptionsFileOption(StringRef Name) {
  return Name == "options-file" || Name == "optf";
}

/// Copies \p Words to \p Out with nvcc's options-file options rewritten to
/// the "@FILE" form that llvm::cl::ExpansionContext expands: "--options-file
/// F", "-optf F", "--options-file=F" and a list ("-optf A,B", as nvcc takes
/// it). An option without its value is kept, for the translator to drop.
void rewriteOptionsFiles(ArrayRef<const char *> Words,
                         llvm::StringSaver &Saver,
                         llvm::SmallVectorImpl<const char *> &Out) {
  for (size_t I = 0; I < Words.size(); ++I) {
    StringRef Word = Words[I] ? StringRef(Words[I]) : StringRef();
    StringRef Body = Word.drop_front(Word.starts_with("--") ? 2 : 1);
    auto [Name, Value] = Body.split('=');
    if (!Word.starts_with("-") || !isOptionsFileOption(Name)) {
      Out.push_back(Words[I]); // Also the end-of-line markers (nullptr).
      continue;
    }
    if (!Body.contains('=')) {
      if (I + 1 >= Words.size() || !Words[I + 1]) {
        Out.push_back(Words[I]);
        continue;
      }
      Value = Words[++I];
    }
    for (StringRef File : splitList(Value))
      Out.push_back(Saver.save("@" + File).data());
  }
}

/// The tokenizer of response files: GNU rules (blanks separate words, quotes
/// and backslashes as in a shell), as nvcc and gcc read them, with nvcc's
/// options-file options inside turned into "@FILE" so that nested files of
/// either spelling are expanded.
void tokenizeResponseFile(StringRef Source, llvm::StringSaver &Saver,
                          llvm::SmallVectorImpl<const char *> &NewArgv,
                          bool MarkEOLs) {
  llvm::SmallVector<const char *, 32> Words;
  llvm::cl::TokenizeGNUCommandLine(Source, Saver, Words, MarkEOLs);
  rewriteOptionsFiles(Words, Saver, NewArgv);
}

/// The error of a command whose response files cannot be expanded.
llvm::Error responseFileError(StringRef Directory, StringRef Detail) {
  std::string Text = Detail.str();
  // llvm::cl's own wording ("cannot not open file").
  size_t Typo = Text.find("cannot not ");
  if (Typo != std::string::npos)
    Text.erase(Typo + 7, 4);
  return llvm::createStringError(
      std::errc::invalid_argument,
      "cannot expand the response files of the compile command (run in "
      "'%s'): %s",
      Directory.str().c_str(), Text.c_str());
}

} // namespace

TranslatedFlags translateCompileCommand(const std::vector<std::string> &Argv) {
  return Translator().run(Argv);
}

llvm::Expected<std::vector<std::string>>
expandResponseFiles(const std::vector<std::string> &Argv,
                    llvm::StringRef Directory) {
  // Only the first command: what a chained command reads is not ours.
  size_t End = llvm::find_if(Argv, [](const std::string &A) {
                 return isCommandSeparator(A);
               }) -
               Argv.begin();
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 64> Head, Words;
  for (size_t I = 0; I < End; ++I)
    Head.push_back(Argv[I].c_str());
  rewriteOptionsFiles(Head, Saver, Words);
  auto IsResponseFile = [](const char *W) { return W && W[0] == '@'; };
  if (llvm::none_of(Words, IsResponseFile))
    return Argv; // Nothing to read.

  llvm::SmallString<256> Dir(Directory);
  if (std::error_code EC = llvm::sys::fs::make_absolute(Dir))
    return responseFileError(Directory, EC.message());
  llvm::cl::ExpansionContext Context(Alloc, tokenizeResponseFile);
  Context.setCurrentDir(Dir);
  if (llvm::Error E = Context.expandResponseFiles(Words))
    return responseFileError(Dir, llvm::toString(std::move(E)));
  // A missing file is left as "@FILE" (as gcc does with an argument that
  // names no file); in a compile command it is a response file that was
  // not written (or not copied with the database).
  for (const char *W : Words) {
    if (!IsResponseFile(W))
      continue;
    llvm::SmallString<256> Path(W + 1);
    llvm::sys::path::make_absolute(Dir, Path);
    return responseFileError(Dir,
                             fmt::format("no such file '{}'", Path.str()));
  }
  std::vector<std::string> Out(Words.begin(), Words.end());
  Out.insert(Out.end(), Argv.begin() + End, Argv.end());
  return Out;
}

llvm::Expected<TranslatedFlags>
translateCompileCommandIn(const std::vector<std::string> &Argv,
                          llvm::StringRef Directory) {
  llvm::Expected<std::vector<std::string>> Expanded =
      expandResponseFiles(Argv, Directory);
  if (!Expanded)
    return Expanded.takeError();
  return translateCompileCommand(*Expanded);
}

} // namespace coalesce
