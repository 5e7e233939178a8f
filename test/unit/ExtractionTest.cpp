//===- ExtractionTest.cpp - Access extraction on in-memory CUDA sources ---===//
//
// Each test writes a small CUDA snippet to a temporary file, runs
// coalesce::analyze() on it and checks the report: which global accesses are
// found (position, op, base, element size, text), which are not, how kernels,
// block shapes, template instantiations and compile errors are recorded, and
// a few predictions. Positions are computed from the snippet text, never
// hard-coded. Every test is skipped when no CUDA installation is found.
//
//===----------------------------------------------------------------------===//
#include "ExtractionTestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace coalesce;
using namespace coalesce::testutil;

namespace {

class ExtractionTest : public SnippetTest {};

bool hasSymbol(const Expr &E, SymbolKind Kind, llvm::StringRef Name = "") {
  return E.anySymbol([&](const Symbol &S) {
    return S.Kind == Kind && (Name.empty() || S.Name == Name);
  });
}

/// What one access is expected to look like.
struct Expected {
  const char *Context; ///< A unique piece of the snippet holding the access.
  const char *Text;    ///< Where in Context the access starts.
  AccessOp Op;
  const char *Base;
  unsigned ElemBytes;
  const char *Expression;
};

/// Checks that \p K has exactly the accesses \p Want, field by field.
void expectAccesses(const Report &R, const KernelRecord &K,
                    llvm::StringRef Source, const std::vector<Expected> &Want) {
  EXPECT_EQ(K.Accesses.size(), Want.size()) << describe(R);
  for (const Expected &W : Want) {
    Pos P = posIn(Source, W.Context, W.Text);
    SCOPED_TRACE(fmt::format("access '{}' at {}", W.Expression, P.str()));
    const AccessRecord *A = accessAt(R, K, P);
    if (!A)
      continue;
    EXPECT_EQ(A->Kernel, K.Name);
    EXPECT_STREQ(accessOpName(A->Pattern.Op), accessOpName(W.Op));
    EXPECT_EQ(A->Base, W.Base);
    EXPECT_EQ(A->ElemBytes, W.ElemBytes);
    EXPECT_EQ(A->Pattern.AccessBytes, W.ElemBytes);
    EXPECT_EQ(A->Expression, W.Expression);
    EXPECT_TRUE(A->CallChain.empty());
  }
}

void expectPrediction(const AccessRecord *A, Classification Class,
                      double Sectors, double Ideal) {
  ASSERT_NE(A, nullptr);
  SCOPED_TRACE(fmt::format("access '{}' at {}:{}, address {}", A->Expression,
                           A->Loc.Line, A->Loc.Column,
                           A->Pattern.Address.str()));
  EXPECT_STREQ(classificationName(A->Predicted.Class),
               classificationName(Class));
  ASSERT_TRUE(A->Predicted.SectorsPerRequest.has_value());
  EXPECT_DOUBLE_EQ(*A->Predicted.SectorsPerRequest, Sectors);
  ASSERT_TRUE(A->Predicted.IdealSectorsPerRequest.has_value());
  EXPECT_DOUBLE_EQ(*A->Predicted.IdealSectorsPerRequest, Ideal);
}

//===----------------------------------------------------------------------===//
// Which expressions are global accesses
//===----------------------------------------------------------------------===//

const char *ConstructsSource = R"cu(
struct Pair { float x, y; };
__device__ float gArray[1024];
__device__ int gScalar;
__constant__ float cTable[64];

__global__ void constructs(float *a, Pair *p, const float *__restrict__ r,
                           int *counts, float4 *v, float *sum, Pair byValue,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float tile[256];
  float local[4];
  Pair mine = byValue;
  float t = 0;
  a[i] = 1.0f;
  t = a[i + 1];
  a[2 * i] += 2.0f;
  counts[i]++;
  --counts[i];
  *(a + i) = t;
  t += *(r + 32 * i);
  t += p[i].x;
  p->y = t;
  (p + i)->y = t;
  t += __ldg(&r[i]);
  float *row = a + n * blockIdx.y;
  row[threadIdx.x] = t;
  gArray[i % 1024] = t;
  t += gScalar;
  float4 q = v[i];
  v[i] = q;
  atomicAdd(&counts[0], 1);
  atomicAdd(&sum[0], t);
  tile[threadIdx.x] = t;
  local[threadIdx.x % 4] = t;
  mine.y = t;
  t += cTable[threadIdx.x % 64] + local[1] + tile[2] + n + byValue.x + mine.x;
  sum[i] = t;
}
)cu";

