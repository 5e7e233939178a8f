//===- PtxMemoryTest.cpp - The reader of inline PTX memory instructions ---===//
#include "frontend/PtxMemory.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::frontend;

namespace {

TEST(PtxMemoryTest, AsyncCopyReadsItsSourceOperand) {
  auto Ops = readPtxMemoryOps("cp.async.cg.shared.global.L2::128B [$0], [$1], 16;");
  ASSERT_EQ(Ops.size(), 1u);
  EXPECT_EQ(Ops[0].Operand, 1u);
  EXPECT_EQ(Ops[0].Bytes, 16u);
  EXPECT_EQ(Ops[0].Op, AccessOp::Load);
  EXPECT_EQ(Ops[0].Space, PtxSpace::Global);
  EXPECT_EQ(Ops[0].Mnemonic, "cp.async.cg.shared.global.L2::128B");
  // The source size of a zero-filling copy does not change the width.
  Ops = readPtxMemoryOps("cp.async.ca.shared.global [$0], [$1], 8, $2;");
  ASSERT_EQ(Ops.size(), 1u);
  EXPECT_EQ(Ops[0].Bytes, 8u);
}

TEST(PtxMemoryTest, AsyncCopySizeGivenAsAnOperand) {
  // CP_ASYNC_CG(dst, src, Bytes) passes the size as "n"(Bytes): the reader
  // names the operand and leaves its value to the caller.
  auto Ops = readPtxMemoryOps(
      "cp.async.cg.shared.global.L2::128B [$0], [$1], $2;\n");
  ASSERT_EQ(Ops.size(), 1u);
  EXPECT_EQ(Ops[0].Operand, 1u);
  ASSERT_TRUE(Ops[0].BytesOperand.has_value());
  EXPECT_EQ(*Ops[0].BytesOperand, 2u);
  EXPECT_EQ(Ops[0].Bytes, 0u);
  // A literal size names no operand.
  Ops = readPtxMemoryOps("cp.async.ca.shared.global [$0], [$1], 4;");
  ASSERT_EQ(Ops.size(), 1u);
  EXPECT_FALSE(Ops[0].BytesOperand.has_value());
  EXPECT_TRUE(readPtxMemoryOps("cp.async.ca.shared.global [$0], [$1], $x;")
                  .empty());
}

TEST(PtxMemoryTest, VectorLoadsAndStoresWithOffsets) {
  auto Ops = readPtxMemoryOps(
      "ld.global.nc.v4.f32 {$0, $1, $2, $3}, [$4+16];\n\t"
      "st.global.cs.v2.b32 [$5 + -8], {$0, $1};");
  ASSERT_EQ(Ops.size(), 2u);
  EXPECT_EQ(Ops[0].Operand, 4u);
  EXPECT_EQ(Ops[0].Offset, 16);
  EXPECT_EQ(Ops[0].Bytes, 16u);
  EXPECT_EQ(Ops[0].Op, AccessOp::Load);
  EXPECT_EQ(Ops[1].Operand, 5u);
  EXPECT_EQ(Ops[1].Offset, -8);
  EXPECT_EQ(Ops[1].Bytes, 8u);
  EXPECT_EQ(Ops[1].Op, AccessOp::Store);
}

TEST(PtxMemoryTest, AtomicsReductionsAndSpaces) {
  auto Ops = readPtxMemoryOps("atom.global.add.f32 $0, [$1], $2; "
                              "red.release.gpu.global.add.s32 [$3], $4; "
                              "ld.shared.b32 $0, [$5]; ld.u64 $0, [$6];");
  ASSERT_EQ(Ops.size(), 4u);
  EXPECT_EQ(Ops[0].Operand, 1u);
  EXPECT_EQ(Ops[0].Op, AccessOp::Atomic);
  EXPECT_EQ(Ops[0].Atomic, AtomicKind::Float);
  EXPECT_EQ(Ops[1].Operand, 3u);
  EXPECT_EQ(Ops[1].Atomic, AtomicKind::Integer);
  EXPECT_EQ(Ops[1].Bytes, 4u);
  EXPECT_EQ(Ops[2].Space, PtxSpace::Shared);
  EXPECT_EQ(Ops[3].Space, PtxSpace::Generic);
  EXPECT_EQ(Ops[3].Bytes, 8u);
}

TEST(PtxMemoryTest, ScopesPredicatesLabelsAndComments) {
  auto Ops = readPtxMemoryOps("{\n .reg .pred p;\n setp.ne.b32 p, $2, 0;\n"
                              " @p st.global.v2.f32 [$3], {$0, $1}; // store\n"
                              "L1: @!p ld.global.b16 $0, [$3+2];\n}");
  ASSERT_EQ(Ops.size(), 2u);
  EXPECT_EQ(Ops[0].Operand, 3u);
  EXPECT_EQ(Ops[0].Op, AccessOp::Store);
  EXPECT_EQ(Ops[1].Bytes, 2u);
  EXPECT_EQ(Ops[1].Offset, 2);
}

TEST(PtxMemoryTest, RegistersAndUnknownInstructionsGiveNothing) {
  // A PTX register address, an instruction the reader does not know, a
  // bulk tensor copy (a tensor map, not a pointer), a missing type.
  EXPECT_TRUE(readPtxMemoryOps("ld.global.f32 %f1, [%rd1];").empty());
  EXPECT_TRUE(readPtxMemoryOps("prefetch.global.L2 [$0];").empty());
  EXPECT_TRUE(readPtxMemoryOps("cp.async.bulk.tensor.2d.shared::cluster."
                               "global.tile [$0], [$1, {$2, $3}], [$4];")
                  .empty());
  EXPECT_TRUE(readPtxMemoryOps("ld.global $0, [$1];").empty());
  EXPECT_TRUE(readPtxMemoryOps("mov.b32 $0, $1;").empty());
}

} // namespace
