//===- SharedTests.cpp - coalesce-verify on shared-memory accesses --------===//
//
// The source page of examples/matrix.cu recorded on an H200 (test/data/app)
// holds the shared-memory wavefront counters of its tiled transpose: the
// parser, the attribution by space and the per-line comparison of shared
// memory against bank-conflict findings.
//
//===----------------------------------------------------------------------===//

#include "Attribution.h"
#include "Csv.h"
#include "KernelName.h"
#include "LineComparison.h"
#include "Manifest.h"
#include "NcuReport.h"

#include <gtest/gtest.h>

using namespace coalesce::verify;

namespace {

/// examples/matrix.cu profiled on the H200 (test/data/app): transposeTiled
/// stores to and loads from a padded 16x17 float tile with 16x16 blocks,
/// a 2-way bank conflict on both lines (24 and 29).
const SourcePage &matrixPage() {
  static SourcePage Page = [] {
    SourcePage P;
    std::string Error;
    EXPECT_TRUE(parseSourcePage(
        readFile(std::string(COALESCE_VERIFY_APP_DATA_DIR) +
                 "/matrix-source.csv")
            .value_or(""),
        P, Error))
        << Error;
    return P;
  }();
  return Page;
}

ManifestAccess tileAccess(unsigned Id, unsigned Line, const std::string &Op,
                          MemSpace Space, double Predicted) {
  ManifestAccess A;
  A.Id = Id;
  A.Kernel = "transposeTiled";
  A.File = "matrix.cu";
  A.Line = A.EndLine = Line;
  A.Op = Op;
  A.Space = Space;
  A.Predicted = Predicted;
  A.Rule = Predicted > 1 ? "coalesce-bank-conflict" : "-";
  return A;
}

} // namespace

TEST(Manifest, SpaceColumn) {
  std::vector<ManifestAccess> M;
  std::string Error;
  ASSERT_TRUE(parseManifest("id\tkernel\tfile\tline\top\tspace\n"
                            "0\tk\tf.cu\t3\tload\tshared\n"
                            "1\tk\tf.cu\t4\tstore\tglobal\n"
                            "2\tk\tf.cu\t5\tstore\t-\n",
                            M, Error))
      << Error;
  ASSERT_EQ(M.size(), 3u);
  EXPECT_TRUE(M[0].shared());
  EXPECT_FALSE(M[1].shared());
  EXPECT_FALSE(M[2].shared());
  // A manifest without the column lists global accesses.
  ASSERT_TRUE(parseManifest("id\tkernel\tfile\tline\top\n0\tk\tf.cu\t3\tload\n",
                            M, Error));
  EXPECT_FALSE(M.back().shared());
  EXPECT_FALSE(parseManifest("id\tkernel\tfile\tline\top\tspace\n"
                             "0\tk\tf.cu\t3\tload\ttexture\n",
                             M, Error));
  EXPECT_NE(Error.find("global or shared"), std::string::npos) << Error;
}

TEST(NcuReport, SharedInstructionsCountWavefronts) {
  unsigned Shared = 0;
  for (const SassInstruction &I : matrixPage().Instructions) {
    if (I.Space != MemSpace::Shared)
      continue;
    ++Shared;
    EXPECT_EQ(kernelBaseName(I.Function), "transposeTiled") << I.Sass;
    EXPECT_TRUE(I.Line == 24 || I.Line == 29) << I.Line;
    EXPECT_EQ(I.Op, I.Line == 24 ? MemOp::Store : MemOp::Load) << I.Sass;
    ASSERT_GT(I.Executed, 0) << I.Sass;
    // "L1 Wavefronts Shared" and its ideal, not the global sector columns.
    EXPECT_EQ(I.Sectors / I.Executed, 2.0) << I.Sass;
    EXPECT_EQ(I.IdealSectors / I.Executed, 1.0) << I.Sass;
  }
  EXPECT_EQ(Shared, 2u);
}

TEST(Attribution, SharedAccessesTakeSharedInstructionsOnly) {
  std::vector<ManifestAccess> M = {
      tileAccess(0, 24, "store", MemSpace::Shared, 2),
      tileAccess(1, 29, "load", MemSpace::Shared, 1), // Wrong on purpose.
      tileAccess(2, 24, "load", MemSpace::Global, 4)};
  AttributionInput In;
  In.Accesses = &M;
  In.Source = &matrixPage();
  Attribution A = attribute(In);
  ASSERT_EQ(A.Results.size(), 3u);
  EXPECT_EQ(A.Results[0].Result, Verdict::Confirmed);
  EXPECT_EQ(A.Results[0].Measured, 2.0);
  EXPECT_TRUE(A.Results[0].Group.empty()); // Not merged with the global load.
  EXPECT_EQ(A.Results[1].Result, Verdict::Mismatch);
  EXPECT_EQ(A.Results[2].Result, Verdict::Confirmed);
  EXPECT_EQ(A.Results[2].Measured, 4.0);
}

TEST(LineComparison, SharedLinesAgainstBankConflictFindings) {
  std::vector<ManifestAccess> M = {
      tileAccess(0, 24, "store", MemSpace::Shared, 2),
      tileAccess(1, 29, "load", MemSpace::Shared, 1),
      tileAccess(2, 24, "load", MemSpace::Global, 4)};
  LineCriteria C;
  C.Space = MemSpace::Shared;
  LineComparison L = compareLines(M, matrixPage(), C);
  EXPECT_EQ(L.Space, MemSpace::Shared);
  EXPECT_EQ(L.Wasteful, 2u);
  EXPECT_EQ(L.TruePositives, 1u); // Line 24.
  EXPECT_EQ(L.Missed, 1u);        // Line 29: conflicting, no finding.
  for (const LineResult &R : L.Lines)
    EXPECT_TRUE(R.Line == 24 || R.Line == 29) << R.Line;
  // The global comparison does not see the wavefronts.
  LineComparison G = compareLines(M, matrixPage(), LineCriteria());
  for (const LineResult &R : G.Lines)
    EXPECT_NE(R.Verdict, "true-positive") << R.Line;
}