TEST_F(ExtractionTest, FindsEveryGlobalAccessAndNothingElse) {
  llvm::StringRef Src = ConstructsSource;
  Report R = analyzeSnippet(Src);
  ASSERT_EQ(R.Files.size(), 1u);
  EXPECT_TRUE(R.Files[0].Analyzed) << describe(R);
  EXPECT_TRUE(R.Files[0].Errors.empty()) << describe(R);
  ASSERT_EQ(R.Kernels.size(), 1u) << describe(R);
  const KernelRecord &K = R.Kernels[0];
  EXPECT_EQ(K.Name, "constructs");
  EXPECT_EQ(posOf(K.Loc), posOf(Src, "constructs("));
  EXPECT_EQ(K.Instantiation, "");

  const AccessOp Load = AccessOp::Load, Store = AccessOp::Store,
                 Both = AccessOp::LoadStore, Atomic = AccessOp::Atomic;
  // The accesses of the last line (local, __constant__, by-value parameters
  // and a local copy of one) must not appear; the shared ones are predicted
  // in wavefronts (AccessSpace::Shared).
  expectAccesses(
      R, K, Src,
      {
          {"a[i] = 1.0f;", "a[i]", Store, "a", 4, "a[i]"},
          {"t = a[i + 1];", "a[i + 1]", Load, "a", 4, "a[i + 1]"},
          {"a[2 * i] += 2.0f;", "a[2 * i]", Both, "a", 4, "a[2 * i]"},
          {"counts[i]++;", "counts[i]", Both, "counts", 4, "counts[i]"},
          {"--counts[i];", "counts[i]", Both, "counts", 4, "counts[i]"},
          {"*(a + i) = t;", "*(a + i)", Store, "a", 4, "*(a + i)"},
          {"t += *(r + 32 * i);", "*(r", Load, "r", 4, "*(r + 32 * i)"},
          {"t += p[i].x;", "p[i].x", Load, "p", 4, "p[i].x"},
          {"p->y = t;", "p->y", Store, "p", 4, "p->y"},
          {"(p + i)->y = t;", "(p + i)->y", Store, "p", 4, "(p + i)->y"},
          {"__ldg(&r[i])", "r[i]", Load, "r", 4, "r[i]"},
          {"row[threadIdx.x] = t;", "row", Store, "a", 4, "row[threadIdx.x]"},
          {"gArray[i % 1024] = t;", "gArray", Store, "gArray", 4,
           "gArray[i % 1024]"},
          {"t += gScalar;", "gScalar", Load, "gScalar", 4, "gScalar"},
          {"float4 q = v[i];", "v[i]", Load, "v", 16, "v[i]"},
          {"v[i] = q;", "v[i]", Store, "v", 16, "v[i]"},
          {"atomicAdd(&counts[0], 1);", "counts[0]", Atomic, "counts", 4,
           "counts[0]"},
          {"atomicAdd(&sum[0], t);", "sum[0]", Atomic, "sum", 4, "sum[0]"},
          {"sum[i] = t;", "sum[i]", Store, "sum", 4, "sum[i]"},
          {"tile[threadIdx.x] = t;", "tile", Store, "tile", 4,
           "tile[threadIdx.x]"},
          {"tile[2] + n", "tile", Load, "tile", 4, "tile[2]"},
      });
  for (const AccessRecord &A : K.Accesses)
    EXPECT_EQ(A.Pattern.Space == AccessSpace::Shared, A.Base == "tile")
        << A.Expression;
  expectPrediction(
      accessAt(R, K, posIn(Src, "tile[threadIdx.x] = t;", "tile")),
      Classification::ConflictFree, 1, 1);
  expectPrediction(accessAt(R, K, posIn(Src, "tile[2] + n", "tile")),
                   Classification::Uniform, 1, 1);

  // Ranges, source lines and lane sources.
  Pos First = posOf(Src, "a[i] = 1.0f;");
  if (const AccessRecord *A = accessAt(R, K, First)) {
    EXPECT_EQ(A->Loc.File, R.Files[0].File);
    EXPECT_EQ(A->EndLoc.Line, First.Line);
    EXPECT_EQ(A->EndLoc.Column, First.Column + 3) << "last character of 'a[i]'";
    EXPECT_EQ(A->SourceLine, "  a[i] = 1.0f;");
    EXPECT_EQ(A->LaneSourceName, "i");
    EXPECT_EQ(posOf(A->LaneSourceLoc).Line, posOf(Src, "int i =").Line);
    EXPECT_EQ(A->LaneSourceSymbols, std::vector<std::string>{"threadIdx.x"});
    // 4*(blockIdx.x*blockDim.x + threadIdx.x) with an assumed 256-thread block.
    EXPECT_TRUE(
        hasSymbol(A->Pattern.Address, SymbolKind::ThreadIdx, "threadIdx.x"));
    EXPECT_TRUE(
        hasSymbol(A->Pattern.Address, SymbolKind::BlockIdx, "blockIdx.x"));
    EXPECT_EQ(A->Pattern.Active.asConstant(), std::optional<int64_t>(1));
    EXPECT_EQ(A->Pattern.Atomic, AtomicKind::None);
    expectPrediction(A, Classification::Coalesced, 4, 4);
    EXPECT_EQ(A->Predicted.LaneStrideBytesValue, std::optional<int64_t>(4));
  }
  if (const AccessRecord *A =
          accessAt(R, K, posIn(Src, "row[threadIdx.x] = t;", "row"))) {
    EXPECT_FALSE(A->LaneSourceLoc.valid()) << "threadIdx.x is used directly";
    EXPECT_TRUE(hasSymbol(A->Pattern.Address, SymbolKind::Param, "n"))
        << A->Pattern.Address.str();
  }

  // Predictions of the typical patterns (256-thread block assumed).
  expectPrediction(accessAt(R, K, posIn(Src, "t = a[i + 1];", "a[")),
                   Classification::Misaligned, 5, 4);
  expectPrediction(accessAt(R, K, posIn(Src, "a[2 * i] +=", "a[")),
                   Classification::Strided, 8, 4);
  expectPrediction(accessAt(R, K, posIn(Src, "*(r + 32 * i)", "*")),
                   Classification::Strided, 32, 4);
  const AccessRecord *AoS = accessAt(R, K, posIn(Src, "p[i].x;", "p"));
  expectPrediction(AoS, Classification::AoS, 8, 4);
  if (AoS)
    EXPECT_EQ(AoS->Pattern.RecordBytes, std::optional<unsigned>(8));
  expectPrediction(accessAt(R, K, posIn(Src, "p->y = t;", "p")),
                   Classification::Uniform, 1, 4);
  expectPrediction(accessAt(R, K, posIn(Src, "t += gScalar;", "g")),
                   Classification::Uniform, 1, 4);
  expectPrediction(accessAt(R, K, posIn(Src, "float4 q = v[i];", "v")),
                   Classification::Coalesced, 16, 16);
  if (const AccessRecord *A =
          accessAt(R, K, posIn(Src, "atomicAdd(&counts[0], 1);", "counts")))
    EXPECT_EQ(A->Pattern.Atomic, AtomicKind::Integer);
  if (const AccessRecord *A =
          accessAt(R, K, posIn(Src, "atomicAdd(&sum[0], t);", "sum"))) {
    EXPECT_EQ(A->Pattern.Atomic, AtomicKind::Float);
    // Same-address float atomics are not merged: 1 sector x 32 lanes.
    ASSERT_TRUE(A->Predicted.SectorsPerRequest.has_value());
    EXPECT_DOUBLE_EQ(*A->Predicted.SectorsPerRequest, 32);
  }

  // The parameters, as the harness needs them.
  ASSERT_EQ(K.Params.size(), 8u);
  EXPECT_EQ(K.Params[0].Name, "a");
  EXPECT_EQ(K.Params[0].ParamKind, KernelParameter::Kind::Pointer);
  EXPECT_EQ(K.Params[0].PointeeType, "float");
  EXPECT_EQ(K.Params[0].PointeeBytes, 4u);
  EXPECT_EQ(K.Params[1].PointeeBytes, 8u) << "Pair";
  EXPECT_EQ(K.Params[4].PointeeBytes, 16u) << "float4";
  EXPECT_EQ(K.Params[6].ParamKind, KernelParameter::Kind::Other)
      << "Pair by value";
  EXPECT_EQ(K.Params[6].Bytes, 8u);
  EXPECT_EQ(K.Params[7].Name, "n");
  EXPECT_EQ(K.Params[7].ParamKind, KernelParameter::Kind::Integer);
  EXPECT_TRUE(K.Params[7].IsSigned);
}

