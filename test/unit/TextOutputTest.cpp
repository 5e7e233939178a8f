//===- TextOutputTest.cpp - The clang-style text report -------------------===//

#include "TestExprs.h"
#include "coalesce/Output.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// k.cu: two compile errors outside kernels; kernel 'scale' (16x16 from a
/// launch) with a strided load of a[i * 32] and a coalesced store.
Report sampleReport() {
  Report R;
  FileResult F;
  F.File = "k.cu";
  F.Analyzed = true;
  F.KernelsAnalyzed = 1;
  F.Errors.push_back({{"k.cu", 3, 1}, "unknown type name 'foo'", false});
  F.Errors.push_back({{"k.cu", 4, 9}, "expected ';' after expression", false});
  R.Files.push_back(F);

  KernelRecord K;
  K.Name = "scale";
  K.Loc = {"k.cu", 5, 17};
  K.Block.X = 16;
  K.Block.Y = 16;
  K.BlockSource = BlockShapeSource::LaunchSite;

  AccessRecord A;
  A.Loc = {"k.cu", 8, 13};
  A.EndLoc = {"k.cu", 8, 21};
  A.Kernel = "scale";
  A.Expression = "a[i * 32]";
  A.Base = "a";
  A.ElemBytes = 4;
  A.SourceLine = "  float v = a[i * 32];";
  A.LaneSourceLoc = {"k.cu", 7, 7};
  A.LaneSourceName = "i";
  A.Pattern.Address = Expr::constant(128) * testSymbol(Symbol::threadIdx(0));
  A.Predicted.Class = Classification::Strided;
  A.Predicted.SectorsPerRequest = 32;
  A.Predicted.IdealSectorsPerRequest = 4;
  A.Predicted.ActiveLanesPerRequest = 32;
  A.Predicted.UsedBytesFraction = 0.125;
  A.Predicted.LaneStrideBytes = Expr::constant(128);
  A.Predicted.LaneStrideBytesValue = 128;
  A.Predicted.Assumptions = {"block shape 16x16 from the launch at k.cu:20"};
  K.Accesses.push_back(A);

  AccessRecord B;
  B.Loc = {"k.cu", 9, 3};
  B.EndLoc = {"k.cu", 9, 8};
  B.Kernel = "scale";
  B.Expression = "out[i]";
  B.Base = "out";
  B.ElemBytes = 4;
  B.SourceLine = "  out[i] = v;";
  B.Pattern.Op = AccessOp::Store;
  B.Predicted.Class = Classification::Coalesced;
  B.Predicted.SectorsPerRequest = 4;
  B.Predicted.IdealSectorsPerRequest = 4;
  B.Predicted.WorstSectorsPerRequest = 5;
  B.Predicted.LaneStrideBytesValue = 4;
  K.Accesses.push_back(B);
  R.Kernels.push_back(K);
  return R;
}

std::string render(const Report &R, const OutputOptions &Opts,
                   unsigned *Count = nullptr) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  unsigned N = writeText(R, Opts, OS);
  if (Count)
    *Count = N;
  return S;
}

const char *const StrideWarning =
    "k.cu:8:13: warning: uncoalesced load of 'a[i * 32]': adjacent lanes are "
    "128 bytes apart: 32 sectors per request, ideal 4 (12.5% of fetched bytes "
    "used) [coalesce-stride]\n"
    "  float v = a[i * 32];\n"
    "            ^~~~~~~~~\n"
    "k.cu:7:7: note: 'i' is derived from threadIdx.x here\n"
    "k.cu:8:13: note: block shape 16x16 from the launch at k.cu:20\n"
    "note: suggestion: make threadIdx.x drive the fastest-varying index so "
    "adjacent lanes access adjacent elements, or stage the data through a "
    "shared-memory tile loaded with unit stride\n";

} // namespace

