//===- HarnessReplayTest.cpp - replay.cu for --method replay --------------===//
//
// The C the emitter generates from model expressions, and the replay.cu of a
// hand-built report: its contents, and that nvcc compiles it (skipped
// without nvcc; it is only run on a GPU by coalesce-verify --method replay).
//
//===----------------------------------------------------------------------===//

#include "harness/ReplaySource.h"
#include "coalesce/Harness.h"

#include "TestExprs.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

Expr sym(Symbol S) { return testSymbol(std::move(S)); }
Expr c(int64_t V) { return Expr::constant(V); }
Expr tx() { return sym(Symbol::threadIdx(0)); }
Expr loop(const char *Name) { return sym({SymbolKind::LoopIter, Name}); }

std::string cOf(const Expr &E, std::map<std::string, int64_t> P = {},
                std::vector<Symbol> Loops = {}) {
  return replayExprC(E, P, Loops);
}

TEST(HarnessReplayExpr, LeavesAndArithmetic) {
  EXPECT_EQ(cOf(c(-5)), "(-5LL)");
  EXPECT_EQ(cOf(c(7)), "7LL");
  EXPECT_EQ(cOf(tx()), "((cl_i64)threadIdx.x)");
  EXPECT_EQ(cOf(sym(Symbol::blockDim(1))), "((cl_i64)blockDim.y)");
  EXPECT_EQ(cOf(sym(Symbol::gridDim(2))), "((cl_i64)gridDim.z)");
  EXPECT_EQ(cOf(sym(Symbol::param("N")), {{"N", 4096}}), "/*N*/4096LL");
  EXPECT_EQ(cOf(sym(Symbol::param("M"))), "/*M*/1024LL") << "default value";
  EXPECT_EQ(cOf(loop("k"), {}, {Symbol{SymbolKind::LoopIter, "j"},
                                Symbol{SymbolKind::LoopIter, "k"}}),
            "L[1]");
  EXPECT_EQ(cOf(c(4) * tx() + c(8)), "cl_add(cl_mul(4LL, ((cl_i64)threadIdx.x)), 8LL)");
}

TEST(HarnessReplayExpr, NonPolynomialNodes) {
  Expr N = sym(Symbol::param("N"));
  std::map<std::string, int64_t> P = {{"N", 3}};
  EXPECT_EQ(cOf(Expr::div(tx(), N), P),
            "cl_div(((cl_i64)threadIdx.x), /*N*/3LL, Ok)");
  EXPECT_EQ(cOf(Expr::rem(tx(), N), P),
            "cl_rem(((cl_i64)threadIdx.x), /*N*/3LL, Ok)");
  EXPECT_EQ(cOf(Expr::shr(tx(), N), P),
            "cl_shr(((cl_i64)threadIdx.x), /*N*/3LL, Ok)");
  EXPECT_EQ(cOf(Expr::shl(tx(), N), P),
            "cl_shl(((cl_i64)threadIdx.x), /*N*/3LL, Ok)");
  std::string Min = cOf(Expr::min(tx(), N), P);
  EXPECT_NE(Min.find("cl_min("), std::string::npos) << Min;
  std::string Max = cOf(Expr::max(tx(), N), P);
  EXPECT_NE(Max.find("cl_max("), std::string::npos) << Max;
  std::string Lt = cOf(Expr::lt(tx(), N), P);
  EXPECT_EQ(Lt, "(cl_i64)(((cl_i64)threadIdx.x) < /*N*/3LL)");
  std::string Sel = cOf(Expr::select(Expr::lt(tx(), N), tx(), c(0)), P);
  EXPECT_EQ(Sel, "((cl_i64)(((cl_i64)threadIdx.x) < /*N*/3LL) != 0 ? "
                 "((cl_i64)threadIdx.x) : 0LL)");
  std::string And = cOf(Expr::bitAnd(tx(), N), P);
  EXPECT_NE(And.find(" & "), std::string::npos) << And;
  std::string Eq = cOf(Expr::eq(tx(), N), P);
  EXPECT_NE(Eq.find(" == "), std::string::npos) << Eq;
  std::string LAnd = cOf(Expr::logicalAnd(Expr::lt(tx(), N), Expr::ne(tx(), c(1))), P);
  EXPECT_NE(LAnd.find(" != 0 && "), std::string::npos) << LAnd;
}