//===----------------------------------------------------------------------===//
// __device__ functions
//===----------------------------------------------------------------------===//

const char *DeviceFunctionSource = R"cu(
__device__ float load(const float *p, int idx) { return p[idx]; }
__device__ float twice(const float *q, int j) { return 2.0f * load(q, j); }
__device__ void neverCalled(float *p) { p[threadIdx.x] = 0.0f; }

__global__ void direct(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = load(in, i);
}

__global__ void nested(float *dst, const float *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = twice(src, 32 * i);
}
)cu";

TEST_F(ExtractionTest, AttributesDeviceFunctionAccessesToEachCallingKernel) {
  llvm::StringRef Src = DeviceFunctionSource;
  Report R = analyzeSnippet(Src);
  ASSERT_EQ(R.Kernels.size(), 2u) << describe(R);
  const KernelRecord *Direct = findKernel(R, "direct");
  const KernelRecord *Nested = findKernel(R, "nested");
  ASSERT_TRUE(Direct && Nested) << describe(R);

  Pos InLoad = posIn(Src, "return p[idx];", "p[idx]");
  // Called directly: the base is the caller's argument, the chain the call.
  EXPECT_EQ(Direct->Accesses.size(), 2u) << describe(R);
  if (const AccessRecord *A = accessAt(R, *Direct, InLoad)) {
    EXPECT_EQ(A->Kernel, "direct");
    EXPECT_EQ(A->Base, "in");
    EXPECT_EQ(A->Expression, "p[idx]");
    EXPECT_EQ(A->Pattern.Op, AccessOp::Load);
    ASSERT_EQ(A->CallChain.size(), 1u);
    EXPECT_EQ(posOf(A->CallChain[0]),
              posIn(Src, "out[i] = load(in, i);", "load"));
    expectPrediction(A, Classification::Coalesced, 4, 4);
  }
  // Called through twice(): two call sites, kernel first; the index is the
  // caller's 32 * i.
  EXPECT_EQ(Nested->Accesses.size(), 2u) << describe(R);
  if (const AccessRecord *A = accessAt(R, *Nested, InLoad)) {
    EXPECT_EQ(A->Kernel, "nested");
    EXPECT_EQ(A->Base, "src");
    ASSERT_EQ(A->CallChain.size(), 2u);
    EXPECT_EQ(posOf(A->CallChain[0]), posIn(Src, "dst[i] = twice(", "twice"));
    EXPECT_EQ(posOf(A->CallChain[1]), posIn(Src, "2.0f * load(q, j)", "load"));
    expectPrediction(A, Classification::Strided, 32, 4);
  }
  // The kernels' own stores have no chain; the uncalled function adds nothing.
  if (const AccessRecord *A = accessAt(R, *Nested, posOf(Src, "dst[i]")))
    EXPECT_TRUE(A->CallChain.empty());
  Pos Uncalled = posIn(Src, "p[threadIdx.x] = 0.0f", "p");
  for (const KernelRecord &K : R.Kernels)
    EXPECT_TRUE(accessesAt(K, Uncalled).empty()) << describe(R);
}

