//===- FindingsTest.cpp - Wording and thresholds of findings --------------===//
//
// Also covers the rule registry (Rules.h) and Report's counting and ordering.
//
//===----------------------------------------------------------------------===//

#include "coalesce/Findings.h"
#include "TestExprs.h"
#include "coalesce/KernelPrediction.h"
#include "coalesce/Rules.h"

#include <gtest/gtest.h>

#include <set>

using namespace coalesce;

namespace {

Expr sym(SymbolKind K, const char *Name) { return testSymbol({K, Name}); }
Expr tidX() { return testSymbol(Symbol::threadIdx(0)); }
Expr c(int64_t V) { return Expr::constant(V); }

/// An access at k.cu:10:5 with the given prediction numbers.
AccessRecord access(const char *Expression, Classification Class,
                    std::optional<double> Sectors,
                    std::optional<double> Ideal) {
  AccessRecord A;
  A.Loc = {"k.cu", 10, 5};
  A.EndLoc = {"k.cu", 10, 14};
  A.Kernel = "k";
  A.Expression = Expression;
  A.Base = "a";
  A.ElemBytes = 4;
  A.Pattern.Address = c(4) * tidX();
  A.Pattern.AccessBytes = 4;
  A.Predicted.Class = Class;
  A.Predicted.SectorsPerRequest = Sectors;
  A.Predicted.IdealSectorsPerRequest = Ideal;
  A.Predicted.ActiveLanesPerRequest = 32;
  return A;
}

AccessRecord strided() {
  AccessRecord A = access("a[i * 32]", Classification::Strided, 32, 4);
  A.Predicted.UsedBytesFraction = 0.125;
  A.Predicted.LaneStrideBytes = c(128);
  A.Predicted.LaneStrideBytesValue = 128;
  return A;
}

AccessRecord possiblyMisaligned() {
  AccessRecord A = access("a[i + off]", Classification::Coalesced, 4, 4);
  A.Predicted.BestSectorsPerRequest = 4;
  A.Predicted.WorstSectorsPerRequest = 5;
  A.Predicted.MisalignmentTerm = "4*off";
  return A;
}

std::string ruleOf(const std::optional<Finding> &F) {
  return F ? F->RuleId : "<no finding>";
}

} // namespace

TEST(FindingsTest, StrideStatesStrideSectorsIdealAndUsedBytes) {
  std::optional<Finding> F = buildFinding(strided(), {});
  ASSERT_TRUE(F) << "a 32-sector strided load must be a finding";
  EXPECT_EQ(F->RuleId, "coalesce-stride");
  EXPECT_EQ(F->Message,
            "uncoalesced load of 'a[i * 32]': adjacent lanes are 128 bytes "
            "apart: 32 sectors per request, ideal 4 (12.5% of fetched bytes "
            "used)");
  EXPECT_DOUBLE_EQ(F->WastedSectors, 28.0);
  EXPECT_NE(F->Suggestion.find("threadIdx.x drive the fastest-varying"),
            std::string::npos)
      << F->Suggestion;
  EXPECT_NE(F->Suggestion.find("shared-memory tile"), std::string::npos)
      << F->Suggestion;
}

TEST(FindingsTest, SymbolicStrideShowsExpressionAndAssumedValue) {
  AccessRecord A = strided();
  A.Expression = "a[i * N]";
  A.Predicted.LaneStrideBytes = c(4) * testSymbol(Symbol::param("N"));
  A.Predicted.LaneStrideBytesValue = 4096;
  A.Predicted.AssumedValues = {{"N", 1024}};
  A.Predicted.UsedBytesFraction = 0.125;
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Message,
            "uncoalesced load of 'a[i * N]': adjacent lanes are 4096 bytes "
            "apart (4*N with N=1024): 32 sectors per request, ideal 4 (12.5% "
            "of fetched bytes used)");
}

