//===- CompileFlagsTest.cpp - nvcc translation and CUDA detection --------===//

#include "coalesce/CompileFlags.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace coalesce;
using Strings = std::vector<std::string>;

namespace {

/// Splits a command line at blanks (the tests need no quoting).
Strings words(const std::string &Line) {
  Strings Out;
  llvm::SmallVector<llvm::StringRef, 16> Pieces;
  llvm::StringRef(Line).split(Pieces, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Pieces)
    Out.push_back(P.str());
  return Out;
}

/// Passes when \p Needle occurs in \p Text; prints both either way.
::testing::AssertionResult hasSubstr(const std::string &Text,
                                     const std::string &Needle) {
  bool Found = Text.find(Needle) != std::string::npos;
  return (Found ? ::testing::AssertionSuccess() : ::testing::AssertionFailure())
         << "\"" << Needle << "\" " << (Found ? "occurs" : "does not occur")
         << " in:\n"
         << Text;
}

/// Passes when \p Value is one of \p List; prints both either way.
::testing::AssertionResult hasElement(const Strings &List,
                                      const std::string &Value) {
  bool Found = std::find(List.begin(), List.end(), Value) != List.end();
  ::testing::AssertionResult R =
      Found ? ::testing::AssertionSuccess() : ::testing::AssertionFailure();
  R << "\"" << Value << "\" " << (Found ? "is" : "is not") << " in {";
  for (const std::string &S : List)
    R << " \"" << S << "\"";
  return R << " }";
}

TranslatedFlags translate(const std::string &Line) {
  return translateCompileCommand(words(Line));
}

//===--- Kept and translated flags ----------------------------------------===//

TEST(CompileFlagsTest, KeepsHostFlagsClangKnows) {
  TranslatedFlags F =
      translate("-I/inc -DFOO=1 -UBAR -std=c++17 -O3 -Wall -fPIC -g -w");
  EXPECT_EQ(F.Args, Strings({"-I/inc", "-DFOO=1", "-UBAR", "-std=c++17", "-O3",
                             "-Wall", "-fPIC", "-g", "-w"}));
  EXPECT_EQ(F.Dropped, Strings());
  EXPECT_EQ(F.Arch, "");
}

TEST(CompileFlagsTest, SeparateIncludeAndDefineAreJoined) {
  TranslatedFlags F = translate("-I /a -D X=2 -U Y");
  EXPECT_EQ(F.Args, Strings({"-I/a", "-DX=2", "-UY"}));
}

TEST(CompileFlagsTest, LongIncludeAndDefineBecomeShort) {
  TranslatedFlags F = translate("--include-path /a --include-path=/b,/c "
                                "--define-macro X --define-macro=Y=3 "
                                "--undefine-macro Z");
  EXPECT_EQ(F.Args, Strings({"-I/a", "-I/b", "-I/c", "-DX", "-DY=3", "-UZ"}));
}

TEST(CompileFlagsTest, DefineValuesWithCommasAreNotSplit) {
  TranslatedFlags F = translate("--define-macro=PAIR(a,b)=a");
  EXPECT_EQ(F.Args, Strings({"-DPAIR(a,b)=a"}));
}

TEST(CompileFlagsTest, SystemIncludesAndPreIncludes) {
  TranslatedFlags F =
      translate("-isystem /s1 -isystem=/s2 --system-include /s3 "
                "-include pre.h --pre-include=p2.h");
  EXPECT_EQ(F.Args, Strings({"-isystem", "/s1", "-isystem", "/s2", "-isystem",
                             "/s3", "-include", "pre.h", "-include", "p2.h"}));
}

TEST(CompileFlagsTest, StdSpellings) {
  EXPECT_EQ(translate("--std c++17").Args, Strings({"-std=c++17"}));
  EXPECT_EQ(translate("--std=c++20").Args, Strings({"-std=c++20"}));
  EXPECT_EQ(translate("-std c++14").Args, Strings({"-std=c++14"}));
  EXPECT_EQ(translate("-std=c++17").Args, Strings({"-std=c++17"}));
}

TEST(CompileFlagsTest, OptimizationSpellings) {
  EXPECT_EQ(translate("-O3").Args, Strings({"-O3"}));
  EXPECT_EQ(translate("-O 2").Args, Strings({"-O2"}));
  EXPECT_EQ(translate("--optimize 1").Args, Strings({"-O1"}));
  // A bare -O before an input file does not swallow the file.
  EXPECT_EQ(translate("-O k.cu").Args, Strings({"-O"}));
  // nvcc's -Ofast-compile is not an optimization level.
  TranslatedFlags F = translate("-Ofc 1");
  EXPECT_EQ(F.Args, Strings());
  EXPECT_EQ(F.Dropped, Strings({"-Ofc 1"}));
}

TEST(CompileFlagsTest, LanguageCuBecomesCuda) {
  EXPECT_EQ(translate("-x cu").Args, Strings({"-x", "cuda"}));
  EXPECT_EQ(translate("-x cuda").Args, Strings({"-x", "cuda"}));
  EXPECT_EQ(translate("-xcu").Args, Strings({"-x", "cuda"}));
  TranslatedFlags F = translate("-x c++");
  EXPECT_EQ(F.Args, Strings());
  EXPECT_EQ(F.Dropped, Strings({"-x c++"}));
}

TEST(CompileFlagsTest, XcompilerValuesAreUnwrapped) {
  EXPECT_EQ(translate("-Xcompiler -fPIC,-Wall").Args,
            Strings({"-fPIC", "-Wall"}));
  EXPECT_EQ(translate("-Xcompiler=-fopenmp").Args, Strings({"-fopenmp"}));
  EXPECT_EQ(translate("--compiler-options -O2").Args, Strings({"-O2"}));
  EXPECT_EQ(translate("--compiler-options=-Wextra,-g").Args,
            Strings({"-Wextra", "-g"}));
}

TEST(CompileFlagsTest, XcompilerPairsSplitOverTwoWrappersStayTogether) {
  TranslatedFlags F = translate("-Xcompiler -isystem -Xcompiler /opt/inc");
  EXPECT_EQ(F.Args, Strings({"-isystem", "/opt/inc"}));
}

TEST(CompileFlagsTest, XcompilerValuesAreTranslatedLikeOthers) {
  // Dependency flags handed to the host compiler are still dropped.
  TranslatedFlags F = translate("-Xcompiler -MD,-fPIC -Xcompiler -Werror");
  EXPECT_EQ(F.Args, Strings({"-fPIC"}));
  EXPECT_EQ(F.Dropped, Strings({"-MD", "-Werror"}));
}

TEST(CompileFlagsTest, RdcBecomesGpuRdc) {
  EXPECT_EQ(translate("-rdc=true").Args, Strings({"-fgpu-rdc"}));
  EXPECT_EQ(translate("-rdc true").Args, Strings({"-fgpu-rdc"}));
  EXPECT_EQ(translate("--relocatable-device-code=true").Args,
            Strings({"-fgpu-rdc"}));
  EXPECT_EQ(translate("-dc").Args, Strings({"-fgpu-rdc"}));
  TranslatedFlags F = translate("-rdc=false");
  EXPECT_EQ(F.Args, Strings());
  EXPECT_EQ(F.Dropped, Strings({"-rdc=false"}));
}

TEST(CompileFlagsTest, MathFlagsAreTranslated) {
  EXPECT_EQ(translate("--use_fast_math").Args, Strings({"-ffast-math"}));
  EXPECT_EQ(translate("-use_fast_math").Args, Strings({"-ffast-math"}));
  EXPECT_EQ(translate("--ftz=true").Args,
            Strings({"-fgpu-flush-denormals-to-zero"}));
  EXPECT_EQ(translate("--fmad=false").Args, Strings({"-ffp-contract=off"}));
  TranslatedFlags F =
      translate("--prec-div=false --prec-sqrt false --ftz false");
  EXPECT_EQ(F.Args, Strings());
  EXPECT_EQ(F.Dropped,
            Strings({"--prec-div=false", "--prec-sqrt false", "--ftz false"}));
}

TEST(CompileFlagsTest, OtherTranslations) {
  EXPECT_EQ(translate("--default-stream per-thread").Args,
            Strings({"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"}));
  EXPECT_EQ(translate("--default-stream legacy").Args, Strings());
  EXPECT_EQ(translate("--machine 64").Args, Strings({"-m64"}));
  EXPECT_EQ(translate("-m64").Args, Strings({"-m64"}));
  EXPECT_EQ(translate("--disable-warnings").Args, Strings({"-w"}));
  EXPECT_EQ(translate("--debug").Args, Strings({"-g"}));
}

TEST(CompileFlagsTest, NvccFeatureFlagsBecomeItsMacros) {
  // clang has these features without a flag; nvcc announces them with a
  // macro that code written for it tests (cuco's #error without
  // __CUDACC_EXTENDED_LAMBDA__).
  for (const char *S : {"--extended-lambda", "--expt-extended-lambda",
                        "-extended-lambda"}) {
    TranslatedFlags F = translateCompileCommand({S, "-Wall"});
    EXPECT_EQ(F.Args, Strings({"-D__CUDACC_EXTENDED_LAMBDA__", "-Wall"}))
        << "for " << S;
    EXPECT_TRUE(F.Dropped.empty()) << "for " << S;
  }
  EXPECT_EQ(translate("--expt-relaxed-constexpr").Args,
            Strings({"-D__CUDACC_RELAXED_CONSTEXPR__"}));
}

TEST(CompileFlagsTest, ClangPairsAreKept) {
  TranslatedFlags F = translate("-Xclang -fno-foo -mllvm -x86-asm -iquote q "
                                "--sysroot=/r -target x86_64-linux-gnu");
  EXPECT_EQ(F.Args,
            Strings({"-Xclang", "-fno-foo", "-mllvm", "-x86-asm", "-iquote",
                     "q", "--sysroot=/r", "-target", "x86_64-linux-gnu"}));
}

//===--- Dropped flags ----------------------------------------------------===//

TEST(CompileFlagsTest, NvccOnlySwitchesAreDropped) {
  const char *Switches[] = {"-forward-unknown-to-host-compiler",
                            "-G",
                            "-lineinfo",
                            "-allow-unsupported-compiler",
                            "--allow-unsupported-compiler",
                            "-c",
                            "-MD",
                            "-MMD",
                            "-Wno-deprecated-gpu-targets",
                            "-nocudalib",
                            "--cuda-device-only",
                            "-res-usage",
                            "-lcudart",
                            "-L/usr/local/cuda/lib64",
                            "-Wl,-rpath,/x",
                            "-shared",
                            "-E"};
  for (const char *S : Switches) {
    TranslatedFlags F = translateCompileCommand({S, "-Wall"});
    EXPECT_EQ(F.Args, Strings({"-Wall"})) << "for " << S;
    EXPECT_EQ(F.Dropped, Strings({S})) << "for " << S;
  }
}

TEST(CompileFlagsTest, NvccOptionsAreDroppedWithTheirValues) {
  const char *Lines[] = {"-ccbin /usr/bin/g++-12",
                         "-ccbin=/usr/bin/g++-12",
                         "--compiler-bindir /usr/bin/g++",
                         "-Xptxas -v",
                         "-Xptxas=-O3,-v",
                         "-Xcudafe --diag_suppress=177",
                         "--diag_suppress 177",
                         "--diag-suppress=20012",
                         "-diag-suppress 550",
                         "-maxrregcount 32",
                         "-maxrregcount=64",
                         "--threads 4",
                         "--threads=0",
                         "-t 8",
                         "-o out.o",
                         "--output-file=out.o",
                         "-MF deps.d",
                         "-MT target.o",
                         "--cuda-path=/opt/cuda",
                         "-Xnvlink --suppress-stack-size-warning",
                         "--cudart static",
                         "-Xassembler --noexecstack",
                         "-include-pch all.pch",
                         "--param max-inline-insns-single=1000",
                         "-z noexecstack"};
  for (const char *Line : Lines) {
    TranslatedFlags F = translate(std::string(Line) + " -DKEEP");
    EXPECT_EQ(F.Args, Strings({"-DKEEP"})) << "for " << Line;
    EXPECT_EQ(F.Dropped, Strings({Line})) << "for " << Line;
  }
}

TEST(CompileFlagsTest, WerrorIsDroppedWithNvccKinds) {
  TranslatedFlags F =
      translate("-Werror all-warnings -Werror=cross-execution-space-call "
                "-Werror -Wall");
  EXPECT_EQ(F.Args, Strings({"-Wall"}));
  EXPECT_EQ(F.Dropped,
            Strings({"-Werror all-warnings",
                     "-Werror=cross-execution-space-call", "-Werror"}));
}

TEST(CompileFlagsTest, InputFilesAreLeftOut) {
  TranslatedFlags F = translate("-c kernel.cu -o kernel.o -I inc other.cpp");
  EXPECT_EQ(F.Args, Strings({"-Iinc"}));
  EXPECT_FALSE(hasElement(F.Args, "kernel.cu"));
  EXPECT_EQ(F.Dropped, Strings({"-c", "-o kernel.o"}));
}

TEST(CompileFlagsTest, MissingValueIsDropped) {
  TranslatedFlags F = translate("-DA -ccbin");
  EXPECT_EQ(F.Args, Strings({"-DA"}));
  EXPECT_EQ(F.Dropped, Strings({"-ccbin"}));
}

//===--- Chained commands -------------------------------------------------===//

TEST(CompileFlagsTest, StopsAtChainedCommand) {
  TranslatedFlags F = translate(
      "-DA -x cu -c k.cu -o k.o && /usr/local/cuda/bin/nvcc -DB -M k.cu "
      "-MT k.o -o k.d");
  EXPECT_EQ(F.Args, Strings({"-DA", "-x", "cuda"}));
  ASSERT_FALSE(F.Dropped.empty());
  EXPECT_TRUE(hasSubstr(F.Dropped.back(), "&&"));
  for (const char *Sep : {";", "||", "|"}) {
    TranslatedFlags G = translateCompileCommand({"-DA", Sep, "-DB"});
    EXPECT_EQ(G.Args, Strings({"-DA"})) << "separator " << Sep;
  }
}

TEST(CompileFlagsTest, RealCMakeNvccCommand) {
  TranslatedFlags F = translate(
      "-forward-unknown-to-host-compiler -ccbin=/usr/bin/g++ "
      "-DUSE_CUDA -I/src/include -isystem=/usr/local/cuda/include -O3 "
      "-DNDEBUG --generate-code=arch=compute_80,code=[compute_80,sm_80] "
      "-Xcompiler=-fPIC --expt-relaxed-constexpr -std=c++17 -MD -MT "
      "k.cu.o -MF k.cu.o.d -x cu -rdc=true -c /src/k.cu -o k.cu.o");
  EXPECT_EQ(F.Args,
            Strings({"-DUSE_CUDA", "-I/src/include", "-isystem",
                     "/usr/local/cuda/include", "-O3", "-DNDEBUG", "-fPIC",
                     "-D__CUDACC_RELAXED_CONSTEXPR__", "-std=c++17", "-x",
                     "cuda", "-fgpu-rdc"}));
  EXPECT_EQ(F.Arch, "sm_80");
}

//===--- Architecture -----------------------------------------------------===//

TEST(CompileFlagsTest, ArchSpellings) {
  EXPECT_EQ(translate("-arch=sm_90").Arch, "sm_90");
  EXPECT_EQ(translate("-arch sm_75").Arch, "sm_75");
  EXPECT_EQ(translate("--gpu-architecture=sm_80").Arch, "sm_80");
  EXPECT_EQ(translate("--gpu-architecture sm_86").Arch, "sm_86");
  EXPECT_EQ(translate("-arch=compute_70").Arch, "sm_70");
  EXPECT_EQ(translate("-gencode arch=compute_70,code=sm_70").Arch, "sm_70");
  EXPECT_EQ(translate("-gencode=arch=compute_90,code=[sm_90,compute_90]").Arch,
            "sm_90");
  EXPECT_EQ(translate("--generate-code arch=compute_90a,code=sm_90a").Arch,
            "sm_90a");
  EXPECT_EQ(translate("-code=sm_61").Arch, "sm_61");
  EXPECT_EQ(translate("--cuda-gpu-arch=sm_89").Arch, "sm_89");
  EXPECT_EQ(translate("--offload-arch=sm_80,sm_120").Arch, "sm_120");
  EXPECT_EQ(translate("-arch=sm_100f").Arch, "sm_100");
}

TEST(CompileFlagsTest, ArchFlagsAreNotPassedOn) {
  TranslatedFlags F =
      translate("-arch=sm_90 -gencode arch=compute_80,code=sm_80");
  EXPECT_EQ(F.Args, Strings());
  EXPECT_EQ(F.Dropped,
            Strings({"-arch=sm_90", "-gencode arch=compute_80,code=sm_80"}));
}

TEST(CompileFlagsTest, NewestArchWins) {
  EXPECT_EQ(translate("-gencode arch=compute_90,code=sm_90 "
                      "-gencode arch=compute_80,code=sm_80")
                .Arch,
            "sm_90");
  EXPECT_EQ(translate("-gencode arch=compute_70,code=sm_70 "
                      "-gencode arch=compute_100,code=sm_100 -arch=sm_90")
                .Arch,
            "sm_100");
  // The architecture-specific variant is a superset of the plain one.
  EXPECT_EQ(translate("-arch=sm_90a -arch=sm_90").Arch, "sm_90a");
  EXPECT_EQ(translate("-arch=sm_90 -arch=sm_90a").Arch, "sm_90a");
  EXPECT_EQ(translate("-arch=sm_90a -arch=sm_100").Arch, "sm_100");
}

TEST(CompileFlagsTest, NativeAndAllNameNoArch) {
  EXPECT_EQ(translate("-arch=native").Arch, "");
  EXPECT_EQ(translate("-arch native").Arch, "");
  EXPECT_EQ(translate("-arch=all-major").Arch, "");
  EXPECT_EQ(translate("-arch=native -arch=sm_75").Arch, "sm_75");
}

//===--- CUDA installation ------------------------------------------------===//

/// A temporary directory tree, removed at the end of the test.
class TempDir {
public:
  TempDir() {
    std::error_code EC =
        llvm::sys::fs::createUniqueDirectory("coalesce-cuda", Path);
    EXPECT_FALSE(EC) << EC.message();
    // Compare real paths: /tmp may itself be a link.
    llvm::SmallString<256> Real;
    if (!llvm::sys::fs::real_path(Path, Real))
      Path = Real;
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }

