//===- HarnessEmitterTest.cpp - The GPU verification harness emitter ------===//
//
// Emits a harness for a hand-built Report over a small .cu file, checks the
// files, compiles harness.cu with nvcc when one is installed, and reads
// coalesce-verify's JSON back into the report.
//
//===----------------------------------------------------------------------===//

#include "harness/BufferExtent.h"
#include "harness/Cooperative.h"
#include "harness/HarnessPlan.h"
#include "coalesce/Harness.h"

#include "TestExprs.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace coalesce;

namespace {

const char *KernelSource = R"cu(#include <cstdio>
struct S { float *data; int n; };
__global__ void k_stride(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i * 32] = in[i];
}
__global__ void k_gather(float *out, const float *in, const int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
__global__ void k_struct(S s) { s.data[threadIdx.x * 2] = 0; }
template <typename T> __global__ void k_tmpl(T *p, T v) { p[threadIdx.x * 4] = v; }
template __global__ void k_tmpl<double>(double *, double);
__global__ void k_clean(float *p) { p[threadIdx.x] = 1; }
int main() { std::printf("user main\n"); return 0; }
)cu";

Expr sym(Symbol S) { return testSymbol(std::move(S)); }
Expr c(int64_t V) { return Expr::constant(V); }
/// blockIdx.x * blockDim.x + threadIdx.x
Expr globalX() {
  return sym(Symbol::blockIdx(0)) * sym(Symbol::blockDim(0)) +
         sym(Symbol::threadIdx(0));
}

KernelParameter pointer(const char *Name, const char *Pointee, unsigned Bytes) {
  KernelParameter P;
  P.Name = Name;
  P.Type = std::string(Pointee) + " *";
  P.ParamKind = KernelParameter::Kind::Pointer;
  P.Bytes = 8;
  P.PointeeType = Pointee;
  P.PointeeBytes = Bytes;
  return P;
}

KernelParameter scalar(const char *Name, const char *Type,
                       KernelParameter::Kind Kind, unsigned Bytes) {
  KernelParameter P;
  P.Name = Name;
  P.Type = Type;
  P.ParamKind = Kind;
  P.Bytes = Bytes;
  return P;
}

AccessRecord access(const std::string &File, unsigned Line, unsigned Col,
                    const char *Kernel, const char *Text, const char *Base,
                    Expr Address, AccessOp Op, Classification Class,
                    double Sectors) {
  AccessRecord A;
  A.Loc = {File, Line, Col};
  A.EndLoc = {File, Line, Col + 5};
  A.Kernel = Kernel;
  A.Expression = Text;
  A.Base = Base;
  A.ElemBytes = 4;
  A.Pattern.Address = std::move(Address);
  A.Pattern.AccessBytes = 4;
  A.Pattern.Op = Op;
  A.Predicted.Class = Class;
  A.Predicted.SectorsPerRequest = Sectors;
  A.Predicted.IdealSectorsPerRequest = 4;
  A.Predicted.ActiveLanesPerRequest = 32;
  return A;
}

class HarnessEmitterTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("coalesce-harness", Tmp));
    llvm::SmallString<256> Src(Tmp);
    llvm::sys::path::append(Src, "kernels.cu");
    File = std::string(Src);
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(File, EC);
      ASSERT_FALSE(EC);
      OS << KernelSource;
    }
    Out = (Tmp + "/out").str();

    KernelRecord Stride;
    Stride.Name = "k_stride";
    Stride.Loc = {File, 3, 17};
    Stride.Params = {pointer("out", "float", 4), pointer("in", "float", 4),
                     scalar("n", "int", KernelParameter::Kind::Integer, 4)};
    Stride.Accesses.push_back(access(File, 5, 14, "k_stride", "out[i * 32]",
                                     "out", c(128) * globalX(),
                                     AccessOp::Store, Classification::Strided,
                                     32));
    Stride.Accesses.push_back(access(File, 5, 30, "k_stride", "in[i]", "in",
                                     c(4) * globalX(), AccessOp::Load,
                                     Classification::Coalesced, 4));
    Stride.Accesses[0].Predicted.AssumedValues["n"] = 4096;

    KernelRecord Gather;
    Gather.Name = "k_gather";
    Gather.Loc = {File, 7, 17};
    Gather.Params = {pointer("out", "float", 4), pointer("in", "float", 4),
                     pointer("idx", "int", 4)};
    Gather.Accesses.push_back(access(File, 9, 12, "k_gather", "in[idx[i]]",
                                     "in",
                                     c(4) * sym({SymbolKind::IndirectValue,
                                                 "idx[i]"}),
                                     AccessOp::Load, Classification::Indirect,
                                     0));
    Gather.Accesses.back().Predicted.SectorsPerRequest.reset();

    KernelRecord Struct;
    Struct.Name = "k_struct";
    Struct.Loc = {File, 11, 17};
    Struct.Params = {scalar("s", "S", KernelParameter::Kind::Other, 16)};
    Struct.Accesses.push_back(access(File, 11, 33, "k_struct",
                                     "s.data[threadIdx.x * 2]", "s.data",
                                     c(8) * sym(Symbol::threadIdx(0)),
                                     AccessOp::Store, Classification::Strided,
                                     8));

    KernelRecord Tmpl;
    Tmpl.Name = "k_tmpl";
    Tmpl.Instantiation = "k_tmpl<double>";
    Tmpl.Loc = {File, 12, 39};
    Tmpl.Params = {pointer("p", "double", 8),
                   scalar("v", "double", KernelParameter::Kind::Floating, 8)};
    Tmpl.Accesses.push_back(access(File, 12, 60, "k_tmpl",
                                   "p[threadIdx.x * 4]", "p",
                                   c(32) * sym(Symbol::threadIdx(0)),
                                   AccessOp::Store, Classification::Strided,
                                   32));

    KernelRecord Clean;
    Clean.Name = "k_clean";
    Clean.Loc = {File, 14, 17};
    Clean.Params = {pointer("p", "float", 4)};
    Clean.Accesses.push_back(access(File, 14, 37, "k_clean", "p[threadIdx.x]",
                                    "p", c(4) * sym(Symbol::threadIdx(0)),
                                    AccessOp::Store, Classification::Coalesced,
                                    4));
    // A shared access: its row says "shared", its numbers are wavefronts.
    AccessRecord Tile = access(File, 14, 50, "k_clean", "t[threadIdx.x]", "t",
                               c(4) * sym(Symbol::threadIdx(0)), AccessOp::Load,
                               Classification::ConflictFree, 1);
    Tile.Pattern.Space = AccessSpace::Shared;
    Tile.Predicted.IdealSectorsPerRequest = 1;
    Clean.Accesses.push_back(Tile);
    R.Kernels = {Stride, Gather, Struct, Tmpl, Clean};
  }
  void TearDown() override {
    if (!std::getenv("COALESCE_KEEP_HARNESS")) // Set to inspect the output.
      llvm::sys::fs::remove_directories(Tmp);
  }

  std::string read(const std::string &Name) {
    auto Buf = llvm::MemoryBuffer::getFile(Out + "/" + Name);
    EXPECT_TRUE(bool(Buf)) << "missing " << Name;
    return Buf ? (*Buf)->getBuffer().str() : "";
  }

  llvm::SmallString<256> Tmp;
  std::string File, Out;
  Report R;
};

TEST_F(HarnessEmitterTest, WritesEveryFile) {
  HarnessOptions O;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, O, Out)));
  for (const char *F : {"harness.cu", "build.sh", "manifest.tsv", "README",
                        "src/kernels.cu"})
    EXPECT_TRUE(llvm::sys::fs::exists(Out + "/" + F)) << F;
  EXPECT_EQ(read("src/kernels.cu"), KernelSource);
  std::string Build = read("build.sh");
  EXPECT_NE(Build.find("-O3 -lineinfo -arch=sm_90 -o harness harness.cu -I'" +
                       std::string(Tmp) + "'"),
            std::string::npos)
      << Build;
  EXPECT_TRUE(llvm::sys::fs::can_execute(Out + "/build.sh"));
}

