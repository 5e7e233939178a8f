//===- ConfigFileTest.cpp - .coalesce-lint.yaml parsing and applying ------===//

#include "coalesce/ConfigFile.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

std::string errorOf(llvm::StringRef Text) {
  llvm::Expected<ConfigFile> C = parseConfigFile(Text, "/nowhere/c.yaml");
  if (C)
    return "";
  return llvm::toString(C.takeError());
}

TEST(ConfigFileTest, ReadsEveryKey) {
  llvm::Expected<ConfigFile> C = parseConfigFile(R"(
rules:
  coalesce-*: note
  coalesce-indirect: off
  coalesce-stride: {enabled: true, severity: error}
threshold: 0.5
default-param: 4096
block: 128
params: {N: 64}
kernels:
  transpose: {block: [32, 8], params: {width: 2048}}
header-filter: '^include/'
exclude: ['third_party/*', '*.gen.cu']
format: sarif
fail-on: error
)",
                                                 "/p/.coalesce-lint.yaml");
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  ASSERT_EQ(C->Rules.size(), 3u);
  EXPECT_EQ(C->Threshold, 0.5);
  EXPECT_EQ(C->DefaultParam, 4096);
  ASSERT_EQ(C->Blocks.size(), 2u);
  EXPECT_EQ(C->Blocks[0].Kernel, "");
  EXPECT_EQ(C->Blocks[0].Shape, (BlockShape{128, 1, 1}));
  EXPECT_EQ(C->Blocks[1].Kernel, "transpose");
  EXPECT_EQ(C->Blocks[1].Shape, (BlockShape{32, 8, 1}));
  ASSERT_EQ(C->Params.size(), 2u);
  EXPECT_EQ(C->Params[1].Kernel, "transpose");
  EXPECT_EQ(C->Params[1].Value, 2048);
  EXPECT_EQ(C->HeaderFilter, "^include/");
  EXPECT_EQ(C->Exclude.size(), 2u);
  EXPECT_EQ(C->Format, "sarif");
  EXPECT_EQ(C->FailOn, "error");
  EXPECT_EQ(C->directory(), "/p");

  FindingPolicy P = policyOf(*C, FindingOptions(), false, std::nullopt);
  EXPECT_FALSE(P.enabled("coalesce-indirect"));
  EXPECT_TRUE(P.enabled("coalesce-aos"));
  EXPECT_EQ(P.severity("coalesce-aos"), Severity::Note);
  EXPECT_EQ(P.severity("coalesce-stride"), Severity::Error);
  EXPECT_EQ(P.Findings.Threshold, 0.5);
  EXPECT_TRUE(P.excludes("/p/third_party/x/k.cu"));
  EXPECT_TRUE(P.excludes("/p/src/a.gen.cu"));
  EXPECT_FALSE(P.excludes("/p/src/a.cu"));
  EXPECT_TRUE(P.showsHeader("include/h.cuh"));
  EXPECT_FALSE(P.showsHeader("/usr/include/h.h"));
}

TEST(ConfigFileTest, CommandLineWins) {
  llvm::Expected<ConfigFile> C = parseConfigFile(
      "threshold: 2\ndefault-param: 7\ntimeout: 30\nblock: [64]\n"
      "header-filter: a\n",
      "c.yaml");
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  FindingOptions Cli;
  Cli.Threshold = 1;
  EXPECT_EQ(policyOf(*C, Cli, true, std::string("b")).Findings.Threshold, 1);
  EXPECT_EQ(*policyOf(*C, Cli, true, std::string("b")).HeaderFilter, "b");
  EXPECT_EQ(policyOf(*C, Cli, false, std::nullopt).Findings.Threshold, 2);

  AnalysisConfig A;
  A.DefaultValue = 1024;
  A.Blocks.push_back({"", BlockShape{32, 1, 1}});
  EXPECT_EQ(applyConfig(*C, A, true).DefaultValue, 1024);
  A.TimeoutSeconds = 120;
  EXPECT_EQ(applyConfig(*C, A, true, /*TimeoutGiven=*/false).TimeoutSeconds,
            30u);
  EXPECT_EQ(applyConfig(*C, A, true, /*TimeoutGiven=*/true).TimeoutSeconds,
            120u);
  AnalysisConfig Applied = applyConfig(*C, A, false);
  EXPECT_EQ(Applied.DefaultValue, 7);
  // The command line's block comes last, so it wins.
  EXPECT_EQ(*Applied.blockFor("k"), (BlockShape{32, 1, 1}));
}