  std::string path(llvm::StringRef Rel = "") const {
    llvm::SmallString<256> P(Path);
    if (!Rel.empty())
      llvm::sys::path::append(P, Rel);
    return std::string(P);
  }
  /// Creates \p Rel (and its parent directories) as an empty file.
  void touch(llvm::StringRef Rel) const {
    std::string P = path(Rel);
    ASSERT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC) << EC.message();
  }
  /// Makes a fake toolkit under \p Rel.
  std::string makeToolkit(llvm::StringRef Rel) const {
    touch((Rel + "/include/cuda_runtime.h").str());
    return path(Rel);
  }

private:
  llvm::SmallString<256> Path;
};

std::string errorText(llvm::Expected<std::string> R) {
  if (R)
    return "no error, found " + *R;
  return llvm::toString(R.takeError());
}

TEST(CudaInstallationTest, ExplicitPathWins) {
  TempDir T;
  CudaSearchPlaces P;
  P.Explicit = T.makeToolkit("explicit") + "/";
  P.CudaPathEnv = T.makeToolkit("env");
  P.DefaultDir = T.makeToolkit("default");
  llvm::Expected<std::string> R = findCudaInstallationIn(P);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(*R, T.path("explicit"));
}

TEST(CudaInstallationTest, InvalidExplicitPathIsAnErrorWithoutFallback) {
  TempDir T;
  CudaSearchPlaces P;
  P.Explicit = T.path("nothing-here");
  P.CudaPathEnv = T.makeToolkit("env");
  std::string Message = errorText(findCudaInstallationIn(P));
  EXPECT_TRUE(hasSubstr(Message, "--cuda-path " + T.path("nothing-here")));
  EXPECT_TRUE(hasSubstr(Message, "no such directory"));
  EXPECT_FALSE(hasSubstr(Message, "no error"));
}

