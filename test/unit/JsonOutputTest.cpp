//===- JsonOutputTest.cpp - The JSON report, read back --------------------===//

#include "coalesce/Output.h"

#include "TestExprs.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace coalesce;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// One file with an error; kernel 'gather' with a symbolic-stride load that
/// is a finding and an indirect load with no numbers.
Report sampleReport() {
  Report R;
  FileResult F;
  F.File = "g.cu";
  F.Analyzed = true;
  F.Errors.push_back({{"g.cu", 2, 1}, "unknown type name 'foo'", false});
  R.Files.push_back(F);

  KernelRecord K;
  K.Name = "gather";
  K.Loc = {"g.cu", 5, 17};
  K.Block.X = 16;
  K.Block.Y = 16;
  K.BlockSource = BlockShapeSource::LaunchSite;

  AccessRecord A;
  A.Loc = {"g.cu", 8, 13};
  A.EndLoc = {"g.cu", 8, 20};
  A.Kernel = "gather";
  A.Expression = "a[i * N]";
  A.Base = "a";
  A.ElemBytes = 4;
  A.LaneSourceLoc = {"g.cu", 7, 7};
  A.LaneSourceName = "i";
  A.CallChain = {{"g.cu", 30, 5}};
  A.Pattern.Address = Expr::constant(4) * testSymbol(Symbol::param("N")) *
                      testSymbol(Symbol::threadIdx(0));
  A.Predicted.Class = Classification::Strided;
  A.Predicted.SectorsPerRequest = 32;
  A.Predicted.IdealSectorsPerRequest = 4;
  A.Predicted.ActiveLanesPerRequest = 31.99999;
  A.Predicted.UsedBytesFraction = 0.123456;
  A.Predicted.LaneStrideBytes =
      Expr::constant(4) * testSymbol(Symbol::param("N"));
  A.Predicted.LaneStrideBytesValue = 4096;
  A.Predicted.Assumptions = {"assuming N >= 8 (N = 1024 used)"};
  A.Predicted.AssumedValues = {{"N", 1024}, {"M", 7}};
  K.Accesses.push_back(A);

  AccessRecord B;
  B.Loc = {"g.cu", 9, 5};
  B.Kernel = "gather";
  B.Expression = "in[idx[i]]";
  B.Base = "in";
  B.ElemBytes = 4;
  B.Pattern.Address =
      Expr::constant(4) * testSymbol({SymbolKind::IndirectValue, "idx[i]"});
  B.Predicted.Class = Classification::Indirect;
  B.Predicted.Reason = "index loaded from memory";
  K.Accesses.push_back(B);
  R.Kernels.push_back(K);
  return R;
}

std::string render(const Report &R, const OutputOptions &Opts,
                   unsigned *Count = nullptr) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  unsigned N = writeJson(R, Opts, OS);
  if (Count)
    *Count = N;
  return S;
}

/// The parsed report; fails the test on invalid JSON.
Value parse(const std::string &Text) {
  llvm::Expected<Value> V = llvm::json::parse(Text);
  if (!V) {
    ADD_FAILURE() << "invalid JSON: " << llvm::toString(V.takeError()) << "\n"
                  << Text;
    return nullptr;
  }
  return std::move(*V);
}

const Object &obj(const Value *V) {
  static const Object Empty;
  EXPECT_TRUE(V && V->getAsObject()) << "expected an object";
  return V && V->getAsObject() ? *V->getAsObject() : Empty;
}

const Array &arr(const Value *V) {
  static const Array Empty;
  EXPECT_TRUE(V && V->getAsArray()) << "expected an array";
  return V && V->getAsArray() ? *V->getAsArray() : Empty;
}

bool isNull(const Object &O, llvm::StringRef Key) {
  const Value *V = O.get(Key);
  return V && V->kind() == Value::Null;
}

