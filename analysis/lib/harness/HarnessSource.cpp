//===- HarnessSource.cpp - The text of harness.cu -------------------------===//

#include "HarnessSource.h"

#include "llvm/Support/Path.h"

#include <fmt/format.h>

namespace coalesce {

namespace {

/// Runtime support of every harness: exit codes, buffer filling, the
/// watchdog. Names live in a namespace the user's code will not use.
const char *Prelude = R"cpp(
namespace coalesce_harness {

enum { ExitOk = 0, ExitKernelError = 10, ExitTimeout = 11, ExitNoDevice = 12,
       ExitInitError = 13 };
enum { FillZeros = 0, FillIdentity = 1, FillPermutation = 2 };

static bool selected(int argc, char **argv, const char *name) {
  if (argc <= 1)
    return true;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], name) == 0)
      return true;
  return false;
}

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) { uint64_t t = a % b; a = b; b = t; }
  return a;
}

/// The i-th integer value of a buffer: i % m, or a permutation of 0..m-1.
static uint64_t intValue(uint64_t i, uint64_t m, int mode, uint64_t mult) {
  uint64_t r = i % m;
  return mode == FillPermutation ? (r * mult + 12345u) % m : r;
}

/// cudaMalloc + fill; returns base + lead, or null after printing the error.
static void *allocBuffer(const char *kernel, const char *param, uint64_t bytes,
                         uint64_t lead, char kind, unsigned elemBytes,
                         uint64_t modulus, int mode) {
  void *p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    std::printf("coalesce-harness: kernel=%s status=error reason=cudaMalloc of "
                "%llu bytes for '%s' failed: %s (use --buffer %s=BYTES)\n",
                kernel, (unsigned long long)bytes, param, cudaGetErrorString(e),
                param);
    return nullptr;
  }
  std::vector<unsigned char> host(bytes, 0);
  uint64_t m = modulus ? modulus : 1;
  uint64_t mult = (m * 2654435761ull / 4294967296ull) | 1;
  while (m > 1 && gcd(mult % m ? mult % m : 1, m) != 1)
    mult += 2;
  if (mode != FillZeros && kind == 'f') {
    float *f = reinterpret_cast<float *>(host.data());
    for (uint64_t i = 0, n = bytes / 4; i < n; ++i)
      f[i] = float((i % 17) + 1) * 0.0625f;
  } else if (mode != FillZeros && kind == 'd') {
    double *d = reinterpret_cast<double *>(host.data());
    for (uint64_t i = 0, n = bytes / 8; i < n; ++i)
      d[i] = double((i % 17) + 1) * 0.0625;
  } else if (mode != FillZeros && kind == 'i') {
    uint64_t lim = elemBytes >= 8 ? m : elemBytes == 4 ? (m < 0x7fffffffull ? m : 0x7fffffffull)
                   : elemBytes == 2 ? (m < 0x7fffull ? m : 0x7fffull)
                                    : (m < 0x7full ? m : 0x7full);
    // Index from the pointer the kernel sees, so element 0 holds value 0.
    for (uint64_t off = 0; off + elemBytes <= bytes; off += elemBytes) {
      uint64_t idx = off >= lead ? (off - lead) / elemBytes : 0;
      uint64_t v = intValue(idx, lim, mode, mult);
      std::memcpy(host.data() + off, &v, elemBytes); // Little-endian.
    }
  }
  e = cudaMemcpy(p, host.data(), bytes, cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    std::printf("coalesce-harness: kernel=%s status=error reason=filling '%s' "
                "failed: %s\n", kernel, param, cudaGetErrorString(e));
    cudaFree(p);
    return nullptr;
  }
  return static_cast<unsigned char *>(p) + lead;
}

/// The type of a kernel's I-th parameter, for decltype: the harness never
/// spells a parameter's type (structures pointed to are built as it).
template <std::size_t I, typename... A>
typename std::tuple_element<I, std::tuple<A...>>::type paramOf(void (*)(A...));

/// cudaMalloc of \p bytes, \p lead of them before the pointer returned,
/// holding \p size bytes of \p host there (structures built on the host).
static void *copyToDevice(const char *kernel, const char *param,
                          const void *host, uint64_t size, uint64_t bytes,
                          uint64_t lead) {
  void *p = allocBuffer(kernel, param, bytes, lead, 'z', 1, 1, FillZeros);
  if (!p)
    return nullptr;
  cudaError_t e = cudaMemcpy(p, host, size, cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    std::printf("coalesce-harness: kernel=%s status=error reason=copying the "
                "structures of '%s' failed: %s\n", kernel, param,
                cudaGetErrorString(e));
    cudaFree(static_cast<unsigned char *>(p) - lead);
    return nullptr;
  }
  return p;
}