TEST(CudaInstallationTest, CudaPathEnvBeforeNvccAndDefault) {
  TempDir T;
  T.makeToolkit("nvcc-kit");
  T.touch("nvcc-kit/bin/nvcc");
  llvm::sys::fs::setPermissions(T.path("nvcc-kit/bin/nvcc"),
                                llvm::sys::fs::all_exe |
                                    llvm::sys::fs::owner_all);
  CudaSearchPlaces P;
  P.CudaPathEnv = T.makeToolkit("env");
  P.SearchPath = T.path("nvcc-kit/bin");
  P.DefaultDir = T.makeToolkit("default");
  llvm::Expected<std::string> R = findCudaInstallationIn(P);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(*R, T.path("env"));
}

TEST(CudaInstallationTest, NvccOnPathThroughASymlink) {
  TempDir T;
  T.makeToolkit("cuda-13.0");
  T.touch("cuda-13.0/bin/nvcc");
  llvm::sys::fs::setPermissions(T.path("cuda-13.0/bin/nvcc"),
                                llvm::sys::fs::all_exe |
                                    llvm::sys::fs::owner_all);
  // /usr/bin/nvcc -> <toolkit>/bin/nvcc, as distribution packages do.
  ASSERT_FALSE(llvm::sys::fs::create_directories(T.path("usr/bin")));
  ASSERT_FALSE(llvm::sys::fs::create_link(T.path("cuda-13.0/bin/nvcc"),
                                          T.path("usr/bin/nvcc")));
  CudaSearchPlaces P;
  P.CudaPathEnv = T.path("stale"); // Set but wrong: falls through.
  P.SearchPath = T.path("empty-dir") + ":" + T.path("usr/bin");
  P.DefaultDir = T.makeToolkit("default");
  llvm::Expected<std::string> R = findCudaInstallationIn(P);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(*R, T.path("cuda-13.0"));
}

