//===- ReplaySource.cpp - The text of replay.cu ---------------------------===//

#include "ReplaySource.h"

#include "coalesce/ExprVisitor.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace coalesce {

namespace {

/// Value of a Param symbol nobody gave a value for (as in the harness).
constexpr int64_t DefaultParamValue = 1024;

std::string constantC(int64_t V) {
  if (V == INT64_MIN)
    return "(-9223372036854775807LL - 1)";
  if (V < 0)
    return fmt::format("({}LL)", V);
  return fmt::format("{}LL", V);
}

/// Characters safe inside a /* */ comment or a C string.
std::string commentSafe(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += (C == '*' || C == '/' || C == '\\' || C == '"' || C == '\n' ||
            C == '\r' || static_cast<unsigned char>(C) < 0x20)
               ? ' '
               : C;
  return Out;
}

/// \p S as the body of a C string literal.
std::string cStringBody(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += static_cast<unsigned char>(C) < 0x20 ? ' ' : C;
  }
  return Out;
}

const char *builtinName(SymbolKind K) {
  switch (K) {
  case SymbolKind::ThreadIdx:
    return "threadIdx";
  case SymbolKind::BlockIdx:
    return "blockIdx";
  case SymbolKind::BlockDim:
    return "blockDim";
  case SymbolKind::GridDim:
    return "gridDim";
  default:
    return nullptr;
  }
}

std::string symbolC(const Symbol &S, const std::map<std::string, int64_t> &Params,
                    const std::vector<Symbol> &Loops) {
  if (const char *B = builtinName(S.Kind)) {
    int D = std::max(0, S.dimension());
    return fmt::format("((cl_i64){}.{})", B, "xyz"[D]);
  }
  if (S.Kind == SymbolKind::LoopIter) {
    auto It = std::find(Loops.begin(), Loops.end(), S);
    return fmt::format("L[{}]", It - Loops.begin());
  }
  // Param (and, defensively, anything else that reached here).
  auto It = Params.find(S.Name);
  int64_t V = It != Params.end() ? It->second : DefaultParamValue;
  return fmt::format("/*{}*/{}", commentSafe(S.Name), constantC(V));
}

/// A left fold of \p Ops through the helper \p Fn: fn(fn(a, b), c).
std::string foldCall(const char *Fn, const std::vector<std::string> &Ops) {
  std::string Out = Ops.empty() ? "0LL" : Ops.front();
  for (size_t I = 1; I < Ops.size(); ++I)
    Out = fmt::format("{}({}, {})", Fn, Out, Ops[I]);
  return Out;
}

/// The C expression of an Expr in the replay program (the cl_* helpers
/// return 0 and clear Ok where C leaves the result undefined).
struct CEmitter : ExprVisitor<CEmitter, std::string> {
  const std::map<std::string, int64_t> &Params;
  const std::vector<Symbol> &Loops;
  CEmitter(const std::map<std::string, int64_t> &Params,
           const std::vector<Symbol> &Loops)
      : Params(Params), Loops(Loops) {}

  std::vector<std::string> operands(const Expr &E) {
    std::vector<std::string> Ops;
    for (const Expr &Op : E.operands())
      Ops.push_back(visit(Op));
    return Ops;
  }
  std::string call(const char *Fn, const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    return fmt::format("{}({}, {}, Ok)", Fn, Ops[0], Ops[1]);
  }
  std::string visitConstant(const Expr &E) { return constantC(E.getConstant()); }
  std::string visitSymbol(const Expr &E) {
    return symbolC(E.getSymbol(), Params, Loops);
  }
  std::string visitAdd(const Expr &E) { return foldCall("cl_add", operands(E)); }
  std::string visitMul(const Expr &E) { return foldCall("cl_mul", operands(E)); }
  std::string visitDiv(const Expr &E) { return call("cl_div", E); }
  std::string visitRem(const Expr &E) { return call("cl_rem", E); }
  std::string visitShl(const Expr &E) { return call("cl_shl", E); }
  std::string visitShr(const Expr &E) { return call("cl_shr", E); }
  std::string visitMin(const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    return fmt::format("cl_min({}, {})", Ops[0], Ops[1]);
  }
  std::string visitMax(const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    return fmt::format("cl_max({}, {})", Ops[0], Ops[1]);
  }
  std::string visitSelect(const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    return fmt::format("({} != 0 ? {} : {})", Ops[0], Ops[1], Ops[2]);
  }
  std::string visitLAnd(const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    return fmt::format("(cl_i64)({} != 0 && {} != 0)", Ops[0], Ops[1]);
  }
  std::string visitLOr(const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    return fmt::format("(cl_i64)({} != 0 || {} != 0)", Ops[0], Ops[1]);
  }
  /// The bitwise operators and the comparisons (0 or 1, as an integer).
  std::string visitBinary(const Expr &E) {
    std::vector<std::string> Ops = operands(E);
    std::string Infix =
        fmt::format("({} {} {})", Ops[0], infixSpelling(E.getKind()), Ops[1]);
    // (LAnd and LOr have their own methods above.)
    return isBooleanKind(E.getKind()) ? "(cl_i64)" + Infix : Infix;
  }
};

