//===- EvaluatorTest.cpp - The walker's transfer functions on snippets ----===//
//
// The frontend's evaluator (KernelWalker) on small CUDA snippets parsed in
// memory, without the CUDA headers (the attributes and built-in variables
// spelled out as clang's own headers declare them), without the driver, the
// prediction or the report: the byte offset and the predicate each access
// is recorded with. Each test is about one transfer function: what a name
// holds (a kernel's parameter, warpSize, a global, a reference bound to
// memory or to a variable), loads versioned by the stores between them,
// loop counters keyed by their loop, unsigned wrap-around, jumps.
//
//===----------------------------------------------------------------------===//
#include "frontend/FrontendInternal.h"

#include "CudaSnippet.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

// threadIdx and warpSize as clang's __clang_cuda_builtin_vars.h declares
// them: a property whose getter reads the special register, a constant.
const char *Prelude = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
struct __cuda_builtin_threadIdx_t {
  __declspec(property(get = __fetch_builtin_x)) unsigned int x;
  static inline __attribute__((always_inline)) __device__ unsigned int
  __fetch_builtin_x(void) { return __nvvm_read_ptx_sreg_tid_x(); }
};
extern const __device__ __cuda_builtin_threadIdx_t threadIdx;
__device__ const int warpSize = 32;
)";

/// One recorded access: "load a: <byte offset>" or "store out: <offset>
/// if <predicate>" (the predicate when it is not 1), " [data]" when the
/// offset depends on values loaded from memory. With \p Library (a system
/// header the snippet includes as <library.h>, after the prelude): each
/// line starts with "line:column " of where the access is reported, the
/// exclusions follow as "excluded line:column reason".
std::vector<std::string> walk(const std::string &Code, llvm::StringRef Kernel,
                              const std::string &Library = "") {
  std::string Header = std::string(Prelude) + Library;
  std::unique_ptr<clang::ASTUnit> AST = testutil::parseCudaSnippet(
      (Library.empty() ? std::string(Prelude) : "#include <library.h>\n") +
          Code,
      {{"/library/library.h", Header}});
  if (!AST)
    return {"no AST"};
  const clang::FunctionDecl *Found = testutil::findFunction(*AST, Kernel);
  if (!Found)
    return {"no kernel"};
  KernelRecord K;
  frontend::SourceFacts Facts(AST->getASTContext());
  frontend::KernelWalker Walker(AST->getASTContext(), K, Facts);
  Walker.walkKernel(Found);
  std::vector<std::string> Out;
  for (const AccessRecord &A : K.Accesses) {
    const AccessPattern &P = A.Pattern;
    std::string Line = (P.Op == AccessOp::Load ? "load " : "store ") + A.Base +
                       ": " + P.Address.str();
    if (!Library.empty())
      Line = fmt::format("{}:{} {}", A.Loc.Line, A.Loc.Column, Line);
    if (P.Address.anySymbol([](const Symbol &S) {
          return S.Kind == SymbolKind::IndirectValue;
        }))
      Line += " [data]";
    if (!P.UnknownReason.empty())
      Line += " unknown";
    if (!P.Active.isConstant() || P.Active.asConstant() != 1)
      Line += " if " + P.Active.str();
    Out.push_back(Line);
  }
  if (!Library.empty())
    for (const ExcludedAccess &X : K.Excluded)
      Out.push_back(
          fmt::format("excluded {}:{} {}", X.Loc.Line, X.Loc.Column, X.Reason));
  return Out;
}

using Lines = std::vector<std::string>;

TEST(EvaluatorTest, NamesHoldParametersBuiltinsAndGlobals) {
  // A kernel's parameter is a symbol of its own name, warpSize the
  // constant, a __device__ scalar a value uniform across the warp, read
  // from global memory.
  EXPECT_EQ(
      walk(R"(
__device__ int g;
__global__ void k(float *out, int n) {
  out[threadIdx.x + n] = 0;
  out[threadIdx.x * warpSize] = 0;
  out[threadIdx.x + g] = 0;
})",
           "k"),
      (Lines{"store out: 4*n + 4*threadIdx.x", "store out: 128*threadIdx.x",
             "store out: 4*g + 4*threadIdx.x", "load g: 0"}));
}

TEST(EvaluatorTest, AReferenceHoldsItsSlotOrReadsItsMemory) {
  // Bound to a variable, a reference reads the variable's value; bound to
  // memory, reading it is a load, and the value loaded is data.
  Lines L = walk(R"(
__global__ void k(const int *idx, float *out) {
  int v = threadIdx.x;
  int &s = v;
  out[s] = 0;
  const int &r = idx[threadIdx.x];
  out[r] = 0;
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*threadIdx.x", "store out: 4*r [data]",
                      "load idx: 4*threadIdx.x"}));
}

