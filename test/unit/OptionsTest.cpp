//===- OptionsTest.cpp - Parsing coalesce-lint's command line -------------===//
//
// Built into its own executable (coalesce-options-tests) with
// tool/Options.cpp: parseOptions() registers function-local static LLVM
// options, so it is called at most once per process (one test below).
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "coalesce/Rules.h"

#include <gtest/gtest.h>

#include <string>

using namespace coalesce;
using namespace coalesce::tool;

namespace {

/// The error message of \p E, or "" when it holds a value.
template <typename T> std::string errorOf(llvm::Expected<T> &E) {
  if (E)
    return "";
  return llvm::toString(E.takeError());
}

//===----------------------------------------------------------------------===//
// --block
//===----------------------------------------------------------------------===//

TEST(ParseBlockTest, AcceptsOneToThreeDimensions) {
  struct Case {
    const char *Text;
    BlockShape Shape;
  } Cases[] = {
      {"256", {256, 1, 1}},  {"16,16", {16, 16, 1}}, {"16x16", {16, 16, 1}},
      {"8,8,4", {8, 8, 4}},  {"8x8x4", {8, 8, 4}},   {"1024", {1024, 1, 1}},
      {"32, 4", {32, 4, 1}}, {"1,1,64", {1, 1, 64}},
  };
  for (const Case &C : Cases) {
    llvm::Expected<BlockOverride> B = parseBlock(C.Text);
    ASSERT_TRUE(static_cast<bool>(B)) << C.Text << ": " << errorOf(B);
    EXPECT_EQ(B->Kernel, "") << C.Text;
    EXPECT_EQ(B->Shape, C.Shape) << C.Text << " gave " << B->Shape.str();
  }
}

TEST(ParseBlockTest, TakesAKernelPrefix) {
  llvm::Expected<BlockOverride> B = parseBlock("transpose:32,8");
  ASSERT_TRUE(static_cast<bool>(B)) << errorOf(B);
  EXPECT_EQ(B->Kernel, "transpose");
  EXPECT_EQ(B->Shape, (BlockShape{32, 8, 1})) << B->Shape.str();

  // A qualified name keeps its "::"; only the last ':' separates.
  llvm::Expected<BlockOverride> Q = parseBlock("ns::kernel:16x16");
  ASSERT_TRUE(static_cast<bool>(Q)) << errorOf(Q);
  EXPECT_EQ(Q->Kernel, "ns::kernel");
  EXPECT_EQ(Q->Shape, (BlockShape{16, 16, 1})) << Q->Shape.str();

  // A kernel name containing 'x' does not change the separator.
  llvm::Expected<BlockOverride> X = parseBlock("matrix:64,2");
  ASSERT_TRUE(static_cast<bool>(X)) << errorOf(X);
  EXPECT_EQ(X->Kernel, "matrix");
  EXPECT_EQ(X->Shape, (BlockShape{64, 2, 1})) << X->Shape.str();
}

TEST(ParseBlockTest, RejectsInvalidShapes) {
  for (const char *Text : {"", "0", "-1", "abc", "16x", "16,,16", "1,2,3,4",
                           "2048", "64,64", "16,16,8", "k:", "k:0", "16.5"}) {
    llvm::Expected<BlockOverride> B = parseBlock(Text);
    std::string Error = errorOf(B);
    EXPECT_FALSE(Error.empty()) << "'" << Text << "' was accepted";
    EXPECT_NE(Error.find("--block"), std::string::npos) << Error;
  }
  // The message says what is wrong.
  llvm::Expected<BlockOverride> Big = parseBlock("64,64");
  EXPECT_NE(errorOf(Big).find("1024"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// --param
//===----------------------------------------------------------------------===//

TEST(ParseParamTest, AcceptsNameEqualsInteger) {
  struct Case {
    const char *Text, *Kernel, *Name;
    int64_t Value;
  } Cases[] = {
      {"n=100", "", "n", 100},
      {"N=0", "", "N", 0},
      {"off=-5", "", "off", -5},
      {"stride=0x10", "", "stride", 16},
      {"k:n=7", "k", "n", 7},
      {"ns::k:width=4096", "ns::k", "width", 4096},
      {"big=4294967296", "", "big", 4294967296LL},
  };
  for (const Case &C : Cases) {
    llvm::Expected<ParamValue> P = parseParam(C.Text);
    ASSERT_TRUE(static_cast<bool>(P)) << C.Text << ": " << errorOf(P);
    EXPECT_EQ(P->Kernel, C.Kernel) << C.Text;
    EXPECT_EQ(P->Name, C.Name) << C.Text;
    EXPECT_EQ(P->Value, C.Value) << C.Text;
  }
}

TEST(ParseParamTest, RejectsMalformedValues) {
  for (const char *Text :
       {"", "n", "n=", "=5", "n=abc", "n=1.5", "k:n=", "k:n", "n=5x"}) {
    llvm::Expected<ParamValue> P = parseParam(Text);
    std::string Error = errorOf(P);
    EXPECT_FALSE(Error.empty()) << "'" << Text << "' was accepted";
    EXPECT_NE(Error.find("--param"), std::string::npos) << Error;
  }
}

// "k:=3" names kernel k but no parameter: rejected, not taken as a global
// parameter named "k:".
TEST(ParseParamTest, RejectsAnEmptyNameAfterTheKernel) {
  llvm::Expected<ParamValue> P = parseParam("k:=3");
  if (P)
    ADD_FAILURE() << "accepted as kernel='" << P->Kernel << "' name='"
                  << P->Name << "' value=" << P->Value;
  else
    llvm::consumeError(P.takeError());
}

//===----------------------------------------------------------------------===//
// Exit codes
//===----------------------------------------------------------------------===//

Report reportWith(bool Analyzed, std::vector<CompileError> Errors,
                  unsigned Kernels = 1) {
  Report R;
  R.Files.emplace_back();
  R.Files.back().File = "k.cu";
  R.Files.back().Analyzed = Analyzed;
  R.Files.back().KernelsAnalyzed = Analyzed ? Kernels : 0;
  R.Files.back().Errors = std::move(Errors);
  return R;
}

TEST(ExitCodeTest, SeparatesFindingsFromCompileErrors) {
  Options Fail, Never;
  Never.FailOnFindings = false;
  CompileError InKernel, InHost;
  InKernel.InKernel = true;
  InKernel.Message = "use of undeclared identifier 'x'";
  InHost.Message = "use of undeclared identifier 'cudaThreadSynchronize'";

  Report Clean = reportWith(true, {});
  EXPECT_EQ(exitCode(Clean, 0, Fail), ExitClean);
  EXPECT_EQ(exitCode(Clean, 3, Fail), ExitFindings);
  EXPECT_EQ(exitCode(Clean, 3, Never), ExitClean);

  // Host-only errors do not stop the analysis of kernels.
  Report Host = reportWith(true, {InHost});
  EXPECT_EQ(exitCode(Host, 0, Fail), ExitClean);
  EXPECT_EQ(exitCode(Host, 1, Fail), ExitFindings);
  // ... but errors and no kernel at all: the file is not CUDA we can read.
  Report HostOnly = reportWith(true, {InHost}, /*Kernels=*/0);
  EXPECT_EQ(exitCode(HostOnly, 0, Never), ExitCompile);
  // A file without kernels and without errors is clean.
  Report NoKernels = reportWith(true, {}, /*Kernels=*/0);
  EXPECT_EQ(exitCode(NoKernels, 0, Fail), ExitClean);

  // A kernel that does not compile, or a file that was not parsed, wins over
  // findings and over --fail-on=never.
  Report Kernel = reportWith(true, {InHost, InKernel});
  EXPECT_EQ(exitCode(Kernel, 0, Fail), ExitCompile);
  EXPECT_EQ(exitCode(Kernel, 5, Fail), ExitCompile);
  EXPECT_EQ(exitCode(Kernel, 5, Never), ExitCompile);
  Report Unparsed = reportWith(false, {});
  EXPECT_EQ(exitCode(Unparsed, 0, Never), ExitCompile);

  // One bad file among good ones.
  Report Mixed = reportWith(true, {});
  Mixed.Files.push_back(Kernel.Files[0]);
  EXPECT_EQ(exitCode(Mixed, 2, Fail), ExitCompile);
}

//===----------------------------------------------------------------------===//
// --explain and --list-rules
//===----------------------------------------------------------------------===//

TEST(RulesOptionTest, ListsAndExplainsEveryRule) {
  ASSERT_FALSE(allRules().empty());
  std::string List;
  llvm::raw_string_ostream ListOS(List);
  EXPECT_EQ(listRules(ListOS), ExitClean);
  for (const RuleInfo &R : allRules()) {
    EXPECT_NE(List.find(R.Id), std::string::npos) << R.Id << "\n" << List;
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    EXPECT_EQ(explainRule(R.Id, OS), ExitClean) << R.Id;
    EXPECT_NE(Text.find(R.Summary), std::string::npos) << Text;
    EXPECT_NE(Text.find(R.Good), std::string::npos) << Text;
  }
  std::string Unknown;
  llvm::raw_string_ostream UnknownOS(Unknown);
  EXPECT_EQ(explainRule("coalesce-no-such-rule", UnknownOS), ExitUsage);
  EXPECT_EQ(Unknown, "");
}

//===----------------------------------------------------------------------===//
// The whole command line (parseOptions may run once per process)
//===----------------------------------------------------------------------===//

TEST(ParseOptionsTest, FillsEveryFieldOnce) {
  const char *Argv[] = {"coalesce-lint",
                        "--block=transpose:16,16",
                        "--block",
                        "128",
                        "--param",
                        "n=4096",
                        "--param=transpose:width=0x100",
                        "--default-param=512",
                        "--timeout=7",
                        "--arch=sm_80",
                        "--format=json",
                        "-o",
                        "report.json",
                        "--threshold=0.5",
                        "--no-indirect",
                        "--fail-on=never",
                        "--use-color=never",
                        "--print-accesses",
                        "--emit-harness=harness",
                        "--buffer",
                        "in=0x1000",
                        "--fill=zeros",
                        "--grid=8,4",
                        "a.cu",
                        "b.cu",
                        "--",
                        "-DTILE=32",
                        "--",
                        "-Iinclude"};
  llvm::Expected<Options> O =
      parseOptions(static_cast<int>(std::size(Argv)), Argv);
  ASSERT_TRUE(static_cast<bool>(O)) << errorOf(O);
  EXPECT_EQ(O->Action, RunAction::Analyze);
  const AnalysisConfig &A = O->Analysis;
  EXPECT_EQ(A.Files, (std::vector<std::string>{"a.cu", "b.cu"}));
  // Everything after the first "--" goes to the compiler, later "--" too.
  EXPECT_EQ(A.ExtraArgs,
            (std::vector<std::string>{"-DTILE=32", "--", "-Iinclude"}));
  EXPECT_EQ(A.Arch, "sm_80");
  EXPECT_EQ(A.DefaultValue, 512);
  EXPECT_EQ(A.TimeoutSeconds, 7u);
  ASSERT_EQ(A.Blocks.size(), 2u);
  EXPECT_EQ(A.Blocks[0].Kernel, "transpose");
  EXPECT_EQ(A.Blocks[0].Shape, (BlockShape{16, 16, 1}));
  EXPECT_EQ(A.Blocks[1].Kernel, "");
  EXPECT_EQ(A.Blocks[1].Shape, (BlockShape{128, 1, 1}));
  EXPECT_EQ(A.blockFor("transpose"),
            std::optional<BlockShape>(BlockShape{16, 16, 1}));
  EXPECT_EQ(A.blockFor("other"),
            std::optional<BlockShape>(BlockShape{128, 1, 1}));
  ASSERT_EQ(A.Params.size(), 2u);
  EXPECT_EQ(A.paramsFor("transpose"),
            (std::map<std::string, int64_t>{{"n", 4096}, {"width", 256}}));
  EXPECT_EQ(A.paramsFor("other"),
            (std::map<std::string, int64_t>{{"n", 4096}}));

  EXPECT_EQ(O->Format, OutputFormat::Json);
  EXPECT_EQ(O->OutputFile, "report.json");
  EXPECT_DOUBLE_EQ(O->Findings.Threshold, 0.5);
  EXPECT_FALSE(O->Findings.ReportIndirect);
  EXPECT_TRUE(O->Findings.ReportPossiblyMisaligned);
  EXPECT_FALSE(O->FailOnFindings);
  EXPECT_FALSE(O->Color);
  EXPECT_TRUE(O->PrintAccesses);
  EXPECT_FALSE(O->ShowAllErrors);
  EXPECT_EQ(O->HarnessDir, "harness");
  EXPECT_FALSE(O->VerifyOnGpu);
  EXPECT_EQ(O->Buffers, (std::map<std::string, uint64_t>{{"in", 4096}}));
  EXPECT_EQ(O->Fill, "zeros");
  EXPECT_EQ(O->Grid, std::optional<BlockShape>(BlockShape{8, 4, 1}));
  EXPECT_DOUBLE_EQ(O->Tolerance, 0.05);
  EXPECT_EQ(O->VerifyTimeout, 30u);
}

//===----------------------------------------------------------------------===//
// verify: settings of a configuration file
//===----------------------------------------------------------------------===//

TEST(ApplyVerifySettingsTest, FillsWhatTheCommandLineDidNotGive) {
  VerifySettings V;
  V.Tolerance = 0.2;
  V.Timeout = 90;
  V.Fill = "permutation";
  V.Grid = BlockShape{16, 1, 1};
  V.Buffers["in"] = 64;
  V.LaunchCount = 3;
  V.Kernel = "k.*";
  V.FailOnMismatch = true;
  V.All = true;
  Options O;
  O.Given.insert("tolerance"); // --tolerance on the command line wins
  O.Tolerance = 0.01;
  applyVerifySettings(V, O);
  EXPECT_DOUBLE_EQ(O.Tolerance, 0.01);
  EXPECT_EQ(O.VerifyTimeout, 90u);
  EXPECT_EQ(O.Fill, "permutation");
  EXPECT_EQ(O.Grid, std::optional<BlockShape>(BlockShape{16, 1, 1}));
  EXPECT_EQ(O.Buffers.at("in"), 64u);
  EXPECT_EQ(O.LaunchCount, 3u);
  EXPECT_EQ(O.KernelRegex, "k.*");
  EXPECT_TRUE(O.FailOnMismatch);
  EXPECT_TRUE(O.VerifyAll);
}

} // namespace
