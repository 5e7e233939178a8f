//===- PredictionCacheTest.cpp - predict() memoized per kernel ------------===//

#include "model/PredictionCache.h"
#include "TestExprs.h"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
Expr C(int64_t V) { return Expr::constant(V); }

TEST(PredictionCacheTest, EqualInputsAreAnsweredOnceWithTheSameResult) {
  PredictionCache Cache;
  PredictOptions Opts;
  AccessPattern Load; // in[3*i]: built separately, structurally equal.
  Load.Address = C(12) * tx();
  AccessPattern Store = Load;
  Store.Op = AccessOp::Store; // predict() does not read it.
  Store.Address = C(4) * (C(3) * tx());
  Prediction First = Cache.get(Load, Opts);
  Prediction Second = Cache.get(Store, Opts);
  EXPECT_EQ(Cache.hits(), 1u);
  ASSERT_TRUE(First.SectorsPerRequest && Second.SectorsPerRequest);
  EXPECT_DOUBLE_EQ(*Second.SectorsPerRequest, *First.SectorsPerRequest);
  EXPECT_EQ(Second.Class, First.Class);
  EXPECT_EQ(*Second.SectorsPerRequest, *predict(Store, Opts).SectorsPerRequest);
}

TEST(PredictionCacheTest, EveryInputPredictReadsIsPartOfTheKey) {
  PredictionCache Cache;
  PredictOptions Opts;
  AccessPattern A;
  A.Address = C(4) * tx() + testSymbol(Symbol::param("off"));
  Cache.get(A, Opts);

  AccessPattern Wider = A;
  Wider.AccessBytes = 8;
  AccessPattern Guarded = A;
  Guarded.Active = Expr::lt(tx(), C(8));
  AccessPattern Record = A;
  Record.RecordBytes = 4;
  AccessPattern Atomic = A;
  Atomic.Atomic = AtomicKind::Integer;
  AccessPattern Shared = A; // Wavefronts, not sectors.
  Shared.Space = AccessSpace::Shared;
  for (const AccessPattern *P : {&Wider, &Guarded, &Record, &Atomic, &Shared})
    Cache.get(*P, Opts);
  PredictOptions Block = Opts, Param = Opts, Default = Opts;
  Block.Block = BlockShape{32, 8, 1};
  Param.Params["off"] = 1;
  Default.DefaultValue = 7;
  for (const PredictOptions *O : {&Block, &Param, &Default})
    Cache.get(A, *O);
  EXPECT_EQ(Cache.hits(), 0u);
  EXPECT_EQ(Cache.get(Shared, Opts).Class, Classification::ConflictFree);
  EXPECT_NE(Cache.get(A, Opts).Class, Classification::ConflictFree);
  // A different parameter value predicts differently: 1 misaligns by 4.
  EXPECT_GT(*Cache.get(A, Param).SectorsPerRequest,
            *Cache.get(A, Opts).SectorsPerRequest);
  EXPECT_EQ(Cache.hits(), 4u);
}

} // namespace
