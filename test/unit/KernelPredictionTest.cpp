//===- KernelPredictionTest.cpp - Launch contexts and merged fields -------===//
//
// predictKernel() and mergeVectorFields() on hand-built kernels (no parsing):
// one record per distinct prediction over the launches, launch argument
// values as parameters, pointer offsets, and fields loaded together.
//
//===----------------------------------------------------------------------===//

#include "coalesce/KernelPrediction.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace coalesce;

namespace {

Expr C(int64_t V) { return Expr::constant(V); }
Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
Expr globalX() {
  return testSymbol(Symbol::blockIdx(0)) * testSymbol(Symbol::blockDim(0)) +
         tx();
}

AccessRecord access(std::string Base, Expr Address, unsigned Bytes = 4) {
  AccessRecord A;
  A.Base = std::move(Base);
  A.Expression = A.Base + "[...]";
  A.Pattern.Address = std::move(Address);
  A.Pattern.AccessBytes = Bytes;
  return A;
}

LaunchSite site(unsigned X, unsigned Line) {
  LaunchSite S;
  S.Block = BlockShape{X, 1, 1};
  S.Loc = SourceLocation{"h.cu", Line, 3};
  return S;
}

TEST(KernelPredictionTest, EqualPredictionsOverLaunchesAreOneRecord) {
  KernelRecord K;
  K.Name = "k";
  K.Accesses.push_back(access("a", C(4) * globalX()));
  K.Launches = {site(128, 10), site(256, 20)};
  predictKernel(K, AnalysisConfig(), {});
  ASSERT_EQ(K.Accesses.size(), 1u);
  EXPECT_EQ(K.Accesses[0].Launch, "");
  EXPECT_EQ(K.Block.X, 128u);
  EXPECT_EQ(K.BlockSource, BlockShapeSource::LaunchSite);
}

TEST(KernelPredictionTest, DifferentPredictionsNameTheirLaunch) {
  // a[threadIdx.x * n]: the launches pass n = 1 and n = 8.
  KernelRecord K;
  K.Name = "k";
  K.Accesses.push_back(
      access("a", C(4) * tx() * testSymbol(Symbol::param("n"))));
  LaunchSite One = site(64, 10), Eight = site(64, 20);
  One.Params["n"] = 1;
  Eight.Params["n"] = 8;
  K.Launches = {One, Eight};
  predictKernel(K, AnalysisConfig(), {});
  ASSERT_EQ(K.Accesses.size(), 2u);
  EXPECT_EQ(*K.Accesses[0].Predicted.SectorsPerRequest, 4.0);
  EXPECT_EQ(K.Accesses[0].Launch, "block 64 at h.cu:10");
  EXPECT_EQ(*K.Accesses[1].Predicted.SectorsPerRequest, 32.0);
  EXPECT_EQ(K.Accesses[1].Launch, "block 64 at h.cu:20");
}

TEST(KernelPredictionTest, PointerOffsetFromTheLaunchMisaligns) {
  KernelRecord K;
  K.Name = "k";
  K.Accesses.push_back(access("a", C(4) * globalX()));
  LaunchSite S = site(256, 7);
  S.PointerOffsets["a"] = 4; // k<<<g, 256>>>(d_a + 1)
  K.Launches = {S};
  predictKernel(K, AnalysisConfig(), {});
  EXPECT_EQ(*K.Accesses[0].Predicted.SectorsPerRequest, 5.0);
  EXPECT_EQ(K.Accesses[0].Predicted.Class, Classification::Misaligned);
}

TEST(KernelPredictionTest, ProjectLaunchesServeKernelsWithoutTheirOwn) {
  KernelRecord K;
  K.Name = "k";
  K.Accesses.push_back(access("a", C(4) * tx()));
  predictKernel(K, AnalysisConfig(), {site(96, 3)});
  EXPECT_EQ(K.Block.X, 96u);
  KernelRecord Alone;
  Alone.Name = "k";
  Alone.Accesses.push_back(access("a", C(4) * tx()));
  predictKernel(Alone, AnalysisConfig(), {});
  EXPECT_EQ(Alone.Block.X, 256u);
  EXPECT_EQ(Alone.BlockSource, BlockShapeSource::Assumed);
}

TEST(KernelPredictionTest, APlanComputedOnThreadsInAnyOrderEqualsTheSerialOne) {
  // Accesses under one guard share a guard search (k = 1024 by default runs
  // no lane); two launches; repeated inputs. The plan lists each distinct
  // input once, and its predictions made on 4 threads, last first, put
  // together as predictKernel() does.
  KernelRecord K;
  K.Name = "k";
  Expr Guard = Expr::eq(tx(), testSymbol(Symbol::param("k")));
  for (int64_t I = 0; I < 24; ++I) {
    AccessRecord A = access("a", C(4) * tx() * testSymbol(Symbol::param("n")) +
                                     C(4 * (I % 8)));
    if (I % 3 == 0)
      A.Pattern.Active = Guard;
    K.Accesses.push_back(A);
  }
  LaunchSite One = site(64, 10), Eight = site(128, 20);
  One.Params["n"] = 1;
  Eight.Params["n"] = 8;
  K.Launches = {One, Eight};
  KernelRecord Serial = K;
  predictKernel(Serial, AnalysisConfig(), {});

  // Each unguarded access differs between the launches (n = 1, n = 8).
  ASSERT_EQ(Serial.Accesses.size(), 40u);
  KernelPredictionPlan Plan(K, AnalysisConfig(), {});
  // 8 offsets x guarded or not (each offset occurs both ways) x 2 launches.
  EXPECT_EQ(Plan.size(), 32u);
  std::atomic<size_t> Next{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&] {
      for (size_t I; (I = Next++) < Plan.size();)
        Plan.compute(Plan.size() - 1 - I);
    });
  for (std::thread &T : Threads)
    T.join();
  KernelRecord Parallel = Plan.finish();
  EXPECT_EQ(Parallel.Block.X, Serial.Block.X);
  ASSERT_EQ(Parallel.Accesses.size(), Serial.Accesses.size());
  for (size_t I = 0; I < Serial.Accesses.size(); ++I) {
    const Prediction &A = Parallel.Accesses[I].Predicted;
    const Prediction &B = Serial.Accesses[I].Predicted;
    EXPECT_EQ(A.SectorsPerRequest, B.SectorsPerRequest) << I;
    EXPECT_EQ(A.Class, B.Class) << I;
    EXPECT_EQ(A.Assumptions, B.Assumptions) << I;
    EXPECT_EQ(Parallel.Accesses[I].Launch, Serial.Accesses[I].Launch) << I;
  }
}

