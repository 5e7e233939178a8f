//===- Findings.cpp - From predictions to worded diagnostics --------------===//
///
/// \file
/// Decides whether an access is a finding and words it: one message per
/// classification that states the numbers, notes for the lane source, the
/// call chain and the assumptions, and a suggestion per rule.
///
//===----------------------------------------------------------------------===//

#include "coalesce/Findings.h"
#include "coalesce/BankCounter.h"
#include "coalesce/Rules.h"

#include "findings/Format.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace coalesce {

namespace {

/// Slack for comparing averaged sector counts.
constexpr double Epsilon = 1e-9;

/// True when \p Sectors is more than \p Threshold above \p Ideal.
bool exceeds(const std::optional<double> &Sectors,
             const std::optional<double> &Ideal, double Threshold) {
  return Sectors && Ideal && *Sectors > *Ideal + Threshold + Epsilon;
}

/// "load of", "store to", ...: the access named in a message.
const char *opPhrase(AccessOp Op) {
  switch (Op) {
  case AccessOp::Load:
    return "load of";
  case AccessOp::Store:
    return "store to";
  case AccessOp::LoadStore:
    return "update of";
  case AccessOp::Atomic:
    return "atomic on";
  }
  return "access to";
}

/// "32 sectors per request, ideal 4"; a figure that is a mean over requests
/// of different sizes (a partial warp, a guard) says so: "4.5 sectors per
/// request on average, ideal 1", "ideal 1.97 on average".
/// Shared-memory accesses count wavefronts: "32 wavefronts per request".
std::string sectorsClause(const Prediction &P,
                          AccessSpace Space = AccessSpace::Global) {
  double S = P.SectorsPerRequest.value_or(0),
         I = P.IdealSectorsPerRequest.value_or(0);
  auto Fractional = [](double V) {
    return std::abs(V - std::round(V)) > Epsilon;
  };
  bool FS = Fractional(S), FI = Fractional(I);
  return fmt::format("{} {}s per request{}, ideal {}{}", formatNumber(S),
                     costUnitName(Space),
                     FS ? " on average" : "", formatNumber(I),
                     FI ? " on average" : "");
}

/// " (12.5% of fetched bytes used)", or "" when unknown.
std::string usedBytesClause(const Prediction &P) {
  if (!P.UsedBytesFraction)
    return "";
  return fmt::format(" ({}% of fetched bytes used)",
                     formatNumber(*P.UsedBytesFraction * 100.0));
}

/// "N=1024, M=2" for the symbols of \p E whose values were assumed.
std::string assumedValuesOf(const Expr &E, const Prediction &P) {
  std::vector<std::string> Parts;
  for (const Symbol &S : E.symbols()) {
    auto It = P.AssumedValues.find(S.Name);
    if (It != P.AssumedValues.end())
      Parts.push_back(fmt::format("{}={}", S.Name, It->second));
  }
  return fmt::format("{}", fmt::join(Parts, ", "));
}

/// A lane stride in words: the value ("128 bytes") and, when symbolic, its
/// expression with the values used ("4*N with N=1024").
struct StrideText {
  std::string Value;  ///< "4096 bytes"; empty when the value is unknown.
  std::string Detail; ///< "4*N with N=1024"; empty when constant.
};

StrideText describeStride(const std::optional<Expr> &Sym,
                          const std::optional<int64_t> &Value,
                          const Prediction &P) {
  StrideText T;
  if (Value)
    T.Value = fmt::format("{} bytes", std::llabs(*Value));
  if (Sym && !Sym->isConstant()) {
    T.Detail = Sym->str();
    std::string Assumed = assumedValuesOf(*Sym, P);
    if (!Assumed.empty())
      T.Detail += " with " + Assumed;
  }
  return T;
}

/// "adjacent lanes are 4096 bytes apart (4*N with N=1024): ", or "" when the
/// stride is unknown.
std::string laneStrideClause(const Prediction &P) {
  StrideText T = describeStride(P.LaneStrideBytes, P.LaneStrideBytesValue, P);
  if (T.Value.empty())
    return "";
  std::string S = "adjacent lanes are " + T.Value + " apart";
  if (!T.Detail.empty())
    S += " (" + T.Detail + ")";
  return S + ": ";
}

/// "stride 4096 bytes: 4*N with N=1024" for the transposed message.
std::string strideParenthetical(const std::optional<Expr> &Sym,
                                const std::optional<int64_t> &Value,
                                const Prediction &P) {
  StrideText T = describeStride(Sym, Value, P);
  if (T.Value.empty())
    return T.Detail.empty() ? "" : " (stride " + T.Detail + " bytes)";
  if (T.Detail.empty())
    return " (stride " + T.Value + ")";
  return " (stride " + T.Value + ": " + T.Detail + ")";
}

/// Splits "p[i].x" or "q->y" into {"p[i]", "x"} at the last top-level member
/// access; nullopt when the expression does not end in one.
std::optional<std::pair<std::string, std::string>>
splitMember(const std::string &E) {
  int Depth = 0;
  for (size_t I = E.size(); I-- > 0;) {
    char C = E[I];
    if (C == ']' || C == ')')
      ++Depth;
    else if (C == '[' || C == '(')
      --Depth;
    if (Depth != 0)
      continue;
    size_t OpLen = 0;
    if (C == '.')
      OpLen = 1;
    else if (C == '>' && I > 0 && E[I - 1] == '-')
      OpLen = 2;
    if (OpLen == 0)
      continue;
    std::string Field = E.substr(I + 1);
    std::string Object = E.substr(0, I + 1 - OpLen);
    auto IsIdent = [](char Ch) {
      return std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '_';
    };
    while (!Field.empty() && std::isspace(static_cast<unsigned char>(Field[0])))
      Field.erase(0, 1);
    while (!Object.empty() &&
           std::isspace(static_cast<unsigned char>(Object.back())))
      Object.pop_back();
    if (Field.empty() || Object.empty() ||
        !std::all_of(Field.begin(), Field.end(), IsIdent) ||
        std::isdigit(static_cast<unsigned char>(Field[0])))
      return std::nullopt;
    return std::make_pair(Object, Field);
  }
  return std::nullopt;
}

/// The lane-0 byte offset of the access into its sector, when every symbol
/// can be bound: threadIdx, blockIdx and loop iterations at 0, fixed unknowns
/// at their assumed values. Terms with such a zero factor are dropped first,
/// so blockDim.x*blockIdx.x needs no block shape.
std::optional<int64_t> firstLaneSectorOffset(const AccessRecord &A) {
  auto IsZeroAtOrigin = [](const Symbol &S) {
    return S.Kind == SymbolKind::ThreadIdx || S.Kind == SymbolKind::BlockIdx ||
           S.Kind == SymbolKind::LoopIter;
  };
  std::vector<Term> Kept;
  for (const Term &T : A.Pattern.Address.terms()) {
    bool Zero =
        std::any_of(T.Factors.begin(), T.Factors.end(), [&](const Expr &F) {
          return F.getKind() == Expr::Kind::Symbol &&
                 IsZeroAtOrigin(F.getSymbol());
        });
    if (!Zero)
      Kept.push_back(T);
  }
  Expr Rest = Expr::fromTerms(Kept);
  Bindings B;
  for (const Symbol &S : Rest.symbols()) {
    if (IsZeroAtOrigin(S)) {
      B.set(S, 0);
      continue;
    }
    auto It = A.Predicted.AssumedValues.find(S.Name);
    if (It != A.Predicted.AssumedValues.end())
      B.set(S, It->second);
  }
  std::optional<int64_t> V = Rest.evaluate(B);
  if (!V)
    return std::nullopt;
  int64_t Offset = *V % SectorBytes;
  return Offset < 0 ? Offset + SectorBytes : Offset;
}

/// "float2" / "float4" for a struct of \p Bytes, else "float2/float4".
std::string vectorTypeFor(std::optional<int64_t> Bytes) {
  if (Bytes && *Bytes == 8)
    return "float2";
  if (Bytes && *Bytes == 16)
    return "float4";
  return "float2/float4";
}

/// True when adjacent lanes are contiguous and the excess comes from the
/// warp spanning rows (threadIdx.y) that are far apart.
bool isRowSpanStride(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  return P.LaneStrideBytesValue && P.RowStrideBytesValue &&
         std::llabs(*P.LaneStrideBytesValue) <= A.Pattern.AccessBytes &&
         std::llabs(*P.RowStrideBytesValue) > A.Pattern.AccessBytes;
}

std::string strideMessage(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  std::string Stride = laneStrideClause(P);
  if (isRowSpanStride(A)) {
    StrideText Row = describeStride(P.RowStrideBytes, P.RowStrideBytesValue, P);
    Stride = fmt::format("adjacent lanes are {} bytes apart but the warp's "
                         "rows (threadIdx.y) are {} apart{}: ",
                         std::llabs(*P.LaneStrideBytesValue), Row.Value,
                         Row.Detail.empty() ? "" : " (" + Row.Detail + ")");
  }
  return fmt::format("uncoalesced {} '{}': {}{}{}", opPhrase(A.Pattern.Op),
                     A.Expression, Stride, sectorsClause(P),
                     usedBytesClause(P));
}

std::string aosMessage(const AccessRecord &A, std::optional<int64_t> Bytes) {
  const Prediction &P = A.Predicted;
  std::string What;
  if (auto Parts = splitMember(A.Expression))
    What = fmt::format("field '{}' of '{}'", Parts->second, Parts->first);
  else
    What = fmt::format("'{}'", A.Expression);
  std::string Array = Bytes ? fmt::format("an array of {}-byte structs", *Bytes)
                            : std::string("an array of structs");
  return fmt::format("{} {} ({}): {}{}{}", opPhrase(A.Pattern.Op), What, Array,
                     laneStrideClause(P), sectorsClause(P), usedBytesClause(P));
}

std::string transposedMessage(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  std::string Fast =
      P.RowStrideBytes || P.RowStrideBytesValue
          ? "threadIdx.y moves the fast one" +
                strideParenthetical(P.RowStrideBytes, P.RowStrideBytesValue, P)
          : std::string("another thread index moves the fast one");
  return fmt::format(
      "transposed {} '{}': threadIdx.x moves the slow dimension{} while {}: "
      "{}{}",
      opPhrase(A.Pattern.Op), A.Expression,
      strideParenthetical(P.LaneStrideBytes, P.LaneStrideBytesValue, P), Fast,
      sectorsClause(P), usedBytesClause(P));
}

std::string misalignedMessage(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  // A mean over requests of different widths is no byte count ("the
  // warp's 255.75 bytes"): the lanes' mean is said instead.
  std::string Bytes = "bytes";
  if (P.ActiveLanesPerRequest) {
    double Lanes = *P.ActiveLanesPerRequest;
    Bytes = std::abs(Lanes - std::round(Lanes)) > Epsilon
                ? fmt::format("bytes ({} lanes of {} bytes on average)",
                              formatNumber(Lanes), A.Pattern.AccessBytes)
                : formatNumber(Lanes * A.Pattern.AccessBytes) + " bytes";
  }
  std::optional<int64_t> Offset = firstLaneSectorOffset(A);
  std::string Where =
      Offset && *Offset != 0
          ? fmt::format("the warp's {} start {} bytes into a sector", Bytes,
                        *Offset)
          : fmt::format("the warp's {} do not start on a 32-byte sector "
                        "boundary in every request",
                        Bytes);
  return fmt::format("misaligned {} '{}': {}; {}", opPhrase(A.Pattern.Op),
                     A.Expression, sectorsClause(P), Where);
}

std::string possiblyMisalignedMessage(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  double Best = P.BestSectorsPerRequest ? *P.BestSectorsPerRequest
                                        : P.SectorsPerRequest.value_or(0);
  std::string Condition =
      P.MisalignmentTerm.empty()
          ? std::string("when the offset is a multiple of 32 bytes")
          : fmt::format("if {} is a multiple of 32 bytes", P.MisalignmentTerm);
  return fmt::format("{} '{}' may be misaligned: {} sectors per request {}, up "
                     "to {} otherwise",
                     opPhrase(A.Pattern.Op), A.Expression, formatNumber(Best),
                     Condition, formatNumber(*P.WorstSectorsPerRequest));
}

std::string indirectMessage(const AccessRecord &A) {
  std::vector<std::string> Sources =
      A.Pattern.Address.symbolNames(SymbolKind::IndirectValue);
  std::string From =
      Sources.empty() ? "" : fmt::format(" ({})", fmt::join(Sources, ", "));
  return fmt::format("{} '{}' uses an index loaded from memory{}: sectors per "
                     "request depend on the data",
                     opPhrase(A.Pattern.Op), A.Expression, From);
}

std::string atomicMessage(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  std::string Lanes = P.ActiveLanesPerRequest
                          ? fmt::format("all {} active lanes",
                                        formatNumber(*P.ActiveLanesPerRequest))
                          : std::string("all active lanes");
  return fmt::format("contended float atomic on '{}': {} hit one address and "
                     "are serialized: {}",
                     A.Expression, Lanes, sectorsClause(P));
}

/// "32-way bank conflict on load of 'tile[x][y]': lanes 0, 1, 2 ... need
/// different words of bank 0; adjacent lanes are 128 bytes apart: 32
/// wavefronts per request, ideal 1".
std::string bankConflictMessage(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  std::string Ways = "bank conflict", Who;
  if (const std::optional<WarpRequest> &R = P.Representative) {
    ActiveLanes Lanes = activeLanesOf(*R);
    WorstBank W =
        worstBankOf(Lanes.Addresses, Lanes.Mask, A.Pattern.AccessBytes);
    if (W.Ways > 1) {
      Ways = fmt::format("{}-way bank conflict", W.Ways);
      std::vector<unsigned> First(W.Lanes.begin(),
                                  W.Lanes.begin() +
                                      std::min<size_t>(3, W.Lanes.size()));
      Who = fmt::format("lanes {}{} need different words of bank {}; ",
                          fmt::join(First, ", "),
                          W.Lanes.size() > 3 ? " ..." : "", W.Bank);
    }
  }
  return fmt::format("{} on {} '{}': {}{}{}", Ways, opPhrase(A.Pattern.Op),
                     A.Expression, Who, laneStrideClause(P),
                     sectorsClause(P, AccessSpace::Shared));
}

/// The fix of a bank conflict, from the layout that causes it: a lane
/// stride of whole bank rows (128 bytes: pad the row by a word), an even
/// word stride (lanes pair up in banks), or a warp that covers several rows
/// of the array because the block is narrower than a warp (the rows'
/// starting banks overlap). None when the stride says none of these.
std::optional<std::string> bankLayoutSuggestion(const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  if (!P.LaneStrideBytesValue || *P.LaneStrideBytesValue == 0)
    return std::nullopt;
  int64_t Stride = std::llabs(*P.LaneStrideBytesValue);
  if (Stride % (BankCount * BankBytes) == 0)
    return fmt::format(
        "pad each row of '{}' by one 4-byte word so that adjacent lanes "
        "are {} bytes apart instead of {} (tile[32][33] instead of "
        "tile[32][32]), or swizzle the column index (tile[r][c ^ r])",
        A.Base, Stride + BankBytes, Stride);
  bool WordStride = Stride % BankBytes == 0 && A.Pattern.AccessBytes <= BankBytes;
  if (WordStride && (Stride / BankBytes) % 2 == 0)
    return fmt::format(
        "adjacent lanes are {} bytes ({} words) apart, an even number, so up "
        "to {} lanes share a bank: make the distance an odd number of words "
        "(pad the rows or records of '{}' by one word), or swizzle the index",
        Stride, Stride / BankBytes,
        std::gcd<int64_t>(Stride / BankBytes, BankCount), A.Base);
  // An odd word stride spreads 32 lanes over 32 banks: the conflict comes
  // from the lanes of another threadIdx.y in the same warp.
  if (WordStride && P.RowStrideBytesValue && *P.RowStrideBytesValue != 0)
    return fmt::format(
        "the block is narrower than a warp, so one warp holds several values "
        "of threadIdx.y ({} bytes apart in '{}') whose lanes land in the "
        "same banks: make the block's x dimension 32, or change the row "
        "length so that they land in different banks",
        std::llabs(*P.RowStrideBytesValue), A.Base);
  return std::nullopt;
}

/// The message of a finding of rule \p Kind on \p A.
std::string messageFor(RuleKind Kind, const AccessRecord &A,
                       std::optional<int64_t> RecordBytes) {
  switch (Kind) {
  case RuleKind::Stride:
    return strideMessage(A);
  case RuleKind::Misaligned:
    return misalignedMessage(A);
  case RuleKind::MisalignedOffset:
    return possiblyMisalignedMessage(A);
  case RuleKind::AoS:
    return aosMessage(A, RecordBytes);
  case RuleKind::Transposed:
    return transposedMessage(A);
  case RuleKind::Indirect:
    return indirectMessage(A);
  case RuleKind::AtomicContention:
    return atomicMessage(A);
  case RuleKind::BankConflict:
    return bankConflictMessage(A);
  }
  return "";
}

/// Rules.def's suggestion for \p Kind, made specific where the access says
/// more: a block shape for a stride that spans rows, the vector type of a
/// whole struct, the element count of a 32-byte alignment.
std::string suggestionFor(RuleKind Kind, const AccessRecord &A,
                          std::optional<int64_t> RecordBytes) {
  switch (Kind) {
  case RuleKind::Stride:
    if (llvm::StringRef(A.Pattern.IssuedAs).starts_with("wmma::load"))
      return "copy the tile to shared memory with 16-byte vector loads (or "
             "cp.async) and call wmma::load_matrix_sync on the shared copy: "
             "a fragment read straight from global memory uses 16 of every "
             "32 bytes each request fetches";
    if (llvm::StringRef(A.Pattern.IssuedAs).starts_with("memcpy"))
      return "copy through pointers whose types state the alignment the data "
             "has (for example reinterpret_cast<const uint4 *> of a 16-byte "
             "aligned address), so the compiler moves each lane's bytes in "
             "one vector access instead of many small pieces";
    if (llvm::StringRef(A.Pattern.IssuedAs).starts_with("wmma::store"))
      return "store the fragment to shared memory with "
             "wmma::store_matrix_sync and copy the tile out with 16-byte "
             "vector stores: a fragment written straight to global memory "
             "fills 16 of every 32 bytes each request touches";
    if (isRowSpanStride(A))
      return "use a block whose x dimension is a multiple of 32 so each warp "
             "covers one row, or stage the rows through a shared-memory tile";
    break;
  case RuleKind::AoS:
    return fmt::format("switch '{}' from an array of structures to a "
                       "structure of arrays (one array per field), or load "
                       "the whole struct with one vector access ({})",
                       A.Base, vectorTypeFor(RecordBytes));
  case RuleKind::BankConflict:
    if (std::optional<std::string> S = bankLayoutSuggestion(A))
      return *S;
    break;
  case RuleKind::Misaligned:
  case RuleKind::MisalignedOffset: {
    unsigned Elem = A.Pattern.AccessBytes ? A.Pattern.AccessBytes : 1;
    if (Elem < SectorBytes && SectorBytes % Elem == 0)
      return fmt::format("align the offset to 32 bytes (a multiple of {} "
                         "elements of {} bytes), or pad rows so every warp "
                         "starts on a sector",
                         SectorBytes / Elem, Elem);
    break;
  }
  default:
    break;
  }
  return rule(Kind).Suggestion;
}

/// The rule that reports an excess above the ideal for an access of class
/// \p C (Rules.def's Class column): the first one on by default; none for
/// a uniform access that is not a float atomic.
std::optional<RuleKind> ruleForClass(Classification C, const AccessRecord &A) {
  if (C == Classification::Uniform && A.Pattern.Atomic != AtomicKind::Float)
    return std::nullopt;
  for (const RuleInfo &R : allRules())
    if (R.Class == C && R.OnByDefault && R.Class != Classification::Indirect)
      return R.Kind;
  return std::nullopt;
}

/// "threadIdx.x", "threadIdx.x and threadIdx.y", or "the thread index".
std::string laneIndexNames(const AccessRecord &A) {
  std::vector<std::string> Names;
  Names = A.LaneSourceSymbols;
  if (Names.empty())
    Names = A.Pattern.Address.symbolNames(SymbolKind::ThreadIdx);
  if (Names.empty())
    return "the thread index";
  return fmt::format("{}", fmt::join(Names, " and "));
}

std::vector<Note> notesFor(const AccessRecord &A) {
  std::vector<Note> Notes;
  if (A.LaneSourceLoc.valid())
    Notes.push_back(
        {A.LaneSourceLoc, fmt::format("'{}' is derived from {} here",
                                      A.LaneSourceName, laneIndexNames(A))});
  // Innermost call site first, like clang's instantiation backtraces; the
  // first entry of the chain is the call in the kernel body.
  for (size_t I = A.CallChain.size(); I-- > 0;)
    Notes.push_back({A.CallChain[I],
                     I == 0
                         ? fmt::format("called from kernel '{}' here", A.Kernel)
                         : std::string("in a __device__ function called "
                                       "here")});
  if (!A.MergedWith.empty())
    Notes.push_back({A.Loc, A.MergedWith});
  // A warp-wide library access says its instructions in its own note.
  if (A.Pattern.Instructions > 1 && A.Pattern.IssuedAs.empty())
    Notes.push_back(
        {A.Loc, fmt::format("the {}-byte struct is {}-byte aligned, so it is "
                            "accessed as {} instructions of {} bytes, each "
                            "with these sectors per request",
                            A.ElemBytes, A.Pattern.AccessBytes,
                            A.Pattern.Instructions, A.Pattern.AccessBytes)});
  for (const std::string &Assumption : A.Predicted.Assumptions)
    Notes.push_back({A.Loc, Assumption});
  return Notes;
}

} // namespace