TEST(FindingsTest, NonWholeNumbersHaveTwoDecimals) {
  AccessRecord A = strided();
  A.Predicted.SectorsPerRequest = 4.875;
  A.Predicted.IdealSectorsPerRequest = 3.5;
  A.Predicted.UsedBytesFraction = 1.0 / 3.0;
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_NE(F->Message.find(
                "4.88 sectors per request on average, ideal 3.5 on average "
                "(33.33% of"),
            std::string::npos)
      << F->Message;
  EXPECT_DOUBLE_EQ(F->WastedSectors, 1.375);
}

TEST(FindingsTest, MisalignedStatesOffsetIntoTheSector) {
  AccessRecord A = access("out[i + 1]", Classification::Misaligned, 5, 4);
  A.Pattern.Op = AccessOp::Store;
  // 4*(blockIdx.x*blockDim.x + threadIdx.x + 1)
  A.Pattern.Address = c(4) * (testSymbol(Symbol::blockIdx(0)) *
                                  testSymbol(Symbol::blockDim(0)) +
                              tidX() + c(1));
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-misaligned");
  EXPECT_EQ(F->Message, "misaligned store to 'out[i + 1]': 5 sectors per "
                        "request, ideal 4; the warp's 128 bytes start 4 bytes "
                        "into a sector");
  EXPECT_NE(F->Suggestion.find("align the offset to 32 bytes (a multiple of 8 "
                               "elements of 4 bytes)"),
            std::string::npos)
      << F->Suggestion;
  EXPECT_DOUBLE_EQ(F->WastedSectors, 1.0);
}

TEST(FindingsTest, MisalignedOffsetUsesAssumedParameterValues) {
  AccessRecord A = access("a[i + off]", Classification::Misaligned, 5, 4);
  A.Pattern.Address = c(4) * (tidX() + testSymbol(Symbol::param("off")));
  A.Predicted.AssumedValues = {{"off", 6}};
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_NE(F->Message.find("start 24 bytes into a sector"), std::string::npos)
      << F->Message;
}

TEST(FindingsTest, MisalignedWithoutKnownOffsetSaysSoGenerically) {
  AccessRecord A = access("a[i + off]", Classification::Misaligned, 5, 4);
  A.Pattern.Address = c(4) * (tidX() + testSymbol(Symbol::param("off")));
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_NE(F->Message.find("do not start on a 32-byte sector boundary"),
            std::string::npos)
      << F->Message;
}