std::string emitC(const Expr &E, const std::map<std::string, int64_t> &Params,
                  const std::vector<Symbol> &Loops) {
  return CEmitter(Params, Loops).visit(E);
}

/// The loop counters of \p A, in symbol order.
std::vector<Symbol> loopsOf(const AccessRecord &A) {
  std::set<Symbol> All = A.Pattern.Address.symbols();
  for (const Symbol &S : A.Pattern.Active.symbols())
    All.insert(S);
  std::vector<Symbol> Loops;
  for (const Symbol &S : All)
    if (S.Kind == SymbolKind::LoopIter)
      Loops.push_back(S);
  return Loops;
}

/// Values per loop counter so that all combinations stay within
/// ReplayMaxSamples.
unsigned samplesPerLoop(size_t Loops) {
  unsigned Per = ReplayLoopSamples;
  auto Product = [&](unsigned P) {
    uint64_t N = 1;
    for (size_t I = 0; I < Loops && N <= ReplayMaxSamples; ++I)
      N *= P;
    return N;
  };
  while (Per > 1 && Product(Per) > ReplayMaxSamples)
    --Per;
  return Per;
}

const char *atomicCode(AtomicKind K) {
  switch (K) {
  case AtomicKind::None:
    return "0";
  case AtomicKind::Integer:
    return "1";
  case AtomicKind::Float:
    return "2";
  }
  return "0";
}

const char *Prologue = R"cu(// replay.cu - written by coalesce-lint --emit-harness; run by
// `coalesce-verify --method replay` where the GPU's performance counters may
// not be read. Self-contained: no user code. For every access it recomputes
// the byte offset the ANALYSIS MODEL gives (the Address expression of the
// prediction) on the GPU, with the harness's grid and block, and counts the
// distinct 32-byte sectors each warp request touches. It checks the lane
// model, the launch shape and the parameter values, not the memory system:
// the kernel's own compiled code is not run.
//
// Output, one line per access:
//   coalesce-replay: id=N sectors=S requests=R undefined=U
//   coalesce-replay: id=N status=not-replayed reason=...
// Exit codes as the harness: 0 ok, 10 a replay kernel failed, 12 no device,
// 13 CUDA could not start.
#include <cstdio>
#include <cuda_runtime.h>

typedef long long cl_i64;
typedef unsigned long long cl_u64;

// C semantics of the model (ExprEval.cpp): sums and products wrap; division
// by zero, INT64_MIN / -1 and shifts outside [0, 63] are undefined: Ok = false.
__device__ __forceinline__ cl_i64 cl_add(cl_i64 A, cl_i64 B) { return (cl_i64)((cl_u64)A + (cl_u64)B); }
__device__ __forceinline__ cl_i64 cl_mul(cl_i64 A, cl_i64 B) { return (cl_i64)((cl_u64)A * (cl_u64)B); }
__device__ __forceinline__ bool cl_badDiv(cl_i64 A, cl_i64 B) { return B == 0 || (A == (-9223372036854775807LL - 1) && B == -1); }
__device__ __forceinline__ cl_i64 cl_div(cl_i64 A, cl_i64 B, bool &Ok) { if (cl_badDiv(A, B)) { Ok = false; return 0; } return A / B; }
__device__ __forceinline__ cl_i64 cl_rem(cl_i64 A, cl_i64 B, bool &Ok) { if (cl_badDiv(A, B)) { Ok = false; return 0; } return A % B; }
__device__ __forceinline__ cl_i64 cl_shl(cl_i64 A, cl_i64 B, bool &Ok) { if (B < 0 || B >= 64) { Ok = false; return 0; } return (cl_i64)((cl_u64)A << B); }
__device__ __forceinline__ cl_i64 cl_shr(cl_i64 A, cl_i64 B, bool &Ok) { if (B < 0 || B >= 64) { Ok = false; return 0; } return A >> B; }
__device__ __forceinline__ cl_i64 cl_min(cl_i64 A, cl_i64 B) { return A < B ? A : B; }
__device__ __forceinline__ cl_i64 cl_max(cl_i64 A, cl_i64 B) { return A < B ? B : A; }

