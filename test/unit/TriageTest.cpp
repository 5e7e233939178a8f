//===- TriageTest.cpp - Policy, suppressions and baseline over findings ---===//

#include "coalesce/Triage.h"

#include "TestExprs.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// A strided store "a[i * 32]" (32 sectors, ideal 4) at \p File:\p Line.
AccessRecord stridedAccess(const std::string &File, unsigned Line,
                           const std::string &Expr = "a[i * 32]") {
  AccessRecord A;
  A.Loc = {File, Line, 3};
  A.EndLoc = {File, Line, 11};
  A.Kernel = "k";
  A.Expression = Expr;
  A.Base = "a";
  A.ElemBytes = 4;
  A.Pattern.Address = Expr::constant(128) * testSymbol(Symbol::threadIdx(0));
  A.Predicted.Class = Classification::Strided;
  A.Predicted.SectorsPerRequest = 32;
  A.Predicted.IdealSectorsPerRequest = 4;
  A.Predicted.LaneStrideBytes = Expr::constant(128);
  A.Predicted.LaneStrideBytesValue = 128;
  return A;
}

Report reportOf(std::vector<AccessRecord> Accesses) {
  Report R;
  R.Files.push_back({});
  R.Files.back().File = Accesses.front().Loc.File;
  KernelRecord K;
  K.Name = "k";
  K.Loc = {Accesses.front().Loc.File, 1, 17};
  K.Accesses = std::move(Accesses);
  R.Kernels.push_back(std::move(K));
  return R;
}

TEST(TriageTest, FingerprintIgnoresWhitespaceAndLines) {
  EXPECT_EQ(findingFingerprint("k", "a[i * 32]", "coalesce-stride"),
            findingFingerprint("k", "a[i*32]", "coalesce-stride"));
  EXPECT_NE(findingFingerprint("k", "a[i * 32]", "coalesce-stride"),
            findingFingerprint("k2", "a[i * 32]", "coalesce-stride"));
  EXPECT_NE(findingFingerprint("k", "a[i * 32]", "coalesce-stride"),
            findingFingerprint("k", "a[i * 32]", "coalesce-aos"));
  EXPECT_EQ(findingFingerprint("k", "a", "r").size(), 16u);
}

TEST(TriageTest, BaselineCountsDuplicatesAndSurvivesLineShifts) {
  Report Before = reportOf({stridedAccess("k.cu", 3), stridedAccess("k.cu", 9)});
  FindingTable T0 = triage(Before, FindingOptions());
  ASSERT_EQ(T0.Findings.size(), 2u);
  EXPECT_EQ(T0.Findings[0].Occurrence, 0u);
  EXPECT_EQ(T0.Findings[1].Occurrence, 1u);
  Baseline B = baselineOf(T0, "base.json");
  ASSERT_EQ(B.Entries.size(), 1u);
  EXPECT_EQ(B.Entries[0].Count, 2u);
  EXPECT_EQ(B.Entries[0].File, "k.cu");
  EXPECT_EQ(B.Entries[0].Expr, "a[i*32]");

  // Shifted by 10 lines, plus a third copy and a new expression.
  Report After = reportOf({stridedAccess("k.cu", 13), stridedAccess("k.cu", 19),
                           stridedAccess("k.cu", 20),
                           stridedAccess("k.cu", 21, "b[i * 32]")});
  TriageOptions Opts;
  Opts.KnownFindings = &B;
  FindingTable T = triage(After, Opts);
  ASSERT_EQ(T.Findings.size(), 4u);
  EXPECT_TRUE(T.HasBaseline);
  EXPECT_TRUE(T.Findings[0].Baselined);
  EXPECT_TRUE(T.Findings[1].Baselined);
  EXPECT_FALSE(T.Findings[2].Baselined);
  EXPECT_FALSE(T.Findings[3].Baselined);
  EXPECT_EQ(T.reportedCount(), 2u);
  EXPECT_EQ(T.StaleBaselineEntries, 0u);

  // All fixed: the baseline's two findings are stale.
  Report Fixed = reportOf({stridedAccess("k.cu", 3, "c[i * 32]")});
  EXPECT_EQ(triage(Fixed, Opts).StaleBaselineEntries, 2u);
}

TEST(TriageTest, PolicyDisablesRulesAndSetsSeverity) {
  Report R = reportOf({stridedAccess("k.cu", 3)});
  FindingPolicy P;
  P.Rules.push_back({"coalesce-*", std::nullopt, Severity::Error});
  TriageOptions Opts;
  Opts.PolicyFor = [&](const std::string &) -> const FindingPolicy & {
    return P;
  };
  FindingTable T = triage(R, Opts);
  ASSERT_EQ(T.Findings.size(), 1u);
  EXPECT_EQ(T.Findings[0].Level, Severity::Error);
  EXPECT_EQ(T.reportedAtLeast(Severity::Error), 1u);
  P.Rules.push_back({"coalesce-stride", false, std::nullopt});
  EXPECT_TRUE(triage(R, Opts).Findings.empty());
}

TEST(TriageTest, HeaderFilterKeepsInputFiles) {
  Report R = reportOf({stridedAccess("k.cu", 3), stridedAccess("inc/h.cuh", 4),
                       stridedAccess("other/h.cuh", 5)});
  FindingPolicy P;
  P.HeaderFilter = "^inc/";
  TriageOptions Opts;
  Opts.PolicyFor = [&](const std::string &) -> const FindingPolicy & {
    return P;
  };
  FindingTable T = triage(R, Opts);
  ASSERT_EQ(T.Findings.size(), 2u);
  EXPECT_EQ(T.Findings[0].Access->Loc.File, "k.cu");
  EXPECT_EQ(T.Findings[1].Access->Loc.File, "inc/h.cuh");
}

TEST(TriageTest, SuppressionCommentsComeFromTheFile) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("triage", "cu", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << "__global__ void k(float *a) {\n"
          "  int i = threadIdx.x;\n"
          "  a[i * 32] = 1; // NOLINT(coalesce-stride)\n"
          "  a[i * 32] = 2; // NOLINT(coalesce-aos)\n"
          "}\n";
  }
  std::string File = Path.str().str();
  Report R = reportOf({stridedAccess(File, 3), stridedAccess(File, 4)});
  SuppressionIndex Index;
  TriageOptions Opts;
  Opts.Suppressions = &Index;
  FindingTable T = triage(R, Opts);
  ASSERT_EQ(T.Findings.size(), 2u);
  ASSERT_TRUE(T.Findings[0].SuppressedBy.has_value());
  EXPECT_EQ(T.Findings[0].SuppressedBy->Text, "NOLINT(coalesce-stride)");
  EXPECT_FALSE(T.Findings[1].SuppressedBy.has_value());
  EXPECT_EQ(T.suppressedCount(), 1u);
  std::vector<const SuppressionComment *> Unused = Index.unused();
  ASSERT_EQ(Unused.size(), 1u);
  EXPECT_EQ(Unused[0]->Line, 4u);
  // Suppressed findings stay out of a baseline.
  EXPECT_EQ(baselineOf(T, "b.json").Entries.size(), 1u);
  llvm::sys::fs::remove(Path);
}

} // namespace