/// The fill of a buffer of T, chosen where the harness compiles (struct
/// fields, whose types the analysis does not spell): 'f', 'd', 'i' or 'z'.
template <typename T> struct FillOf {
  using E = typename std::remove_cv<T>::type;
  static constexpr unsigned size() {
    if constexpr (std::is_void<E>::value)
      return 1;
    else
      return sizeof(E);
  }
  static constexpr unsigned bytes = size();
  static constexpr char kind =
      std::is_same<E, double>::value  ? 'd'
      : std::is_same<E, float>::value ? 'f'
      : (std::is_integral<E>::value &&
         (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8))
          ? 'i'
          : 'z';
};

/// True when a cooperative launch of \p blocks blocks can be resident at
/// once; else prints why the kernel is skipped.
static bool fitsCooperatively(const char *kernel, const void *fn,
                              unsigned blocks, unsigned threads) {
  int supported = 0, perSm = 0, sms = 0;
  cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, fn, (int)threads, 0);
  if (supported && (unsigned long long)perSm * sms >= blocks)
    return true;
  std::printf("coalesce-harness: kernel=%s status=skipped reason=cooperative "
              "launch of %u blocks, but only %d can be resident (%d per SM x "
              "%d SMs; pass a smaller --grid)\n",
              kernel, blocks, perSm * sms, perSm, sms);
  return false;
}

/// Waits for the kernel with a deadline. On a timeout the process exits at
/// once: the kernel cannot be stopped, and tearing the context down would
/// wait for it.
static int waitFor(cudaStream_t s, const char *kernel, double seconds) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    cudaError_t e = cudaStreamQuery(s);
    if (e == cudaSuccess)
      return ExitOk;
    if (e != cudaErrorNotReady) {
      std::printf("coalesce-harness: kernel=%s status=error reason=%s: %s\n",
                  kernel, cudaGetErrorName(e), cudaGetErrorString(e));
      return ExitKernelError;
    }
    double waited = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start).count();
    if (waited > seconds) {
      std::printf("coalesce-harness: kernel=%s status=timeout reason=still "
                  "running after %.0f s (raise --timeout or lower the "
                  "parameter values)\n", kernel, seconds);
      std::fflush(stdout);
      std::_Exit(ExitTimeout);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

} // namespace coalesce_harness
)cpp";

const char *fillModeConstant(FillMode F) {
  switch (F) {
  case FillMode::Zeros:
    return "coalesce_harness::FillZeros";
  case FillMode::Identity:
    return "coalesce_harness::FillIdentity";
  case FillMode::Permutation:
    return "coalesce_harness::FillPermutation";
  }
  return "coalesce_harness::FillZeros";
}

std::string cString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

std::string intType(unsigned Bytes, bool Signed) {
  unsigned Bits = Bytes == 1 || Bytes == 2 || Bytes == 8 ? Bytes * 8 : 32;
  return fmt::format("{}int{}_t", Signed ? "" : "u", Bits);
}

/// Clamps \p V to what an integer of \p Bytes bytes holds.
int64_t clampInt(int64_t V, unsigned Bytes, bool Signed) {
  if (Bytes >= 8)
    return V;
  unsigned Bits = Bytes * 8;
  int64_t Max = Signed ? (int64_t(1) << (Bits - 1)) - 1 : (int64_t(1) << Bits) - 1;
  int64_t Min = Signed ? -(int64_t(1) << (Bits - 1)) : 0;
  return std::min(std::max(V, Min), Max);
}