//===----------------------------------------------------------------------===//
// Block shapes
//===----------------------------------------------------------------------===//

const char *BlockShapeSource = R"cu(
#define BLOCK 16
__global__ void tiled(float *out, const float *in, int n) {
  int x = blockIdx.x * BLOCK + threadIdx.x;
  int y = blockIdx.y * BLOCK + threadIdx.y;
  out[y * n + x] = in[x * n + y];
}
__global__ void __launch_bounds__(128) bounded(float *a) { a[threadIdx.x] = 0; }
__global__ void assumed(float *a) { a[threadIdx.x] = 0; }
__global__ void overridden(float *a) { a[threadIdx.x] = 0; }

void launch(float *out, const float *in, float *a, int n) {
  dim3 block(BLOCK, BLOCK);
  dim3 grid(64, 32);
  tiled<<<grid, block>>>(out, in, n);
  overridden<<<1, 512>>>(a);
}
)cu";

TEST_F(ExtractionTest, TakesBlockShapesFromLaunchesBoundsAndOptions) {
  llvm::StringRef Src = BlockShapeSource;
  AnalysisConfig C;
  C.Blocks.push_back({"overridden", BlockShape{64, 2, 1}});
  C.Params.push_back({"", "n", 1024});
  Report R = analyzeSnippet(Src, C);
  ASSERT_EQ(R.Kernels.size(), 4u) << describe(R);

  const KernelRecord *Tiled = findKernel(R, "tiled");
  ASSERT_NE(Tiled, nullptr);
  EXPECT_EQ(Tiled->Block, (BlockShape{16, 16, 1})) << Tiled->Block.str();
  EXPECT_EQ(Tiled->BlockSource, BlockShapeSource::LaunchSite);
  ASSERT_TRUE(Tiled->LaunchGrid.has_value());
  EXPECT_EQ(*Tiled->LaunchGrid, (BlockShape{64, 32, 1}));
  // One warp spans two rows of 16 floats: 2 x 2 sectors when rows are read,
  // 16 rows x 1 sector when threadIdx.x walks the slow dimension.
  expectPrediction(accessAt(R, *Tiled, posOf(Src, "out[y * n + x]")),
                   Classification::Coalesced, 4, 4);
  const AccessRecord *T = accessAt(R, *Tiled, posOf(Src, "in[x * n + y]"));
  expectPrediction(T, Classification::Transposed, 16, 4);
  if (T) {
    EXPECT_EQ(T->Predicted.LaneStrideBytesValue, std::optional<int64_t>(4096));
    EXPECT_EQ(T->Predicted.RowStrideBytesValue, std::optional<int64_t>(4));
  }

  const KernelRecord *Bounded = findKernel(R, "bounded");
  ASSERT_NE(Bounded, nullptr);
  EXPECT_EQ(Bounded->Block, (BlockShape{128, 1, 1})) << Bounded->Block.str();
  EXPECT_EQ(Bounded->BlockSource, BlockShapeSource::LaunchBounds);
  EXPECT_FALSE(Bounded->LaunchGrid.has_value());

  const KernelRecord *Assumed = findKernel(R, "assumed");
  ASSERT_NE(Assumed, nullptr);
  EXPECT_EQ(Assumed->Block, (BlockShape{256, 1, 1})) << Assumed->Block.str();
  EXPECT_EQ(Assumed->BlockSource, BlockShapeSource::Assumed);

  // --block for one kernel beats its launch site.
  const KernelRecord *Over = findKernel(R, "overridden");
  ASSERT_NE(Over, nullptr);
  EXPECT_EQ(Over->Block, (BlockShape{64, 2, 1})) << Over->Block.str();
  EXPECT_EQ(Over->BlockSource, BlockShapeSource::CommandLine);
  ASSERT_TRUE(Over->LaunchGrid.has_value());
  EXPECT_EQ(*Over->LaunchGrid, (BlockShape{1, 1, 1}));
}

//===----------------------------------------------------------------------===//
// Predicates and loops
//===----------------------------------------------------------------------===//