TEST(CudaInstallationTest, DefaultDirIsTheLastResort) {
  TempDir T;
  CudaSearchPlaces P;
  P.SearchPath = T.path("no-bin");
  P.DefaultDir = T.makeToolkit("default");
  llvm::Expected<std::string> R = findCudaInstallationIn(P);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(*R, T.path("default"));
}

TEST(CudaInstallationTest, ErrorListsEverythingTried) {
  TempDir T;
  T.touch("env/include/other.h"); // A directory, but not a toolkit.
  CudaSearchPlaces P;
  P.CudaPathEnv = T.path("env");
  P.SearchPath = T.path("bin");
  P.DefaultDir = T.path("default");
  std::string Message = errorText(findCudaInstallationIn(P));
  EXPECT_TRUE(hasSubstr(Message, "$CUDA_PATH " + T.path("env") +
                                     ": no include/cuda_runtime.h"));
  EXPECT_TRUE(hasSubstr(Message, "no nvcc on $PATH"));
  EXPECT_TRUE(hasSubstr(Message, T.path("default") + ": no such directory"));
  EXPECT_TRUE(hasSubstr(Message, "CUDA_PATH"));
  EXPECT_TRUE(hasSubstr(Message, "--cuda-path"));
}

TEST(CudaInstallationTest, UnsetEnvironmentIsReported) {
  TempDir T;
  CudaSearchPlaces P;
  P.DefaultDir = T.path("default");
  std::string Message = errorText(findCudaInstallationIn(P));
  EXPECT_TRUE(hasSubstr(Message, "$CUDA_PATH: not set"));
  EXPECT_TRUE(hasSubstr(Message, "$PATH is empty"));
}