// Sum over the lanes of Active (every lane of Mask calls it).
__device__ __forceinline__ unsigned cl_warpSum(unsigned Mask, unsigned Active, unsigned V) {
  unsigned Sum = 0;
  for (unsigned J = 0; J < 32; ++J)
    if ((Mask >> J) & 1u) {
      unsigned X = __shfl_sync(Mask, V, J);
      if ((Active >> J) & 1u) Sum += X;
    }
  return Sum;
}
__device__ __forceinline__ unsigned cl_warpMax(unsigned Mask, unsigned Active, unsigned V) {
  unsigned Max = 0;
  for (unsigned J = 0; J < 32; ++J)
    if ((Mask >> J) & 1u) {
      unsigned X = __shfl_sync(Mask, V, J);
      if (((Active >> J) & 1u) && X > Max) Max = X;
    }
  return Max;
}

// One warp request: the lanes with On set access [Addr, Addr + Bytes).
// Every lane of Mask (the warp's threads) calls it. Sectors: distinct
// 32-byte sectors over the active lanes, each lane counting those of its own
// range no lower active lane covers (ranges of up to 64 sectors). Atomic:
// 0 none, 1 integer (warp-uniform address: 1 sector, the compiler's
// aggregation), 2 float (sectors x the most lanes on one address).
__device__ void cl_request(unsigned Mask, unsigned Lane, bool On, cl_i64 Addr,
                           unsigned Bytes, int Atomic, cl_u64 *Sectors,
                           cl_u64 *Requests) {
  unsigned Active = __ballot_sync(Mask, On);
  if (Active == 0)
    return;
  cl_i64 First = Addr >> 5, Last = (Addr + (cl_i64)Bytes - 1) >> 5;
  cl_i64 Span = Last - First + 1;
  if (Span > 64) { Last = First + 63; Span = 64; }
  cl_u64 Covered = 0;
  for (unsigned J = 0; J < 32; ++J) {
    if (!((Mask >> J) & 1u))
      continue;
    cl_i64 F = __shfl_sync(Mask, First, J), L = __shfl_sync(Mask, Last, J);
    if (J >= Lane || !((Active >> J) & 1u) || !On)
      continue;
    cl_i64 Lo = F > First ? F : First, Hi = L < Last ? L : Last;
    for (cl_i64 S = Lo; S <= Hi; ++S)
      Covered |= 1ull << (S - First);
  }
  unsigned New = On ? (unsigned)(Span - __popcll(Covered)) : 0u;
  unsigned Total = cl_warpSum(Mask, Active, New);
  if (Atomic != 0) {
    unsigned Same = __match_any_sync(Mask, Addr) & Active;
    unsigned Lanes = On ? (unsigned)__popc(Same) : 0u;
    unsigned Most = cl_warpMax(Mask, Active, Lanes);
    if (Atomic == 1 && Most == (unsigned)__popc(Active))
      Total = 1;
    else if (Atomic == 2)
      Total *= Most;
  }
  if (Lane == (unsigned)(__ffs(Mask) - 1)) {
    atomicAdd(Sectors, (cl_u64)Total);
    atomicAdd(Requests, 1ull);
  }
}

// The lanes of this thread's warp, as the lane model numbers them.
#define CL_WARP                                                               \
  unsigned Tid = threadIdx.x + threadIdx.y * blockDim.x +                     \
                 threadIdx.z * blockDim.x * blockDim.y;                       \
  unsigned Lane = Tid % 32u;                                                  \
  unsigned Threads = blockDim.x * blockDim.y * blockDim.z;                    \
  unsigned InWarp = Threads - (Tid - Lane) < 32u ? Threads - (Tid - Lane) : 32u; \
  unsigned Mask = InWarp == 32u ? 0xffffffffu : ((1u << InWarp) - 1u);

)cu";