TEST_F(HarnessEmitterTest, ManifestListsAccessesOfKernelsWithFindings) {
  HarnessOptions O;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, O, Out)));
  std::string M = read("manifest.tsv");
  // k_clean has no finding: not selected without VerifyAll.
  EXPECT_EQ(M.find("k_clean"), std::string::npos) << M;
  EXPECT_NE(M.find("0\tk_stride\tharness\t" + File +
                   "\t5\t14\t5\tstore\tnone\t4\t4\t32\t4\tstrided\t"
                   "coalesce-stride\t-\tout[i * 32]\tout\t-\tglobal\t-\n"),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("1\tk_stride\tharness\t" + File +
                   "\t5\t30\t5\tload\tnone\t4\t4\t4\t4\tcoalesced\t-\t-\tin[i]\tin"
                   "\t-\tglobal\t-\n"),
            std::string::npos)
      << M;
  // A template kernel's row names its instantiation (column "instance").
  EXPECT_NE(M.find("\tp[threadIdx.x * 4]\tp\tk_tmpl<double>\tglobal\t-\n"),
            std::string::npos)
      << M;
  // No launch gives the grid: no finding has a per-launch excess (the
  // last column, excess_per_launch, is "-").
  // The gather has no numeric prediction.
  EXPECT_NE(M.find("\tload\tnone\t4\t4\t-\t4\tindirect\t"), std::string::npos)
      << M;
  HarnessOptions All;
  All.VerifyAll = true;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, All, Out)));
  std::string MAll = read("manifest.tsv");
  EXPECT_NE(MAll.find("5\tk_clean\t"), std::string::npos) << MAll;
  EXPECT_NE(MAll.find("6\tk_clean\tharness\t" + File +
                      "\t14\t50\t14\tload\tnone\t4\t4\t1\t1\tconflict-free\t-"
                      "\t-\tt[threadIdx.x]\tt\t-\tshared\t-\n"),
            std::string::npos)
      << MAll;
}

TEST_F(HarnessEmitterTest, HarnessLaunchesEachKernelOnce) {
  HarnessOptions O;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, O, Out)));
  std::string H = read("harness.cu");
  EXPECT_NE(H.find("#define main coalesce_user_main\n#include \"src/kernels.cu\"\n"
                   "#undef main"),
            std::string::npos);
  EXPECT_NE(H.find("cudaLaunchKernel((const void *)&k_stride, dim3(64, 1, 1), "
                   "dim3(256, 1, 1)"),
            std::string::npos)
      << H;
  EXPECT_NE(H.find("(const void *)&k_tmpl<double>"), std::string::npos);
  EXPECT_NE(H.find("int32_t arg2 = 4096; // n (assumed by the analysis)"),
            std::string::npos);
  EXPECT_NE(H.find("double arg1 = 1.0; // v"), std::string::npos);
  // The struct's dereferenced pointer field gets a buffer of its own.
  EXPECT_NE(H.find("std::remove_cv_t<S> arg0{}; // s"), std::string::npos) << H;
  EXPECT_NE(H.find("arg0.data = reinterpret_cast<decltype(arg0.data)>(arg0_0);"),
            std::string::npos)
      << H;
  EXPECT_EQ(H.find("status=skipped reason=%s"), std::string::npos) << H;
  EXPECT_NE(H.find("cudaStreamQuery"), std::string::npos);
  EXPECT_NE(H.find("waitFor(stream, name, 30.0)"), std::string::npos);
  size_t Launches = 0;
  for (size_t P = H.find("cudaLaunchKernel("); P != std::string::npos;
       P = H.find("cudaLaunchKernel(", P + 1))
    ++Launches;
  EXPECT_EQ(Launches, 4u) << "k_stride, k_gather, k_struct, k_tmpl";
}