AccessRecord access(unsigned Line, const char *Text, Expr Address,
                    double Predicted, AccessOp Op = AccessOp::Load) {
  AccessRecord A;
  A.Loc = {"replay_kernels.cu", Line, 3};
  A.EndLoc = A.Loc;
  A.Kernel = "k";
  A.Expression = Text;
  A.Base = "p";
  A.ElemBytes = 4;
  A.Pattern.Address = std::move(Address);
  A.Pattern.AccessBytes = 4;
  A.Pattern.Op = Op;
  A.Predicted.SectorsPerRequest = Predicted;
  A.Predicted.IdealSectorsPerRequest = 4;
  A.Predicted.Class = Classification::Strided;
  return A;
}

class HarnessReplayTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("coalesce-replay", Tmp));
    std::string File = (Tmp + "/replay_kernels.cu").str();
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(File, EC);
      ASSERT_FALSE(EC);
      OS << "__global__ void k(float *p, int n) {}\n"
            "__global__ void k2(float *p) {}\n";
    }
    Out = (Tmp + "/out").str();
    Expr Gx = sym(Symbol::blockIdx(0)) * sym(Symbol::blockDim(0)) + tx();
    KernelRecord K;
    K.Name = "k";
    K.Loc = {File, 1, 17};
    KernelParameter P;
    P.Name = "p";
    P.Type = "float *";
    P.ParamKind = KernelParameter::Kind::Pointer;
    P.Bytes = 8;
    P.PointeeType = "float";
    P.PointeeBytes = 4;
    KernelParameter N;
    N.Name = "n";
    N.Type = "int";
    N.ParamKind = KernelParameter::Kind::Integer;
    N.Bytes = 4;
    K.Params = {P, N};
    for (AccessRecord &A : std::vector<AccessRecord>{
             access(2, "p[i * 32]", c(128) * Gx, 32),
             access(3, "p[i + 1]", c(4) * Gx + c(4), 5),
             access(4, "p[i / n + j]",
                    c(4) * Expr::div(Gx, sym(Symbol::param("n"))) +
                        c(4) * loop("j"),
                    1),
             access(5, "p[idx[i]]",
                    c(4) * sym({SymbolKind::IndirectValue, "idx[i]"}), 0)}) {
      A.Loc.File = File;
      K.Accesses.push_back(A);
    }
    K.Accesses[2].Pattern.Active = Expr::lt(loop("j"), sym(Symbol::param("n")));
    K.Accesses[2].Predicted.AssumedValues["n"] = 16;
    K.Accesses[3].Predicted.SectorsPerRequest.reset();
    AccessRecord Atomic = access(6, "p[0]", c(0), 32, AccessOp::Atomic);
    Atomic.Pattern.Atomic = AtomicKind::Float;
    Atomic.Loc.File = File;
    K.Accesses.push_back(Atomic);
    AccessRecord Vec = access(7, "q[i]", c(16) * Gx + c(16), 16);
    Vec.Pattern.AccessBytes = 16;
    Vec.Loc.File = File;
    K.Accesses.push_back(Vec);

    KernelRecord K2;
    K2.Name = "k2";
    K2.Loc = {File, 2, 17};
    K2.Block = {16, 16, 1};
    K2.Params = {P};
    K2.Accesses.push_back(access(2, "p[ty * 16 + tx]",
                                 c(64) * sym(Symbol::threadIdx(1)) + c(4) * tx(),
                                 4));
    K2.Accesses.back().Loc.File = File;
    // Shared memory: the replay counts sectors, so it is not replayed.
    AccessRecord Tile = access(3, "t[tx]", c(4) * tx(), 1);
    Tile.Pattern.Space = AccessSpace::Shared;
    Tile.Loc.File = File;
    K2.Accesses.push_back(Tile);
    R.Kernels = {K, K2};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Tmp); }

  std::string read(const std::string &Name) {
    auto B = llvm::MemoryBuffer::getFile(Out + "/" + Name);
    return B ? (*B)->getBuffer().str() : "";
  }

  llvm::SmallString<128> Tmp;
  std::string Out;
  Report R;
};

