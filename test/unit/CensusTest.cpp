//===- CensusTest.cpp - The census of memory operations, apart from Clang's walk ===//
//
// The census (--self-check) on small CUDA snippets parsed in memory, without
// the CUDA headers (the attributes spelled out) and without the walker: which
// operations it counts, by which rule and with which operation, which it does
// not (addresses, references bound, unevaluated operands, registers), and that
// matching against a kernel record reports exactly the operations the record
// does not account for.
//
//===----------------------------------------------------------------------===//
#include "census/Census.h"

#include "CudaSnippet.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace coalesce;

namespace {

const char *Prelude = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
struct __cuda_builtin_threadIdx_t { unsigned x, y, z; };
extern const __device__ __cuda_builtin_threadIdx_t threadIdx;
)";

struct Parsed {
  std::unique_ptr<clang::ASTUnit> AST;
  std::vector<census::Entry> Census;
};

/// Parses \p Code (after the prelude) as CUDA device code and takes the
/// census of the kernel named \p Kernel.
Parsed censusOf(const std::string &Code, llvm::StringRef Kernel) {
  Parsed P;
  P.AST = testutil::parseCudaSnippet(std::string(Prelude) + Code);
  if (!P.AST)
    return P;
  if (const clang::FunctionDecl *K = testutil::findFunction(*P.AST, Kernel))
    P.Census = census::takeCensus(P.AST->getASTContext(), K);
  return P;
}

/// "rule op 'text'" per entry, in order.
std::vector<std::string> describe(const std::vector<census::Entry> &C) {
  std::vector<std::string> Out;
  for (const census::Entry &E : C) {
    const char *Op = E.Ops == (census::LoadOp | census::StoreOp) ? "load+store"
                     : E.Ops == census::LoadOp                   ? "load"
                     : E.Ops == census::StoreOp                  ? "store"
                                                                 : "any";
    Out.push_back(fmt::format("{} {} '{}'", E.Rule, Op, E.Expression));
  }
  return Out;
}

using Strings = std::vector<std::string>;

TEST(CensusTest, CountsEachOperationOfTheKernelOnce) {
  Parsed P = censusOf(R"(
struct S { float x, y; };
__global__ void k(float *a, S *s, float *o, int n) {
  int i = threadIdx.x;
  float r[4];
  r[i & 3] = a[i];
  o[i] += s[i].x + (*a) + s->y;
  a[i]++;
  float *p = &a[i + 1];
  (void)sizeof(a[i + 2]);
  o[i + 3] = r[0];
})",
                      "k");
  ASSERT_TRUE(P.AST);
  EXPECT_EQ(describe(P.Census),
            (Strings{"subscript store 'r[i & 3]'", "subscript load 'a[i]'",
                     "subscript load+store 'o[i]'", "subscript load 's[i].x'",
                     "dereference load '*a'",
                     "member through a pointer load 's->y'",
                     "subscript load+store 'a[i]'", "subscript store 'o[i + 3]'",
                     "subscript load 'r[0]'"}));
}

TEST(CensusTest, FollowsCallsReferencesAndMethods) {
  Parsed P = censusOf(R"(
struct V { float v; __device__ float get() const { return v; } };
__device__ float twice(const float &x) { return 2 * x; }
__device__ float local(const float &x) { return x; }
__device__ float &at(float *p, int i) { return p[i]; }
__global__ void k(float *a, V *w, float *o) {
  int i = threadIdx.x;
  float t = 1.0f;
  float &ref = o[i];
  ref = twice(a[i]) + local(t) + w[i].get();
  at(o, i + 1) = 0.0f;
})",
                      "k");
  ASSERT_TRUE(P.AST);
  // 'x' of local() is bound to a register only: not counted. twice() and
  // get() run on memory: their reads count where they happen; at() returns
  // memory, so the call is the lvalue written (its `p[i]` is no operation).
  EXPECT_EQ(describe(P.Census),
            (Strings{"reference store 'ref'",
                     "reference returned by a call store 'at(o, i + 1)'",
                     "member of this load 'v'", "reference load 'x'"}));
}

TEST(CensusTest, CountsSharedLibraryCallsAndAssembly) {
  Parsed P = censusOf(R"(
__device__ int atomicAdd(int *p, int v);
__device__ int counter;
__global__ void k(int *a) {
  __shared__ int tile[32];
  tile[threadIdx.x] = a[threadIdx.x];
  atomicAdd(&a[0], tile[1]);
  counter = 1;
  asm volatile("st.global.u32 [%0], 1;" :: "l"(a));
})",
                      "k");
  ASSERT_TRUE(P.AST);
  EXPECT_EQ(describe(P.Census),
            (Strings{"subscript store 'tile[threadIdx.x]'",
                     "subscript load 'a[threadIdx.x]'",
                     "call with a pointer to a function without a body any "
                     "'atomicAdd(&a[0], tile[1])'",
                     "subscript load 'tile[1]'",
                     "variable in device memory store 'counter'",
                     "inline assembly with a pointer operand any "
                     "'asm volatile(\"st.global.u32 [%0], 1;\" :: \"l\"(a))'"}));
}

TEST(CensusTest, ReportsWhatTheRecordDoesNotAccountFor) {
  Parsed P = censusOf(R"(
__global__ void k(float *a, float *b) {
  int i = threadIdx.x;
  b[i] = a[i];
})",
                      "k");
  ASSERT_TRUE(P.AST);
  ASSERT_EQ(P.Census.size(), 2u);
  const census::Entry &Store = P.Census[0], &Load = P.Census[1];
  KernelRecord K;
  // Nothing recorded: both are missing.
  EXPECT_EQ(census::unmatchedEntries(P.Census, K).size(), 2u);
  // The store predicted, the load excluded: nothing missing.
  AccessRecord A;
  A.Loc = Store.Begin;
  A.Pattern.Op = AccessOp::Store;
  K.Accesses.push_back(A);
  K.Excluded.push_back(ExcludedAccess{Load.Begin, AccessOp::Load, "a[i]", "x"});
  EXPECT_TRUE(census::unmatchedEntries(P.Census, K).empty());
  // A record of the wrong operation does not account for an entry.
  K.Excluded.back().Op = AccessOp::Store;
  std::vector<CensusMiss> Misses = census::unmatchedEntries(P.Census, K);
  ASSERT_EQ(Misses.size(), 1u);
  EXPECT_EQ(Misses[0].Expression, "a[i]");
  EXPECT_EQ(Misses[0].Operation, "load");
  EXPECT_EQ(Misses[0].Rule, "subscript");
  EXPECT_EQ(Misses[0].Loc.Line, Load.Begin.Line);
  EXPECT_EQ(Misses[0].Loc.Column, Load.Begin.Column);
}

} // namespace
