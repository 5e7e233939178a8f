//===- HarnessPlan.cpp - What the emitted harness will do -----------------===//

#include "HarnessPlan.h"

#include "BufferExtent.h"
#include "Cooperative.h"

#include "coalesce/Findings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// Values of the kernel's scalar parameters: --param, then constants of a
/// launch in host code, then the predictions' assumed values, then the
/// default.
std::map<std::string, std::pair<int64_t, std::string>>
scalarValues(const KernelRecord &K, const HarnessOptions &Opts) {
  std::map<std::string, std::pair<int64_t, std::string>> V;
  for (const ParamValue &P : Opts.Params)
    if (P.Kernel == K.Name)
      V[P.Name] = {P.Value, "--param"};
  for (const ParamValue &P : Opts.Params)
    if (P.Kernel.empty())
      V.emplace(P.Name, std::make_pair(P.Value, "--param"));
  for (const LaunchSite &L : K.Launches)
    for (const auto &[Name, Value] : L.Params)
      V.emplace(Name, std::make_pair(
                          Value, fmt::format("from the launch at {}:{}",
                                             llvm::sys::path::filename(L.Loc.File).str(),
                                             L.Loc.Line)));
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
  if (P.ParamKind == KernelParameter::Kind::Other && P.Bytes == 0)
    return fmt::format("parameter '{}' has an unknown size ({})", P.Name,
                       P.Type);
  return "";
}

/// One buffer to size: a pointer parameter or a struct's pointer field.
struct BufferUse {
  ArgPlan *Arg = nullptr;
  std::string Label; ///< "a", "p.a" or "p->a": the --buffer key.
  unsigned ElemBytes = 1;
  std::vector<const AccessRecord *> Accesses;
  /// False for an array of structures: its contents are the structures,
  /// not fill values, so it does not bound loaded indices.
  bool Indexable = true;
};

/// Sizes \p U's buffer from its accesses' exact extents. Returns false
/// (leaving the buffer unsized) when an extent is unbounded and \p Final
/// is false, so that the caller can retry once loaded values are bounded.
bool sizeBuffer(BufferUse &U, const LaunchValues &LV,
                const HarnessOptions &Opts, bool Final) {
  ArgPlan &A = *U.Arg;
  if (auto It = Opts.BufferBytes.find(U.Label); It != Opts.BufferBytes.end()) {
    A.BufferBytes = It->second;
    A.SizeOrigin = "--buffer";
    return true;
  }
  if (U.Accesses.empty()) {
    A.BufferBytes = Opts.DefaultBufferBytes;
    A.SizeOrigin = "default (no analyzed access)";
    return true;
  }
  std::optional<std::pair<int64_t, int64_t>> Range;
  for (const AccessRecord *Acc : U.Accesses) {
    std::string Why;
    auto R = accessByteRange(*Acc, LV, &Why);
    if (!R) {
      if (!Final)
        return false;
      A.BufferBytes = Opts.DefaultBufferBytes;
      A.SizeOrigin = fmt::format("default: extent not bounded ({}); the "
                                 "kernel may fault, pass --buffer {}=BYTES",
                                 Why, U.Label);
      return true;
    }
    if (R->first == R->second)
      continue; // Never runs with this launch.
    Range = Range ? std::make_pair(std::min(Range->first, R->first),
                                   std::max(Range->second, R->second))
                  : *R;
  }
  if (!Range) {
    A.BufferBytes = Opts.MinBufferBytes;
    A.SizeOrigin = "no access runs with this launch";
    return true;
  }
  uint64_t Lead = Range->first < 0 ? uint64_t(-Range->first) : 0;
  Lead = (Lead + 255) / 256 * 256;
  uint64_t Extent = uint64_t(std::max<int64_t>(Range->second, 0)) + Lead;
  A.LeadBytes = Lead;
  A.ReachBytes = uint64_t(std::max<int64_t>(Range->second, 0));
  A.BufferBytes = std::max<uint64_t>((Extent + 15) / 16 * 16,
                                     std::max<uint64_t>(Opts.MinBufferBytes, 16));
  A.SizeOrigin = fmt::format("exact: accesses reach bytes [{}, {}) over the "
                             "whole launch",
                             Range->first, Range->second);
  return true;
}