TEST_F(HarnessEmitterTest, BufferSizesComeFromTheAddresses) {
  HarnessOptions O;
  O.BufferBytes["idx"] = 4096;
  HarnessPlan P = planHarness(R, O);
  ASSERT_EQ(P.Files.size(), 1u);
  ASSERT_EQ(P.Files[0].Kernels.size(), 4u);
  const KernelPlan &S = P.Files[0].Kernels[0];
  ASSERT_EQ(S.Args.size(), 3u);
  // out[i*32]: 128 * (63*256 + 255) + 4 bytes reached, exactly (rounded
  // up to 16 bytes).
  EXPECT_EQ(S.Args[0].BufferBytes, (128u * 16383u + 4u + 15u) / 16u * 16u);
  // in[i]: 64 KiB reached.
  EXPECT_EQ(S.Args[1].BufferBytes, 65536u) << S.Args[1].SizeOrigin;
  EXPECT_EQ(S.Args[2].IntValue, 4096);
  const KernelPlan &G = P.Files[0].Kernels[1];
  // out has no analyzed access: the default.
  EXPECT_EQ(G.Args[0].BufferBytes, O.DefaultBufferBytes) << G.Args[0].SizeOrigin;
  // in[idx[i]]: loaded indices stay below the smallest buffer's 1024
  // elements, so in needs 1024 floats.
  EXPECT_EQ(G.Args[1].BufferBytes, 4096u) << G.Args[1].SizeOrigin;
  EXPECT_EQ(G.Args[2].BufferBytes, 4096u);
  EXPECT_EQ(G.Args[2].FillKind, 'i');
  EXPECT_EQ(G.IntModulus, 1024u);
  // The struct's pointer field: 8 * 255 + 4 bytes.
  const KernelPlan &St = P.Files[0].Kernels[2];
  ASSERT_EQ(St.Args.size(), 1u);
  EXPECT_EQ(St.Args[0].ArgKind, ArgPlan::Kind::Struct);
  ASSERT_EQ(St.Args[0].Fields.size(), 1u);
  EXPECT_EQ(St.Args[0].Fields[0].Name, "data");
  EXPECT_EQ(St.Args[0].Fields[0].BufferBytes, (8u * 255u + 4u + 15u) / 16u * 16u);
}

TEST(HarnessPlanTest, ByteRangeOfLoopsAndNegativeOffsets) {
  AccessRecord A;
  A.Pattern.AccessBytes = 4;
  Symbol K{SymbolKind::LoopIter, "k"};
  A.Pattern.Address = c(4) * sym(K) - c(64) +
                      c(4096) * sym(Symbol::threadIdx(1));
  A.Pattern.Active = Expr::lt(sym(K), c(1024));
  LaunchValues V{{16, 16, 1}, {8, 8, 1}, {}, std::nullopt};
  auto R = accessByteRange(A, V);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->first, -64);
  EXPECT_EQ(R->second, 4 * 1023 - 64 + 4096 * 15 + 4);
  // No loop condition: the counter has no bound, and the reason says so.
  A.Pattern.Active = c(1);
  std::string Why;
  EXPECT_FALSE(accessByteRange(A, V, &Why));
  EXPECT_NE(Why.find("k has no bound"), std::string::npos) << Why;
  A.Pattern.Address = c(4) * sym(Symbol::param("N"));
  EXPECT_FALSE(accessByteRange(A, V));
  V.Scalars["N"] = 10;
  EXPECT_EQ(accessByteRange(A, V)->second, 44);
  // Dead for this launch: threadIdx.x >= 16 in a 16-wide block.
  A.Pattern.Active = Expr::ge(sym(Symbol::threadIdx(0)), c(16));
  EXPECT_EQ(accessByteRange(A, V), std::make_pair(int64_t(0), int64_t(0)));
}