const char *GuardSource = R"cu(
__global__ void guarded(float *a, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  a[i] = 0.0f;
}
__global__ void unguarded(float *a, int n) {
  a[threadIdx.x] = 0.0f;
}
__global__ void branch(float *a, int n) {
  if (threadIdx.x % 2 == 0)
    a[threadIdx.x] = 1.0f;
}
)cu";

TEST_F(ExtractionTest, EarlyReturnGuardBecomesThePredicate) {
  llvm::StringRef Src = GuardSource;
  AnalysisConfig C;
  C.Blocks.push_back({"", BlockShape{128, 1, 1}});
  C.Params.push_back({"", "n", 100});
  Report R = analyzeSnippet(Src, C);
  ASSERT_EQ(R.Kernels.size(), 3u) << describe(R);

  const KernelRecord *G = findKernel(R, "guarded");
  ASSERT_NE(G, nullptr);
  EXPECT_EQ(G->Block, (BlockShape{128, 1, 1}));
  EXPECT_EQ(G->BlockSource, BlockShapeSource::CommandLine);
  const AccessRecord *A = accessAt(R, *G, posOf(Src, "a[i] = 0.0f"));
  ASSERT_NE(A, nullptr);
  EXPECT_FALSE(A->Pattern.Active.isConstant()) << A->Pattern.Active.str();
  EXPECT_TRUE(hasSymbol(A->Pattern.Active, SymbolKind::Param, "n"))
      << A->Pattern.Active.str();
  EXPECT_TRUE(
      hasSymbol(A->Pattern.Active, SymbolKind::ThreadIdx, "threadIdx.x"))
      << A->Pattern.Active.str();
  // Lanes 100..127 are off: warps 0-2 are full (4 sectors), warp 3 has 4
  // lanes (1 sector). Means over the 4 requests: 25 lanes, 3.25 sectors.
  ASSERT_TRUE(A->Predicted.ActiveLanesPerRequest.has_value());
  EXPECT_DOUBLE_EQ(*A->Predicted.ActiveLanesPerRequest, 25.0);
  expectPrediction(A, Classification::Coalesced, 3.25, 3.25);

  const KernelRecord *U = findKernel(R, "unguarded");
  ASSERT_NE(U, nullptr);
  const AccessRecord *B = accessAt(R, *U, posOf(Src, "a[threadIdx.x] = 0.0f"));
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Pattern.Active.asConstant(), std::optional<int64_t>(1));
  EXPECT_EQ(B->Predicted.ActiveLanesPerRequest, std::optional<double>(32.0));

  // Half the lanes, every other float: 4 sectors for 16 lanes (ideal 2).
  const KernelRecord *Br = findKernel(R, "branch");
  ASSERT_NE(Br, nullptr);
  const AccessRecord *D = accessAt(R, *Br, posOf(Src, "a[threadIdx.x] = 1.0f"));
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->Predicted.ActiveLanesPerRequest, std::optional<double>(16.0));
  ASSERT_TRUE(D->Predicted.SectorsPerRequest.has_value());
  EXPECT_DOUBLE_EQ(*D->Predicted.SectorsPerRequest, 4.0);
  ASSERT_TRUE(D->Predicted.IdealSectorsPerRequest.has_value());
  EXPECT_DOUBLE_EQ(*D->Predicted.IdealSectorsPerRequest, 2.0);
}

const char *LoopSource = R"cu(
__global__ void gridStride(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i];
}
__global__ void rowWalk(float *out, const float *m, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += m[k * n + threadIdx.x];
  out[threadIdx.x] = s;
}
__global__ void columnWalk(float *out, const float *m, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += m[threadIdx.x * n + k];
  out[threadIdx.x] = s;
}
)cu";

TEST_F(ExtractionTest, LoopCountersBecomeLoopIterationSymbols) {
  llvm::StringRef Src = LoopSource;
  AnalysisConfig C;
  C.Params.push_back({"", "n", 1 << 20});
  C.Params.push_back({"rowWalk", "n", 512});
  C.Params.push_back({"columnWalk", "n", 512});
  Report R = analyzeSnippet(Src, C);
  ASSERT_EQ(R.Kernels.size(), 3u) << describe(R);

  const KernelRecord *GS = findKernel(R, "gridStride");
  ASSERT_NE(GS, nullptr);
  EXPECT_EQ(GS->Accesses.size(), 2u) << describe(R);
  for (const char *Text : {"out[i]", "in[i]"}) {
    const AccessRecord *A = accessAt(R, *GS, posOf(Src, Text));
    ASSERT_NE(A, nullptr) << Text;
    EXPECT_TRUE(hasSymbol(A->Pattern.Address, SymbolKind::LoopIter))
        << Text << ": " << A->Pattern.Address.str();
    EXPECT_TRUE(hasSymbol(A->Pattern.Address, SymbolKind::GridDim, "gridDim.x"))
        << Text << ": " << A->Pattern.Address.str();
    expectPrediction(A, Classification::Coalesced, 4, 4);
  }

  const KernelRecord *Row = findKernel(R, "rowWalk");
  ASSERT_NE(Row, nullptr);
  const AccessRecord *M =
      accessAt(R, *Row, posOf(Src, "m[k * n + threadIdx.x]"));
  ASSERT_NE(M, nullptr);
  EXPECT_TRUE(hasSymbol(M->Pattern.Address, SymbolKind::LoopIter, "k"))
      << M->Pattern.Address.str();
  expectPrediction(M, Classification::Coalesced, 4, 4);

  // Per-kernel --param n=512: lanes are 2048 bytes apart.
  const KernelRecord *Col = findKernel(R, "columnWalk");
  ASSERT_NE(Col, nullptr);
  const AccessRecord *T =
      accessAt(R, *Col, posOf(Src, "m[threadIdx.x * n + k]"));
  expectPrediction(T, Classification::Strided, 32, 4);
  if (T)
    EXPECT_EQ(T->Predicted.LaneStrideBytesValue, std::optional<int64_t>(2048));
}