/// Sizes every buffer of a kernel: bounded extents first, then those of
/// addresses that use loaded values, which the fill keeps below the
/// smallest bounded buffer's element count.
void sizeBuffers(std::vector<BufferUse> &Uses, LaunchValues LV,
                 const HarnessOptions &Opts) {
  std::vector<BufferUse *> Deferred;
  uint64_t Smallest = 0;
  for (BufferUse &U : Uses) {
    if (!sizeBuffer(U, LV, Opts, /*Final=*/false)) {
      Deferred.push_back(&U);
      continue;
    }
    if (!U.Indexable)
      continue;
    uint64_t N = (U.Arg->BufferBytes - U.Arg->LeadBytes) / U.ElemBytes;
    Smallest = Smallest ? std::min(Smallest, N) : N;
  }
  if (Deferred.empty())
    return;
  if (!Smallest)
    Smallest = Opts.DefaultBufferBytes / 8;
  LV.LoadedValues = Interval{0, int64_t(std::max<uint64_t>(Smallest, 1)) - 1};
  for (BufferUse *U : Deferred) {
    sizeBuffer(*U, LV, Opts, /*Final=*/true);
    if (U->Arg->SizeOrigin.rfind("exact", 0) == 0)
      U->Arg->SizeOrigin += fmt::format(", loaded indices in [0, {})",
                                        Smallest);
  }
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

/// Is \p Path a chain of member names (`n`, `dims.x`)?
bool isMemberChain(llvm::StringRef Path) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Path.split(Parts, '.');
  return llvm::all_of(Parts, [](llvm::StringRef Part) {
    return !Part.empty() && !llvm::isDigit(Part[0]) &&
           llvm::all_of(Part,
                        [](char C) { return llvm::isAlnum(C) || C == '_'; });
  });
}

/// A struct argument: one buffer per pointer field the kernel dereferences
/// (accesses based on "P.field"), and the integer fields the analysis used.
void planStruct(const KernelRecord &K, const KernelParameter &P,
                const std::map<std::string, int64_t> &Values, ArgPlan &A) {
  std::string Prefix = P.Name + ".";
  std::set<std::string> Seen;
  for (const AccessRecord &Acc : K.Accesses) {
    llvm::StringRef Base = Acc.Base;
    if (!Base.consume_front(Prefix) || !Seen.insert(Base.str()).second)
      continue;
    ArgPlan F;
    F.ArgKind = ArgPlan::Kind::Buffer;
    F.Name = Base.str();
    F.Bytes = 8;
    A.Fields.push_back(F);
  }
  // Only values named by a chain of fields can be set (not `l.get(i)`, a
  // value an accessor call reads).
  for (const auto &[Name, V] : Values)
    if (llvm::StringRef(Name).starts_with(Prefix) &&
        isMemberChain(llvm::StringRef(Name).drop_front(Prefix.size())))
      A.FieldValues.emplace_back(Name.substr(Prefix.size()), V);
  if (A.Fields.empty() && A.FieldValues.empty())
    return;
  A.ArgKind = ArgPlan::Kind::Struct;
  A.TypeName = P.Type;
  A.ValueOrigin = "struct built field by field";
}