/// The access fields the schema promises, in order.
const char *const AccessKeys[] = {"file",
                                  "line",
                                  "column",
                                  "end_column",
                                  "kernel",
                                  "op",
                                  "expr",
                                  "base",
                                  "elem_bytes",
                                  "access_bytes",
                                  "instructions",
                                  "launch",
                                  "space",
                                  "classification",
                                  "sectors_per_request",
                                  "ideal_sectors_per_request",
                                  "active_lanes_per_request",
                                  "used_bytes_fraction",
                                  "best_sectors_per_request",
                                  "worst_sectors_per_request",
                                  "misalignment_term",
                                  "lane_stride_bytes",
                                  "lane_stride_expr",
                                  "row_stride_bytes",
                                  "row_stride_expr",
                                  "assumptions",
                                  "assumed_values",
                                  "reason",
                                  "requests",
                                  "call_chain",
                                  "finding",
                                  "measured_sectors_per_request",
                                  "measured_requests",
                                  "measured_excess_bytes",
                                  "method",
                                  "verdict", "verification_note"};

} // namespace

TEST(JsonOutputTest, TopLevelFieldsInOrderPrettyPrinted) {
  unsigned Count = 0;
  std::string Text = render(sampleReport(), OutputOptions(), &Count);
  EXPECT_EQ(Text.rfind("{\n  \"tool\": \"coalesce-lint\",\n  \"version\": ", 0),
            0u)
      << Text;
  size_t Prev = 0;
  for (const char *Key : {"\"tool\"", "\"version\"", "\"schema\"", "\"files\"",
                          "\"kernels\"", "\"findings\""}) {
    size_t Pos = Text.find(Key);
    ASSERT_NE(Pos, std::string::npos) << Key;
    EXPECT_GT(Pos, Prev) << Key << " out of order";
    Prev = Pos;
  }
  Value V = parse(Text);
  const Object &Top = obj(&V);
  EXPECT_EQ(Top.getString("tool"), llvm::StringRef("coalesce-lint"));
  EXPECT_EQ(Top.getString("version"), llvm::StringRef(toolVersion()));
  EXPECT_FALSE(llvm::StringRef(toolVersion()).empty());
  EXPECT_EQ(Top.getInteger("schema"), std::optional<int64_t>(1));
  EXPECT_EQ(Top.getInteger("findings"), std::optional<int64_t>(2));
  EXPECT_EQ(Count, 2u);
}

TEST(JsonOutputTest, FilesCarryErrors) {
  Value V = parse(render(sampleReport(), OutputOptions()));
  const Array &Files = arr(obj(&V).get("files"));
  ASSERT_EQ(Files.size(), 1u);
  const Object &F = obj(&Files[0]);
  EXPECT_EQ(F.getString("file"), llvm::StringRef("g.cu"));
  EXPECT_EQ(F.getBoolean("analyzed"), std::optional<bool>(true));
  EXPECT_TRUE(isNull(F, "fatal_error"));
  const Array &Errors = arr(F.get("errors"));
  ASSERT_EQ(Errors.size(), 1u);
  const Object &E = obj(&Errors[0]);
  EXPECT_EQ(E.getString("file"), llvm::StringRef("g.cu"));
  EXPECT_EQ(E.getInteger("line"), std::optional<int64_t>(2));
  EXPECT_EQ(E.getInteger("column"), std::optional<int64_t>(1));
  EXPECT_EQ(E.getString("message"), llvm::StringRef("unknown type name 'foo'"));
  EXPECT_EQ(E.getBoolean("in_kernel"), std::optional<bool>(false));
}

TEST(JsonOutputTest, KernelFields) {
  Value V = parse(render(sampleReport(), OutputOptions()));
  const Array &Kernels = arr(obj(&V).get("kernels"));
  ASSERT_EQ(Kernels.size(), 1u);
  const Object &K = obj(&Kernels[0]);
  EXPECT_EQ(K.getString("name"), llvm::StringRef("gather"));
  EXPECT_EQ(K.getString("file"), llvm::StringRef("g.cu"));
  EXPECT_EQ(K.getInteger("line"), std::optional<int64_t>(5));
  EXPECT_TRUE(isNull(K, "instantiation"));
  EXPECT_TRUE(isNull(K, "launch_grid"));
  const Object &Block = obj(K.get("block"));
  EXPECT_EQ(Block.getInteger("x"), std::optional<int64_t>(16));
  EXPECT_EQ(Block.getInteger("y"), std::optional<int64_t>(16));
  EXPECT_EQ(Block.getInteger("z"), std::optional<int64_t>(1));
  EXPECT_EQ(K.getString("block_source"), llvm::StringRef("launch-site"));
  EXPECT_EQ(arr(K.get("accesses")).size(), 2u);
}