//===----------------------------------------------------------------------===//
// Indirect and offset accesses
//===----------------------------------------------------------------------===//

const char *IndirectSource = R"cu(
__global__ void gather(float *out, const float *in, const int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
__global__ void shifted(float *a, int off) {
  a[blockIdx.x * blockDim.x + threadIdx.x + off] = 0.0f;
}
)cu";

TEST_F(ExtractionTest, GathersAreIndirectAndUnknownOffsetsGiveARange) {
  llvm::StringRef Src = IndirectSource;
  Report R = analyzeSnippet(Src);
  const KernelRecord *G = findKernel(R, "gather");
  ASSERT_NE(G, nullptr) << describe(R);
  EXPECT_EQ(G->Accesses.size(), 3u) << describe(R);
  const AccessRecord *Idx = accessAt(R, *G, posOf(Src, "idx[i]"));
  expectPrediction(Idx, Classification::Coalesced, 4, 4);
  const AccessRecord *In = accessAt(R, *G, posOf(Src, "in[idx[i]]"));
  ASSERT_NE(In, nullptr);
  EXPECT_EQ(In->Base, "in");
  EXPECT_EQ(In->Expression, "in[idx[i]]");
  EXPECT_TRUE(In->Pattern.Address.isIndirect()) << In->Pattern.Address.str();
  EXPECT_STREQ(classificationName(In->Predicted.Class), "indirect");
  EXPECT_FALSE(In->Predicted.SectorsPerRequest.has_value());

  const KernelRecord *S = findKernel(R, "shifted");
  ASSERT_NE(S, nullptr) << describe(R);
  const AccessRecord *A = accessAt(R, *S, posIn(Src, "a[blockIdx.x", "a"));
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(hasSymbol(A->Pattern.Address, SymbolKind::Param, "off"));
  EXPECT_EQ(A->Predicted.BestSectorsPerRequest, std::optional<double>(4.0));
  EXPECT_EQ(A->Predicted.WorstSectorsPerRequest, std::optional<double>(5.0));
  EXPECT_NE(A->Predicted.MisalignmentTerm.find("off"), std::string::npos)
      << A->Predicted.MisalignmentTerm;
}

//===----------------------------------------------------------------------===//
// Templates
//===----------------------------------------------------------------------===//

const char *TemplateSource = R"cu(
template <typename T>
__global__ void copy(T *out, const T *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
template <typename T> __global__ void neverLaunched(T *a) { a[threadIdx.x] = T(); }

void launch(float *f, double *d) {
  copy<<<1, 128>>>(f, f);
  copy<double><<<1, 64>>>(d, d);
}
)cu";

TEST_F(ExtractionTest, AnalyzesEachTemplateInstantiation) {
  llvm::StringRef Src = TemplateSource;
  Report R = analyzeSnippet(Src);
  ASSERT_EQ(R.Kernels.size(), 2u) << describe(R);
  const KernelRecord *F = findKernel(R, "copy", "copy<float>");
  const KernelRecord *D = findKernel(R, "copy", "copy<double>");
  ASSERT_TRUE(F && D) << describe(R);
  EXPECT_EQ(F->Block, (BlockShape{128, 1, 1})) << F->Block.str();
  EXPECT_EQ(D->Block, (BlockShape{64, 1, 1})) << D->Block.str();
  EXPECT_EQ(F->BlockSource, BlockShapeSource::LaunchSite);
  for (const KernelRecord *K : {F, D}) {
    unsigned Bytes = K == F ? 4 : 8;
    SCOPED_TRACE(K->Instantiation);
    EXPECT_EQ(K->Accesses.size(), 2u) << describe(R);
    const AccessRecord *Out = accessAt(R, *K, posOf(Src, "out[i]"));
    ASSERT_NE(Out, nullptr);
    EXPECT_EQ(Out->ElemBytes, Bytes);
    EXPECT_EQ(Out->Pattern.Op, AccessOp::Store);
    expectPrediction(Out, Classification::Coalesced, Bytes, Bytes);
    const AccessRecord *In = accessAt(R, *K, posOf(Src, "in[i]"));
    ASSERT_NE(In, nullptr);
    EXPECT_EQ(In->Pattern.Op, AccessOp::Load);
    EXPECT_EQ(In->ElemBytes, Bytes);
  }
}