/// The replay block of one access inside its kernel's replay kernel.
std::string accessBlock(const AccessRecord &A, unsigned Id,
                        const std::map<std::string, int64_t> &Params) {
  std::vector<Symbol> Loops = loopsOf(A);
  unsigned Per = samplesPerLoop(Loops.size());
  std::string Out = fmt::format("  // id {}: {} ({}:{}:{})\n  //   address: {}\n",
                                Id, commentSafe(A.Expression),
                                commentSafe(A.Loc.File), A.Loc.Line,
                                A.Loc.Column, commentSafe(A.Pattern.Address.str()));
  if (!(A.Pattern.Active == Expr::constant(1)))
    Out += fmt::format("  //   active: {}\n", commentSafe(A.Pattern.Active.str()));
  std::string Indent = "  ";
  for (size_t I = 0; I < Loops.size(); ++I) {
    Out += fmt::format("{}for (L[{}] = 0; L[{}] < {}; ++L[{}]) {{ // {}\n", Indent,
                       I, I, Per, I, commentSafe(Loops[I].Name));
    Indent += "  ";
  }
  Out += fmt::format("{}{{\n", Indent);
  Out += fmt::format("{}  bool Ok = true;\n", Indent);
  Out += fmt::format("{}  cl_i64 On = {};\n", Indent,
                     emitC(A.Pattern.Active, Params, Loops));
  Out += fmt::format("{}  bool Runs = !Ok || On != 0; // undefined: active, as the model\n",
                     Indent);
  Out += fmt::format("{}  Ok = true;\n", Indent);
  Out += fmt::format("{}  cl_i64 Addr = Runs ? {} : 0;\n", Indent,
                     emitC(A.Pattern.Address, Params, Loops));
  Out += fmt::format("{}  if (!Ok) atomicAdd(&Undefined[{}], 1ull);\n", Indent, Id);
  Out += fmt::format("{}  cl_request(Mask, Lane, Runs && Ok, Addr, {}u, {}, "
                     "&Sectors[{}], &Requests[{}]);\n",
                     Indent, std::max(1u, A.Pattern.AccessBytes),
                     atomicCode(A.Pattern.Atomic), Id, Id);
  Out += fmt::format("{}}}\n", Indent);
  for (size_t I = Loops.size(); I-- > 0;) {
    Indent.resize(Indent.size() - 2);
    Out += fmt::format("{}}}\n", Indent);
  }
  return Out;
}

} // namespace

std::string replayExprC(const Expr &E, const std::map<std::string, int64_t> &Params,
                        const std::vector<Symbol> &Loops) {
  return emitC(E, Params, Loops);
}

std::string replayBlocker(const AccessRecord &A) {
  auto Blocking = [](const Expr &E, const char *What) -> std::string {
    for (const Symbol &S : E.symbols()) {
      switch (S.Kind) {
      case SymbolKind::IndirectValue:
        return fmt::format("the {} depends on a value loaded from memory ({})",
                           What, S.Name);
      case SymbolKind::LaneValue:
        return fmt::format("the {} depends on a per-lane value the model "
                           "cannot see through ({})",
                           What, S.Name);
      case SymbolKind::UniformValue:
        return fmt::format("the {} depends on a run-time uniform value ({})",
                           What, S.Name);
      default:
        break;
      }
    }
    return "";
  };
  if (A.Pattern.Space != AccessSpace::Global)
    return "shared memory: the replay counts global-memory sectors; Nsight "
           "Compute's counters measure shared wavefronts";
  std::string Why = Blocking(A.Pattern.Address, "address");
  if (Why.empty())
    Why = Blocking(A.Pattern.Active, "condition");
  if (Why.empty() && loopsOf(A).size() > 8)
    Why = "more than 8 nested loop counters";
  // C code is a tree: a value carried through a loop's samples, a DAG of a
  // few hundred nodes, can print as millions.
  constexpr size_t MaxReplayTree = 20000;
  for (const Expr *E : {&A.Pattern.Address, &A.Pattern.Active})
    if (Why.empty() && E->treeSize() > MaxReplayTree)
      Why = fmt::format("the {} is too large to write as C ({} nodes as a "
                        "tree, {} distinct)",
                        E == &A.Pattern.Address ? "address" : "condition",
                        E->treeSize() == SIZE_MAX ? std::string("over 2^64")
                                                  : std::to_string(E->treeSize()),
                        E->distinctNodes(SIZE_MAX));
  return Why;
}