// The reported fault: a matrix-vector kernel reading At[(size_t)j * N + i]
// for j < N with N = 4096 got 33652736 bytes from loop counters sampled over
// 0..1023 (doubled); the kernel reaches 64 MiB.
TEST(HarnessPlanTest, MatrixVectorBufferCoversEveryIteration) {
  Report R;
  KernelRecord K;
  K.Name = "matvec_t";
  K.Loc = {"/nonexistent/matvec.cu", 1, 17};
  K.Block = {256, 1, 1};
  K.LaunchGrid = BlockShape{16, 1, 1};
  K.Params = {pointer("At", "float", 4), pointer("x", "float", 4),
              pointer("y", "float", 4),
              scalar("N", "int", KernelParameter::Kind::Integer, 4)};
  Symbol J{SymbolKind::LoopIter, "j"};
  Expr N = sym(Symbol::param("N")), I = globalX();
  Expr Guard = Expr::lt(I, N), Loop = Expr::logicalAnd(Guard, Expr::lt(sym(J), N));
  K.Accesses.push_back(access("/nonexistent/matvec.cu", 4, 10, "matvec_t",
                              "At[(size_t)j * N + i]", "At",
                              c(4) * (sym(J) * N + I), AccessOp::Load,
                              Classification::Strided, 32));
  K.Accesses.back().Pattern.Active = Loop;
  K.Accesses.push_back(access("/nonexistent/matvec.cu", 4, 30, "matvec_t",
                              "x[j]", "x", c(4) * sym(J), AccessOp::Load,
                              Classification::Uniform, 1));
  K.Accesses.back().Pattern.Active = Loop;
  K.Accesses.push_back(access("/nonexistent/matvec.cu", 5, 5, "matvec_t",
                              "y[i]", "y", c(4) * I, AccessOp::Store,
                              Classification::Coalesced, 4));
  K.Accesses.back().Pattern.Active = Guard;
  K.Accesses[0].Predicted.AssumedValues["N"] = 4096;
  R.Kernels = {K};
  HarnessOptions O;
  O.VerifyAll = true;
  HarnessPlan P = planHarness(R, O);
  ASSERT_EQ(P.Files.size(), 1u);
  const KernelPlan &KP = P.Files[0].Kernels[0];
  EXPECT_EQ(KP.SkipReason, "");
  EXPECT_EQ(KP.Args[0].BufferBytes, 64ull << 20) << KP.Args[0].SizeOrigin;
  EXPECT_NE(KP.Args[0].BufferBytes, 33652736u);
  EXPECT_EQ(KP.Args[1].BufferBytes, 4u * 4096u);
  EXPECT_EQ(KP.Args[2].BufferBytes, 4u * 4096u);
  // Too large for the limit: skipped with the reason, not launched.
  O.MaxBufferBytes = 32ull << 20;
  HarnessPlan Small = planHarness(R, O);
  EXPECT_NE(Small.Files[0].Kernels[0].SkipReason.find(
                "buffer 'At' would need 67108864 bytes"),
            std::string::npos)
      << Small.Files[0].Kernels[0].SkipReason;
}

TEST(HarnessPlanTest, CooperativeKernelsAreRecognized) {
  const char *Src = "__global__ void k(float *a) {\n"
                    "  cg::grid_group g = cg::this_grid();\n  g.sync();\n}\n"
                    "__global__ void plain(float *a) { a[0] = 1; }\n"
                    "__global__ void byHost(float *a) { a[0] = 1; }\n"
                    "void run() { cudaLaunchCooperativeKernel((void *)byHost, "
                    "1, 32, args); }\n";
  EXPECT_TRUE(needsCooperativeLaunch(Src, "k", 1));
  EXPECT_FALSE(needsCooperativeLaunch(Src, "plain", 5));
  EXPECT_TRUE(needsCooperativeLaunch(Src, "byHost", 6));
}

TEST_F(HarnessEmitterTest, HarnessCompilesWithNvcc) {
  std::string Nvcc = "/usr/local/cuda/bin/nvcc";
  if (!llvm::sys::fs::can_execute(Nvcc)) {
    auto Found = llvm::sys::findProgramByName("nvcc");
    if (!Found)
      GTEST_SKIP() << "nvcc is not installed";
    Nvcc = *Found;
  }
  HarnessOptions O;
  O.VerifyAll = true;
  O.Fill = FillMode::Permutation;
  ASSERT_FALSE(llvm::errorToBool(emitHarness(R, O, Out)));
  std::string Log = Out + "/nvcc.log";
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(Log),
                                                llvm::StringRef(Log)};
  llvm::SmallVector<llvm::StringRef> Args = {
      Nvcc, "-arch=sm_90", "-c", "harness.cu", "-o", "harness.o",
      "-I" + std::string(Tmp)};
  std::string IncludeArg = "-I" + std::string(Tmp);
  Args.back() = IncludeArg;
  std::string HarnessCu = Out + "/harness.cu", Obj = Out + "/harness.o";
  Args[3] = HarnessCu;
  Args[5] = Obj;
  int Rc = llvm::sys::ExecuteAndWait(Nvcc, Args, std::nullopt, Redirects, 300);
  EXPECT_EQ(Rc, 0) << read("nvcc.log");
  EXPECT_TRUE(llvm::sys::fs::exists(Obj));
}