/// The device-parse arguments without clang's resource directory and the
/// compatibility header (the last arguments when they are installed; checked
/// on their own below).
Strings withoutResourceDir(Strings Args) {
  if (Args.size() >= 2 && Args[Args.size() - 2] == "-include")
    Args.resize(Args.size() - 2);
  if (!Args.empty() && llvm::StringRef(Args.back()).starts_with("-resource-dir="))
    Args.pop_back();
  return Args;
}

TEST(CudaInstallationTest, IncludesTheCompatibilityHeader) {
  TempDir T;
  std::string Kit = T.makeToolkit("kit");
  Strings Args = cudaDeviceParseArgs(Kit, "sm_90");
  ASSERT_GE(Args.size(), 2u);
  // After clang's own CUDA wrapper (the driver's -include), last.
  EXPECT_EQ(Args[Args.size() - 2], "-include");
  EXPECT_TRUE(llvm::StringRef(Args.back()).ends_with("/coalesce_cuda_compat.h"));
  EXPECT_TRUE(llvm::sys::fs::exists(Args.back()));
}

TEST(CudaInstallationTest, PassesClangsResourceDirectory) {
  TempDir T;
  std::string Kit = T.makeToolkit("kit");
  Strings Args = cudaDeviceParseArgs(Kit, "sm_90");
  ASSERT_GE(Args.size(), 3u);
  llvm::StringRef Last = Args[Args.size() - 3];
  // The CI image and the development machine have clang's headers
  // (libclang-common-22-dev); without them LibTooling's own guess is used.
  ASSERT_TRUE(Last.consume_front("-resource-dir="))
      << "clang's resource directory is missing from the parse arguments";
  EXPECT_TRUE(llvm::sys::fs::exists(Last.str() + "/include/cuda_wrappers/new"));
  EXPECT_TRUE(llvm::sys::fs::exists(
      Last.str() + "/include/__clang_cuda_runtime_wrapper.h"));
}

