//===- LocalArraysTest.cpp - What a local array's element holds -----------===//
//
// The walker's transfer functions for local arrays (frontend/ArrayElements.cpp,
// VarValue::Elements), checked on the symbolic address of the access that
// reads an element back: stores followed element by element, a choice
// between stores whose index may be the read's, paths joined, a loop that
// fills the whole array, and the lane's own unknown value where the stores
// are not followed (never a value uniform across the warp).
//
//===----------------------------------------------------------------------===//
#include "ExtractionTestUtil.h"

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::testutil;

namespace {

class LocalArraysTest : public SnippetTest {};

/// Symbols of \p E of kind \p Kind, by name.
std::vector<std::string> symbolsOf(const Expr &E, SymbolKind Kind) {
  std::vector<std::string> Names;
  for (const Symbol &S : E.symbols())
    if (S.Kind == Kind)
      Names.push_back(S.Name);
  return Names;
}

const char *Source = R"cu(
__device__ void fill(int *p) { p[0] = 0; }
__global__ void k(const int *in, float *out, int c) {
  int idx[2];
  idx[0] = 2 * threadIdx.x;
  idx[1] = 3 * threadIdx.x;
  out[idx[1]] = 1.0f;
  int key[1];
  key[0] = in[threadIdx.x];
  out[key[0]] = 2.0f;
  int pick[2] = {5, 6};
  pick[c & 1] = 7;
  out[pick[0]] = 3.0f;
  int joined[1];
  if (threadIdx.x < 16) joined[0] = 4; else joined[0] = 8;
  out[joined[0]] = 4.0f;
  float *rows[4];
  for (int r = 0; r < 4; ++r) rows[r] = out + 64 * r + threadIdx.x;
  for (int s = 0; s < 4; ++s) *rows[s] = 5.0f;
  int opaque[2];
  fill(opaque);
  out[opaque[0]] = 6.0f;
}
)cu";

TEST_F(LocalArraysTest, ElementsHoldWhatTheStoresPutThere) {
  llvm::StringRef Src = Source;
  Report R = analyzeSnippet(Src);
  const KernelRecord *K = findKernel(R, "k");
  ASSERT_NE(K, nullptr) << describe(R);
  auto Address = [&](llvm::StringRef Text) -> std::string {
    const AccessRecord *A = accessAt(R, *K, posOf(Src, Text));
    return A ? A->Pattern.Address.str() : "<none>";
  };
  auto AddressOf = [&](llvm::StringRef Text) -> Expr {
    const AccessRecord *A = accessAt(R, *K, posOf(Src, Text));
    return A ? A->Pattern.Address : Expr::constant(-1);
  };
  // The newest store at the index read.
  EXPECT_EQ(Address("out[idx[1]]"), "12*threadIdx.x");
  // A value loaded from memory stays data.
  EXPECT_EQ(symbolsOf(AddressOf("out[key[0]]"), SymbolKind::IndirectValue),
            std::vector<std::string>{"in[threadIdx.x]"});
  // A store whose index may be 0: chosen where it is.
  EXPECT_EQ(Address("out[pick[0]]"), "4*((0 == (1 & c)) ? 7 : 5)");
  // Paths that stored alike: per lane, the value of the path it took.
  EXPECT_EQ(Address("out[joined[0]]"),
            "4*((threadIdx.x < 16) ? 4 : 8)");
  // Element r filled at pass r of a loop over the whole array.
  EXPECT_EQ(Address("*rows[s]"), "4*threadIdx.x + 256*s");
  // Passed to a function: the lane's own unknown value.
  EXPECT_EQ(symbolsOf(AddressOf("out[opaque[0]]"), SymbolKind::LaneValue),
            std::vector<std::string>{"opaque[0]"});
  EXPECT_TRUE(
      symbolsOf(AddressOf("out[opaque[0]]"), SymbolKind::UniformValue).empty());
}

} // namespace