TEST(EvaluatorTest, AStoreBetweenTwoLoadsGivesTwoValues) {
  // Issue 29's example: the second load of idx[i] reads what the store
  // wrote, so b - a is not 0 and the store depends on the data.
  Lines L = walk(R"(
__global__ void k(int *idx, float *out) {
  int i = threadIdx.x;
  int a = idx[i];
  idx[i] = a * 7 + 3;
  int b = idx[i];
  out[(b - a) * 32 + i] = 1.0f;
})",
                 "k");
  // Two symbols of one spelling (names are for printing only): the offset
  // keeps both, where one symbol would have cancelled to 4*threadIdx.x.
  EXPECT_EQ(L, (Lines{"load idx: 4*threadIdx.x", "store idx: 4*threadIdx.x",
                      "load idx: 4*threadIdx.x",
                      "store out: -128*idx[i] + 4*threadIdx.x + 128*idx[i] "
                      "[data]"}));
}

TEST(EvaluatorTest, LoopCountersAreKeyedByTheirLoop) {
  // The callee's loop over j inside the caller's loop over j: two symbols,
  // the inner one printed with its loop's line.
  Lines L = walk(R"(
__device__ void row(float *out) {
  for (int j = 0; j < 2; ++j)
    out[j * 32 + threadIdx.x] = 0;
}
__global__ void k(float *out) {
  for (int j = 0; j < 8; ++j)
    row(out + 64 * j);
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*threadIdx.x + 128*j@13 + 256*j if ((j < "
                      "8) && (j@13 < 2))"}));
}

TEST(EvaluatorTest, AnUnsignedComparisonSeesTheWrappedValue) {
  // threadIdx.x - 16 read as unsigned: lanes 0..15 wrap to large values, so
  // `l < 8` holds for lanes 16..23 only.
  Lines L = walk(R"(
__global__ void k(float *out) {
  unsigned l = threadIdx.x - 16;
  if (l < 8)
    out[l] = 0;
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*threadIdx.x - 64 if (((threadIdx.x - 16) "
                      "< 8) && (0 <= (threadIdx.x - 16)))"}));
}

TEST(EvaluatorTest, LibraryCodeIsReportedAtTheUsersCall) {
  // cub's code is walked as the user's: its global load (in a constructor
  // it runs) and the reads of its local object are reported at the user's
  // call into it (line 4: the snippet's first line includes the library).
  const char *Library = R"(
namespace cub {
struct Loader {
  float v;
  int k;
  __device__ Loader(const float *p) : k(4) { v = p[threadIdx.x * k]; }
};
__device__ float load(const float *p) {
  Loader L(p);
  return L.v;
}
} // namespace cub
)";
  EXPECT_EQ(
      walk(R"(
__global__ void k(const float *in, float *out) {
  out[threadIdx.x] = cub::load(in);
})",
           "k", Library),
      (Lines{"4:22 load in: 16*threadIdx.x", "4:3 store out: 4*threadIdx.x",
             "excluded 4:22 local memory (a variable of the thread)",
             "excluded 4:22 local memory (a variable of the thread)"}));
}

TEST(EvaluatorTest, AJumpInsideABranchGuardsTheRestOfTheBlock) {
  // A return nested two branches deep, and one in an else: the statements
  // after run where no lane left.
  Lines L = walk(R"(
__global__ void k(float *out, int n) {
  if (threadIdx.x < 16) {
    if (n > 0)
      return;
  }
  out[threadIdx.x] = 0;
  if (threadIdx.x >= 8) {
  } else
    return;
  out[threadIdx.x] = 1;
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*threadIdx.x if (0 == ((0 < n) && "
                      "(threadIdx.x < 16)))",
                      "store out: 4*threadIdx.x if ((8 <= threadIdx.x) && (0 "
                      "== ((0 < n) && (threadIdx.x < 16))))"}));
}

TEST(EvaluatorTest, ASwitchJoinsTheValuesAtEachBreak) {
  // A break inside an arm's branch leaves the switch with the values there;
  // an arm that returns leaves nothing after the switch.
  Lines L = walk(R"(
__global__ void k(float *out, int c) {
  int s = 1;
  switch (c) {
  case 0:
    s = 2;
    if (threadIdx.x < 16)
      break;
    s = 8;
    break;
  case 1:
    return;
  }
  out[threadIdx.x * s] = 0;
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*threadIdx.x*(((threadIdx.x < 16) && (0 == "
                      "c)) ? 2 : ((0 == c) ? 8 : 1)) if (1 != c)"}));
}

TEST(EvaluatorTest, AStepSomePassesSkipIsNoInductionStep) {
  // A change inside a branch or a nested loop is no step of every pass:
  // the pass adds what the probe walk finds (3 per pass here, and 64 only
  // where the branch is taken).
  Lines L = walk(R"(
__global__ void k(float *out) {
  int a = 0, b = 0;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j)
      a += 1;
    if (threadIdx.x < 16)
      b += 64;
    b += 1;
  }
  out[a] = 0;
  out[b] = 1;
})",
                 "k");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0], "store out: 24");
  // 130 where threadIdx.x < 16, else 2.
  EXPECT_EQ(L[1], "store out: 4*((threadIdx.x < 16) ? ((threadIdx.x < 16) ? "
                  "64 : 0) + 65 : ((threadIdx.x < 16) ? 64 : 0) + 1) + 4");
}