TEST(CudaInstallationTest, DeviceParseArgsWithCccl) {
  TempDir T;
  std::string Kit = T.makeToolkit("kit");
  ASSERT_FALSE(llvm::sys::fs::create_directories(T.path("kit/include/cccl")));
  EXPECT_EQ(withoutResourceDir(cudaDeviceParseArgs(Kit, "sm_90")),
            Strings({"-x", "cuda", "--cuda-device-only",
                     "--cuda-gpu-arch=sm_90", "--cuda-path=" + Kit, "-isystem",
                     Kit + "/include/cccl", "-Wno-unknown-cuda-version"}));
}

TEST(CudaInstallationTest, DeviceParseArgsWithoutCccl) {
  TempDir T;
  std::string Kit = T.makeToolkit("kit");
  Strings Args = withoutResourceDir(cudaDeviceParseArgs(Kit, "sm_80"));
  EXPECT_EQ(Args, Strings({"-x", "cuda", "--cuda-device-only",
                           "--cuda-gpu-arch=sm_80", "--cuda-path=" + Kit,
                           "-Wno-unknown-cuda-version"}));
  EXPECT_FALSE(hasElement(Args, "-nocudalib"));
  EXPECT_FALSE(hasElement(Args, "-fsyntax-only"));
}

//===--- Response files ---------------------------------------------------===//