TEST(TextOutputTest, ExactReportWithCaretNotesAndSummary) {
  OutputOptions Opts;
  Opts.Findings.ReportPossiblyMisaligned = false;
  unsigned Count = 0;
  std::string Text = render(sampleReport(), Opts, &Count);
  std::string Expected =
      std::string("k.cu: 2 compile errors outside kernels ignored; first: "
                  "k.cu:3:1: unknown type name 'foo' (use "
                  "--show-compile-errors to list all)\n") +
      StrideWarning + "1 warning in 1 kernel (2 accesses analyzed, 0 unknown)\n";
  EXPECT_EQ(Text, Expected);
  EXPECT_EQ(Count, 1u);
}

TEST(TextOutputTest, PossiblyMisalignedIsOffByDefault) {
  unsigned Count = 0;
  std::string Text = render(sampleReport(), OutputOptions(), &Count);
  EXPECT_EQ(Count, 1u);
  EXPECT_EQ(Text.find("may be misaligned"), std::string::npos) << Text;
}

TEST(TextOutputTest, PossiblyMisalignedAccessIsASecondWarningWhenEnabled) {
  unsigned Count = 0;
  OutputOptions Opts;
  Opts.Findings.EnablePossiblyMisaligned = true;
  std::string Text = render(sampleReport(), Opts, &Count);
  EXPECT_EQ(Count, 2u);
  EXPECT_NE(Text.find("k.cu:9:3: warning: store to 'out[i]' may be "
                      "misaligned: 4 sectors per request when the offset is a "
                      "multiple of 32 bytes, up to 5 otherwise "
                      "[coalesce-misaligned-offset]\n"
                      "  out[i] = v;\n"
                      "  ^~~~~~\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("2 warnings in 1 kernel (2 accesses analyzed, 0 unknown)\n"),
            std::string::npos)
      << Text;
}

TEST(TextOutputTest, PrintAccessesListsEveryAccessInOrder) {
  OutputOptions Opts;
  Opts.PrintAccesses = true;
  Opts.Findings.ReportPossiblyMisaligned = false;
  Report R = sampleReport();
  R.Files.clear();
  std::string Text = render(R, Opts);
  std::string Expected =
      std::string("k.cu:8:13: access: kernel=scale op=load base=a elem=4 "
                  "expr='a[i * 32]' sectors=32 ideal=4 class=strided "
                  "stride=128 block=16x16(launch-site)\n") +
      StrideWarning +
      "k.cu:9:3: access: kernel=scale op=store base=out elem=4 expr='out[i]' "
      "sectors=4 ideal=4 worst=5 class=coalesced stride=4 "
      "block=16x16(launch-site)\n"
      "1 warning in 1 kernel (2 accesses analyzed, 0 unknown)\n";
  EXPECT_EQ(Text, Expected);
}

TEST(TextOutputTest, PrintAccessesShowsMissingNumbersAsNA) {
  Report R;
  KernelRecord K;
  K.Name = "g";
  AccessRecord A;
  A.Loc = {"g.cu", 4, 12};
  A.Kernel = "g";
  A.Expression = "in[idx[i]]";
  A.Base = "in";
  A.ElemBytes = 8;
  A.Predicted.Class = Classification::Unknown;
  K.Accesses.push_back(A);
  R.Kernels.push_back(K);
  OutputOptions Opts;
  Opts.PrintAccesses = true;
  unsigned Count = 7;
  std::string Text = render(R, Opts, &Count);
  EXPECT_EQ(Text, "g.cu:4:12: access: kernel=g op=load base=in elem=8 "
                  "expr='in[idx[i]]' sectors=n/a ideal=n/a class=unknown "
                  "stride=n/a block=256(assumed)\n"
            "0 warnings in 1 kernel (1 access analyzed, 1 unknown)\n");
  EXPECT_EQ(Count, 0u);
}

TEST(TextOutputTest, ShowAllErrorsListsEachErrorAndNoCount) {
  OutputOptions Opts;
  Opts.ShowAllErrors = true;
  Report R = sampleReport();
  R.Kernels.clear();
  unsigned Count = 9;
  std::string Text = render(R, Opts, &Count);
  EXPECT_EQ(Text, "k.cu:3:1: error: unknown type name 'foo'\n"
                  "k.cu:4:9: error: expected ';' after expression\n"
            "0 warnings in 0 kernels (0 accesses analyzed, 0 unknown)\n");
  EXPECT_EQ(Count, 0u);
}

TEST(TextOutputTest, ErrorsInKernelsAndFatalErrorsAreAlwaysListed) {
  Report R;
  FileResult F;
  F.File = "a.cu";
  F.KernelsAnalyzed = 1;
  F.Errors.push_back(
      {{"a.cu", 2, 5}, "use of undeclared identifier 'x'", true});
  F.Errors.push_back({{"a.cu", 30, 1}, "unknown type name 'T'", false});
  R.Files.push_back(F);
  FileResult Bad;
  Bad.File = "missing.cu";
  Bad.FatalError = "cannot read file";
  R.Files.push_back(Bad);
  EXPECT_EQ(render(R, OutputOptions()),
            "a.cu:2:5: error: use of undeclared identifier 'x'\n"
            "a.cu: 1 compile error outside kernels ignored; first: a.cu:30:1: "
            "unknown type name 'T' (use --show-compile-errors to list all)\n"
            "missing.cu: error: cannot read file\n"
            "0 warnings in 0 kernels (0 accesses analyzed, 0 unknown); 2 "
            "files failed: a.cu (compile errors), missing.cu (compile "
            "errors)\n");
}

TEST(TextOutputTest, NothingToSayIsOnlyTheSummary) {
  Report R = sampleReport();
  R.Files.clear();
  R.Kernels[0].Accesses.erase(R.Kernels[0].Accesses.begin());
  OutputOptions Opts;
  Opts.Findings.ReportPossiblyMisaligned = false;
  unsigned Count = 3;
  EXPECT_EQ(render(R, Opts, &Count),
            "0 warnings in 1 kernel (1 access analyzed, 0 unknown)\n");
  EXPECT_EQ(Count, 0u);
}

TEST(TextOutputTest, CaretKeepsTabsAndStopsAtLineEnd) {
  Report R = sampleReport();
  R.Files.clear();
  AccessRecord &A = R.Kernels[0].Accesses[0];
  A.SourceLine = "\tx = a[i * 32];";
  A.Loc.Column = 6;
  A.EndLoc.Column = 40; // Past the end of the line: clipped.
  OutputOptions Opts;
  Opts.Findings.ReportPossiblyMisaligned = false;
  std::string Text = render(R, Opts);
  EXPECT_NE(Text.find("\n\tx = a[i * 32];\n\t    ^~~~~~~~~~\n"),
            std::string::npos)
      << Text;
}

TEST(TextOutputTest, RangeOnAnotherLineGetsOnlyACaret) {
  Report R = sampleReport();
  R.Files.clear();
  R.Kernels[0].Accesses[0].EndLoc = {"k.cu", 9, 2};
  OutputOptions Opts;
  Opts.Findings.ReportPossiblyMisaligned = false;
  std::string Text = render(R, Opts);
  EXPECT_NE(Text.find("  float v = a[i * 32];\n            ^\n"),
            std::string::npos)
      << Text;
}

TEST(TextOutputTest, ColorsLikeClang) {
  OutputOptions Opts;
  Opts.Color = true;
  Opts.Findings.ReportPossiblyMisaligned = false;
  Report R = sampleReport();
  R.Files.clear();
  std::string Text = render(R, Opts);
  EXPECT_EQ(Text.rfind("\x1b[1mk.cu:8:13: \x1b[0;1;35mwarning: \x1b[0m\x1b[1m"
                       "uncoalesced load",
                       0),
            0u)
      << Text;
  EXPECT_NE(Text.find("\x1b[0;1;32m            ^~~~~~~~~\x1b[0m\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("\x1b[1mk.cu:7:7: \x1b[0;1;30mnote: \x1b[0m'i' is"),
            std::string::npos)
      << Text;
  EXPECT_EQ(render(R,
                   [] {
                     OutputOptions O;
                     O.Findings.ReportPossiblyMisaligned = false;
                     return O;
                   }())
                .find('\x1b'),
            std::string::npos);
}
