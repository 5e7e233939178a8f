//===- PredictionSchedulerTest.cpp - Kernels predicted on a pool ----------===//
//
// PredictionScheduler on hand-built kernels: kernels handed over one after
// another (as the walk of a file hands them) come back, by number, exactly
// as predictKernel() makes them; each is reported done once; a kernel
// handed over after finish() is not predicted.
//
//===----------------------------------------------------------------------===//

#include "driver/PredictionScheduler.h"
#include "TestExprs.h"
#include "coalesce/KernelPrediction.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>

using namespace coalesce;

namespace {

Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
Expr n() { return testSymbol(Symbol::param("n")); }

/// A kernel of \p Accesses accesses a[4 * threadIdx.x * n + 4 * (I % 5)]
/// (every third under threadIdx.x == k), launched with n = 1 and n = 8.
KernelRecord kernel(std::string Name, int Accesses) {
  KernelRecord K;
  K.Name = std::move(Name);
  Expr Guard = Expr::eq(tx(), testSymbol(Symbol::param("k")));
  for (int I = 0; I < Accesses; ++I) {
    AccessRecord A;
    A.Base = "a";
    A.Expression = "a[...]";
    A.Pattern.Address = Expr::constant(4) * tx() * n() +
                        Expr::constant(4 * (I % 5));
    A.Pattern.AccessBytes = 4;
    if (I % 3 == 0)
      A.Pattern.Active = Guard;
    K.Accesses.push_back(A);
  }
  for (auto [N, Line] : {std::pair<int64_t, unsigned>{1, 10}, {8, 20}}) {
    LaunchSite S;
    S.Block = BlockShape{64, 1, 1};
    S.Loc = SourceLocation{"h.cu", Line, 3};
    S.Params["n"] = N;
    K.Launches.push_back(S);
  }
  return K;
}

void expectSamePredictions(const KernelRecord &A, const KernelRecord &B) {
  EXPECT_EQ(A.Name, B.Name);
  EXPECT_EQ(A.Block.X, B.Block.X);
  ASSERT_EQ(A.Accesses.size(), B.Accesses.size());
  for (size_t I = 0; I < A.Accesses.size(); ++I) {
    const Prediction &X = A.Accesses[I].Predicted, &Y = B.Accesses[I].Predicted;
    EXPECT_EQ(X.SectorsPerRequest, Y.SectorsPerRequest) << A.Name << " " << I;
    EXPECT_EQ(X.Class, Y.Class) << A.Name << " " << I;
    EXPECT_EQ(X.Assumptions, Y.Assumptions) << A.Name << " " << I;
    EXPECT_EQ(A.Accesses[I].Launch, B.Accesses[I].Launch) << A.Name << " " << I;
  }
}

TEST(PredictionSchedulerTest, KernelsShareTheirPredictions) {
  // Two kernels of the same accesses: the second plan's predictions all come
  // from the first's, and the kernels come out as predictKernel() makes
  // them.
  AnalysisConfig Config;
  auto Shared = std::make_shared<SharedPredictions>();
  std::vector<KernelRecord> Made;
  for (const char *Name : {"first", "second"}) {
    KernelPredictionPlan Plan(kernel(Name, 10), Config, {}, Shared);
    for (size_t I = 0; I < Plan.size(); ++I)
      Plan.compute(I);
    Made.push_back(Plan.finish());
    if (Made.size() == 1)
      EXPECT_EQ(Shared->hits(), 0u);
    else
      EXPECT_EQ(Shared->hits(), Plan.size());
  }
  for (KernelRecord &K : Made) {
    KernelRecord Alone = kernel(K.Name, 10);
    predictKernel(Alone, Config, {});
    expectSamePredictions(K, Alone);
  }
}

TEST(PredictionSchedulerTest, KernelsComeBackByNumberAsPredictKernelMakesThem) {
  AnalysisConfig Config;
  Config.Jobs = 3;
  std::atomic<int> Done{0};
  std::vector<KernelRecord> Kernels = {kernel("large", 60), kernel("empty", 0),
                                       kernel("small", 2)};
  std::vector<KernelRecord> Outcomes;
  {
    PredictionScheduler Scheduler(Config, std::make_shared<IsolatedWorkers>(),
                                  [&Done] { ++Done; });
    for (size_t I = 0; I < Kernels.size(); ++I)
      EXPECT_EQ(Scheduler.start(Kernels[I], {}), I);
    std::vector<PredictionScheduler::Outcome> Finished = Scheduler.finish();
    ASSERT_EQ(Finished.size(), Kernels.size());
    for (PredictionScheduler::Outcome &O : Finished) {
      EXPECT_EQ(O.How, IsolatedOutcome::Finished);
      Outcomes.push_back(std::move(O.Kernel));
    }
    // Handed over too late: not predicted, and not a number.
    EXPECT_EQ(Scheduler.start(kernel("late", 3), {}), SIZE_MAX);
  }
  EXPECT_EQ(Done, 3);
  for (size_t I = 0; I < Kernels.size(); ++I) {
    KernelRecord Serial = Kernels[I];
    predictKernel(Serial, Config, {});
    expectSamePredictions(Outcomes[I], Serial);
  }
  // The large kernel's accesses differ between its two launches: one record
  // per launch for each of them, as predictKernel() makes.
  EXPECT_GT(Outcomes[0].Accesses.size(), 60u);
  EXPECT_TRUE(Outcomes[1].Accesses.empty());
}

TEST(PredictionSchedulerTest, ProjectLaunchesServeAKernelWithoutItsOwn) {
  KernelRecord Own = kernel("k", 4);
  KernelRecord Bare = Own;
  std::vector<LaunchSite> Launches = Bare.Launches;
  Bare.Launches.clear();
  PredictionScheduler Scheduler(
      AnalysisConfig(), std::make_shared<IsolatedWorkers>(), [] {});
  size_t A = Scheduler.start(Own, {});
  size_t B = Scheduler.start(Bare, Launches);
  std::vector<PredictionScheduler::Outcome> Finished = Scheduler.finish();
  expectSamePredictions(Finished[B].Kernel, Finished[A].Kernel);
  EXPECT_EQ(Finished[B].Kernel.BlockSource, BlockShapeSource::LaunchSite);
}

} // namespace