/// Writes \p Content to \p Rel under \p T (parent directories created).
void writeFile(const TempDir &T, llvm::StringRef Rel,
               llvm::StringRef Content) {
  std::string P = T.path(Rel);
  ASSERT_FALSE(
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)));
  std::error_code EC;
  llvm::raw_fd_ostream OS(P, EC);
  ASSERT_FALSE(EC) << EC.message();
  OS << Content;
}

/// The expanded command, or the error's text prefixed with "error: ".
Strings expanded(const Strings &Argv, const std::string &Directory) {
  llvm::Expected<Strings> R = expandResponseFiles(Argv, Directory);
  if (!R)
    return {"error: " + llvm::toString(R.takeError())};
  return *R;
}

/// The error of expanding \p Argv, or "no error" and the expansion.
std::string expansionError(const Strings &Argv, const std::string &Dir) {
  llvm::Expected<Strings> R = expandResponseFiles(Argv, Dir);
  if (!R)
    return llvm::toString(R.takeError());
  std::string Text = "no error:";
  for (const std::string &A : *R)
    Text += " " + A;
  return Text;
}

TEST(ResponseFileTest, CMakeIncludesFileIsReadRelativeToTheCommandDirectory) {
  TempDir T;
  // As CMake writes it: the include flags of the target, paths with blanks
  // quoted, system directories as nvcc's "-isystem=".
  writeFile(T, "build/CMakeFiles/tgt.dir/includes_CUDA.rsp",
            "-I/src/include \"-I/src/with space\" -isystem=/opt/dep/include\n");
  llvm::Expected<TranslatedFlags> F = translateCompileCommandIn(
      words("-forward-unknown-to-host-compiler -DUSE_CUDA --options-file "
            "CMakeFiles/tgt.dir/includes_CUDA.rsp -O3 -x cu -c /src/k.cu -o "
            "k.o"),
      T.path("build"));
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Args, Strings({"-DUSE_CUDA", "-I/src/include",
                              "-I/src/with space", "-isystem",
                              "/opt/dep/include", "-O3", "-x", "cuda"}));
  EXPECT_EQ(F->Inputs, Strings({"/src/k.cu"}));
}

TEST(ResponseFileTest, EverySpellingOfTheOptionIsExpanded) {
  TempDir T;
  writeFile(T, "a.rsp", "-DA");
  writeFile(T, "b.rsp", "-DB");
  const std::string Dir = T.path();
  const char *Lines[] = {"-optf a.rsp",
                         "--optf a.rsp",
                         "-optf=a.rsp",
                         "--options-file a.rsp",
                         "-options-file a.rsp",
                         "--options-file=a.rsp",
                         "@a.rsp"};
  for (const char *Line : Lines)
    EXPECT_EQ(expanded(words(std::string("-DX ") + Line + " -DY"), Dir),
              Strings({"-DX", "-DA", "-DY"}))
        << "for " << Line;
  // nvcc takes a list of files.
  EXPECT_EQ(expanded(words("--options-file a.rsp,b.rsp"), Dir),
            Strings({"-DA", "-DB"}));
  EXPECT_EQ(expanded(words("-optf=b.rsp,a.rsp"), Dir), Strings({"-DB", "-DA"}));
  // An absolute name.
  EXPECT_EQ(expanded({"-optf", T.path("b.rsp")}, "/nonexistent"),
            Strings({"-DB"}));
}

TEST(ResponseFileTest, QuotesBlanksAndBackslashesAsInAShell) {
  TempDir T;
  writeFile(T, "q.rsp",
            "'-DMSG=\"a b\"'\t-DX=a\\ b\n\"-I/q d\"  -DE=\\\"s\\\"\r\n"
            "-I\"/mixed quote\"/x\n\n-DLAST");
  EXPECT_EQ(expanded({"@q.rsp"}, T.path()),
            Strings({"-DMSG=\"a b\"", "-DX=a b", "-I/q d", "-DE=\"s\"",
                     "-I/mixed quote/x", "-DLAST"}));
}

TEST(ResponseFileTest, NestedFilesAreRelativeToTheCommandDirectory) {
  TempDir T;
  // nvcc reads a relative name in any options file from its working
  // directory, not from the including file's.
  writeFile(T, "rsp/outer.rsp",
            "-DOUTER1 --options-file sub/inner.rsp -DOUTER2 @sub/clang.rsp");
  writeFile(T, "sub/inner.rsp", "-DINNER -optf=sub/deepest.rsp");
  writeFile(T, "sub/deepest.rsp", "-DDEEPEST");
  writeFile(T, "sub/clang.rsp", "-DCLANG");
  EXPECT_EQ(expanded(words("-DFIRST -optf rsp/outer.rsp -DLAST"), T.path()),
            Strings({"-DFIRST", "-DOUTER1", "-DINNER", "-DDEEPEST",
                     "-DOUTER2", "-DCLANG", "-DLAST"}));
}

