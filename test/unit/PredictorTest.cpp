//===- PredictorTest.cpp - Tests of sectors-per-request predictions -------===//
//
// Every access is built by hand as an Expr (no parsing). Expected numbers
// are worked out next to each assertion: a warp's lanes, their byte
// addresses, the 32-byte sectors those cover.
//
//===----------------------------------------------------------------------===//

#include "coalesce/Predictor.h"
#include "TestExprs.h"
#include "model/PredictInternal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

using namespace coalesce;

namespace {

Expr C(int64_t V) { return Expr::constant(V); }
Expr tx() { return testSymbol(Symbol::threadIdx(0)); }
Expr ty() { return testSymbol(Symbol::threadIdx(1)); }
Expr bx() { return testSymbol(Symbol::blockIdx(0)); }
Expr by() { return testSymbol(Symbol::blockIdx(1)); }
Expr bdx() { return testSymbol(Symbol::blockDim(0)); }
Expr gdx() { return testSymbol(Symbol::gridDim(0)); }
Expr param(const char *Name) { return testSymbol(Symbol::param(Name)); }
Expr loop(const char *Name) {
  return testSymbol(Symbol{SymbolKind::LoopIter, Name});
}
/// i = blockIdx.x * blockDim.x + threadIdx.x
Expr globalX() { return bx() * bdx() + tx(); }

AccessPattern access(Expr Address, unsigned Bytes = 4) {
  AccessPattern A;
  A.Address = std::move(Address);
  A.AccessBytes = Bytes;
  return A;
}

PredictOptions launch(unsigned X, unsigned Y = 1, unsigned Z = 1) {
  PredictOptions O;
  O.Block = BlockShape{X, Y, Z};
  return O;
}

std::string name(Classification C) { return classificationName(C); }

/// Checks sectors and ideal per request and the class.
void expectPrediction(const Prediction &P, double Sectors, double Ideal,
                      Classification Class) {
  ASSERT_TRUE(P.SectorsPerRequest.has_value())
      << "no numbers; class " << name(P.Class) << ", reason: " << P.Reason;
  ASSERT_TRUE(P.IdealSectorsPerRequest.has_value());
  EXPECT_NEAR(*P.SectorsPerRequest, Sectors, 1e-9);
  EXPECT_NEAR(*P.IdealSectorsPerRequest, Ideal, 1e-9);
  EXPECT_EQ(name(P.Class), name(Class));
}

bool hasAssumption(const Prediction &P, const std::string &Text) {
  return std::find(P.Assumptions.begin(), P.Assumptions.end(), Text) !=
         P.Assumptions.end();
}

std::string assumptions(const Prediction &P) {
  std::string S;
  for (const std::string &A : P.Assumptions)
    S += "\n  " + A;
  return S;
}

TEST(PredictorNamesTest, StableNames) {
  EXPECT_STREQ(accessOpName(AccessOp::Load), "load");
  EXPECT_STREQ(accessOpName(AccessOp::Store), "store");
  EXPECT_STREQ(accessOpName(AccessOp::LoadStore), "load+store");
  EXPECT_STREQ(accessOpName(AccessOp::Atomic), "atomic");
  EXPECT_STREQ(classificationName(Classification::Coalesced), "coalesced");
  EXPECT_STREQ(classificationName(Classification::Misaligned), "misaligned");
  EXPECT_STREQ(classificationName(Classification::Strided), "strided");
  EXPECT_STREQ(classificationName(Classification::AoS), "aos");
  EXPECT_STREQ(classificationName(Classification::Transposed), "transposed");
  EXPECT_STREQ(classificationName(Classification::Uniform), "uniform");
  EXPECT_STREQ(classificationName(Classification::Indirect), "indirect");
  EXPECT_STREQ(classificationName(Classification::Unknown), "unknown");
}

//===--- Strides ----------------------------------------------------------===//

struct StrideCase {
  unsigned ElementBytes, Stride;
  double Sectors;
};

TEST(PredictorTest, StridesForEachElementSize) {
  // a[S*i] with E-byte elements, block 256. Warp w of block b starts at
  // E*S*(256b + 32w), a multiple of 32, and its lanes are E*S bytes apart, so
  // no access straddles: sectors = min(E*S, 32) (E*S*32 bytes, one sector per
  // lane once E*S >= 32). Ideal = ceil(32*E/32) = E.
  const StrideCase Cases[] = {
      // E = 1: bytes 0..31, 0..63, 0..95, 0..127, 0..255, 32 apart.
      {1, 1, 1},
      {1, 2, 2},
      {1, 3, 3},
      {1, 4, 4},
      {1, 8, 8},
      {1, 32, 32},
      // E = 2: 2*S sectors up to 32.
      {2, 1, 2},
      {2, 2, 4},
      {2, 3, 6},
      {2, 4, 8},
      {2, 8, 16},
      {2, 32, 32},
      // E = 4: 4*S: 4, 8, 12 (lanes 12 bytes apart: bytes 0..375), 16, 32.
      {4, 1, 4},
      {4, 2, 8},
      {4, 3, 12},
      {4, 4, 16},
      {4, 8, 32},
      {4, 32, 32},
      // E = 8: 8, 16, 24 (bytes 0..751 -> sectors 0..23), 32, 32, 32.
      {8, 1, 8},
      {8, 2, 16},
      {8, 3, 24},
      {8, 4, 32},
      {8, 8, 32},
      {8, 32, 32},
      // E = 16 (float4): 16 (one request of 16 sectors, ideal 16), then 32.
      {16, 1, 16},
      {16, 2, 32},
      {16, 3, 32},
      {16, 4, 32},
      {16, 8, 32},
      {16, 32, 32},
  };
  for (const StrideCase &K : Cases) {
    SCOPED_TRACE(testing::Message() << "element " << K.ElementBytes
                                    << " bytes, stride " << K.Stride);
    Expr Address = C(K.ElementBytes * K.Stride) * globalX();
    Prediction P = predict(access(Address, K.ElementBytes), launch(256));
    expectPrediction(P, K.Sectors, K.ElementBytes,
                     K.Stride == 1 ? Classification::Coalesced
                                   : Classification::Strided);
    ASSERT_TRUE(P.LaneStrideBytesValue.has_value());
    EXPECT_EQ(*P.LaneStrideBytesValue, int64_t(K.ElementBytes * K.Stride));
    // 32 lanes * E bytes used out of Sectors * 32 fetched.
    ASSERT_TRUE(P.UsedBytesFraction.has_value());
    EXPECT_NEAR(*P.UsedBytesFraction, K.ElementBytes / K.Sectors, 1e-9);
    ASSERT_TRUE(P.ActiveLanesPerRequest.has_value());
    EXPECT_NEAR(*P.ActiveLanesPerRequest, 32.0, 1e-9);
  }
}

//===--- Offsets ----------------------------------------------------------===//

TEST(PredictorTest, ConstantOffsetsOnFloats) {
  // a[i + off]: warp bytes 4*off .. 4*off + 127 from a 32-byte boundary.
  // off = 0 or 8 (32 bytes): 4 sectors; off = 1..7: the run straddles one
  // more boundary: 5 sectors. The measured table: 4 for 0, 8, 16, 32 and 5
  // for 1, 2, 7, 31.
  for (int64_t Off = 0; Off <= 8; ++Off) {
    SCOPED_TRACE(testing::Message() << "offset " << Off);
    Prediction P = predict(access(C(4) * (globalX() + C(Off))), launch(256));
    bool Aligned = Off % 8 == 0;
    expectPrediction(P, Aligned ? 4 : 5, 4,
                     Aligned ? Classification::Coalesced
                             : Classification::Misaligned);
  }
  for (int64_t Off : {16, 32}) {
    Prediction P = predict(access(C(4) * (globalX() + C(Off))), launch(256));
    expectPrediction(P, 4, 4, Classification::Coalesced);
  }
  // 31 floats = 124 bytes = 3*32 + 28: misaligned.
  Prediction P = predict(access(C(4) * (globalX() + C(31))), launch(256));
  expectPrediction(P, 5, 4, Classification::Misaligned);
}

TEST(PredictorTest, ReversedIndex) {
  // a[31 - threadIdx.x], block 32: bytes 124 - 4l for l = 0..31 cover
  // 0..127: 4 sectors, ideal 4. Lane stride -4.
  Prediction P = predict(access(C(4) * (C(31) - tx())), launch(32));
  expectPrediction(P, 4, 4, Classification::Coalesced);
  EXPECT_EQ(P.LaneStrideBytesValue, std::optional<int64_t>(-4));
  // a[32 - threadIdx.x]: bytes 4..131: 5 sectors, contiguous -> misaligned.
  Prediction Q = predict(access(C(4) * (C(32) - tx())), launch(32));
  expectPrediction(Q, 5, 4, Classification::Misaligned);
}

//===--- Arrays of structures ---------------------------------------------===//

struct AosCase {
  unsigned RecordBytes, FieldOffset;
  double Sectors;
};

TEST(PredictorTest, ArraysOfStructures) {
  // p[i].field on a float field: address R*i + F. Warp w starts at R*32*w,
  // a multiple of 32; lanes R bytes apart.
  const AosCase Cases[] = {
      // {float x, y}.x: bytes 0..251 -> 8 sectors (measured: 8 vs 4).
      {8, 0, 8},
      // .y: bytes 4..255 -> still sectors 0..7.
      {8, 4, 8},
      // {float x, y, z}.x: lanes 12 apart, bytes 0..375 -> sectors 0..11.
      {12, 0, 12},
      // .z: bytes 8..383 -> sectors 0..11.
      {12, 8, 12},
      // float4-like {x, y, z, w}.x: bytes 0..499 -> sectors 0..15.
      {16, 0, 16},
      // .w: bytes 12..511 -> sectors 0..15.
      {16, 12, 16},
  };
  for (const AosCase &K : Cases) {
    SCOPED_TRACE(testing::Message() << "struct of " << K.RecordBytes
                                    << " bytes, field at " << K.FieldOffset);
    AccessPattern A = access(C(K.RecordBytes) * globalX() + C(K.FieldOffset));
    A.RecordBytes = K.RecordBytes;
    Prediction P = predict(A, launch(256));
    expectPrediction(P, K.Sectors, 4, Classification::AoS);
  }
  // The same stride without RecordBytes is just strided.
  Prediction P = predict(access(C(8) * globalX()), launch(256));
  expectPrediction(P, 8, 4, Classification::Strided);
}

//===--- Loops ------------------------------------------------------------===//

TEST(PredictorTest, RowPerThreadVersusColumnPerThread) {
  PredictOptions O = launch(256);
  O.Params["N"] = 1024;
  // Row per thread: a[i*N + k] -> 4096*i + 4*k. Lanes 4096 bytes apart:
  // 32 sectors for every k (k has period 8 and never straddles).
  Prediction Row =
      predict(access(C(4) * (globalX() * param("N") + loop("k"))), O);
  expectPrediction(Row, 32, 4, Classification::Strided);
  EXPECT_EQ(Row.LaneStrideBytesValue, std::optional<int64_t>(4096));
  // Column per thread: a[k*N + i] -> 4096*k + 4*i: 4 sectors (period of k
  // is 1: 4096 is a multiple of 32).
  Prediction Col =
      predict(access(C(4) * (loop("k") * param("N") + globalX())), O);
  expectPrediction(Col, 4, 4, Classification::Coalesced);
  EXPECT_TRUE(Col.Assumptions.empty()) << assumptions(Col);
}

TEST(PredictorTest, SlidingWindowAveragesOverLoopResidues) {
  // for k: a[i + k]: k = 0 is aligned (4 sectors), k = 1..7 start 4k bytes
  // into a sector (5): (4 + 7*5) / 8 = 4.875.
  Prediction P = predict(access(C(4) * (globalX() + loop("k"))), launch(256));
  expectPrediction(P, 4.875, 4, Classification::Misaligned);
}

TEST(PredictorTest, SampleCapHalvesTheLargestPeriods) {
  // a[i + k + j]: both periods 8 (64 combinations). k + j = 0 or 8 aligned:
  // pairs (0,0) and (1,7)..(7,1) = 8 of 64 -> (8*4 + 56*5)/64 = 4.875.
  Expr Address = C(4) * (globalX() + loop("k") + loop("j"));
  Prediction Full = predict(access(Address), launch(256));
  expectPrediction(Full, 4.875, 4, Classification::Misaligned);
  // Cap 16: both periods halved to 4; k + j in 0..6, aligned only at (0,0):
  // (4 + 15*5)/16 = 79/16 = 4.9375.
  PredictOptions O = launch(256);
  O.MaxSamples = 16;
  Prediction Capped = predict(access(Address), O);
  expectPrediction(Capped, 4.9375, 4, Classification::Misaligned);
}

TEST(PredictorTest, GridStrideLoop) {
  // for (i = bx*bdx + tx; i < N; i += bdx*gdx) a[i]; with N = 2^20 given and
  // gridDim.x defaulted to 1024. Every executing warp reads 32 consecutive
  // floats starting at a multiple of 4*256: 4 sectors.
  PredictOptions O = launch(256);
  O.Params["N"] = 1 << 20;
  Expr I = globalX() + loop("k") * bdx() * gdx();
  AccessPattern A = access(C(4) * I);
  A.Active = Expr::lt(I, param("N"));
  Prediction P = predict(A, O);
  expectPrediction(P, 4, 4, Classification::Coalesced);
  EXPECT_EQ(P.AssumedValues.size(), 1u);
  EXPECT_EQ(P.AssumedValues.count("gridDim.x"), 1u);
  // gridDim.x only scales k's shift by 4*256*k bytes: a multiple of 32.
  EXPECT_TRUE(hasAssumption(P, "assuming gridDim.x = 1024")) << assumptions(P);
}

//===--- Two-dimensional blocks
//---------------------------------------------===//

/// A[row*N + col] with row = by*By + ty, col = bx*Bx + tx.
Expr rowMajor(unsigned Bx, unsigned By, Expr N) {
  Expr Row = by() * C(By) + ty();
  Expr Col = bx() * C(Bx) + tx();
  return C(4) * (Row * N + Col);
}

TEST(PredictorTest, SixteenBySixteenBlock) {
  PredictOptions O = launch(16, 16);
  O.Params["N"] = 128;
  // N = 128: address 512*ty + 4*tx + 8192*by + 64*bx. Warp w holds rows 2w
  // and 2w+1, each 16 floats = 64 bytes starting at a multiple of 512:
  // 2 + 2 = 4 sectors.
  Prediction P = predict(access(rowMajor(16, 16, param("N"))), O);
  expectPrediction(P, 4, 4, Classification::Coalesced);
  EXPECT_EQ(P.RowStrideBytesValue, std::optional<int64_t>(512));

  // N = 100: 400*ty + 4*tx + 6400*by + 64*bx (6400 and 64: multiples of 32).
  // Row 2w starts at 800w (aligned): 2 sectors; row 2w+1 at 800w + 400,
  // 16 bytes into a sector: bytes 16..79 -> 3 sectors. 5 per request.
  O.Params["N"] = 100;
  Prediction Q = predict(access(rowMajor(16, 16, param("N"))), O);
  expectPrediction(Q, 5, 4, Classification::Misaligned);
  EXPECT_EQ(Q.RowStrideBytesValue, std::optional<int64_t>(400));
}

TEST(PredictorTest, ThirtyTwoByEightBlock) {
  PredictOptions O = launch(32, 8);
  O.Params["N"] = 128;
  // N = 128: warp w is row w: 512w + 4*tx, aligned: 4 sectors.
  Prediction P = predict(access(rowMajor(32, 8, param("N"))), O);
  expectPrediction(P, 4, 4, Classification::Coalesced);
  // N = 100: row w starts at 400w = 16w (mod 32): even rows aligned (4),
  // odd rows 16 bytes in (5): (4*4 + 4*5) / 8 = 4.5.
  O.Params["N"] = 100;
  Prediction Q = predict(access(rowMajor(32, 8, param("N"))), O);
  expectPrediction(Q, 4.5, 4, Classification::Misaligned);
}

TEST(PredictorTest, NaiveMatmulRowsBroadcastWithinAWarp) {
  // A[row*N + k], row = by*16 + ty, 16x16 block, N defaulted to 1024:
  // address 4096*ty + 65536*by + 4*k. A warp holds two rows whose 16 lanes
  // each read one float: 2 sectors; ideal ceil(32*4/32) = 4. Coalesced.
  Expr Row = by() * C(16) + ty();
  Prediction A =
      predict(access(C(4) * (Row * param("N") + loop("k"))), launch(16, 16));
  expectPrediction(A, 2, 4, Classification::Coalesced);
  // For N < 8 the two rows are 4N < 32 bytes apart and sometimes share a
  // sector; from N = 8 on, always 2.
  EXPECT_TRUE(hasAssumption(A, "assuming N >= 8 (N = 1024 used)"))
      << assumptions(A);
  EXPECT_EQ(A.AssumedValues.at("N"), 1024);

  // B[k*N + col], col = bx*16 + tx: both half-warps read the same 16 floats
  // (64 bytes at a multiple of 64): 2 sectors, ideal 4.
  PredictOptions O = launch(16, 16);
  O.Params["N"] = 1024;
  Expr Col = bx() * C(16) + tx();
  Prediction B = predict(access(C(4) * (loop("k") * param("N") + Col)), O);
  expectPrediction(B, 2, 4, Classification::Coalesced);
}

//===--- Transpose
//----------------------------------------------------------===//

TEST(PredictorTest, NaiveTranspose) {
  // Block 32x8, x = bx*32 + tx, y = by*8 + ty, N = 1024.
  PredictOptions O = launch(32, 8);
  O.Params["N"] = 1024;
  Expr X = bx() * C(32) + tx();
  Expr Y = by() * C(8) + ty();
  // Read in[y*N + x]: 4096*ty + 4*tx + ...: warp w = row w, 128 contiguous
  // aligned bytes: 4 sectors.
  Prediction Read = predict(access(C(4) * (Y * param("N") + X)), O);
  expectPrediction(Read, 4, 4, Classification::Coalesced);
  // Write out[x*N + y]: 4096*tx + 4*ty + ...: lanes 4096 bytes apart, 32
  // sectors; threadIdx.y moves 4 bytes: transposed.
  AccessPattern W = access(C(4) * (X * param("N") + Y));
  W.Op = AccessOp::Store;
  Prediction Write = predict(W, O);
  expectPrediction(Write, 32, 4, Classification::Transposed);
  EXPECT_EQ(Write.LaneStrideBytesValue, std::optional<int64_t>(4096));
  EXPECT_EQ(Write.RowStrideBytesValue, std::optional<int64_t>(4));
  ASSERT_TRUE(Write.LaneStrideBytes.has_value());
  EXPECT_EQ(*Write.LaneStrideBytes, C(4) * param("N"))
      << Write.LaneStrideBytes->str();
}

TEST(PredictorTest, TiledTranspose) {
  // 32x32 tiles, block 32x8, each thread handles rows ty + 8*j.
  PredictOptions O = launch(32, 8);
  O.Params["N"] = 1024;
  Expr J = loop("j");
  // Read in[(by*32 + ty + 8j)*N + bx*32 + tx]: row per warp, aligned: 4.
  Expr ReadRow = by() * C(32) + ty() + C(8) * J;
  Prediction Read =
      predict(access(C(4) * (ReadRow * param("N") + bx() * C(32) + tx())), O);
  expectPrediction(Read, 4, 4, Classification::Coalesced);
  // Write out[(bx*32 + ty + 8j)*N + by*32 + tx]: also a row per warp: 4.
  Expr WriteRow = bx() * C(32) + ty() + C(8) * J;
  Prediction Write =
      predict(access(C(4) * (WriteRow * param("N") + by() * C(32) + tx())), O);
  expectPrediction(Write, 4, 4, Classification::Coalesced);
}

//===--- Uniform accesses -------------------------------------------------===//

TEST(PredictorTest, BroadcastAndWarpUniformIndex) {
  // a[blockIdx.x]: one address per warp: 1 sector, ideal 4. 4 bytes used of
  // 32 fetched.
  Prediction P = predict(access(C(4) * bx()), launch(256));
  expectPrediction(P, 1, 4, Classification::Uniform);
  EXPECT_NEAR(*P.UsedBytesFraction, 4.0 / 32, 1e-9);
  EXPECT_EQ(P.LaneStrideBytesValue, std::optional<int64_t>(0));
  // a[threadIdx.x / 32]: lane-dependent, but every warp reads one address.
  Prediction Q = predict(access(C(4) * Expr::div(tx(), C(32))), launch(256));
  expectPrediction(Q, 1, 4, Classification::Uniform);
  EXPECT_FALSE(Q.LaneStrideBytes.has_value());
}

//===--- Divergence
//---------------------------------------------------------===//

TEST(PredictorTest, HalfWarpDivergence) {
  // if (threadIdx.x % 32 < 16) a[i]: lanes 0..15 read 64 aligned bytes:
  // 2 sectors; ideal ceil(16*4/32) = 2.
  AccessPattern A = access(C(4) * globalX());
  A.Active = Expr::lt(Expr::rem(tx(), C(32)), C(16));
  Prediction P = predict(A, launch(256));
  expectPrediction(P, 2, 2, Classification::Coalesced);
  EXPECT_NEAR(*P.ActiveLanesPerRequest, 16, 1e-9);
}

TEST(PredictorTest, EvenLanesOnly) {
  // if (threadIdx.x % 2 == 0) a[i]: 16 lanes at bytes 0, 8, ..., 120:
  // sectors 0..3 = 4; ideal 2. Not contiguous among active lanes: strided.
  AccessPattern A = access(C(4) * globalX());
  A.Active = Expr::eq(Expr::rem(tx(), C(2)), C(0));
  Prediction P = predict(A, launch(256));
  expectPrediction(P, 4, 2, Classification::Strided);
  // 64 bytes used of 128 fetched.
  EXPECT_NEAR(*P.UsedBytesFraction, 0.5, 1e-9);
}

TEST(PredictorTest, LaneConditionOnBoundedLoopSamplesEveryIteration) {
  // for (k = 0; k < 32; ++k) if (threadIdx.x % 32 < k) a[i]: iteration k
  // runs lanes 0..k-1 (k = 0 issues no request): ceil(4k/32) sectors, the
  // ideal. Over k = 1..31: (8*1 + 8*2 + 8*3 + 7*4) / 31 = 76/31. Sampling
  // only k = 0..7 would give 1.
  Expr K = loop("k");
  AccessPattern A = access(C(4) * globalX());
  A.Active = Expr::logicalAnd(Expr::lt(K, C(32)),
                              Expr::lt(Expr::rem(tx(), C(32)), K));
  Prediction P = predict(A, launch(256));
  expectPrediction(P, 76.0 / 31, 76.0 / 31, Classification::Coalesced);

  // The trip count comes from the conjuncts on k alone.
  EXPECT_EQ(predictor::tripCount(Symbol{SymbolKind::LoopIter, "k"}, A.Active,
                                 512),
            std::optional<unsigned>(32));
  // A bound beyond the cap, or none, keeps the fixed number of samples.
  Expr Long = Expr::logicalAnd(Expr::lt(K, C(1000)), Expr::lt(tx(), K));
  EXPECT_EQ(predictor::tripCount(Symbol{SymbolKind::LoopIter, "k"}, Long, 512),
            std::nullopt);
  EXPECT_EQ(predictor::tripCount(Symbol{SymbolKind::LoopIter, "k"},
                                 Expr::lt(tx(), K), 512),
            std::nullopt);
}

TEST(PredictorTest, TripCountStartsBelowLinearUpperBounds) {
  // The search skips the values a linear upper bound rules out; every bound
  // kind gives what trying each value from the cap down gives.
  Symbol S{SymbolKind::LoopIter, "k"};
  Expr K = loop("k");
  auto Scan = [&](const Expr &Bound) -> std::optional<unsigned> {
    for (int64_t T = 511; T >= 0; --T) {
      Bindings B;
      B.set(S, T);
      if (Bound.evaluate(B).value_or(0))
        return unsigned(T + 1);
    }
    return std::nullopt;
  };
  std::vector<Expr> Bounds = {
      Expr::lt(K, C(13)),
      Expr::le(C(2) * K, C(9)),
      Expr::lt(C(3) * K, C(-4)), // Never.
      Expr::eq(K, C(6)),
      Expr::eq(C(4) * K, C(6)), // Never.
      Expr::logicalAnd(Expr::lt(K, C(300)), Expr::ne(K, C(299))),
      Expr::logicalAnd(Expr::lt(K, C(40)),
                       Expr::eq(Expr::rem(K, C(7)), C(3))),
      Expr::logicalAnd(Expr::lt(C(100), C(2) * K), Expr::le(K, C(60))),
  };
  for (const Expr &Bound : Bounds)
    EXPECT_EQ(predictor::tripCount(S, Bound, 512), Scan(Bound))
        << Bound.str();
}

TEST(PredictorTest, LoopStartIsTheSearchsLastWitnessWhenTheEvaluationSamplesFewer) {
  // Rodinia myocyte's stage 11 of 13 (s) inside 12 attempts (j) inside the
  // time steps (k < xmax): the guard search, xmax open, samples s from 6
  // over 6 values and finds s = 11 at the last; the evaluation, xmax bound,
  // samples k too and s over 3 values, 6 to 8: no lane. It starts at 11.
  Expr S = loop("s"), J = loop("j"), K = loop("k"), I = loop("i");
  Expr N = param("xmax"), W = param("workload");
  AccessPattern A = access(C(4) * I + C(4732) * tx() + C(151424) * bx());
  Expr Active = Expr::logicalAnd(Expr::lt(C(0), N),
                                 Expr::lt(tx() + C(32) * bx(), W));
  Active = Expr::logicalAnd(Expr::lt(K + C(1), N + C(1)), Active);
  Active = Expr::logicalAnd(Expr::lt(J, C(12)), Active);
  Active = Expr::logicalAnd(Expr::lt(S, C(13)), Active);
  for (int64_t Stage = 0; Stage < 11; ++Stage)
    Active = Expr::logicalAnd(Expr::ne(C(Stage), S), Active);
  Active = Expr::logicalAnd(Expr::eq(C(11), S), Active);
  A.Active = Expr::logicalAnd(Expr::lt(I, C(91)), Active);
  Prediction P = predict(A, launch(32));
  expectPrediction(P, 32, 4, Classification::Strided);
  EXPECT_TRUE(hasAssumption(P, "assuming s >= 11 so that the access executes"))
      << assumptions(P);
}

TEST(PredictorTest, TriangularLoopIsWalkedOverItsWholeRange) {
  // for (k = 0; k < 40 - threadIdx.x; ++k) a[threadIdx.x * 64 + k], one warp:
  // k = 0..8 runs all 32 lanes, k = 9..39 runs 40 - k, each lane in its own
  // row (one sector each). (9*32 + 31*32/2) / 40 = 784/40 = 19.6 sectors per
  // request; the first 8 iterations alone would say 32.
  Expr K = loop("k");
  AccessPattern A = access(C(4) * (tx() * C(64) + K));
  A.Active = Expr::lt(K, C(40) - tx());
  Prediction P = predict(A, launch(32));
  ASSERT_TRUE(P.SectorsPerRequest);
  EXPECT_NEAR(*P.SectorsPerRequest, 19.6, 1e-9);

  predictor::SamplingPlan Plan =
      predictor::planSamples(A.Address, A.Active, 512);
  ASSERT_TRUE(Plan.Ranged);
  EXPECT_EQ(Plan.Ranged->Iter.Name, "k");
  EXPECT_EQ(Plan.Ranged->Period, 8u); // 4 bytes a step.
  EXPECT_TRUE(Plan.Symbols.empty());
  // A step that differs per lane (k * threadIdx.x) does not repeat with the
  // period: sampled as before.
  EXPECT_FALSE(predictor::planSamples(C(4) * K * tx(), A.Active, 512).Ranged);
  // Nor does a bound that is not monotone in k.
  EXPECT_FALSE(predictor::planSamples(
                   A.Address,
                   Expr::logicalAnd(A.Active, Expr::eq(Expr::rem(K, C(2)), C(0))),
                   512)
                   .Ranged);
}

TEST(PredictorTest, NarrowRangeSolvesEachKindOfBound) {
  using predictor::narrowRange;
  auto Range = [](int64_t Slope, bool Strict, int64_t AtZero) {
    predictor::RangedLoop::Bound B;
    B.Slope = Slope;
    B.Strict = Strict;
    int64_t Lo = 0, Hi = 100;
    narrowRange(B, AtZero, Lo, Hi);
    return std::make_pair(Lo, Hi);
  };
  using R = std::pair<int64_t, int64_t>;
  EXPECT_EQ(Range(3, true, -10), R(0, 4));   // -10 + 3k < 0: k <= 3
  EXPECT_EQ(Range(1, false, -10), R(0, 11)); // -10 + k <= 0: k <= 10
  EXPECT_EQ(Range(-2, true, 5), R(3, 100));  // 5 - 2k < 0: k >= 3
  EXPECT_EQ(Range(-2, false, 4), R(2, 100)); // 4 - 2k <= 0: k >= 2
  EXPECT_EQ(Range(-2, true, 4), R(3, 100));  // 4 - 2k < 0: k >= 3
  EXPECT_EQ(Range(1, true, 5), R(0, 0));     // 5 + k < 0: never
  EXPECT_EQ(Range(-1, false, 500), R(100, 100)); // past the range
  EXPECT_EQ(Range(1, true, -1000), R(0, 100));   // beyond the range: kept
  // Operands too large for 64-bit sums take the 128-bit path.
  EXPECT_EQ(Range(INT64_MAX, true, INT64_MIN), R(0, 2)); // k <= 1
  EXPECT_EQ(Range(-(int64_t(1) << 62), false, int64_t(1) << 62),
            R(1, 100)); // 2^62 (1 - k) <= 0: k >= 1
}

TEST(PredictorTest, DefaultedBoundIsAssumedLargeWhenNoLaneWouldRun) {
  // if (i + off < n) a[i + off] with off and n both defaulted to 1024: no
  // lane would run. n only bounds the access, so it is taken as large
  // (2^20) and stated; off keeps its default (4096 bytes: aligned, 4).
  Expr K = globalX() + param("off");
  AccessPattern A = access(C(4) * K);
  A.Active = Expr::lt(K, param("n"));
  Prediction P = predict(A, launch(256));
  expectPrediction(P, 4, 4, Classification::Misaligned);
  EXPECT_EQ(P.AssumedValues["n"], int64_t(1) << 20);
  EXPECT_EQ(P.AssumedValues["off"], 1024);
  ASSERT_FALSE(P.Assumptions.empty());
  EXPECT_EQ(P.Assumptions.front(), "assuming n large enough for the access "
                                   "to execute (1048576 used)");
  // A bound that no value of n satisfies stays unknown.
  A.Active = Expr::lt(K, C(0));
  EXPECT_EQ(name(predict(A, launch(256)).Class), "unknown");
}

TEST(PredictorTest, NoLaneExecutes) {
  AccessPattern A = access(C(4) * globalX());
  A.Active = C(0);
  Prediction P = predict(A, launch(256));
  EXPECT_EQ(name(P.Class), "unknown");
  EXPECT_FALSE(P.SectorsPerRequest.has_value());
  EXPECT_EQ(P.Reason, "no lane executes the access under the assumptions");
}

TEST(PredictorTest, PartialWarps) {
  // Block 48, a[i] = 192*bx + 4*tx. Warp 0: 128 aligned bytes, 4 sectors,
  // ideal 4. Warp 1: 16 lanes, bytes 128..191, 2 sectors, ideal 2.
  // Per request: (4 + 2)/2 = 3 sectors, ideal 3, 24 active lanes.
  Prediction P = predict(access(C(4) * globalX()), launch(48));
  expectPrediction(P, 3, 3, Classification::Coalesced);
  EXPECT_NEAR(*P.ActiveLanesPerRequest, 24, 1e-9);
  // a[2*i]: warp 0: 256 bytes, 8 sectors (ideal 4); warp 1: 16 lanes over
  // 128 bytes, 4 sectors (ideal 2). (8 + 4)/2 = 6, ideal 3.
  Prediction Q = predict(access(C(8) * globalX()), launch(48));
  expectPrediction(Q, 6, 3, Classification::Strided);
}

//===--- Atomics
//------------------------------------------------------------===//

TEST(PredictorTest, AtomicsToOneAddress) {
  // atomicAdd(&sum[0], v) on float: 32 lanes on one address, not merged:
  // 1 sector x 32 = 32 per request; ideal 4.
  AccessPattern F = access(C(0));
  F.Op = AccessOp::Atomic;
  F.Atomic = AtomicKind::Float;
  expectPrediction(predict(F, launch(256)), 32, 4, Classification::Uniform);
  // On int: the compiler aggregates the warp: 1.
  AccessPattern I = F;
  I.Atomic = AtomicKind::Integer;
  expectPrediction(predict(I, launch(256)), 1, 4, Classification::Uniform);
  // Float atomicAdd(&out[blockIdx.x], v): the same per block.
  AccessPattern G = access(C(4) * bx());
  G.Op = AccessOp::Atomic;
  G.Atomic = AtomicKind::Float;
  expectPrediction(predict(G, launch(256)), 32, 4, Classification::Uniform);
}

TEST(PredictorTest, AtomicsToDistinctAddressesAreLikeStores) {
  // atomicAdd(&out[i], v): 32 consecutive floats, 4 sectors.
  AccessPattern F = access(C(4) * globalX());
  F.Op = AccessOp::Atomic;
  F.Atomic = AtomicKind::Float;
  expectPrediction(predict(F, launch(256)), 4, 4, Classification::Coalesced);
  // Float atomicAdd(&hist[threadIdx.x % 4], v): 4 addresses in one sector,
  // 8 lanes each: 1 x 8 = 8 per request.
  AccessPattern H = access(C(4) * Expr::rem(tx(), C(4)));
  H.Op = AccessOp::Atomic;
  H.Atomic = AtomicKind::Float;
  Prediction P = predict(H, launch(256));
  ASSERT_TRUE(P.SectorsPerRequest.has_value()) << P.Reason;
  EXPECT_NEAR(*P.SectorsPerRequest, 8, 1e-9);
}

//===--- Unknown parameters
//-------------------------------------------------===//

TEST(PredictorTest, UnknownStrideParameter) {
  // a[i*N], N unknown (1024 used): lanes 4096 bytes apart, 32 sectors.
  // For N = v < 8 the lanes are 4v < 32 bytes apart and the aligned warp
  // covers 4v sectors; for 8 <= v <= 64 every lane has its own sector.
  Prediction P = predict(access(C(4) * globalX() * param("N")), launch(256));
  expectPrediction(P, 32, 4, Classification::Strided);
  EXPECT_TRUE(hasAssumption(P, "assuming N >= 8 (N = 1024 used)"))
      << assumptions(P);
  EXPECT_EQ(P.AssumedValues.at("N"), 1024);
  ASSERT_TRUE(P.LaneStrideBytes.has_value());
  EXPECT_EQ(*P.LaneStrideBytes, C(4) * param("N")) << P.LaneStrideBytes->str();
  EXPECT_EQ(P.LaneStrideBytesValue, std::optional<int64_t>(4096));
}

TEST(PredictorTest, UnknownOffsetParameter) {
  // a[i + off], off unknown: 4*1024 is a multiple of 32 -> 4 sectors; off =
  // 1025..1031 shift by 4..28 bytes -> 5. Best 4, worst 5: may be
  // misaligned.
  Expr OffTerm = C(4) * param("off");
  Prediction P = predict(access(C(4) * globalX() + OffTerm), launch(256));
  expectPrediction(P, 4, 4, Classification::Misaligned);
  ASSERT_TRUE(P.BestSectorsPerRequest.has_value());
  ASSERT_TRUE(P.WorstSectorsPerRequest.has_value());
  EXPECT_NEAR(*P.BestSectorsPerRequest, 4, 1e-9);
  EXPECT_NEAR(*P.WorstSectorsPerRequest, 5, 1e-9);
  EXPECT_EQ(P.MisalignmentTerm, OffTerm.str());
  EXPECT_TRUE(hasAssumption(
      P, "assuming " + OffTerm.str() +
             " is a multiple of 32 bytes; up to 5 sectors per request "
             "otherwise"))
      << assumptions(P);
  // A given value is not an assumption.
  PredictOptions O = launch(256);
  O.Params["off"] = 3;
  Prediction Q = predict(access(C(4) * globalX() + OffTerm), O);
  expectPrediction(Q, 5, 4, Classification::Misaligned);
  EXPECT_TRUE(Q.Assumptions.empty()) << assumptions(Q);
  EXPECT_FALSE(Q.WorstSectorsPerRequest.has_value());
}

//===--- What the engine cannot see
//-----------------------------------------===//

TEST(PredictorTest, IndirectAndUnknownAddresses) {
  Expr Idx = testSymbol(Symbol{SymbolKind::IndirectValue, "idx[i]"});
  Prediction P = predict(access(C(4) * Idx), launch(256));
  EXPECT_EQ(name(P.Class), "indirect");
  EXPECT_EQ(P.Reason, "index loaded from memory: idx[i]");
  EXPECT_FALSE(P.SectorsPerRequest.has_value());

  Expr Opaque = testSymbol(Symbol{SymbolKind::LaneValue, "f(i)"});
  Prediction Q = predict(access(C(4) * Opaque), launch(256));
  EXPECT_EQ(name(Q.Class), "unknown");
  EXPECT_NE(Q.Reason.find("f(i)"), std::string::npos) << Q.Reason;
  EXPECT_FALSE(Q.SectorsPerRequest.has_value());
}

TEST(PredictorTest, BranchOnLoadedValueAssumedTaken) {
  // if (i < N && flag[i]) a[i]: the flag is unknown, all lanes assumed to
  // take the branch: 4 sectors, ideal 4.
  PredictOptions O = launch(256);
  O.Params["N"] = 4096;
  Expr Flag = testSymbol(Symbol{SymbolKind::IndirectValue, "flag[i]"});
  AccessPattern A = access(C(4) * globalX());
  A.Active =
      Expr::logicalAnd(Expr::lt(globalX(), param("N")), Expr::ne(Flag, C(0)));
  Prediction P = predict(A, O);
  expectPrediction(P, 4, 4, Classification::Coalesced);
  EXPECT_TRUE(
      hasAssumption(P, "assuming all lanes take the branch that depends on "
                       "flag[i]"))
      << assumptions(P);
}

TEST(PredictorTest, DivisionByZeroIsUnknown) {
  // a[i / (N - 1024)] with N defaulted to 1024 divides by zero.
  Expr Address = C(4) * Expr::div(globalX(), param("N") - C(1024));
  Prediction P = predict(access(Address), launch(256));
  EXPECT_EQ(name(P.Class), "unknown");
  EXPECT_FALSE(P.SectorsPerRequest.has_value());
}

//===--- The per-lane evaluator -------------------------------------------===//

/// Checks a LaneProgram of \p E against Expr::evaluate for every lane of
/// \p Shape in blocks 0..Blocks-1: a whole warp at a time (atWarp: values
/// and the lanes where they are defined) and lane by lane (at).
void expectMatchesEvaluate(const Expr &E, BlockShape Shape, int64_t Blocks) {
  SCOPED_TRACE(E.str());
  predictor::LaneProgram Program(E);
  for (int64_t Block = 0; Block < Blocks; ++Block) {
    Bindings Sample;
    Sample.set(Symbol::blockIdx(0), Block);
    Program.prepare(Sample);
    for (unsigned W = 0; W < Shape.warps(); ++W) {
      std::vector<Lane> Lanes = lanesOfWarp(Shape, W);
      int64_t Out[WarpSize];
      uint32_t Defined = Program.atWarp(Lanes, Out);
      for (unsigned I = 0; I < Lanes.size(); ++I) {
        SCOPED_TRACE(testing::Message() << "tid " << Lanes[I].Tid
                                        << ", blockIdx.x " << Block);
        Bindings B = Sample;
        bindLane(B, Lanes[I]);
        std::optional<int64_t> Want = E.evaluate(B);
        ASSERT_EQ(bool((Defined >> I) & 1), Want.has_value());
        if (Want)
          EXPECT_EQ(Out[I], *Want);
        EXPECT_EQ(Program.at(Lanes[I]), Want);
      }
    }
  }
}

TEST(LaneProgramTest, OneStepPerDistinctNode) {
  // 2^40 nodes as a tree; the program runs each shared node once, and
  // agrees with Expr::evaluate (which walks the distinct nodes too).
  Expr E = tx() + bx();
  for (int I = 0; I < 40; ++I)
    E = Expr::select(Expr::lt(E, C(9 + I)), E + C(2), E - ty());
  predictor::LaneProgram Program(E);
  EXPECT_LT(Program.size(), 400u);
  Bindings Sample;
  Sample.set(Symbol::blockIdx(0), 3);
  Program.prepare(Sample);
  for (const Lane &L : lanesOfWarp(BlockShape{8, 4, 1}, 0)) {
    Bindings B = Sample;
    bindLane(B, L);
    EXPECT_EQ(Program.at(L), E.evaluate(B)) << "tid " << L.Tid;
  }
}

TEST(LaneProgramTest, MatchesExprEvaluateLaneByLane) {
  Expr Lv = testSymbol(Symbol{SymbolKind::LaneValue, "v"});
  const Expr Cases[] = {
      C(4) * tx() + C(64) * ty() + C(1024) * bx(),
      Expr::rem(C(3) * tx() + bx(), C(7)),
      Expr::div(tx() - C(5), C(2)) * ty(),
      // Only the chosen arm is evaluated: 100 / (tx - 4) is undefined at 4.
      Expr::select(Expr::lt(tx(), C(4)), C(1), Expr::div(C(100), tx() - C(4))),
      Expr::select(Expr::le(tx(), C(4)), C(1), Expr::div(C(100), tx() - C(4))),
      // && decided by either side even when the other is undefined.
      Expr::logicalAnd(Expr::lt(tx(), C(3)), Expr::div(C(8), tx() - C(1))),
      Expr::logicalOr(Expr::eq(ty(), C(1)), Expr::rem(C(8), tx())),
      Expr::shr(C(16) * tx(), ty()) + Expr::shl(C(1), tx()),
      Expr::bitAnd(tx(), C(6)) + Expr::bitOr(ty(), bx()) +
          Expr::bitXor(tx(), ty()),
      Expr::min(tx(), C(5)) * Expr::max(ty(), bx()),
      Expr::ne(tx(), ty()) + C(2) * Expr::le(bx(), tx()),
      // A lane value the engine cannot see: undefined everywhere.
      Lv + tx(),
  };
  for (const Expr &E : Cases)
    expectMatchesEvaluate(E, BlockShape{8, 4, 2}, 3);
}

TEST(LaneProgramTest, ConjunctZeroForTheWarpDecidesWithoutTheRest) {
  // A predicate's conjunct that is 0 for every lane of the warp (lane-free,
  // or per lane) ends the evaluation early; the values and the lanes where
  // they are defined must stay Expr::evaluate's, also where a later
  // conjunct is undefined (8 / (tx - 5) at lane 5, 100 / (tx - 64)).
  const Expr Cases[] = {
      Expr::logicalAnd(Expr::logicalAnd(Expr::lt(bx(), C(1)),
                                        Expr::div(C(8), tx() - C(5))),
                       Expr::lt(tx(), C(20))),
      Expr::logicalAnd(Expr::le(C(64), tx()),
                       Expr::lt(C(0), Expr::div(C(100), tx() - C(64)))),
      Expr::logicalAnd(Expr::logicalAnd(Expr::lt(tx(), C(40)),
                                        Expr::le(C(33), tx())),
                       Expr::div(C(8), tx() - C(5))),
  };
  for (const Expr &E : Cases)
    expectMatchesEvaluate(E, BlockShape{128, 1, 1}, 2);
}

TEST(LaneProgramTest, KeptRowsMatchEvaluateWhateverTheSamplesChange) {
  // A chain over blockIdx.x (kept while only k changes), picked by k; and a
  // predicate whose first conjunct ends some warps early (the steps after
  // it are stale for those warps and must be made again later). Samples
  // change k, then blockIdx.x, then return to earlier values; a warp number
  // given other lanes (another block shape) starts afresh.
  Expr K = testSymbol(Symbol{SymbolKind::LoopIter, "k"});
  Expr Chain = tx() + C(3) * bx();
  Expr Picked = Chain;
  for (int I = 0; I < 6; ++I) {
    Chain = Expr::select(Expr::ne(Chain, C(40)), Chain + C(5), Chain - C(7));
    Picked = Expr::select(Expr::eq(K, C(I)), Chain, Picked);
  }
  Expr Guard = Expr::logicalAnd(Expr::lt(tx(), C(16) + C(8) * K),
                                Expr::lt(C(2), Picked));
  const std::pair<int64_t, int64_t> Samples[] = {
      {0, 0}, {0, 1}, {0, 5}, {1, 5}, {1, 0}, {0, 0}, {2, 3}, {2, 3}, {0, 5}};
  const BlockShape Shapes[] = {BlockShape{64, 1, 1}, BlockShape{16, 4, 1}};
  for (const Expr &E : {Picked, Guard}) {
    SCOPED_TRACE(E.str());
    predictor::LaneProgram Program(E);
    for (const BlockShape &Shape : Shapes)
      for (const auto &[Block, Iter] : Samples) {
        Bindings Sample;
        Sample.set(Symbol::blockIdx(0), Block);
        Sample.set(K.getSymbol(), Iter);
        Program.prepare(Sample);
        for (unsigned W = 0; W < Shape.warps(); ++W) {
          std::vector<Lane> Lanes = lanesOfWarp(Shape, W);
          int64_t Out[WarpSize];
          uint32_t Defined = Program.atWarp(W, Lanes, Out);
          for (unsigned I = 0; I < Lanes.size(); ++I) {
            Bindings B = Sample;
            bindLane(B, Lanes[I]);
            std::optional<int64_t> Want = E.evaluate(B);
            ASSERT_EQ(bool((Defined >> I) & 1), Want.has_value());
            if (Want)
              EXPECT_EQ(Out[I], *Want)
                  << "tid " << Lanes[I].Tid << ", blockIdx.x " << Block
                  << ", k " << Iter;
          }
        }
      }
  }
}

TEST(LaneProgramTest, RootAfterAConjunctDecidedTheWarpIsZero) {
  // Warp 0 (ty = 0) is decided by the first conjunct, before the root's
  // row is made; rootAt() must not return the row warp 1 left there.
  Expr E = Expr::logicalAnd(Expr::ne(Expr::bitAnd(ty(), C(1)), C(0)),
                            Expr::lt(tx(), C(100)));
  predictor::LaneProgram Program(E);
  Program.prepare(Bindings());
  BlockShape Shape{32, 2, 1};
  int64_t Out[WarpSize];
  for (unsigned W : {1u, 0u}) {
    std::vector<Lane> Lanes = lanesOfWarp(Shape, W);
    Program.atWarp(Lanes, Out);
    ASSERT_EQ(Program.rootAt(0, Out), ~uint32_t(0));
    for (unsigned I = 0; I < Lanes.size(); ++I)
      EXPECT_EQ(Out[I], W == 1 ? 1 : 0) << "warp " << W << " lane " << I;
  }
}

TEST(LaneProgramTest, WarpsPastTheRowBudgetAreEvaluatedAfresh) {
  // About 3,000 steps (800 KB of rows per warp): 20 warps' rows fit the
  // budget, the other 12 of the block are evaluated without kept rows
  // (warps 20, 25 and 30 here); all must match Expr::evaluate. (Deeper chains overflow the test's stack
  // under AddressSanitizer: Expr::evaluate recurses.)
  Expr E = tx() + C(7) * bx();
  for (int I = 0; I < 1000; ++I)
    E = Expr::select(Expr::lt(E, C(50 + I)), E + C(3), E - C(1));
  predictor::LaneProgram Program(E);
  // Not every warp of the block fits.
  ASSERT_GT(32 * Program.size() * (8 * WarpSize + 12),
            predictor::LaneProgram::MaxKeptRowBytes);
  BlockShape Shape{1024, 1, 1};
  for (int64_t Block : {0, 1, 1, 2}) {
    Bindings Sample;
    Sample.set(Symbol::blockIdx(0), Block);
    Program.prepare(Sample);
    for (unsigned W = 0; W < Shape.warps(); W += 5) {
      std::vector<Lane> Lanes = lanesOfWarp(Shape, W);
      int64_t Out[WarpSize];
      ASSERT_EQ(Program.atWarp(W, Lanes, Out), ~uint32_t(0));
      for (unsigned I = 0; I < Lanes.size(); I += 7) {
        Bindings B = Sample;
        bindLane(B, Lanes[I]);
        EXPECT_EQ(Out[I], *E.evaluate(B)) << "warp " << W << " lane " << I;
      }
    }
  }
}

TEST(LaneProgramTest, SeveralExpressionsShareOneProgram) {
  Expr Chain = tx() + bx();
  std::vector<Expr> Comparisons;
  for (int I = 0; I < 8; ++I) {
    Chain = Expr::select(Expr::lt(Chain, C(20 + I)), Chain + C(3), Chain);
    Comparisons.push_back(Expr::le(C(I), Chain - ty()));
  }
  predictor::LaneProgram Shared(Comparisons);
  // The chain once, not once per comparison.
  size_t Separate = 0;
  for (const Expr &E : Comparisons)
    Separate += predictor::LaneProgram(E).size();
  EXPECT_LT(2 * Shared.size(), Separate);
  Bindings Sample;
  Sample.set(Symbol::blockIdx(0), 2);
  Shared.prepare(Sample);
  std::vector<Lane> Lanes = lanesOfWarp(BlockShape{8, 4, 1}, 0);
  int64_t Out[WarpSize];
  Shared.atWarp(Lanes, Out);
  for (size_t E = 0; E < Comparisons.size(); ++E) {
    ASSERT_EQ(Shared.rootAt(E, Out), ~uint32_t(0));
    for (unsigned I = 0; I < Lanes.size(); ++I) {
      Bindings B = Sample;
      bindLane(B, Lanes[I]);
      EXPECT_EQ(Out[I], *Comparisons[E].evaluate(B)) << E << " " << I;
    }
  }
}

/// simulateSteps() over \p Values of \p S (\p Address linear in it with
/// coefficient \p Step), from S = \p Values[0], each value's totals checked
/// against a walk with the value bound. Returns the sector counts met.
std::set<uint64_t> expectOneWalkPerValue(const Expr &Address, const Expr &Step,
                                         const Expr &Active, const Symbol &S,
                                         const std::vector<int64_t> &Values) {
  BlockShape Block{64, 1, 1};
  predictor::SamplingPlan Plan = predictor::planSamples(Address, Active, 64);
  predictor::LaneProgram AddressAndStep(std::vector<Expr>{Address, Step});
  predictor::LaneProgram ActiveFn(Active);
  Bindings Base;
  Base.set(S, Values.front());
  std::vector<int64_t> Offsets;
  for (int64_t V : Values)
    Offsets.push_back(V - Values.front());
  std::optional<std::vector<predictor::Totals>> All =
      predictor::simulateSteps(AddressAndStep, ActiveFn, Base,
                               predictor::CostModel{}, Block, Plan, Offsets);
  std::set<uint64_t> Sectors;
  EXPECT_TRUE(All.has_value());
  if (!All || All->size() != Values.size())
    return Sectors;
  for (size_t I = 0; I < Values.size(); ++I) {
    Expr Bound = Address.substitute({{S, C(Values[I])}});
    predictor::Totals One = predictor::simulate(
        Bound, Active, predictor::CostModel{}, Block, Plan);
    const predictor::Totals &Many = (*All)[I];
    EXPECT_EQ(Many.Requests, One.Requests) << I;
    EXPECT_EQ(Many.Sectors, One.Sectors) << I;
    EXPECT_EQ(Many.Ideal, One.Ideal) << I;
    EXPECT_EQ(Many.UsedBytes, One.UsedBytes) << I;
    EXPECT_EQ(Many.AllContiguous, One.AllContiguous) << I;
    Sectors.insert(Many.Sectors);
  }
  return Sectors;
}

TEST(SimulateTest, OneWalkOverValuesMatchesOneWalkPerValue) {
  // 4*tx + off*(4 + 8*bx) + 520*bx under a guard: the step per unit of off
  // depends on the sample (a row pitch); each value of the one walk must
  // give the totals of a walk with off bound to it, and the values are not
  // all alike (a walk that ignored them would fail).
  Expr Off = param("off");
  Expr Step = C(4) + C(8) * bx();
  EXPECT_GT(expectOneWalkPerValue(C(4) * tx() + Off * Step + C(520) * bx(),
                                  Step, Expr::lt(tx(), C(24) + bx()),
                                  Off.getSymbol(), {3, 4, 5, 6, 7, 8, 9, 10})
                .size(),
            1u);
}

TEST(SimulateTest, LaneDependentStepsMatchOneWalkPerValue) {
  // n*(4*tx + 4096*bx): a stride, each lane moving by its own 4*tx + 4096*bx
  // per unit of n (the stride probe's case). The values need not follow
  // each other: 1..8, 64 and 1024, from n = 5.
  Expr N = param("n");
  Expr Step = C(4) * tx() + C(4096) * bx();
  EXPECT_GT(expectOneWalkPerValue(N * Step + C(64) * bx(), Step,
                                  Expr::lt(tx(), C(28)), N.getSymbol(),
                                  {5, 1, 2, 3, 4, 6, 7, 8, 64, 1024})
                .size(),
            2u);
}

TEST(SimulateTest, AlikeValuesAreVisitedOnceAndWeighed) {
  // l < 1024 (a layer loop, its bound at the default) holds for every
  // sampled l: l moves the address only, by 16 bytes, which repeats every 2
  // values. The plan samples 8 values and visits 2, each for 4: the same
  // totals as visiting the 8.
  Expr L = loop("l");
  Expr Address = C(4) * tx() + C(16) * L + C(520) * bx();
  Expr Active =
      Expr::logicalAnd(Expr::lt(L, C(1024)), Expr::lt(tx(), C(24) + bx()));
  BlockShape Block{64, 1, 1};
  predictor::SamplingPlan Plan = predictor::planSamples(Address, Active, 512);
  auto At = std::find(Plan.Symbols.begin(), Plan.Symbols.end(), L.getSymbol());
  ASSERT_NE(At, Plan.Symbols.end());
  size_t I = At - Plan.Symbols.begin();
  EXPECT_EQ(Plan.Periods[I], 8u);
  ASSERT_EQ(Plan.Distinct.size(), Plan.Periods.size());
  EXPECT_EQ(Plan.Distinct[I], 2u);
  EXPECT_EQ(Plan.distinctSize() * 4, Plan.size());
  predictor::SamplingPlan Every = Plan;
  Every.Distinct.clear();
  predictor::Totals Visited =
      predictor::simulate(Address, Active, predictor::CostModel{}, Block, Plan);
  predictor::Totals All = predictor::simulate(
      Address, Active, predictor::CostModel{}, Block, Every);
  EXPECT_EQ(Visited.Requests, All.Requests);
  EXPECT_EQ(Visited.Sectors, All.Sectors);
  EXPECT_EQ(Visited.Ideal, All.Ideal);
  EXPECT_EQ(Visited.UsedBytes, All.UsedBytes);
  EXPECT_EQ(Visited.ActiveLanes, All.ActiveLanes);
  // A bound some sampled value fails (l < 5), one the lanes share
  // (l + tx < 40), or a step that differs per lane: every value visited.
  for (const auto &[A, P] :
       {std::pair{Address, Expr::lt(L, C(5))},
        std::pair{Address, Expr::lt(L + tx(), C(40))},
        std::pair{C(4) * tx() * L, Expr::lt(L, C(1024))}}) {
    predictor::SamplingPlan Q = predictor::planSamples(A, P, 512);
    EXPECT_EQ(Q.distinctSize(), Q.size()) << A.str() << " | " << P.str();
  }
}

} // namespace