//===----------------------------------------------------------------------===//
// Compile errors
//===----------------------------------------------------------------------===//

const char *KernelErrorSource = R"cu(
__global__ void broken(float *a) {
  a[threadIdx.x] = undeclaredThing;
}
__global__ void fine(float *a) { a[threadIdx.x] = 1.0f; }
)cu";

TEST_F(ExtractionTest, AnErrorInAKernelSkipsOnlyThatKernel) {
  llvm::StringRef Src = KernelErrorSource;
  Report R = analyzeSnippet(Src);
  ASSERT_EQ(R.Files.size(), 1u);
  const FileResult &F = R.Files[0];
  EXPECT_TRUE(F.Analyzed) << describe(R);
  EXPECT_TRUE(F.FatalError.empty()) << F.FatalError;
  ASSERT_EQ(F.Errors.size(), 1u) << describe(R);
  EXPECT_TRUE(F.Errors[0].InKernel);
  EXPECT_EQ(posOf(F.Errors[0].Loc), posOf(Src, "undeclaredThing"));
  EXPECT_EQ(F.Errors[0].Loc.File, F.File);
  EXPECT_NE(F.Errors[0].Message.find("undeclaredThing"), std::string::npos)
      << F.Errors[0].Message;
  EXPECT_EQ(R.compileErrorCount(), 1u);
  EXPECT_EQ(F.KernelsAnalyzed, 1u);
  ASSERT_EQ(R.Kernels.size(), 1u) << describe(R);
  EXPECT_EQ(R.Kernels[0].Name, "fine");
  EXPECT_EQ(R.Kernels[0].Accesses.size(), 1u);
}

const char *DeviceFunctionErrorSource = R"cu(
__device__ float helper(const float *p) { return p[threadIdx.x] + missing; }
__global__ void caller(float *out, const float *in) {
  out[threadIdx.x] = helper(in);
}
)cu";

TEST_F(ExtractionTest, AnErrorInACalledDeviceFunctionSkipsTheCaller) {
  llvm::StringRef Src = DeviceFunctionErrorSource;
  Report R = analyzeSnippet(Src);
  ASSERT_EQ(R.Files.size(), 1u);
  ASSERT_EQ(R.Files[0].Errors.size(), 1u) << describe(R);
  EXPECT_TRUE(R.Files[0].Errors[0].InKernel);
  EXPECT_EQ(posOf(R.Files[0].Errors[0].Loc), posOf(Src, "missing"));
  EXPECT_EQ(findKernel(R, "caller"), nullptr) << describe(R);
}

const char *HostErrorSource = R"cu(
__global__ void scale(float *a, float s) { a[threadIdx.x] *= s; }

void run(float *a) {
  scale<<<1, 64>>>(a, 2.0f);
  cudaThreadSynchronize();
}
)cu";

TEST_F(ExtractionTest, AnErrorInHostCodeKeepsTheKernels) {
  llvm::StringRef Src = HostErrorSource;
  Report R = analyzeSnippet(Src);
  ASSERT_EQ(R.Files.size(), 1u);
  const FileResult &F = R.Files[0];
  EXPECT_TRUE(F.Analyzed) << describe(R);
  EXPECT_EQ(F.KernelsAnalyzed, 1u);
  ASSERT_FALSE(F.Errors.empty()) << describe(R);
  for (const CompileError &E : F.Errors)
    EXPECT_FALSE(E.InKernel) << E.Message;
  EXPECT_EQ(F.Errors[0].Loc.Line, posOf(Src, "cudaThreadSynchronize").Line);
  EXPECT_NE(F.Errors[0].Message.find("cudaThreadSynchronize"),
            std::string::npos)
      << F.Errors[0].Message;

  ASSERT_EQ(R.Kernels.size(), 1u) << describe(R);
  const KernelRecord &K = R.Kernels[0];
  EXPECT_EQ(K.Name, "scale");
  EXPECT_EQ(K.Block, (BlockShape{64, 1, 1}));
  EXPECT_EQ(K.BlockSource, BlockShapeSource::LaunchSite);
  const AccessRecord *A = accessAt(R, K, posOf(Src, "a[threadIdx.x]"));
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->Pattern.Op, AccessOp::LoadStore);
  expectPrediction(A, Classification::Coalesced, 4, 4);
}

//===----------------------------------------------------------------------===//
// Several files, and runs that cannot proceed
//===----------------------------------------------------------------------===//