TEST(ResponseFileTest, AMissingFileIsAnErrorNamingIt) {
  TempDir T;
  std::string Message = expansionError(
      words("-DA --options-file CMakeFiles/tgt.dir/includes_CUDA.rsp -c k.cu"),
      T.path("build"));
  EXPECT_TRUE(hasSubstr(Message, "cannot expand the response files"));
  EXPECT_TRUE(hasSubstr(Message, "no such file '" +
                                     T.path("build/CMakeFiles/tgt.dir/"
                                            "includes_CUDA.rsp") +
                                     "'"));
  EXPECT_TRUE(hasSubstr(Message, "run in '" + T.path("build") + "'"));
  // One named inside another.
  writeFile(T, "outer.rsp", "-DOUTER @gone.rsp");
  Message = expansionError({"@outer.rsp"}, T.path());
  EXPECT_TRUE(hasSubstr(Message, "no such file '" + T.path("gone.rsp") + "'"));
  // And through llvm::cl's own errors.
  Message = expansionError({"-optf", "."}, T.path());
  EXPECT_TRUE(hasSubstr(Message, "cannot expand the response files"));
  EXPECT_FALSE(hasSubstr(Message, "no error"));
  EXPECT_FALSE(hasSubstr(Message, "cannot not"));
}

TEST(ResponseFileTest, UnreadableFileIsAnErrorNamingIt) {
  TempDir T;
  ASSERT_FALSE(llvm::sys::fs::create_directories(T.path("dir.rsp")));
  std::string Message = expansionError({"--options-file", "dir.rsp"}, T.path());
  EXPECT_TRUE(hasSubstr(Message, "cannot expand the response files"));
  EXPECT_TRUE(hasSubstr(Message, T.path("dir.rsp")));
  llvm::Expected<TranslatedFlags> F =
      translateCompileCommandIn({"@dir.rsp", "-c", "k.cu"}, T.path());
  ASSERT_FALSE(bool(F));
  EXPECT_TRUE(hasSubstr(llvm::toString(F.takeError()), T.path("dir.rsp")));
}

TEST(ResponseFileTest, RecursionIsAnError) {
  TempDir T;
  writeFile(T, "self.rsp", "-DA @self.rsp");
  std::string Message = expansionError({"@self.rsp"}, T.path());
  EXPECT_TRUE(hasSubstr(Message, "recursive expansion"));
  EXPECT_TRUE(hasSubstr(Message, T.path("self.rsp")));
  // Through both spellings.
  writeFile(T, "a.rsp", "-DA --options-file b.rsp");
  writeFile(T, "b.rsp", "-DB -optf=a.rsp");
  Message = expansionError({"-optf", "a.rsp"}, T.path());
  EXPECT_TRUE(hasSubstr(Message, "recursive expansion"));
  // The same file twice, one after the other, is no recursion.
  writeFile(T, "c.rsp", "-DC");
  EXPECT_EQ(expanded(words("@c.rsp -optf c.rsp,c.rsp"), T.path()),
            Strings({"-DC", "-DC", "-DC"}));
}

TEST(ResponseFileTest, CommandsWithoutResponseFilesAreLeftAsTheyAre) {
  Strings Argv = words("-DA -c k.cu && cat @not-ours.rsp");
  // The chained command is not read: no error for its missing file.
  EXPECT_EQ(expanded(Argv, "/nonexistent"), Argv);
  // An options-file option without its value is left to the translator.
  llvm::Expected<TranslatedFlags> F =
      translateCompileCommandIn({"-DA", "--options-file"}, "/nonexistent");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Args, Strings({"-DA"}));
  EXPECT_EQ(F->Dropped, Strings({"--options-file"}));
}

TEST(ResponseFileTest, ClangStyleCommand) {
  TempDir T;
  writeFile(T, "build/flags.rsp", "-DCLANG -I../inc --cuda-gpu-arch=sm_89");
  llvm::Expected<TranslatedFlags> F = translateCompileCommandIn(
      words("-std=c++17 @flags.rsp -x cuda -c ../k.cu -o k.o"),
      T.path("build"));
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Args,
            Strings({"-std=c++17", "-DCLANG", "-I../inc", "-x", "cuda"}));
  EXPECT_EQ(F->Arch, "sm_89");
  EXPECT_EQ(F->Inputs, Strings({"../k.cu"}));
}

} // namespace