namespace {
TEST(PredictorTest, SharedSubtreesAreEvaluatedOnceNotPerPath) {
  // A value merged over many paths: each select uses the previous value on
  // both arms, so the tree form doubles at each step (2^20 nodes) while the
  // DAG has a few nodes per step. Lane L ends at L (L < 7) or L + 20.
  Expr E = tx();
  for (int I = 0; I < 20; ++I)
    E = Expr::select(Expr::lt(E, C(7)), E, E + C(1));
  ASSERT_GT(E.treeSize(), 1000000u);
  EXPECT_LT(E.distinctNodes(1000), 200u);
  // Bytes 0..27 (sector 0) for lanes 0..6, 108..207 (sectors 3..6) for the
  // rest: 5 sectors where 4 would do.
  Prediction P = predict(access(C(4) * E), launch(32));
  ASSERT_TRUE(P.SectorsPerRequest.has_value()) << P.Reason;
  EXPECT_DOUBLE_EQ(*P.SectorsPerRequest, 5);
}

TEST(PredictorTest, HugeAddressIsUnknownNotAStall) {
  // 20,000+ distinct nodes: too many to evaluate lane by lane.
  Expr E = tx();
  for (int I = 0; I < 12000; ++I)
    E = Expr::bitXor(E, tx() + C(I + 1));
  ASSERT_GT(E.distinctNodes(30000), 20000u);
  Prediction P = predict(access(C(4) * E), PredictOptions());
  EXPECT_EQ(P.Class, Classification::Unknown);
  EXPECT_NE(P.Reason.find("too large"), std::string::npos) << P.Reason;
}
} // namespace
namespace {
// Affine lane-free parts are temporaries: a freed node's address reused by a
// later node must not be taken for it (two guards of one conjunction).
TEST(LaneProgramTest, TemporariesDoNotAliasLaterNodes) {
  Expr G = C(4) * tx() + C(1024) * bx();
  Expr E = Expr::logicalAnd(Expr::lt(G + C(1), C(1022)),
                            Expr::le(C(1022), G + C(3)));
  predictor::LaneProgram Program(E);
  Bindings Sample;
  Sample.set(Symbol::blockIdx(0), 0);
  Program.prepare(Sample);
  int64_t Out[WarpSize];
  std::vector<Lane> Lanes = lanesOfWarp(BlockShape{256, 1, 1}, 7);
  uint32_t Defined = Program.atWarp(Lanes, Out);
  EXPECT_EQ(Defined, ~uint32_t(0));
  for (size_t I = 0; I < Lanes.size(); ++I) {
    Bindings B = Sample;
    bindLane(B, Lanes[I]);
    EXPECT_EQ(Out[I], *E.evaluate(B)) << "tid " << Lanes[I].Tid;
    EXPECT_EQ(Program.at(Lanes[I]), E.evaluate(B)) << "tid " << Lanes[I].Tid;
  }
}
} // namespace