AccessRecord field(const char *Expr_, unsigned Offset, unsigned RecordBytes) {
  AccessRecord A = access("s", C(RecordBytes) * globalX() + C(Offset));
  A.Expression = Expr_;
  A.Pattern.RecordBytes = RecordBytes;
  A.Pattern.RecordAlign = RecordBytes;
  A.Pattern.FieldOffset = Offset;
  return A;
}

TEST(FieldMergingTest, BothFieldsOfAFloat2AreOneEightByteAccess) {
  KernelRecord K;
  K.Accesses = {field("s[i].x", 0, 8), field("s[i].y", 4, 8)};
  mergeVectorFields(K);
  for (const AccessRecord &A : K.Accesses) {
    EXPECT_EQ(A.Pattern.AccessBytes, 8u);
    EXPECT_FALSE(A.Pattern.RecordBytes);
    EXPECT_EQ(A.Pattern.Address, C(8) * globalX());
    EXPECT_NE(A.MergedWith.find("'s[i].x', 's[i].y'"), std::string::npos);
  }
}

TEST(FieldMergingTest, ALoneFieldOrAnUnderAlignedStructStaysStrided) {
  KernelRecord K;
  K.Accesses = {field("s[i].x", 0, 8)};
  mergeVectorFields(K);
  EXPECT_EQ(K.Accesses[0].Pattern.AccessBytes, 4u);
  EXPECT_TRUE(K.Accesses[0].Pattern.RecordBytes);

  KernelRecord U;
  U.Accesses = {field("s[i].x", 0, 8), field("s[i].y", 4, 8)};
  for (AccessRecord &A : U.Accesses)
    A.Pattern.RecordAlign = 4; // struct { float x, y; } without __align__
  mergeVectorFields(U);
  EXPECT_EQ(U.Accesses[0].Pattern.AccessBytes, 4u);
  EXPECT_EQ(U.Accesses[1].Pattern.AccessBytes, 4u);
}

} // namespace
