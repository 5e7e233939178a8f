//===- HtmlOutputTest.cpp - The HTML report -------------------------------===//

#include "TestExprs.h"
#include "coalesce/Output.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

/// A report whose source file cannot be read, with a strided finding whose
/// expression and kernel name need escaping.
Report unreadableSource() {
  Report R;
  FileResult F;
  F.File = "/nonexistent/dir/k<1>.cu";
  F.Analyzed = true;
  F.KernelsAnalyzed = 1;
  R.Files.push_back(F);

  KernelRecord K;
  K.Name = "scale";
  K.Instantiation = "scale<float>";
  K.Loc = {F.File, 5, 17};
  AccessRecord A;
  A.Loc = {F.File, 8, 13};
  A.Kernel = "scale";
  A.Expression = "a[i * 2 & mask]";
  A.Base = "a";
  A.ElemBytes = 4;
  A.Pattern.Address = Expr::constant(8) * testSymbol(Symbol::threadIdx(0));
  PredictOptions O;
  O.Block = BlockShape{32, 1, 1};
  A.Predicted = predict(A.Pattern, O);
  K.Accesses.push_back(A);
  R.Kernels.push_back(K);
  return R;
}

TEST(HtmlOutputTest, FindingsWithoutSource) {
  Report R = unreadableSource();
  std::string Page;
  llvm::raw_string_ostream OS(Page);
  OutputOptions Opts;
  EXPECT_EQ(writeHtml(R, Opts, OS), 1u);
  OS.flush();
  EXPECT_NE(Page.find("<h2>/nonexistent/dir/k&lt;1&gt;.cu</h2>"),
            std::string::npos);
  EXPECT_NE(Page.find("<code>scale&lt;float&gt;</code>"), std::string::npos);
  EXPECT_NE(Page.find("source not available"), std::string::npos);
  EXPECT_NE(Page.find("<code>a[i * 2 &amp; mask]</code>"), std::string::npos);
  EXPECT_NE(Page.find("<svg class=\"warp\""), std::string::npos);
  EXPECT_NE(Page.find("8 sectors touched (ideal 4), 128 of 256 fetched bytes "
                      "used (50%)"),
            std::string::npos);
  EXPECT_EQ(Page.find("<script"), std::string::npos);
  EXPECT_EQ(Page.substr(Page.size() - 8), "</html>\n");
}

TEST(HtmlOutputTest, Deterministic) {
  Report R = unreadableSource();
  std::string A, B;
  llvm::raw_string_ostream OA(A), OB(B);
  writeHtml(R, OutputOptions(), OA);
  writeHtml(R, OutputOptions(), OB);
  EXPECT_EQ(OA.str(), OB.str());
}

TEST(HtmlOutputTest, ExplainAccessNamesTheNearestLines) {
  Report R = unreadableSource();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::Expected<unsigned> N =
      explainAccess(R, AccessQuery{R.Files[0].File, 8, 0}, OutputOptions(), OS);
  ASSERT_TRUE(bool(N));
  EXPECT_EQ(*N, 1u);
  EXPECT_NE(OS.str().find("sectors touched: 8, ideal 4; bytes requested: "
                          "128, fetched: 256; efficiency 50%"),
            std::string::npos)
      << OS.str();
  llvm::Expected<unsigned> None =
      explainAccess(R, AccessQuery{R.Files[0].File, 3, 0}, OutputOptions(), OS);
  ASSERT_FALSE(bool(None));
  EXPECT_NE(llvm::toString(None.takeError())
                .find("the nearest line with accesses: 8"),
            std::string::npos);
}

TEST(HtmlOutputTest, ParsesAccessQueries) {
  llvm::Expected<AccessQuery> Q = parseAccessQuery("a:b.cu:12:5");
  ASSERT_TRUE(bool(Q));
  EXPECT_EQ(Q->File, "a:b.cu");
  EXPECT_EQ(Q->Line, 12u);
  EXPECT_EQ(Q->Column, 5u);
  Q = parseAccessQuery("k.cu:7");
  ASSERT_TRUE(bool(Q));
  EXPECT_EQ(Q->File, "k.cu");
  EXPECT_EQ(Q->Line, 7u);
  EXPECT_EQ(Q->Column, 0u);
  for (const char *Bad : {"k.cu", "k.cu:", ":7", "k.cu:0", "k.cu:x"}) {
    llvm::Expected<AccessQuery> E = parseAccessQuery(Bad);
    EXPECT_FALSE(bool(E)) << Bad;
    if (!E)
      llvm::consumeError(E.takeError());
  }
}

} // namespace
