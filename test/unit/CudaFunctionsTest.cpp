//===- CudaFunctionsTest.cpp - The table of CUDA functions ----------------===//
#include "frontend/CudaFunctions.h"

#include <gtest/gtest.h>

using namespace coalesce::frontend;

namespace {

TEST(CudaFunctionsTest, AtomicsInEveryScope) {
  for (const char *Name : {"atomicAdd", "atomicCAS_block", "atomicXor_system",
                           "atomicInc"})
    EXPECT_TRUE(cudaFunction(Name).is(CudaRole::Atomic)) << Name;
  EXPECT_FALSE(cudaFunction("atomicAdd_warp").is(CudaRole::Atomic));
  EXPECT_FALSE(cudaFunction("atomicAddX").is(CudaRole::Atomic));
}

TEST(CudaFunctionsTest, ShuffleFlags) {
  CudaFunction Shfl = cudaFunction("__shfl_sync");
  EXPECT_TRUE(Shfl.is(CudaRole::Shuffle));
  EXPECT_TRUE(Shfl.has(cudaflag::Sync));
  EXPECT_TRUE(Shfl.has(cudaflag::Broadcast));
  CudaFunction Xor = cudaFunction("__shfl_xor");
  EXPECT_TRUE(Xor.is(CudaRole::Shuffle));
  EXPECT_FALSE(Xor.has(cudaflag::Sync));
  EXPECT_FALSE(Xor.has(cudaflag::Broadcast));
  // __match_any_sync is not a vote: its mask differs between lanes.
  EXPECT_TRUE(cudaFunction("__ballot_sync").is(CudaRole::Vote));
  EXPECT_FALSE(cudaFunction("__match_any_sync").is(CudaRole::Vote));
}

TEST(CudaFunctionsTest, BitCountWidths) {
  EXPECT_TRUE(cudaFunction("__popc").is(CudaRole::PopulationCount));
  EXPECT_FALSE(cudaFunction("__popc").has(cudaflag::Wide));
  EXPECT_TRUE(cudaFunction("__popcll").has(cudaflag::Wide));
  EXPECT_TRUE(cudaFunction("__clzll").is(CudaRole::CountLeadingZeros));
  EXPECT_TRUE(cudaFunction("__ffs").is(CudaRole::FindFirstSet));
  // Not a prefix match: __popcount is someone else's function.
  EXPECT_TRUE(cudaFunction("__popcount").is(CudaRole::None));
}

TEST(CudaFunctionsTest, ExactNamesBeforePrefixes) {
  // curand_init is modelled; curand_init's helpers, Poisson and MTGP are
  // neither modelled nor walked; every other curand function is walked.
  EXPECT_TRUE(cudaFunction("curand_init").is(CudaRole::CurandInit));
  EXPECT_TRUE(cudaFunction("curand_init_scratch").is(CudaRole::CurandOther));
  EXPECT_TRUE(cudaFunction("curand_poisson").is(CudaRole::CurandOther));
  EXPECT_TRUE(cudaFunction("curand_mtgp32_single").is(CudaRole::CurandOther));
  EXPECT_TRUE(cudaFunction("curand_uniform4").is(CudaRole::CurandGenerator));
  EXPECT_TRUE(cudaFunction("curand").is(CudaRole::CurandGenerator));
  EXPECT_TRUE(cudaFunction("skipahead_sequence").is(CudaRole::CurandSkipAhead));
  EXPECT_TRUE(cudaFunction("mycurand").is(CudaRole::None));
}

TEST(CudaFunctionsTest, LaunchesAndCopies) {
  EXPECT_TRUE(cudaFunction("cudaLaunchKernel").is(CudaRole::Launch));
  EXPECT_FALSE(cudaFunction("cudaLaunchKernel").has(cudaflag::ConfigStruct));
  EXPECT_TRUE(cudaFunction("cudaLaunchKernelEx").has(cudaflag::ConfigStruct));
  EXPECT_TRUE(cudaFunction("__pipeline_memcpy_async").has(cudaflag::ChunkSize));
  EXPECT_FALSE(cudaFunction("memcpy_async").has(cudaflag::ChunkSize));
  EXPECT_TRUE(cudaFunction("nvcuda::wmma::load_matrix_sync")
                  .is(CudaRole::WmmaLoad));
  EXPECT_TRUE(cudaFunction("load_matrix_sync").is(CudaRole::None));
}

TEST(CudaFunctionsTest, BuiltinVariables) {
  EXPECT_EQ(cudaVariable("threadIdx"), CudaVariable::ThreadIdx);
  EXPECT_EQ(cudaVariable("gridDim"), CudaVariable::GridDim);
  EXPECT_EQ(cudaVariable("warpSize"), CudaVariable::WarpSize);
  EXPECT_EQ(cudaVariable("threadIdx_x"), CudaVariable::None);
  EXPECT_EQ(cudaVariable("warpsize"), CudaVariable::None);
}

TEST(CudaFunctionsTest, CooperativeGroupTypes) {
  EXPECT_EQ(cudaGroupType("thread_block"), CudaGroupType::Block);
  EXPECT_EQ(cudaGroupType("grid_group"), CudaGroupType::Grid);
  EXPECT_EQ(cudaGroupType("coalesced_group"), CudaGroupType::Coalesced);
  // thread_block_tile<32> and the bases it is built on, by prefix.
  EXPECT_EQ(cudaGroupType("thread_block_tile"), CudaGroupType::Tile);
  EXPECT_EQ(cudaGroupType("__static_size_tile_base"), CudaGroupType::Tile);
  EXPECT_EQ(cudaGroupType("__static_size_thread_block_tile_base"),
            CudaGroupType::Tile);
  EXPECT_EQ(cudaGroupType("thread_group"), CudaGroupType::None);
  EXPECT_EQ(cudaGroupType("thread_block_"), CudaGroupType::None);
}

} // namespace