TEST(EvaluatorTest, ALaneThatBreaksLeavesWithItsValuesThere) {
  // Odd lanes break in the first pass with k = t + 64; the others run both
  // passes: t + 2.
  Lines L = walk(R"(
__global__ void k(float *out) {
  int k = threadIdx.x;
  for (int i = 0; i < 2; ++i) {
    if (threadIdx.x & 1) {
      k += 64;
      break;
    }
    k += 1;
  }
  out[k] = 0;
})",
                 "k");
  // (Unfolded: the inner selects are taken where 1 & threadIdx.x is 0.)
  EXPECT_EQ(L, (Lines{"store out: 4*((1 & threadIdx.x) ? threadIdx.x + 64 : "
                      "((1 & threadIdx.x) ? ((1 & threadIdx.x) ? threadIdx.x "
                      "+ 64 : threadIdx.x) + 65 : ((1 & threadIdx.x) ? "
                      "threadIdx.x + 64 : threadIdx.x) + 1) + 1)"}));
}

TEST(EvaluatorTest, AGotoForwardResumesAtItsLabel) {
  // Odd lanes skip to `done` with k = t; the others store at 2t first.
  Lines L = walk(R"(
__global__ void k(float *out) {
  int k = threadIdx.x;
  if (threadIdx.x & 1)
    goto done;
  k = 2 * threadIdx.x;
  out[k] = 1;
done:
  out[k + 64] = 2;
})",
                 "k");
  // Every lane reaches the label: the lanes that jumped and the others.
  EXPECT_EQ(L, (Lines{"store out: 8*threadIdx.x if (0 == (1 & threadIdx.x))",
                      "store out: 4*((1 & threadIdx.x) ? threadIdx.x : "
                      "2*threadIdx.x) + 256"}));
}