std::optional<Finding> buildFinding(const AccessRecord &A,
                                    const FindingOptions &Opts) {
  const Prediction &P = A.Predicted;
  std::optional<int64_t> RecordBytes;
  if (A.Pattern.RecordBytes)
    RecordBytes = *A.Pattern.RecordBytes;
  else if (P.LaneStrideBytesValue)
    RecordBytes = std::llabs(*P.LaneStrideBytesValue);

  Finding F;
  std::optional<RuleKind> Kind;
  if (P.Class == Classification::Unknown)
    return std::nullopt;
  if (P.Class == Classification::Indirect) {
    if (!Opts.ReportIndirect)
      return std::nullopt;
    Kind = RuleKind::Indirect;
  } else {
    if (exceeds(P.SectorsPerRequest, P.IdealSectorsPerRequest, Opts.Threshold))
      Kind = ruleForClass(P.Class, A);
    if (!Kind && Opts.ReportPossiblyMisaligned &&
        exceeds(P.WorstSectorsPerRequest, P.IdealSectorsPerRequest,
                Opts.Threshold))
      Kind = RuleKind::MisalignedOffset;
    if (!Kind)
      return std::nullopt;
  }
  F.RuleId = rule(*Kind).Id;
  F.Message = messageFor(*Kind, A, RecordBytes);

  F.Notes = notesFor(A);
  F.Suggestion = suggestionFor(*Kind, A, RecordBytes);
  if (P.SectorsPerRequest && P.IdealSectorsPerRequest)
    F.WastedSectors =
        std::max(0.0, *P.SectorsPerRequest - *P.IdealSectorsPerRequest);
  F.Cost = impactOf(A, F.WastedSectors);
  return F;
}

} // namespace coalesce