TEST(VerifyClientTest, ParsesJsonAndMergesIntoTheReport) {
  Report R;
  KernelRecord K;
  K.Name = "k_stride";
  AccessRecord A;
  A.Loc = {"/src/probe.cu", 18, 3};
  K.Accesses = {A, A};
  K.Accesses[1].Loc.Column = 17;
  R.Kernels = {K};
  const char *Json = R"({"version": 1, "tool": "coalesce-verify", "method": "recording",
    "device": "", "tolerance": 0.05, "exit_code": 1, "message": "",
    "kernels": [], "accesses": [
    {"id": 0, "kernel": "k_stride", "file": "probe.cu", "line": 18, "column": 3,
     "op": "store", "expr": "out[i * 32]", "predicted": 4, "compared_prediction": 4,
     "measured_sectors_per_request": 32, "measured_requests": 32768,
     "measured_sectors": 1048576, "method": "ncu-source-counters",
     "verdict": "mismatch", "group": [], "instruction_values": [32], "note": ""},
    {"id": 7, "kernel": "k_stride", "file": "probe.cu", "line": 18, "column": 17,
     "op": "load", "expr": "in[i]", "predicted": 4, "compared_prediction": 4,
     "measured_sectors_per_request": null, "measured_requests": 0,
     "measured_sectors": 0, "method": "none", "verdict": "not-executed",
     "group": [7, 8], "instruction_values": [], "note": "x"}],
    "unattributed": []})";
  auto Run = parseVerifyJson(Json);
  ASSERT_TRUE(bool(Run)) << llvm::toString(Run.takeError());
  EXPECT_EQ(Run->ExitCode, 1);
  ASSERT_EQ(Run->Accesses.size(), 2u);
  EXPECT_EQ(Run->Accesses[0].MeasuredSectorsPerRequest, 32.0);
  EXPECT_EQ(Run->Accesses[0].MeasuredRequests, 32768);
  EXPECT_FALSE(Run->Accesses[1].MeasuredSectorsPerRequest);
  EXPECT_EQ(Run->Accesses[1].Group, (std::vector<unsigned>{7, 8}));
  auto V = mergeMeasurements(R, Run->Accesses);
  ASSERT_EQ(V.size(), 2u);
  ASSERT_EQ(V[0].Measurements.size(), 1u);
  EXPECT_EQ(V[0].Measurements[0]->Verdict, "mismatch");
  // Id 1 is absent; the access is found by kernel, file and position.
  ASSERT_EQ(V[1].Measurements.size(), 1u);
  EXPECT_EQ(V[1].Measurements[0]->Id, 7u);
  EXPECT_EQ(describeMeasurement(*V[0].Measurements[0]),
            "measured on the GPU: 32 sectors per request over 32768 requests "
            "(ncu-source-counters): mismatch");
  EXPECT_FALSE(bool(parseVerifyJson("{\"version\": 2}")));
}

TEST(VerifyClientTest, LaunchesOfOneAccessAreSummedAndListed) {
  // Two profiled launches of one kernel: 8 sectors per request over 100
  // requests, then 16 over 300 (a mismatch). The report keeps both, sums
  // them (5600 sectors / 400 requests = 14) and calls the access a mismatch.
  AccessMeasurement First, Second;
  First.Launch = 1;
  First.MeasuredSectorsPerRequest = 8;
  First.MeasuredRequests = 100;
  First.MeasuredSectors = 800;
  First.Verdict = "confirmed";
  First.Method = "ncu-source-counters";
  Second = First;
  Second.Launch = 2;
  Second.MeasuredSectorsPerRequest = 16;
  Second.MeasuredRequests = 300;
  Second.MeasuredSectors = 4800;
  Second.Verdict = "mismatch";
  Measurement M = combineLaunches({&First, &Second});
  EXPECT_EQ(M.SectorsPerRequest, 14.0);
  EXPECT_EQ(M.Requests, 400);
  EXPECT_EQ(M.Verdict, "mismatch");
  EXPECT_EQ(M.Note, "2 launches profiled (sectors per request: #1 8, #2 16)");
  ASSERT_EQ(M.Launches.size(), 2u);
  EXPECT_EQ(M.Launches[1].Number, 2u);
  EXPECT_EQ(M.Launches[1].Verdict, "mismatch");
  // One launch is reported as measured, with no list.
  Measurement One = combineLaunches({&First});
  EXPECT_EQ(One.SectorsPerRequest, 8.0);
  EXPECT_TRUE(One.Launches.empty());
  EXPECT_EQ(One.Note, "");
}

} // namespace