TEST(FindingsTest, PossiblyMisalignedStatesBothCases) {
  std::optional<Finding> F = buildFinding(possiblyMisaligned(), {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-misaligned-offset");
  EXPECT_EQ(F->Message, "load of 'a[i + off]' may be misaligned: 4 sectors per "
                        "request if 4*off is a multiple of 32 bytes, up to 5 "
                        "otherwise");
  EXPECT_DOUBLE_EQ(F->WastedSectors, 0.0);
}

TEST(FindingsTest, PossiblyMisalignedCanBeTurnedOff) {
  FindingOptions Opts;
  Opts.ReportPossiblyMisaligned = false;
  EXPECT_EQ(ruleOf(buildFinding(possiblyMisaligned(), Opts)), "<no finding>");
}

TEST(FindingsTest, PossiblyMisalignedRespectsThreshold) {
  FindingOptions Opts;
  Opts.Threshold = 1.0;
  EXPECT_EQ(ruleOf(buildFinding(possiblyMisaligned(), Opts)), "<no finding>");
  Opts.Threshold = 0.5;
  EXPECT_EQ(ruleOf(buildFinding(possiblyMisaligned(), Opts)),
            "coalesce-misaligned-offset");
}

TEST(FindingsTest, AosNamesFieldStructSizeAndStride) {
  AccessRecord A = access("p[i].x", Classification::AoS, 8, 4);
  A.Base = "p";
  A.Pattern.RecordBytes = 8;
  A.Predicted.LaneStrideBytes = c(8);
  A.Predicted.LaneStrideBytesValue = 8;
  A.Predicted.UsedBytesFraction = 0.5;
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-aos");
  EXPECT_EQ(F->Message, "load of field 'x' of 'p[i]' (an array of 8-byte "
                        "structs): adjacent lanes are 8 bytes apart: 8 sectors "
                        "per request, ideal 4 (50% of fetched bytes used)");
  EXPECT_NE(F->Suggestion.find("structure of arrays"), std::string::npos)
      << F->Suggestion;
  EXPECT_NE(F->Suggestion.find("(float2)"), std::string::npos) << F->Suggestion;
}

TEST(FindingsTest, AosThroughArrowOnStore) {
  AccessRecord A = access("(q + i)->vel", Classification::AoS, 16, 4);
  A.Pattern.Op = AccessOp::Store;
  A.Pattern.RecordBytes = 16;
  A.Predicted.LaneStrideBytesValue = 16;
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Message, "store to field 'vel' of '(q + i)' (an array of "
                        "16-byte structs): adjacent lanes are 16 bytes apart: "
                        "16 sectors per request, ideal 4");
  EXPECT_NE(F->Suggestion.find("(float4)"), std::string::npos) << F->Suggestion;
}

TEST(FindingsTest, TransposedNamesSlowAndFastDimensions) {
  AccessRecord A =
      access("out[x * height + y]", Classification::Transposed, 32, 4);
  A.Pattern.Op = AccessOp::Store;
  A.Predicted.LaneStrideBytes = c(4) * testSymbol(Symbol::param("height"));
  A.Predicted.LaneStrideBytesValue = 4096;
  A.Predicted.RowStrideBytes = c(4);
  A.Predicted.RowStrideBytesValue = 4;
  A.Predicted.AssumedValues = {{"height", 1024}};
  A.Predicted.UsedBytesFraction = 0.125;
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-transposed");
  EXPECT_EQ(F->Message,
            "transposed store to 'out[x * height + y]': threadIdx.x moves the "
            "slow dimension (stride 4096 bytes: 4*height with height=1024) "
            "while threadIdx.y moves the fast one (stride 4 bytes): 32 sectors "
            "per request, ideal 4 (12.5% of fetched bytes used)");
  EXPECT_NE(F->Suggestion.find("swap the index order"), std::string::npos)
      << F->Suggestion;
}

TEST(FindingsTest, IndirectNamesTheLoadedIndex) {
  AccessRecord A = access("in[idx[i]]", Classification::Indirect, std::nullopt,
                          std::nullopt);
  A.Pattern.Address = c(4) * sym(SymbolKind::IndirectValue, "idx[i]");
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-indirect");
  EXPECT_EQ(F->Message, "load of 'in[idx[i]]' uses an index loaded from "
                        "memory (idx[i]): sectors per request depend on the "
                        "data");
  EXPECT_DOUBLE_EQ(F->WastedSectors, 0.0);

  FindingOptions Off;
  Off.ReportIndirect = false;
  EXPECT_EQ(ruleOf(buildFinding(A, Off)), "<no finding>");
}

TEST(FindingsTest, FloatAtomicOnOneAddressIsContention) {
  AccessRecord A = access("sum[0]", Classification::Uniform, 32, 4);
  A.Pattern.Op = AccessOp::Atomic;
  A.Pattern.Atomic = AtomicKind::Float;
  A.Pattern.Address = c(0);
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-atomic-contention");
  EXPECT_EQ(F->Message, "contended float atomic on 'sum[0]': all 32 active "
                        "lanes hit one address and are serialized: 32 sectors "
                        "per request, ideal 4");
  EXPECT_NE(F->Suggestion.find("reduce in the warp before the atomic"),
            std::string::npos)
      << F->Suggestion;
}

TEST(FindingsTest, UniformAccessesOtherwiseAreNotFindings) {
  AccessRecord IntAtomic = access("cnt[0]", Classification::Uniform, 1, 4);
  IntAtomic.Pattern.Op = AccessOp::Atomic;
  IntAtomic.Pattern.Atomic = AtomicKind::Integer;
  EXPECT_EQ(ruleOf(buildFinding(IntAtomic, {})), "<no finding>");

  AccessRecord Broadcast = access("a[0]", Classification::Uniform, 1, 4);
  EXPECT_EQ(ruleOf(buildFinding(Broadcast, {})), "<no finding>");

  // Excess without a float atomic is not contention.
  AccessRecord Odd = access("a[0]", Classification::Uniform, 8, 4);
  EXPECT_EQ(ruleOf(buildFinding(Odd, {})), "<no finding>");
}

TEST(FindingsTest, AtOrBelowIdealIsNoFinding) {
  EXPECT_EQ(
      ruleOf(buildFinding(access("a[i]", Classification::Coalesced, 4, 4), {})),
      "<no finding>");
  EXPECT_EQ(
      ruleOf(buildFinding(access("a[i]", Classification::Strided, 4, 4), {})),
      "<no finding>");
  EXPECT_EQ(ruleOf(buildFinding(
                access("a[i]", Classification::Misaligned, 3, 4), {})),
            "<no finding>");
  EXPECT_EQ(ruleOf(buildFinding(
                access("a[i]", Classification::Strided, std::nullopt, 4), {})),
            "<no finding>");
}

TEST(FindingsTest, ThresholdIsStrictExcessOverIdeal) {
  AccessRecord A = access("a[i + 1]", Classification::Misaligned, 5, 4);
  FindingOptions Opts;
  Opts.Threshold = 1.0;
  EXPECT_EQ(ruleOf(buildFinding(A, Opts)), "<no finding>")
      << "5 sectors against ideal 4 is not more than 1 above";
  Opts.Threshold = 0.99;
  EXPECT_EQ(ruleOf(buildFinding(A, Opts)), "coalesce-misaligned");
}

TEST(FindingsTest, UnknownIsNeverAFinding) {
  AccessRecord A = access("a[f(i)]", Classification::Unknown, 32, 4);
  A.Predicted.WorstSectorsPerRequest = 32;
  FindingOptions Opts;
  Opts.ReportIndirect = true;
  Opts.ReportPossiblyMisaligned = true;
  EXPECT_EQ(ruleOf(buildFinding(A, Opts)), "<no finding>");
}

TEST(FindingsTest, NotesCoverLaneSourceCallChainAndAssumptions) {
  AccessRecord A = strided();
  A.LaneSourceLoc = {"k.cu", 7, 7};
  A.LaneSourceName = "i";
  A.Pattern.Address = c(128) * tidX();
  A.CallChain = {{"k.cu", 20, 3}, {"k.cu", 15, 10}};
  A.Predicted.Assumptions = {"assuming N >= 8 (N = 1024 used)",
                             "block shape 16x16 from the launch at k.cu:40"};
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  ASSERT_EQ(F->Notes.size(), 5u);
  EXPECT_EQ(F->Notes[0].Message, "'i' is derived from threadIdx.x here");
  EXPECT_EQ(F->Notes[0].Loc.Line, 7u);
  EXPECT_EQ(F->Notes[1].Message, "in a __device__ function called here");
  EXPECT_EQ(F->Notes[1].Loc.Line, 15u);
  EXPECT_EQ(F->Notes[2].Message, "called from kernel 'k' here");
  EXPECT_EQ(F->Notes[2].Loc.Line, 20u);
  EXPECT_EQ(F->Notes[3].Message, "assuming N >= 8 (N = 1024 used)");
  EXPECT_EQ(F->Notes[3].Loc.Line, 10u);
  EXPECT_EQ(F->Notes[3].Loc.Column, 5u);
  EXPECT_EQ(F->Notes[4].Message,
            "block shape 16x16 from the launch at k.cu:40");
}

TEST(FindingsTest, NoLaneSourceNoteWhenThreadIdxIsUsedDirectly) {
  std::optional<Finding> F = buildFinding(strided(), {});
  ASSERT_TRUE(F);
  EXPECT_TRUE(F->Notes.empty()) << F->Notes.front().Message;
}

TEST(FindingsTest, BlockShapeWording) {
  BlockShape B16;
  B16.X = 16;
  B16.Y = 16;
  EXPECT_EQ(
      describeBlockShape(B16, BlockShapeSource::LaunchSite, {"k.cu", 42, 3}),
      "block shape 16x16 from the launch at k.cu:42");
  EXPECT_EQ(describeBlockShape(BlockShape(), BlockShapeSource::Assumed),
            "assuming a 1-D block of 256 threads (no launch found; use "
            "--block)");
  EXPECT_EQ(describeBlockShape(B16, BlockShapeSource::CommandLine),
            "block shape 16x16 from --block");
  BlockShape B128;
  B128.X = 128;
  EXPECT_EQ(describeBlockShape(B128, BlockShapeSource::LaunchBounds),
            "assuming a 1-D block of 128 threads (from __launch_bounds__)");
}

TEST(FindingsTest, EveryRuleBuildFindingUsesIsRegistered) {
  AccessRecord Atomic = access("s[0]", Classification::Uniform, 32, 4);
  Atomic.Pattern.Atomic = AtomicKind::Float;
  AccessRecord Indirect =
      access("a[j[i]]", Classification::Indirect, std::nullopt, std::nullopt);
  AccessRecord Conflict =
      access("tile[x][y]", Classification::BankConflict, 32, 1);
  Conflict.Pattern.Space = AccessSpace::Shared;
  std::vector<AccessRecord> All = {
      strided(),
      access("a[i+1]", Classification::Misaligned, 5, 4),
      access("p[i].x", Classification::AoS, 8, 4),
      access("a[x*n+y]", Classification::Transposed, 32, 4),
      Indirect,
      Atomic,
      possiblyMisaligned(),
      Conflict};
  std::set<std::string> Seen;
  for (const AccessRecord &A : All) {
    std::optional<Finding> F = buildFinding(A, {});
    ASSERT_TRUE(F) << A.Expression;
    EXPECT_NE(findRule(F->RuleId), nullptr) << F->RuleId;
    Seen.insert(F->RuleId);
  }
  EXPECT_EQ(Seen.size(), allRules().size())
      << "each rule of Rules.def should be reachable";
}

TEST(RulesTest, RegistryFollowsRulesDef) {
  ASSERT_EQ(allRules().size(), 8u);
  EXPECT_STREQ(allRules().front().Id, "coalesce-stride");
  EXPECT_STREQ(allRules().back().Id, "coalesce-bank-conflict");
  const RuleInfo *Aos = findRule("coalesce-aos");
  ASSERT_NE(Aos, nullptr);
  EXPECT_STREQ(Aos->Summary,
               "a field of an array of structures is accessed per lane");
  EXPECT_STREQ(Aos->Bad, "x[i] = pts[i].x;");
  EXPECT_EQ(findRule("coalesce-nope"), nullptr);
  EXPECT_EQ(findRule(""), nullptr);
  for (const RuleInfo &R : allRules()) {
    EXPECT_EQ(findRule(R.Id), &R) << R.Id;
    EXPECT_GT(std::string(R.Description).size(), 40u) << R.Id;
  }
}

TEST(ReportTest, CountsErrorsAndAccesses) {
  Report R;
  R.Files.resize(2);
  R.Files[0].Errors.resize(2);
  R.Files[1].Errors.resize(1);
  R.Kernels.resize(2);
  R.Kernels[0].Accesses.resize(3);
  R.Kernels[1].Accesses.resize(4);
  EXPECT_EQ(R.compileErrorCount(), 3u);
  EXPECT_EQ(R.accessCount(), 7u);
  EXPECT_EQ(Report().accessCount(), 0u);
}

TEST(ReportTest, SortOrdersKernelsAndAccessesByLocation) {
  Report R;
  auto Kernel = [](const char *Name, const char *File, unsigned Line) {
    KernelRecord K;
    K.Name = Name;
    K.Loc = {File, Line, 17};
    return K;
  };
  R.Kernels = {Kernel("c", "b.cu", 3), Kernel("b", "a.cu", 9),
               Kernel("a", "a.cu", 9), Kernel("d", "a.cu", 2)};
  auto At = [](unsigned Line, unsigned Col, const char *Kernel) {
    AccessRecord A;
    A.Loc = {"a.cu", Line, Col};
    A.Kernel = Kernel;
    return A;
  };
  R.Kernels[0].Accesses = {At(12, 9, "c"), At(12, 3, "c"), At(4, 30, "c")};
  R.sort();
  std::vector<std::string> Names;
  for (const KernelRecord &K : R.Kernels)
    Names.push_back(K.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"d", "a", "b", "c"}));
  const std::vector<AccessRecord> &Acc = R.Kernels[3].Accesses;
  ASSERT_EQ(Acc.size(), 3u);
  EXPECT_EQ(Acc[0].Loc.Line, 4u);
  EXPECT_EQ(Acc[1].Loc.Column, 3u);
  EXPECT_EQ(Acc[2].Loc.Column, 9u);
}