void writeKernel(const KernelPlan &K, size_t Index, const HarnessOptions &Opts,
                 std::string &Out) {
  // Status lines and kernel selection use the kernel's name, as the
  // manifest does; instantiations of one template share it.
  const std::string &Name = K.Kernel->Name;
  Out += fmt::format("// {} at {}:{}: block {}, grid {}.\n", K.Callee,
                     llvm::sys::path::filename(K.Kernel->Loc.File).str(),
                     K.Kernel->Loc.Line, K.Block.str(), K.Grid.str());
  Out += fmt::format("static int runKernel{}(int argc, char **argv, "
                     "cudaStream_t stream) {{\n",
                     Index);
  Out += fmt::format("  const char *name = {};\n", cString(Name));
  Out += "  if (!coalesce_harness::selected(argc, argv, name))\n    return 0;\n";
  if (!K.SkipReason.empty()) {
    Out += fmt::format("  std::printf(\"coalesce-harness: kernel=%s "
                       "status=skipped reason=%s\\n\", name, {});\n",
                       cString(K.SkipReason));
    Out += "  return 0;\n}\n\n";
    return;
  }
  std::vector<std::string> Buffers;
  std::vector<std::string> Owned; // vectors of field buffers to free
  for (size_t I = 0; I != K.Args.size(); ++I) {
    const ArgPlan &A = K.Args[I];
    std::string Var = fmt::format("arg{}", I);
    switch (A.ArgKind) {
    case ArgPlan::Kind::Buffer:
      Out += fmt::format("  // {}: {} bytes, {}.\n", A.Name, A.BufferBytes,
                         A.SizeOrigin);
      Out += fmt::format(
          "  void *{} = coalesce_harness::allocBuffer(name, {}, {}ull, {}ull, "
          "'{}', {}u, {}ull, {});\n",
          Var, cString(A.Name), A.BufferBytes, A.LeadBytes, A.FillKind,
          A.FillElemBytes, K.IntModulus, fillModeConstant(Opts.Fill));
      Out += fmt::format("  if (!{}) return coalesce_harness::ExitKernelError;\n",
                         Var);
      Buffers.push_back(fmt::format("static_cast<unsigned char *>({}) - {}ull",
                                    Var, A.LeadBytes));
      break;
    case ArgPlan::Kind::Integer:
      Out += fmt::format("  {} {} = {}; // {} ({})\n",
                         intType(A.Bytes, A.IsSigned), Var,
                         clampInt(A.IntValue, A.Bytes, A.IsSigned), A.Name,
                         A.ValueOrigin);
      break;
    case ArgPlan::Kind::Floating:
      if (A.Bytes == 8)
        Out += fmt::format("  double {} = 1.0; // {}\n", Var, A.Name);
      else if (A.Bytes == 2)
        Out += fmt::format("  uint16_t {} = 0x3C00; // {} = 1.0 (half)\n", Var,
                           A.Name);
      else
        Out += fmt::format("  float {} = 1.0f; // {}\n", Var, A.Name);
      break;
    case ArgPlan::Kind::Struct:
      Out += fmt::format("  std::remove_cv_t<{}> {}{{}}; // {} ({})\n",
                         A.TypeName, Var, A.Name, A.ValueOrigin);
      for (size_t F = 0; F != A.Fields.size(); ++F) {
        const ArgPlan &B = A.Fields[F];
        std::string Member = fmt::format("{}.{}", Var, B.Name);
        std::string Fill = fmt::format(
            "coalesce_harness::FillOf<std::remove_pointer_t<decltype({})>>",
            Member);
        std::string Ptr = fmt::format("{}_{}", Var, F);
        Out += fmt::format("  // {}.{}: {} bytes, {}.\n", A.Name, B.Name,
                           B.BufferBytes, B.SizeOrigin);
        Out += fmt::format(
            "  void *{} = coalesce_harness::allocBuffer(name, {}, {}ull, "
            "{}ull, {}::kind, {}::bytes, {}ull, {});\n",
            Ptr, cString(A.Name + "." + B.Name), B.BufferBytes, B.LeadBytes,
            Fill, Fill, K.IntModulus, fillModeConstant(Opts.Fill));
        Out += fmt::format("  if (!{}) return coalesce_harness::ExitKernelError;\n",
                           Ptr);
        Out += fmt::format("  {} = reinterpret_cast<decltype({})>({});\n",
                           Member, Member, Ptr);
        Buffers.push_back(fmt::format(
            "static_cast<unsigned char *>({}) - {}ull", Ptr, B.LeadBytes));
      }
      for (const auto &[Field, Value] : A.FieldValues)
        Out += fmt::format("  {0}.{1} = static_cast<decltype({0}.{1})>({2}ll);\n",
                           Var, Field, Value);
      break;
    case ArgPlan::Kind::StructPointer: {
      // The structures, built on the host with their fields' buffers, then
      // copied to device memory.
      std::string S = fmt::format("S{}", I), Host = fmt::format("host{}", I),
                  Own = fmt::format("owned{}", I);
      Out += fmt::format("  // {}: {} x {} ({} bytes each) in device memory, "
                         "{} bytes, {}.\n",
                         A.Name, A.ElemCount, A.TypeName, A.StructBytes,
                         A.BufferBytes, A.SizeOrigin);
      Out += fmt::format("  using {} = std::remove_cv_t<std::remove_pointer_t<"
                         "decltype(coalesce_harness::paramOf<{}>(&{}))>>;\n",
                         S, I, K.Callee);
      Out += fmt::format("  std::vector<{}> {}({}ull);\n", S, Host, A.ElemCount);
      Out += fmt::format("  std::vector<void *> {};\n", Own);
      Owned.push_back(Own);
      if (A.SharedFields)
        Out += fmt::format("  // More than {} structures: they share one "
                           "buffer per field.\n",
                           MaxPerElementFields);
      Out += fmt::format("  for (uint64_t e = 0; e != {}ull; ++e) {{\n",
                         A.ElemCount);
      for (size_t F = 0; F != A.Fields.size(); ++F) {
        const ArgPlan &B = A.Fields[F];
        std::string Member = fmt::format("{}[e].{}", Host, B.Name);
        std::string Fill = fmt::format(
            "coalesce_harness::FillOf<std::remove_pointer_t<decltype({})>>",
            Member);
        std::string Label = A.Name + "->" + B.Name;
        Out += fmt::format("    // {}: {} bytes, {}.\n", Label, B.BufferBytes,
                           B.SizeOrigin);
        if (A.SharedFields) {
          Out += fmt::format("    if (e != 0) {{\n      {0} = {1}[0].{2};\n"
                             "    }} else {{\n",
                             Member, Host, B.Name);
        } else {
          Out += "    {\n";
        }
        Out += fmt::format(
            "      void *f = coalesce_harness::allocBuffer(name, {}, {}ull, "
            "{}ull, {}::kind, {}::bytes, {}ull, {});\n",
            cString(Label), B.BufferBytes, B.LeadBytes, Fill, Fill,
            K.IntModulus, fillModeConstant(Opts.Fill));
        Out += "      if (!f) return coalesce_harness::ExitKernelError;\n";
        Out += fmt::format("      {}.push_back(static_cast<unsigned char *>(f) - "
                           "{}ull);\n",
                           Own, B.LeadBytes);
        Out += fmt::format("      {} = reinterpret_cast<decltype({})>(f);\n",
                           Member, Member);
        Out += "    }\n";
      }
      for (const auto &[Field, Value] : A.FieldValues)
        Out += fmt::format(
            "    {0}[e].{1} = static_cast<decltype({0}[e].{1})>({2}ll);\n",
            Host, Field, Value);
      Out += "  }\n";
      Out += fmt::format(
          "  void *{} = coalesce_harness::copyToDevice(name, {}, {}.data(), "
          "{}.size() * sizeof({}), {}ull, {}ull);\n",
          Var, cString(A.Name), Host, Host, S, A.BufferBytes, A.LeadBytes);
      Out += fmt::format("  if (!{}) return coalesce_harness::ExitKernelError;\n",
                         Var);
      Buffers.push_back(fmt::format("static_cast<unsigned char *>({}) - {}ull",
                                    Var, A.LeadBytes));
      break;
    }
    case ArgPlan::Kind::ZeroBytes:
      Out += fmt::format("  alignas(16) unsigned char {}[{}] = {{}}; // {} "
                         "(zero-initialized)\n",
                         Var, std::max(1u, A.Bytes), A.Name);
      break;
    }
  }
  Out += "  void *args[] = {";
  for (size_t I = 0; I != K.Args.size(); ++I)
    Out += fmt::format("{}{}arg{}", I ? ", " : "",
                       K.Args[I].ArgKind == ArgPlan::Kind::ZeroBytes ? "" : "&",
                       I);
  if (K.Args.empty())
    Out += "nullptr";
  Out += "};\n";
  Out += "  (void)cudaGetLastError();\n";
  if (K.Cooperative)
    Out += fmt::format(
        "  if (!coalesce_harness::fitsCooperatively(name, (const void *)&{}, "
        "{}u, {}u))\n    return 0;\n",
        K.Callee, uint64_t(K.Grid.X) * K.Grid.Y * K.Grid.Z,
        uint64_t(K.Block.X) * K.Block.Y * K.Block.Z);
  Out += fmt::format(
      "  cudaError_t e = {}((const void *)&{}, dim3({}, {}, {}), "
      "dim3({}, {}, {}), args, 0, stream);\n",
      K.Cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel",
      K.Callee, K.Grid.X, K.Grid.Y, K.Grid.Z, K.Block.X, K.Block.Y, K.Block.Z);
  Out += "  if (e != cudaSuccess) {\n"
         "    std::printf(\"coalesce-harness: kernel=%s status=error "
         "reason=launch failed: %s: %s\\n\", name, cudaGetErrorName(e), "
         "cudaGetErrorString(e));\n"
         "    return coalesce_harness::ExitKernelError;\n  }\n";
  Out += fmt::format("  int rc = coalesce_harness::waitFor(stream, name, {}.0);\n",
                     Opts.TimeoutSeconds);
  Out += "  if (rc != 0)\n    return rc;\n";
  Out += "  std::printf(\"coalesce-harness: kernel=%s status=ok reason=-\\n\", "
         "name);\n";
  for (const std::string &B : Buffers)
    Out += fmt::format("  cudaFree({});\n", B);
  for (const std::string &O : Owned)
    Out += fmt::format("  for (void *q : {}) cudaFree(q);\n", O);
  Out += "  return 0;\n}\n\n";
}

} // namespace