TEST_F(ExtractionTest, AnalyzesSeveralFilesInOrder) {
  TempSource First(R"cu(__global__ void one(float *a) { a[threadIdx.x] = 0; }
)cu");
  TempSource Second(R"cu(

__global__ void two(double *b) { b[2 * threadIdx.x] = 0; }
)cu");
  AnalysisConfig C;
  C.Files = {First.Path, Second.Path};
  llvm::Expected<Report> R = analyze(C);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Files.size(), 2u);
  EXPECT_EQ(R->Files[0].File, First.Path);
  EXPECT_EQ(R->Files[1].File, Second.Path);
  EXPECT_EQ(R->accessCount(), 2u) << describe(*R);
  const KernelRecord *One = findKernel(*R, "one");
  const KernelRecord *Two = findKernel(*R, "two");
  ASSERT_TRUE(One && Two) << describe(*R);
  EXPECT_EQ(One->Loc.File, First.Path);
  EXPECT_EQ(Two->Loc.File, Second.Path);
  EXPECT_EQ(Two->Loc.Line, 3u);
  ASSERT_EQ(Two->Accesses.size(), 1u);
  EXPECT_EQ(Two->Accesses[0].Loc.File, Second.Path);
  EXPECT_EQ(Two->Accesses[0].ElemBytes, 8u);
  expectPrediction(&Two->Accesses[0], Classification::Strided, 16, 8);
}

TEST_F(ExtractionTest, AMissingInputFileIsAnInputErrorOfThatFile) {
  TempSource Good("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n");
  AnalysisConfig C;
  C.Files = {"/nonexistent/coalesce-extraction-test.cu", Good.Path};
  llvm::Expected<Report> R = analyze(C);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Files.size(), 2u);
  const FileResult &Missing = R->Files[0];
  EXPECT_TRUE(Missing.InputError);
  EXPECT_FALSE(Missing.Analyzed);
  EXPECT_NE(Missing.FatalError.find("coalesce-extraction-test.cu"),
            std::string::npos)
      << Missing.FatalError;
  // The other file is still analyzed.
  EXPECT_TRUE(R->Files[1].Analyzed);
  EXPECT_EQ(R->Kernels.size(), 1u);
}

// Needs no CUDA: the explicit path is checked before anything is parsed.
TEST(ExtractionNoCudaTest, AnUnusableCudaPathIsAnError) {
  TempSource File("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n");
  AnalysisConfig C;
  C.Files = {File.Path};
  C.CudaPath = "/nonexistent/cuda";
  llvm::Expected<Report> R = analyze(C);
  ASSERT_FALSE(static_cast<bool>(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("/nonexistent/cuda"), std::string::npos) << Msg;
}

//===----------------------------------------------------------------------===//
// Known misses (disabled until the frontend handles them)
//===----------------------------------------------------------------------===//

/// Checks that \p Source has one access of kernel \p Kernel starting at
/// \p Text, with \p Op and \p ElemBytes.
void expectOneAccess(llvm::StringRef Source, llvm::StringRef Kernel,
                     llvm::StringRef Context, llvm::StringRef Text, AccessOp Op,
                     unsigned ElemBytes) {
  Report R = analyzeSnippet(Source);
  const KernelRecord *K = findKernel(R, Kernel);
  ASSERT_NE(K, nullptr) << describe(R);
  const AccessRecord *A = accessAt(R, *K, posIn(Source, Context, Text));
  ASSERT_NE(A, nullptr);
  EXPECT_STREQ(accessOpName(A->Pattern.Op), accessOpName(Op));
  EXPECT_EQ(A->ElemBytes, ElemBytes);
}

// An access through a pointer chosen between two global pointers,
// (c ? a : b)[i], is reported with the conditional as its base.
TEST_F(ExtractionTest, ReportsAccessesThroughAConditionalPointer) {
  expectOneAccess(R"cu(
__global__ void pick(float *a, float *b, bool c) {
  (c ? a : b)[threadIdx.x] = 1.0f;
}
)cu",
                  "pick", "(c ? a : b)[threadIdx.x]", "(c", AccessOp::Store, 4);
}

// Accesses inside a lambda called in a kernel are reported: the call to its
// operator() is walked inline, with the captures seen through the caller.
TEST_F(ExtractionTest, ReportsAccessesInLambdas) {
  expectOneAccess(R"cu(
__global__ void withLambda(float *out, const float *a) {
  auto at = [&](int j) { return a[j]; };
  out[threadIdx.x] = at(threadIdx.x);
}
)cu",
                  "withLambda", "return a[j];", "a[j]", AccessOp::Load, 4);
}

// An access through a pointer loaded from global memory (an array of
// pointers) is reported, the loaded pointer being its base.
TEST_F(ExtractionTest, ReportsAccessesThroughLoadedPointers) {
  expectOneAccess(R"cu(
__global__ void rows(float **ptrs) {
  float *p = ptrs[blockIdx.x];
  p[threadIdx.x] = 1.0f;
}
)cu",
                  "rows", "p[threadIdx.x] = 1.0f;", "p", AccessOp::Store, 4);
}

// A pointer returned by a __device__ function whose body is more than a
// single return statement is resolved through the inlined walk.
TEST_F(ExtractionTest, ReportsAccessesThroughReturnedPointers) {
  expectOneAccess(R"cu(
__device__ float *rowOf(float *a, int r, int n) {
  int off = r * n;
  return a + off;
}
__global__ void rows(float *a, int n) {
  float *row = rowOf(a, blockIdx.x, n);
  row[threadIdx.x] = 2.0f;
}
)cu",
                  "rows", "row[threadIdx.x] = 2.0f;", "row", AccessOp::Store,
                  4);
}

} // namespace