TEST(EvaluatorTest, AccessesBeforeABreakSkipTheLanesThatLeftThePassBefore) {
  // The store runs in pass i where the lane did not break in pass i - 1.
  Lines L = walk(R"(
__global__ void k(float *out, int n) {
  for (int i = 0; i < 8; ++i) {
    out[i] = 0;
    if (i >= n)
      break;
  }
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*i if ((i < 8) && (((i - 1) < n) || (0 "
                      "== i)))"}));
}

TEST(EvaluatorTest, ABreakInOnePassOnlyKeepsTheLanesOfEveryEarlierPassOut) {
  // `i == n` holds in one pass at most: pass i runs where no pass before
  // it broke (over the 4 passes the loop's condition allows), before the
  // jump and after it.
  Lines L = walk(R"(
__global__ void k(float *out, int n) {
  for (int i = 0; i < 4; ++i) {
    out[i] = 0;
    if (i == n)
      break;
    out[i + 8] = 1;
  }
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*i if ((i < 4) && ((((i <= 0) || (0 != "
                      "n)) && ((i <= 1) || (1 != n))) && ((i <= 2) || (2 != "
                      "n))))",
                      "store out: 4*i + 32 if (((i < 4) && (i != n)) && ((((i "
                      "<= 0) || (0 != n)) && ((i <= 1) || (1 != n))) && ((i "
                      "<= 2) || (2 != n))))"}));
}

TEST(EvaluatorTest, AGotoOutOfALoopBringsUnknownValuesToItsLabel) {
  // Which lanes take it, in which pass, is not followed past the loop.
  Lines L = walk(R"(
__global__ void k(float *out) {
  int k = threadIdx.x;
  for (int i = 0; i < 4; ++i) {
    if (threadIdx.x & 1)
      goto found;
    k += 32;
  }
  k = 5 * threadIdx.x;
found:
  out[k] = 1;
})",
                 "k");
  EXPECT_EQ(L,
            (Lines{"store out: 4*(goto found ? k : 5*threadIdx.x) unknown"}));
}

TEST(EvaluatorTest, ALaneBoundApproachedByAStepGivesEachLaneItsPasses) {
  // `i` from 3*t by 32 while below n: lane t runs ceil((n - 3t) / 32)
  // passes (none where it starts at or past n) and leaves at its start plus
  // 32 times them.
  Lines L = walk(R"(
__global__ void k(float *out, int n) {
  int i = 3 * threadIdx.x;
  for (; i < n; i += 32)
    ;
  out[i] = 0;
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 12*threadIdx.x + 128*(((-n + "
                      "3*threadIdx.x) < 0) ? ((n - 3*threadIdx.x + 31) / 32) "
                      ": 0)"}));
}

TEST(EvaluatorTest, ATupleHoldsWhatItWasMadeOf) {
  // make_tuple's arguments come back through get<I> and through the names
  // of a structured binding. The library: a tuple laid out as libcu++'s,
  // one leaf per element whose first template argument is its index.
  const char *Library = R"(
namespace cuda {
namespace std {
template <unsigned long I> struct integral_constant {};
template <unsigned long I, class T> struct __tuple_leaf {
  T __value_;
};
template <class... T> struct tuple;
template <class A, class B>
struct tuple<A, B> : __tuple_leaf<0, A>, __tuple_leaf<1, B> {
  __device__ tuple(A a, B b) {}
};
template <class A, class B> __device__ tuple<A, B> make_tuple(A a, B b) {
  return tuple<A, B>(a, b);
}
template <unsigned long I, class A, class B>
__device__ int get(const tuple<A, B> &t) {
  return 0;
}
template <class T> struct tuple_size;
template <class A, class B> struct tuple_size<tuple<A, B>> {
  static constexpr unsigned long value = 2;
};
template <unsigned long I, class T> struct tuple_element;
template <unsigned long I, class A, class B>
struct tuple_element<I, tuple<A, B>> {
  using type = int;
};
} // namespace std
} // namespace cuda
namespace std {
using cuda::std::tuple_size;
using cuda::std::tuple_element;
} // namespace std
)";
  Lines L = walk(R"(
__global__ void k(float *out) {
  auto t = cuda::std::make_tuple(int(threadIdx.x), int(2 * threadIdx.x));
  out[cuda::std::get<1>(t)] = 0;
  auto [a, b] = t;
  out[a + 64] = 0;
})",
                 "k", Library);
  // (With a library the lines carry their places; the binding's read of
  // the tuple, through the library's get<0>, is of the thread's object.)
  EXPECT_EQ(L, (Lines{"5:3 store out: 8*threadIdx.x",
                      "7:3 store out: 4*threadIdx.x + 256",
                      "excluded 7:7 a variable or an object held by value "
                      "(registers or parameter space)"}));
}

} // namespace

TEST(EvaluatorTest, ACallsResultIsKeptPerCallPath) {
  // The lambda's one body calls id() for each of its two calls: each call
  // of the lambda answers with what its own call of id() returned, not the
  // last one's (CuTe's idx2crd through transform and identity).
  Lines L = walk(R"(
struct id {
  template <class T> __device__ T &&operator()(T &&x) const {
    return static_cast<T &&>(x);
  }
};
struct two { int a, b; };
template <class A, class B> __device__ two make(A const &a, B const &b) {
  two t;
  t.a = a;
  t.b = b;
  return t;
}
__global__ void k(float *out) {
  int x = threadIdx.x;
  auto l = [&](auto const &v) { return id{}(v); };
  two c = make(l(x), l(3));
  out[c.a] = 0;
  out[c.b] = 0;
})",
                 "k");
  EXPECT_EQ(L, (Lines{"store out: 4*threadIdx.x", "store out: 12"}));
}

TEST(EvaluatorTest, ALostObjectVariesWhereItsInputsDo) {
  // An object the walker cannot follow (a function without a body) made
  // from the lane's index has fields unknown per lane; made from a kernel
  // parameter alone, fields the same in every lane.
  Lines L = walk(R"(
struct two { int a, b; };
__device__ two opaque(int i);
__global__ void k(float *out, int n) {
  two p = opaque(threadIdx.x);
  out[p.a] = 0;
  two u = opaque(n);
  out[u.a + threadIdx.x] = 0;
})",
                 "k");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0], "store out: 4*p.a unknown");
  EXPECT_EQ(L[1], "store out: 4*threadIdx.x + 4*u.a");
}