TEST(FindingsTest, StrideFromRowsOfA2DBlockBlamesTheRows) {
  AccessRecord A = access("a[y * N + x]", Classification::Strided, 8, 4);
  A.Predicted.LaneStrideBytes = c(4);
  A.Predicted.LaneStrideBytesValue = 4;
  A.Predicted.RowStrideBytes = c(4) * testSymbol(Symbol::param("N"));
  A.Predicted.RowStrideBytesValue = 4000;
  A.Predicted.AssumedValues = {{"N", 1000}};
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Message, "uncoalesced load of 'a[y * N + x]': adjacent lanes "
                        "are 4 bytes apart but the warp's rows (threadIdx.y) "
                        "are 4000 bytes apart (4*N with N=1000): 8 sectors per "
                        "request, ideal 4");
  EXPECT_NE(F->Suggestion.find("x dimension is a multiple of 32"),
            std::string::npos)
      << F->Suggestion;
}

TEST(FindingsTest, BankConflictNamesTheLanesTheBankAndThePadding) {
  AccessRecord A = access("tile[x][y]", Classification::BankConflict, 32, 1);
  A.Base = "tile";
  A.Pattern.Space = AccessSpace::Shared;
  A.Predicted.LaneStrideBytes = c(128);
  A.Predicted.LaneStrideBytesValue = 128;
  WarpRequest W;
  for (int64_t L = 0; L < 32; ++L)
    W.LaneAddresses.push_back(L * 128 + 8);
  A.Predicted.Representative = W;
  std::optional<Finding> F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->RuleId, "coalesce-bank-conflict");
  EXPECT_EQ(F->Message,
            "32-way bank conflict on load of 'tile[x][y]': lanes 0, 1, 2 ... "
            "need different words of bank 2; adjacent lanes are 128 bytes "
            "apart: 32 wavefronts per request, ideal 1");
  EXPECT_EQ(F->Suggestion,
            "pad each row of 'tile' by one 4-byte word so that adjacent "
            "lanes are 132 bytes apart instead of 128 (tile[32][33] instead "
            "of tile[32][32]), or swizzle the column index (tile[r][c ^ r])");
  EXPECT_DOUBLE_EQ(F->WastedSectors, 31);

  // Two lanes per word of two banks' worth: a 2-way conflict, lanes 0 and 16.
  W.LaneAddresses.clear();
  for (int64_t L = 0; L < 32; ++L)
    W.LaneAddresses.push_back(L % 16 * 4 + L / 16 * 128);
  A.Predicted.Representative = W;
  A.Predicted.SectorsPerRequest = 2;
  A.Predicted.LaneStrideBytesValue = std::nullopt;
  A.Predicted.LaneStrideBytes = std::nullopt;
  F = buildFinding(A, {});
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Message,
            "2-way bank conflict on load of 'tile[x][y]': lanes 0, 16 need "
            "different words of bank 0; 2 wavefronts per request, ideal 1");
}