TEST(JsonOutputTest, AccessNumbersStridesAndFinding) {
  Value V = parse(render(sampleReport(), OutputOptions()));
  const Object &K = obj(&arr(obj(&V).get("kernels"))[0]);
  const Object &A = obj(&arr(K.get("accesses"))[0]);
  EXPECT_EQ(A.getString("file"), llvm::StringRef("g.cu"));
  EXPECT_EQ(A.getInteger("line"), std::optional<int64_t>(8));
  EXPECT_EQ(A.getInteger("column"), std::optional<int64_t>(13));
  EXPECT_EQ(A.getInteger("end_column"), std::optional<int64_t>(20));
  EXPECT_EQ(A.getString("kernel"), llvm::StringRef("gather"));
  EXPECT_EQ(A.getString("op"), llvm::StringRef("load"));
  EXPECT_EQ(A.getString("expr"), llvm::StringRef("a[i * N]"));
  EXPECT_EQ(A.getString("base"), llvm::StringRef("a"));
  EXPECT_EQ(A.getInteger("elem_bytes"), std::optional<int64_t>(4));
  EXPECT_EQ(A.getString("classification"), llvm::StringRef("strided"));
  EXPECT_EQ(A.getInteger("sectors_per_request"), std::optional<int64_t>(32));
  EXPECT_EQ(A.getInteger("ideal_sectors_per_request"),
            std::optional<int64_t>(4));
  // Rounded to 4 decimals: 31.99999 -> 32, 0.123456 -> 0.1235.
  EXPECT_EQ(A.getInteger("active_lanes_per_request"),
            std::optional<int64_t>(32));
  EXPECT_EQ(A.getNumber("used_bytes_fraction"), std::optional<double>(0.1235));
  EXPECT_TRUE(isNull(A, "best_sectors_per_request"));
  EXPECT_TRUE(isNull(A, "worst_sectors_per_request"));
  EXPECT_EQ(A.getInteger("lane_stride_bytes"), std::optional<int64_t>(4096));
  EXPECT_EQ(A.getString("lane_stride_expr"), llvm::StringRef("4*N"));
  EXPECT_TRUE(isNull(A, "row_stride_bytes"));
  EXPECT_TRUE(isNull(A, "reason"));
  const Array &Assumptions = arr(A.get("assumptions"));
  ASSERT_EQ(Assumptions.size(), 1u);
  EXPECT_EQ(Assumptions[0].getAsString(),
            std::optional<llvm::StringRef>("assuming N >= 8 (N = 1024 used)"));
  const Object &Assumed = obj(A.get("assumed_values"));
  EXPECT_EQ(Assumed.getInteger("N"), std::optional<int64_t>(1024));
  EXPECT_EQ(Assumed.getInteger("M"), std::optional<int64_t>(7));
  const Array &Chain = arr(A.get("call_chain"));
  ASSERT_EQ(Chain.size(), 1u);
  EXPECT_EQ(obj(&Chain[0]).getInteger("line"), std::optional<int64_t>(30));

  const Object &F = obj(A.get("finding"));
  EXPECT_EQ(F.getString("rule"), llvm::StringRef("coalesce-stride"));
  EXPECT_EQ(F.getString("message"),
            llvm::StringRef("uncoalesced load of 'a[i * N]': adjacent lanes "
                            "are 4096 bytes apart (4*N with N=1024): 32 "
                            "sectors per request, ideal 4 (12.35% of fetched "
                            "bytes used)"));
  EXPECT_NE(F.getString("suggestion").value_or("").find("shared-memory tile"),
            llvm::StringRef::npos);
  const Array &Notes = arr(F.get("notes"));
  ASSERT_EQ(Notes.size(), 3u);
  EXPECT_EQ(obj(&Notes[0]).getString("message"),
            llvm::StringRef("'i' is derived from threadIdx.x here"));
  EXPECT_EQ(obj(&Notes[0]).getInteger("line"), std::optional<int64_t>(7));
  EXPECT_EQ(obj(&Notes[1]).getString("message"),
            llvm::StringRef("called from kernel 'gather' here"));
  EXPECT_EQ(obj(&Notes[2]).getInteger("column"), std::optional<int64_t>(13));

  for (const char *Key : {"measured_sectors_per_request", "measured_requests",
                          "measured_excess_bytes", "method", "verdict",
                          "verification_note"})
    EXPECT_TRUE(isNull(A, Key)) << Key;
}