/// The member path an access base reaches through pointer parameter \p P:
/// "p->a" and "(*p).a" give "a", "ps[blockIdx.x].in.a" gives "in.a";
/// nullopt when the base is not a field of what P points to; "" when it
/// is, but not as a plain member path (p->arr[2], p->next->a).
std::optional<std::string> fieldPath(llvm::StringRef Base, llvm::StringRef P) {
  std::string S;
  for (char C : Base)
    if (!llvm::isSpace(C))
      S += C;
  llvm::StringRef R = S;
  if (R.consume_front(P.str() + "->") ||
      R.consume_front(("(*" + P + ").").str())) {
    // The path follows.
  } else if (R.consume_front(P.str() + "[")) {
    unsigned Depth = 1;
    size_t I = 0;
    for (; I != R.size() && Depth; ++I)
      Depth += R[I] == '[' ? 1 : R[I] == ']' ? -1 : 0;
    if (Depth)
      return std::nullopt;
    R = R.drop_front(I);
    if (!R.consume_front("."))
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  return isMemberChain(R) ? R.str() : std::string();
}

/// A pointer to structures whose pointer fields the kernel dereferences:
/// one buffer per field path, the integer fields the analysis used. Returns
/// a skip reason, or "" (also when P points to no such structure).
std::string planStructPointer(const KernelRecord &K, const KernelParameter &P,
                              const std::map<std::string, int64_t> &Values,
                              ArgPlan &A) {
  std::map<std::string, size_t> Index;
  for (const AccessRecord &Acc : K.Accesses) {
    std::optional<std::string> Path = fieldPath(Acc.Base, P.Name);
    if (!Path)
      continue;
    if (Path->empty())
      return fmt::format("parameter '{}' points to a structure whose pointer "
                         "'{}' is not a plain member path the harness can "
                         "set",
                         P.Name, Acc.Base);
    auto [It, New] = Index.emplace(*Path, A.Fields.size());
    if (New) {
      ArgPlan F;
      F.ArgKind = ArgPlan::Kind::Buffer;
      F.Name = *Path;
      F.Bytes = 8;
      A.Fields.push_back(F);
    }
    std::vector<std::string> &Bases = A.Fields[It->second].Bases;
    if (std::find(Bases.begin(), Bases.end(), Acc.Base) == Bases.end())
      Bases.push_back(Acc.Base);
  }
  if (A.Fields.empty())
    return "";
  for (const auto &[Name, V] : Values)
    if (std::optional<std::string> Path = fieldPath(Name, P.Name);
        Path && !Path->empty())
      A.FieldValues.emplace_back(*Path, V);
  A.ArgKind = ArgPlan::Kind::StructPointer;
  A.StructBytes = std::max(1u, P.PointeeBytes);
  A.TypeName = P.PointeeType;
  A.ValueOrigin = "structures built field by field, copied to the device";
  return "";
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

  KP.Args.reserve(K.Params.size());
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
    case KernelParameter::Kind::Pointer:
      A.ArgKind = ArgPlan::Kind::Buffer;
      A.Bytes = 8;
      chooseFill(P, A);
      if (std::string Why = planStructPointer(K, P, Values, A); !Why.empty()) {
        KP.SkipReason = Why;
        return KP;
      }
      break;
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
      planStruct(K, P, Values, A);
      break;
    }
    KP.Args.push_back(A);
  }
  // Every buffer: pointer parameters and struct pointer fields.
  std::vector<BufferUse> Uses;
  for (size_t I = 0; I != KP.Args.size(); ++I) {
    ArgPlan &A = KP.Args[I];
    const KernelParameter &P = K.Params[I];
    bool Pointed = A.ArgKind == ArgPlan::Kind::StructPointer;
    if (A.ArgKind == ArgPlan::Kind::Buffer || Pointed)
      Uses.push_back({&A, A.Name, std::max(1u, P.PointeeBytes), {}, !Pointed});
    for (ArgPlan &F : A.Fields) {
      if (F.Bases.empty())
        F.Bases.push_back(A.Name + "." + F.Name);
      Uses.push_back({&F, Pointed ? A.Name + "->" + F.Name : F.Bases.front(),
                      1, {}});
    }
  }
  for (BufferUse &U : Uses)
    for (const AccessRecord &Acc : K.Accesses) {
      const std::vector<std::string> &Bases = U.Arg->Bases;
      bool Mine = Bases.empty() ? Acc.Base == U.Label
                                : std::find(Bases.begin(), Bases.end(),
                                            Acc.Base) != Bases.end();
      if (Mine) {
        U.Accesses.push_back(&Acc);
        if (U.Arg->FillKind == 'z' && U.ElemBytes == 1)
          U.ElemBytes = std::max(1u, Acc.ElemBytes);
      }
    }
  LaunchValues LV{KP.Block, KP.Grid, Values, std::nullopt};
  // A lane's own pointer field (ps[threadIdx.x].a) points to the start of
  // the buffer the harness put there.
  for (const ArgPlan &A : KP.Args)
    if (A.ArgKind == ArgPlan::Kind::StructPointer)
      for (const ArgPlan &F : A.Fields)
        for (const std::string &B : F.Bases)
          LV.KnownLoads[B] = 0;
  sizeBuffers(Uses, LV, Opts);
  // Arrays of structures: whole structures, at least one.
  for (ArgPlan &A : KP.Args) {
    if (A.ArgKind != ArgPlan::Kind::StructPointer)
      continue;
    // Exact bounds: the structures the accesses reach; else (--buffer, an
    // unbounded extent) as many as the buffer holds.
    uint64_t Span = A.ReachBytes ? A.ReachBytes : A.BufferBytes - A.LeadBytes;
    A.ElemCount = std::max<uint64_t>(1, (Span + A.StructBytes - 1) / A.StructBytes);
    A.BufferBytes = std::max<uint64_t>(A.BufferBytes,
                                       A.LeadBytes + A.ElemCount * A.StructBytes);
    A.SharedFields = A.ElemCount > MaxPerElementFields;
  }
  for (const BufferUse &U : Uses)
    if (U.Arg->BufferBytes > Opts.MaxBufferBytes) {
      KP.SkipReason = fmt::format(
          "buffer '{}' would need {} bytes, more than the {}-byte limit "
          "(lower the parameter values with --param)",
          U.Label, U.Arg->BufferBytes, Opts.MaxBufferBytes);
      return KP;
    }
  // Data-dependent indices stay inside every buffer of the kernel.
  uint64_t Modulus = std::numeric_limits<uint64_t>::max();
  for (const BufferUse &U : Uses)
    if (U.Indexable)
      Modulus = std::min<uint64_t>(
          Modulus, (U.Arg->BufferBytes - U.Arg->LeadBytes) / U.ElemBytes);
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
  for (HarnessFilePlan &F : Plan.Files) {
    auto Text = llvm::MemoryBuffer::getFile(F.SourcePath);
    if (!Text)
      continue;
    std::string Source = (*Text)->getBuffer().str();
    for (KernelPlan &K : F.Kernels)
      K.Cooperative =
          needsCooperativeLaunch(Source, K.Kernel->Name, K.Kernel->Loc.Line);
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