TEST(ConfigFileTest, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(errorOf("threshold: 1\nrulez: {}\n"),
            "/nowhere/c.yaml:2: unknown key 'rulez' (expected rules, "
            "threshold, min-impact, default-param, timeout, block, params, "
            "kernels, header-filter, exclude, format, fail-on, verify)");
  EXPECT_EQ(errorOf("timeout: -3\n"),
            "/nowhere/c.yaml:1: 'timeout' must be 0 (no limit) to 86400 "
            "seconds");
  EXPECT_EQ(errorOf("rules:\n  coalesce-strid: off\n"),
            "/nowhere/c.yaml:2: unknown rule 'coalesce-strid' (see "
            "coalesce-lint --list-rules)");
  EXPECT_EQ(errorOf("rules:\n  coalesce-stride: loud\n"),
            "/nowhere/c.yaml:2: invalid rule setting 'loud': expected on, "
            "off, note, warning or error");
  EXPECT_EQ(errorOf("block: [0]\n"),
            "/nowhere/c.yaml:1: block dimensions must be from 1 to 1024");
  EXPECT_EQ(errorOf("default-param: many\n"),
            "/nowhere/c.yaml:1: 'default-param' must be an integer, not 'many'");
  EXPECT_EQ(errorOf("fail-on: sometimes\n"),
            "/nowhere/c.yaml:1: invalid fail-on 'sometimes': expected warning, "
            "error, never");
  EXPECT_EQ(errorOf("header-filter: '('\n").substr(0, 34),
            "/nowhere/c.yaml:1: invalid header-");
  EXPECT_EQ(errorOf("- a\n"),
            "/nowhere/c.yaml:1: expected a mapping of keys to values");
  EXPECT_NE(errorOf("rules: [\n"), "");
  EXPECT_EQ(errorOf(""), "");
}

} // namespace

namespace {

TEST(ConfigFileVerifyTest, ReadsEverySetting) {
  llvm::Expected<ConfigFile> C = parseConfigFile(
      "verify:\n"
      "  tolerance: 0.1\n"
      "  timeout: 60\n"
      "  fill: permutation\n"
      "  grid: [128, 2]\n"
      "  buffers: {in: 1048576, out: 4096}\n"
      "  launch-count: 5\n"
      "  kernel: 'gemm.*'\n"
      "  fail-on-mismatch: true\n"
      "  all: false\n",
      "c.yaml");
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  const VerifySettings &V = C->Verify;
  EXPECT_EQ(*V.Tolerance, 0.1);
  EXPECT_EQ(*V.Timeout, 60u);
  EXPECT_EQ(*V.Fill, "permutation");
  EXPECT_EQ(*V.Grid, (BlockShape{128, 2, 1}));
  EXPECT_EQ(V.Buffers.at("in"), 1048576u);
  EXPECT_EQ(V.Buffers.at("out"), 4096u);
  EXPECT_EQ(*V.LaunchCount, 5u);
  EXPECT_EQ(*V.Kernel, "gemm.*");
  EXPECT_TRUE(*V.FailOnMismatch);
  EXPECT_FALSE(*V.All);
}

TEST(ConfigFileVerifyTest, BadValuesNameTheLine) {
  auto Error = [](const char *Text) {
    llvm::Expected<ConfigFile> C = parseConfigFile(Text, "/nowhere/c.yaml");
    return C ? std::string() : llvm::toString(C.takeError());
  };
  EXPECT_EQ(Error("verify:\n  tolerence: 0.1\n"),
            "/nowhere/c.yaml:2: unknown key 'tolerence' in 'verify' (expected "
            "tolerance, timeout, fill, grid, buffers, launch-count, kernel, "
            "fail-on-mismatch, all)");
  EXPECT_EQ(Error("verify:\n  fill: random\n"),
            "/nowhere/c.yaml:2: invalid fill 'random': expected identity, "
            "zeros, permutation");
  EXPECT_EQ(Error("verify:\n  tolerance: 2\n"),
            "/nowhere/c.yaml:2: 'tolerance' must be a number from 0 to 1, "
            "not '2'");
  EXPECT_EQ(Error("verify:\n  grid: [0]\n"),
            "/nowhere/c.yaml:2: grid dimensions must be positive");
  EXPECT_EQ(Error("verify:\n  fail-on-mismatch: yes please\n"),
            "/nowhere/c.yaml:2: 'fail-on-mismatch' must be true or false, not "
            "'yes please'");
  EXPECT_EQ(Error("verify:\n  kernel: '('\n"),
            Error("verify:\n  kernel: '('\n")); // deterministic
  EXPECT_NE(Error("verify:\n  kernel: '('\n").find("invalid kernel regex"),
            std::string::npos);
  EXPECT_EQ(Error("verify: 3\n"),
            "/nowhere/c.yaml:1: 'verify' must map settings to values");
}

} // namespace