TEST(JsonOutputTest, AbsentValuesAreNullNeverOmitted) {
  std::string Text = render(sampleReport(), OutputOptions());
  Value V = parse(Text);
  const Object &K = obj(&arr(obj(&V).get("kernels"))[0]);
  const Array &Accesses = arr(K.get("accesses"));
  ASSERT_EQ(Accesses.size(), 2u);
  for (const Value &AV : Accesses) {
    const Object &A = obj(&AV);
    EXPECT_EQ(A.size(), std::size(AccessKeys));
    for (const char *Key : AccessKeys)
      EXPECT_NE(A.get(Key), nullptr) << "missing " << Key;
  }
  const Object &B = obj(&Accesses[1]);
  EXPECT_EQ(B.getString("classification"), llvm::StringRef("indirect"));
  for (const char *Key :
       {"end_column", "sectors_per_request", "ideal_sectors_per_request",
        "active_lanes_per_request", "used_bytes_fraction", "lane_stride_bytes",
        "lane_stride_expr", "row_stride_bytes", "misalignment_term"})
    EXPECT_TRUE(isNull(B, Key)) << Key;
  EXPECT_EQ(B.getString("reason"), llvm::StringRef("index loaded from memory"));
  EXPECT_EQ(obj(B.get("finding")).getString("rule"),
            llvm::StringRef("coalesce-indirect"));
}

TEST(JsonOutputTest, AccessKeysAppearInSchemaOrder) {
  std::string Text = render(sampleReport(), OutputOptions());
  size_t Start = Text.find("\"accesses\"");
  ASSERT_NE(Start, std::string::npos);
  size_t Prev = Start;
  for (const char *Key : AccessKeys) {
    size_t Pos = Text.find(std::string("\"") + Key + "\":", Prev + 1);
    ASSERT_NE(Pos, std::string::npos) << Key;
    Prev = Pos;
  }
}

TEST(JsonOutputTest, FindingIsNullWhenNotAFindingAndOptionsApply) {
  OutputOptions Opts;
  Opts.Findings.ReportIndirect = false;
  unsigned Count = 0;
  Value V = parse(render(sampleReport(), Opts, &Count));
  EXPECT_EQ(Count, 1u);
  EXPECT_EQ(obj(&V).getInteger("findings"), std::optional<int64_t>(1));
  const Object &K = obj(&arr(obj(&V).get("kernels"))[0]);
  EXPECT_TRUE(isNull(obj(&arr(K.get("accesses"))[1]), "finding"));
}

TEST(JsonOutputTest, EmptyReportIsStillComplete) {
  unsigned Count = 5;
  Value V = parse(render(Report(), OutputOptions(), &Count));
  const Object &Top = obj(&V);
  EXPECT_EQ(arr(Top.get("files")).size(), 0u);
  EXPECT_EQ(arr(Top.get("kernels")).size(), 0u);
  EXPECT_EQ(Top.getInteger("findings"), std::optional<int64_t>(0));
  EXPECT_EQ(Count, 0u);
}

TEST(JsonOutputTest, OutputIsDeterministic) {
  EXPECT_EQ(render(sampleReport(), OutputOptions()),
            render(sampleReport(), OutputOptions()));
}
