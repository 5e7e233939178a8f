//===- HarnessPlan.cpp - What the emitted harness will do -----------------===//

#include "HarnessPlan.h"

#include "coalesce/Findings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

namespace coalesce {

namespace {

/// Value used for scalar parameters nobody gave a value for.
constexpr int64_t DefaultIntValue = 1024;
/// Most corner combinations evaluated per access.
constexpr size_t MaxCorners = 4096;

unsigned dim(const BlockShape &S, int D) {
  return D == 0 ? S.X : D == 1 ? S.Y : S.Z;
}

/// Values of the kernel's scalar parameters: --param, then the predictions'
/// assumed values, then the default.
std::map<std::string, std::pair<int64_t, std::string>>
scalarValues(const KernelRecord &K, const HarnessOptions &Opts) {
  std::map<std::string, std::pair<int64_t, std::string>> V;
  for (const ParamValue &P : Opts.Params)
    if (P.Kernel == K.Name)
      V[P.Name] = {P.Value, "--param"};
  for (const ParamValue &P : Opts.Params)
    if (P.Kernel.empty())
      V.emplace(P.Name, std::make_pair(P.Value, "--param"));
  for (const AccessRecord &A : K.Accesses)
    for (const auto &[Name, Value] : A.Predicted.AssumedValues)
      V.emplace(Name, std::make_pair(Value, "assumed by the analysis"));
  return V;
}

bool typeMentions(const std::string &Type, std::initializer_list<const char *> Words) {
  for (const char *W : Words)
    if (Type.find(W) != std::string::npos)
      return true;
  return false;
}

/// Decides how a pointer's buffer is filled.
void chooseFill(const KernelParameter &P, ArgPlan &A) {
  const std::string &T = P.PointeeType;
  unsigned Bytes = std::max(1u, P.PointeeBytes);
  if (typeMentions(T, {"double"})) {
    A.FillKind = 'd';
  } else if (typeMentions(T, {"half", "bfloat"})) {
    A.FillKind = 'z';
  } else if (typeMentions(T, {"float"})) {
    A.FillKind = 'f';
  } else if (typeMentions(T, {"int", "long", "short", "char", "size_t",
                              "unsigned", "bool"})) {
    A.FillKind = 'i';
    A.FillElemBytes = (Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8)
                          ? Bytes
                          : (Bytes % 4 == 0 ? 4 : 1);
  } else {
    A.FillKind = 'z';
  }
}

/// Why a parameter cannot be synthesized, or "".
std::string unsupportedReason(const KernelRecord &K, const KernelParameter &P) {
  if (P.Type.find('&') != std::string::npos)
    return fmt::format("parameter '{}' is a reference ({})", P.Name, P.Type);
  if (typeMentions(P.Type, {"texture<", "surface<", "cudaTextureObject_t",
                            "cudaSurfaceObject_t"}))
    return fmt::format("parameter '{}' is a texture or surface ({})", P.Name,
                       P.Type);
  if (P.ParamKind == KernelParameter::Kind::Other) {
    for (const AccessRecord &A : K.Accesses) {
      llvm::StringRef Base = A.Base;
      if (Base.starts_with(P.Name + ".") || Base.starts_with(P.Name + "->"))
        return fmt::format("struct parameter '{}' holds a pointer the kernel "
                           "dereferences ({})",
                           P.Name, A.Base);
    }
    if (P.Bytes == 0)
      return fmt::format("parameter '{}' has an unknown size ({})", P.Name,
                         P.Type);
  }
  return "";
}

BlockShape gridFor(const KernelRecord &K, const HarnessOptions &Opts) {
  if (Opts.Grid)
    return *Opts.Grid;
  if (K.LaunchGrid)
    return *K.LaunchGrid;
  BlockShape G;
  if (K.Block.Y > 1 || K.Block.Z > 1) {
    G.X = 8;
    G.Y = 8;
  } else {
    G.X = 64;
  }
  return G;
}

std::string calleeOf(const KernelRecord &K) {
  if (K.Instantiation.empty())
    return K.Name;
  if (K.Instantiation.find('<') != std::string::npos)
    return K.Instantiation;
  return K.Name + "<" + K.Instantiation + ">";
}

bool selected(const KernelRecord &K, const HarnessOptions &Opts) {
  if (Opts.VerifyAll)
    return true;
  FindingOptions FO;
  for (const AccessRecord &A : K.Accesses)
    if (buildFinding(A, FO))
      return true;
  return false;
}

KernelPlan planKernel(const KernelRecord &K, size_t KernelIdx,
                      const HarnessOptions &Opts) {
  KernelPlan KP;
  KP.Kernel = &K;
  KP.KernelIdx = KernelIdx;
  KP.Callee = calleeOf(K);
  KP.Block = K.Block;
  KP.Grid = gridFor(K, Opts);
  auto Scalars = scalarValues(K, Opts);
  std::map<std::string, int64_t> Values;
  for (const auto &[Name, V] : Scalars)
    Values[Name] = V.first;
  for (const KernelParameter &P : K.Params)
    if (P.ParamKind == KernelParameter::Kind::Integer && !Values.count(P.Name))
      Values[P.Name] = DefaultIntValue;
  KP.ScalarValues = Values;

  for (const KernelParameter &P : K.Params) {
    if (std::string Why = unsupportedReason(K, P); !Why.empty()) {
      KP.SkipReason = Why;
      return KP;
    }
    ArgPlan A;
    A.Name = P.Name;
    A.Bytes = P.Bytes;
    A.IsSigned = P.IsSigned;
    switch (P.ParamKind) {
    case KernelParameter::Kind::Pointer: {
      A.ArgKind = ArgPlan::Kind::Buffer;
      A.Bytes = 8;
      chooseFill(P, A);
      if (auto It = Opts.BufferBytes.find(P.Name); It != Opts.BufferBytes.end()) {
        A.BufferBytes = It->second;
        A.SizeOrigin = "--buffer";
        break;
      }
      // The extent the kernel's accesses through this pointer reach.
      std::optional<std::pair<int64_t, int64_t>> Range;
      bool Bounded = true, Any = false;
      for (const AccessRecord &Acc : K.Accesses) {
        if (Acc.Base != P.Name)
          continue;
        Any = true;
        auto R = accessByteRange(Acc, K.Block, KP.Grid, Values, DefaultIntValue);
        if (!R) {
          Bounded = false;
          break;
        }
        Range = Range ? std::make_pair(std::min(Range->first, R->first),
                                       std::max(Range->second, R->second))
                      : *R;
      }
      if (!Any || !Bounded || !Range) {
        A.BufferBytes = Opts.DefaultBufferBytes;
        A.SizeOrigin = Any ? "default (an access's extent cannot be bounded)"
                           : "default (no analyzed access)";
        break;
      }
      uint64_t Lead = Range->first < 0 ? uint64_t(-Range->first) : 0;
      Lead = (Lead + 255) / 256 * 256;
      uint64_t Extent = uint64_t(std::max<int64_t>(Range->second, 0)) + Lead;
      uint64_t Want = std::clamp<uint64_t>(2 * Extent, Opts.MinBufferBytes,
                                           Opts.MaxBufferBytes);
      A.LeadBytes = std::min<uint64_t>(Lead, Want / 2);
      A.BufferBytes = Want;
      A.SizeOrigin = fmt::format("derived: accesses reach bytes [{}, {}), x2",
                                 Range->first, Range->second);
      break;
    }
    case KernelParameter::Kind::Integer: {
      A.ArgKind = ArgPlan::Kind::Integer;
      auto It = Scalars.find(P.Name);
      A.IntValue = It != Scalars.end() ? It->second.first : DefaultIntValue;
      A.ValueOrigin = It != Scalars.end() ? It->second.second : "default";
      if (A.Bytes == 0)
        A.Bytes = 4;
      break;
    }
    case KernelParameter::Kind::Floating:
      A.ArgKind = ArgPlan::Kind::Floating;
      A.FloatValue = 1.0;
      A.ValueOrigin = "default";
      if (A.Bytes == 0)
        A.Bytes = 4;
      break;
    case KernelParameter::Kind::Other:
      A.ArgKind = ArgPlan::Kind::ZeroBytes;
      A.ValueOrigin = "zero-initialized";
      break;
    }
    KP.Args.push_back(A);
  }
  // Data-dependent indices stay inside every buffer of the kernel.
  uint64_t Modulus = std::numeric_limits<uint64_t>::max();
  for (size_t I = 0; I != KP.Args.size(); ++I) {
    const ArgPlan &A = KP.Args[I];
    if (A.ArgKind != ArgPlan::Kind::Buffer)
      continue;
    unsigned Elem = 1;
    for (const KernelParameter &P : K.Params)
      if (P.Name == A.Name)
        Elem = std::max(1u, P.PointeeBytes);
    Modulus = std::min<uint64_t>(Modulus, (A.BufferBytes - A.LeadBytes) / Elem);
  }
  KP.IntModulus = Modulus == std::numeric_limits<uint64_t>::max()
                      ? 1
                      : std::max<uint64_t>(Modulus, 1);
  return KP;
}

std::string absolutePath(const std::string &P) {
  llvm::SmallString<256> S(P);
  llvm::sys::fs::make_absolute(S);
  llvm::sys::path::remove_dots(S, /*remove_dot_dot=*/true);
  return std::string(S);
}

} // namespace

std::optional<std::pair<int64_t, int64_t>>
accessByteRange(const AccessRecord &A, const BlockShape &Block,
                const BlockShape &Grid,
                const std::map<std::string, int64_t> &Values,
                int64_t LoopBound) {
  // Each symbol's candidate values.
  std::vector<std::pair<Symbol, std::vector<int64_t>>> Choices;
  size_t Combos = 1;
  for (const Symbol &S : A.Pattern.Address.symbols()) {
    std::vector<int64_t> C;
    int D = S.dimension();
    switch (S.Kind) {
    case SymbolKind::ThreadIdx:
      C = {0, int64_t(dim(Block, D)) - 1};
      break;
    case SymbolKind::BlockIdx:
      C = {0, int64_t(dim(Grid, D)) - 1};
      break;
    case SymbolKind::BlockDim:
      C = {int64_t(dim(Block, D))};
      break;
    case SymbolKind::GridDim:
      C = {int64_t(dim(Grid, D))};
      break;
    case SymbolKind::LoopIter:
      C = {0, LoopBound - 1};
      break;
    case SymbolKind::Param:
    case SymbolKind::UniformValue: {
      auto It = Values.find(S.Name);
      if (It == Values.end())
        return std::nullopt;
      C = {It->second};
      break;
    }
    case SymbolKind::LaneValue:
    case SymbolKind::IndirectValue:
      return std::nullopt;
    }
    std::sort(C.begin(), C.end());
    C.erase(std::unique(C.begin(), C.end()), C.end());
    Combos *= C.size();
    if (Combos > MaxCorners)
      return std::nullopt;
    Choices.emplace_back(S, std::move(C));
  }
  int64_t Lo = std::numeric_limits<int64_t>::max();
  int64_t Hi = std::numeric_limits<int64_t>::min();
  for (size_t Combo = 0; Combo != Combos; ++Combo) {
    Bindings B;
    size_t Rest = Combo;
    for (const auto &[S, C] : Choices) {
      B.set(S, C[Rest % C.size()]);
      Rest /= C.size();
    }
    std::optional<int64_t> V = A.Pattern.Address.evaluate(B);
    if (!V)
      return std::nullopt;
    Lo = std::min(Lo, *V);
    Hi = std::max(Hi, *V);
  }
  return std::make_pair(Lo, Hi + int64_t(std::max(1u, A.Pattern.AccessBytes)));
}

HarnessPlan planHarness(const Report &R, const HarnessOptions &Opts) {
  HarnessPlan Plan;
  std::map<std::string, size_t> FileIdx;
  for (size_t KI = 0; KI != R.Kernels.size(); ++KI) {
    const KernelRecord &K = R.Kernels[KI];
    if (!selected(K, Opts))
      continue;
    std::string Path = absolutePath(K.Loc.File);
    auto [It, New] = FileIdx.emplace(Path, Plan.Files.size());
    if (New) {
      HarnessFilePlan F;
      F.SourcePath = Path;
      Plan.Files.push_back(std::move(F));
    }
    Plan.Files[It->second].Kernels.push_back(planKernel(K, KI, Opts));
  }
  // One executable per source file: "harness", or "harness_<stem>" when
  // there are several (numbered when stems repeat).
  std::set<std::string> Used;
  for (HarnessFilePlan &F : Plan.Files) {
    std::string Name = "harness";
    if (Plan.Files.size() > 1) {
      std::string Stem = llvm::sys::path::stem(F.SourcePath).str();
      for (char &C : Stem)
        if (!llvm::isAlnum(C) && C != '_')
          C = '_';
      Name = "harness_" + Stem;
      for (unsigned N = 2; Used.count(Name); ++N)
        Name = fmt::format("harness_{}_{}", Stem, N);
    }
    Used.insert(Name);
    F.Name = Name;
    for (KernelPlan &K : F.Kernels)
      K.Harness = Name;
  }
  return Plan;
}

} // namespace coalesce