std::string harnessSource(const HarnessFilePlan &F, const HarnessOptions &Opts,
                          const std::string &IncludePath) {
  std::string Out;
  Out += fmt::format(
      "// {}.cu - generated by coalesce-lint --emit-harness; do not edit.\n"
      "// Launches each selected kernel of {} once with synthesized arguments\n"
      "// and prints one line per kernel:\n"
      "//   coalesce-harness: kernel=NAME status=ok|error|timeout|skipped "
      "reason=...\n"
      "// Usage: ./{} [KERNEL...]   (no names: every kernel)\n"
      "// Exit codes: 0 ok, 10 kernel error, 11 timeout, 12 no device, 13 "
      "CUDA init error.\n",
      F.Name, llvm::sys::path::filename(F.SourcePath).str(), F.Name);
  Out += "#include <chrono>\n#include <cstdint>\n#include <cstdio>\n"
         "#include <cstdlib>\n#include <cstring>\n#include <thread>\n"
         "#include <tuple>\n#include <type_traits>\n#include <vector>\n#include <cuda_runtime.h>\n\n";
  Out += "// The user's file, with its main() renamed out of the way.\n";
  Out += "#define main coalesce_user_main\n";
  Out += fmt::format("#include \"{}\"\n", IncludePath);
  Out += "#undef main\n";
  Out += Prelude;
  Out += "\n";
  for (size_t I = 0; I != F.Kernels.size(); ++I)
    writeKernel(F.Kernels[I], I, Opts, Out);
  Out += "int main(int argc, char **argv) {\n"
         "  std::setvbuf(stdout, nullptr, _IOLBF, 0);\n"
         "  int count = 0;\n"
         "  cudaError_t e = cudaGetDeviceCount(&count);\n"
         "  if (e != cudaSuccess || count == 0) {\n"
         "    if (e == cudaSuccess) e = cudaErrorNoDevice;\n"
         "    std::printf(\"coalesce-harness: fatal=%s reason=%s\\n\", "
         "cudaGetErrorName(e), cudaGetErrorString(e));\n"
         "    return e == cudaErrorNoDevice ? coalesce_harness::ExitNoDevice\n"
         "                                  : coalesce_harness::ExitInitError;\n"
         "  }\n"
         "  cudaDeviceProp prop;\n"
         "  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)\n"
         "    std::printf(\"coalesce-harness: device=%s (sm_%d%d)\\n\", "
         "prop.name, prop.major, prop.minor);\n"
         "  cudaStream_t stream;\n"
         "  e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);\n"
         "  if (e != cudaSuccess) {\n"
         "    std::printf(\"coalesce-harness: fatal=%s reason=%s\\n\", "
         "cudaGetErrorName(e), cudaGetErrorString(e));\n"
         "    return coalesce_harness::ExitInitError;\n"
         "  }\n"
         "  int rc = 0;\n";
  for (size_t I = 0; I != F.Kernels.size(); ++I)
    Out += fmt::format("  if ((rc = runKernel{}(argc, argv, stream)) != 0)\n"
                       "    return rc;\n",
                       I);
  Out += "  return 0;\n}\n";
  return Out;
}

} // namespace coalesce