std::string replaySource(const Report &R, const HarnessPlan &Plan) {
  std::string Out = Prologue;
  std::string Launches, Lines;
  unsigned MaxId = 0;
  unsigned KernelNo = 0;
  for (const HarnessFilePlan &F : Plan.Files)
    for (const KernelPlan &K : F.Kernels) {
      std::string Fn = fmt::format("cl_replay_{}", KernelNo++);
      std::string Body;
      bool Loops = false;
      for (size_t AI = 0; AI != K.Kernel->Accesses.size(); ++AI) {
        const AccessRecord &A = K.Kernel->Accesses[AI];
        unsigned Id = accessId(R, K.KernelIdx, AI);
        MaxId = std::max(MaxId, Id);
        if (std::string Why = replayBlocker(A); !Why.empty()) {
          Lines += fmt::format(
              "  std::puts(\"coalesce-replay: id={} status=not-replayed "
              "reason={}\");\n",
              Id, cStringBody(Why));
          continue;
        }
        Loops |= !loopsOf(A).empty();
        Body += accessBlock(A, Id, K.ScalarValues);
        Lines += fmt::format("  cl_print({});\n", Id);
      }
      Out += fmt::format("// kernel {} ({}:{}): grid {}, block {}\n", commentSafe(K.Callee),
                         commentSafe(K.Kernel->Loc.File), K.Kernel->Loc.Line,
                         K.Grid.str(), K.Block.str());
      Out += fmt::format("__global__ void {}(cl_u64 *Sectors, cl_u64 *Requests, "
                         "cl_u64 *Undefined) {{\n  CL_WARP\n{}{}}}\n\n",
                         Fn, Loops ? "  cl_i64 L[8]; // loop counters\n" : "",
                         Body);
      Launches += fmt::format(
          "  {}<<<dim3({}, {}, {}), dim3({}, {}, {})>>>(Sectors, Requests, "
          "Undefined);\n  cl_status(\"{}\");\n",
          Fn, K.Grid.X, K.Grid.Y, K.Grid.Z, K.Block.X, K.Block.Y, K.Block.Z,
          cStringBody(K.Kernel->Name));
    }
  unsigned Count = MaxId + 1;
  Out += fmt::format(R"cu(static const unsigned ClCount = {};
static cl_u64 *Sectors, *Requests, *Undefined;
static cl_u64 HostSectors[ClCount], HostRequests[ClCount], HostUndefined[ClCount];
static int ClExit = 0;

static void cl_status(const char *Kernel) {{
  cudaError_t E = cudaGetLastError();
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  if (E == cudaSuccess) {{
    std::printf("coalesce-replay: kernel=%s status=ok\n", Kernel);
  }} else {{
    std::printf("coalesce-replay: kernel=%s status=error reason=%s: %s\n",
                Kernel, cudaGetErrorName(E), cudaGetErrorString(E));
    ClExit = 10;
  }}
  std::fflush(stdout);
}}

static void cl_print(unsigned Id) {{
  std::printf("coalesce-replay: id=%u sectors=%llu requests=%llu undefined=%llu\n",
              Id, HostSectors[Id], HostRequests[Id], HostUndefined[Id]);
}}

int main() {{
  int Devices = 0;
  cudaError_t E = cudaGetDeviceCount(&Devices);
  if (E != cudaSuccess || Devices == 0) {{
    if (E == cudaSuccess)
      E = cudaErrorNoDevice;
    std::printf("coalesce-replay: fatal=%s reason=%s\n", cudaGetErrorName(E),
                cudaGetErrorString(E));
    return E == cudaErrorNoDevice ? 12 : 13;
  }}
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) == cudaSuccess)
    std::printf("coalesce-replay: device=%s (sm_%d%d)\n", Prop.name, Prop.major,
                Prop.minor);
  size_t Bytes = sizeof(cl_u64) * ClCount;
  if (cudaMalloc(&Sectors, Bytes) != cudaSuccess ||
      cudaMalloc(&Requests, Bytes) != cudaSuccess ||
      cudaMalloc(&Undefined, Bytes) != cudaSuccess) {{
    std::printf("coalesce-replay: fatal=cudaErrorMemoryAllocation reason=counters\n");
    return 13;
  }}
  cudaMemset(Sectors, 0, Bytes);
  cudaMemset(Requests, 0, Bytes);
  cudaMemset(Undefined, 0, Bytes);
{}  cudaMemcpy(HostSectors, Sectors, Bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(HostRequests, Requests, Bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(HostUndefined, Undefined, Bytes, cudaMemcpyDeviceToHost);
{}  return ClExit;
}}
)cu",
                     Count, Launches, Lines);
  return Out;
}

} // namespace coalesce