TEST_F(HarnessReplayTest, WritesReplaySource) {
  HarnessOptions O;
  O.VerifyAll = true;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, O, Out)));
  std::string S = read("replay.cu");
  ASSERT_FALSE(S.empty()) << "no replay.cu";
  // Two replay kernels with the harness's shapes.
  EXPECT_NE(S.find("cl_replay_0<<<dim3(64, 1, 1), dim3(256, 1, 1)>>>"),
            std::string::npos) << S;
  EXPECT_NE(S.find("cl_replay_1<<<dim3(8, 8, 1), dim3(16, 16, 1)>>>"),
            std::string::npos) << S;
  // The indirect access is not replayed, with the reason.
  EXPECT_NE(S.find("coalesce-replay: id=3 status=not-replayed reason=the "
                   "address depends on a value loaded from memory (idx[i])"),
            std::string::npos) << S;
  EXPECT_EQ(S.find("cl_print(3)"), std::string::npos);
  EXPECT_NE(S.find("coalesce-replay: id=7 status=not-replayed reason=shared "
                   "memory"),
            std::string::npos)
      << S;
  EXPECT_EQ(S.find("cl_print(7)"), std::string::npos);
  for (int Id : {0, 1, 2, 4, 5, 6})
    EXPECT_NE(S.find("cl_print(" + std::to_string(Id) + ")"), std::string::npos)
        << "id " << Id;
  // The loop counter is iterated, the parameter is the assumed value, the
  // condition is generated, the atomic uses the float model, the 16-byte
  // access its size.
  EXPECT_NE(S.find("for (L[0] = 0; L[0] < 32; ++L[0]) { // j"), std::string::npos) << S;
  EXPECT_NE(S.find("cl_div("), std::string::npos);
  EXPECT_NE(S.find("/*n*/16LL"), std::string::npos) << S;
  EXPECT_NE(S.find("cl_i64 On = (cl_i64)(L[0] < /*n*/16LL);"), std::string::npos) << S;
  EXPECT_NE(S.find("Addr, 4u, 2, &Sectors[4], &Requests[4]"), std::string::npos) << S;
  EXPECT_NE(S.find("Addr, 16u, 0, &Sectors[5], &Requests[5]"), std::string::npos) << S;
  std::string B = read("build-replay.sh");
  EXPECT_NE(B.find("\"$NVCC\" -O3 -arch=sm_90 -o replay replay.cu"),
            std::string::npos) << B;
}

TEST_F(HarnessReplayTest, ReplayCompilesWithNvcc) {
  std::string Nvcc = "/usr/local/cuda/bin/nvcc";
  if (!llvm::sys::fs::can_execute(Nvcc)) {
    auto Found = llvm::sys::findProgramByName("nvcc");
    if (!Found)
      GTEST_SKIP() << "nvcc is not installed";
    Nvcc = *Found;
  }
  HarnessOptions O;
  O.VerifyAll = true;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, O, Out)));
  std::string Log = Out + "/nvcc.log";
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Log),
                                                llvm::StringRef(Log)};
  int Rc = llvm::sys::ExecuteAndWait(
      Nvcc, {Nvcc, "-arch=sm_90", "-c", "-o", Out + "/replay.o", Out + "/replay.cu"},
      std::nullopt, Redirects);
  EXPECT_EQ(Rc, 0) << read("nvcc.log") << "\n" << read("replay.cu");
}

} // namespace
