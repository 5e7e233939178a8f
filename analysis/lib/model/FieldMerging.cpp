//===- FieldMerging.cpp - Fields the compiler loads together --------------===//
//
// Reading .x and .y of a naturally aligned float2 element (or .x .. .w of a
// uint4) in one kernel compiles to one 8- or 16-byte load of the element,
// not to one strided load per field: measured on the H200, BlackScholes'
// d_StockPrice[opt].x/.y is an LDG.64 at 8 sectors per request, ideal 8.
// Accesses to fields of the same element whose fields together cover it are
// therefore predicted as one access of the whole element.
//
//===----------------------------------------------------------------------===//
#include "coalesce/KernelPrediction.h"

#include <fmt/format.h>

namespace coalesce {

namespace {
/// Loads and stores are merged separately.
bool sameDirection(AccessOp A, AccessOp B) {
  bool LoadA = A == AccessOp::Load, LoadB = B == AccessOp::Load;
  bool StoreA = A == AccessOp::Store, StoreB = B == AccessOp::Store;
  return (LoadA && LoadB) || (StoreA && StoreB);
}
} // namespace

void mergeVectorFields(KernelRecord &K) {
  std::vector<AccessRecord> &Acc = K.Accesses;
  std::vector<bool> Done(Acc.size(), false);
  for (size_t I = 0; I < Acc.size(); ++I) {
    const AccessPattern &P = Acc[I].Pattern;
    if (Done[I] || !P.RecordBytes || P.Instructions != 1 ||
        P.RecordAlign != *P.RecordBytes ||
        (*P.RecordBytes != 8 && *P.RecordBytes != 16) ||
        !P.UnknownReason.empty())
      continue;
    unsigned Bytes = *P.RecordBytes;
    Expr Element = P.Address - Expr::constant(P.FieldOffset);
    // The fields of the same element read (or written) by this kernel.
    std::vector<size_t> Group;
    uint32_t Covered = 0;
    for (size_t J = I; J < Acc.size(); ++J) {
      const AccessPattern &Q = Acc[J].Pattern;
      if (Done[J] || Acc[J].Base != Acc[I].Base || !Q.RecordBytes ||
          *Q.RecordBytes != Bytes || Q.Instructions != 1 ||
          !sameDirection(P.Op, Q.Op) ||
          Q.Address - Expr::constant(Q.FieldOffset) != Element)
        continue;
      Group.push_back(J);
      for (unsigned B = Q.FieldOffset; B < Q.FieldOffset + Q.AccessBytes && B < 32;
           ++B)
        Covered |= 1u << B;
    }
    if (Covered != (Bytes == 32 ? ~0u : (1u << Bytes) - 1))
      continue;
    std::string Names;
    for (size_t J : Group)
      Names += (Names.empty() ? "'" : ", '") + Acc[J].Expression + "'";
    for (size_t J : Group) {
      AccessPattern &Q = Acc[J].Pattern;
      Q.Address = Element;
      Q.AccessBytes = Bytes;
      Q.RecordBytes.reset();
      Acc[J].MergedWith = fmt::format(
          "the compiler accesses {} together as one {}-byte access of the "
          "element",
          Names, Bytes);
      Done[J] = true;
    }
  }
}

void mergeAdjacentElements(KernelRecord &K) {
  std::vector<AccessRecord> &Acc = K.Accesses;
  std::vector<bool> Done(Acc.size(), false);
  auto Candidate = [&](size_t I) {
    const AccessPattern &P = Acc[I].Pattern;
    return !Done[I] && P.Space == AccessSpace::Shared && !P.RecordBytes &&
           P.Instructions == 1 && P.UnknownReason.empty() &&
           P.Atomic == AtomicKind::None &&
           (P.Op == AccessOp::Load || P.Op == AccessOp::Store) &&
           (P.AccessBytes == 4 || P.AccessBytes == 8);
  };
  for (size_t I = 0; I < Acc.size(); ++I) {
    if (!Candidate(I))
      continue;
    const AccessPattern &P = Acc[I].Pattern;
    int64_t Pair = 2 * int64_t(P.AccessBytes);
    int64_t Gcd = P.Address.coefficientGcd();
    if (Gcd == 0 || Gcd % Pair != 0)
      continue; // The first element is not provably aligned to the pair.
    for (size_t J = 0; J < Acc.size(); ++J) {
      if (J == I || !Candidate(J))
        continue;
      const AccessPattern &Q = Acc[J].Pattern;
      if (Acc[J].Base != Acc[I].Base || Q.Op != P.Op ||
          Q.AccessBytes != P.AccessBytes || !(Q.Active == P.Active) ||
          !(Q.Loops == P.Loops) ||
          Q.Address - P.Address != Expr::constant(P.AccessBytes))
        continue;
      std::string Note = fmt::format(
          "the compiler accesses '{}' and '{}' together as one {}-byte "
          "access (adjacent elements, the first aligned to {} bytes)",
          Acc[I].Expression, Acc[J].Expression, Pair, Pair);
      for (size_t X : {I, J}) {
        AccessPattern &R = Acc[X].Pattern;
        R.Address = P.Address;
        R.AccessBytes = unsigned(Pair);
        Acc[X].MergedWith = Note;
        Done[X] = true;
      }
      break;
    }
  }
}

} // namespace coalesce
