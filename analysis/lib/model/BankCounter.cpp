//===- BankCounter.cpp - Shared-memory wavefronts of one request ----------===//

#include "coalesce/BankCounter.h"

#include <algorithm>
#include <array>

namespace coalesce {
namespace {

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && (A < 0) != (B < 0)) ? Q - 1 : Q;
}

/// The lanes of one group (lanes served together) and what they touch.
struct Group {
  bool Active = false;
  /// Distinct 4-byte words the group's lanes touch, sorted.
  std::vector<int64_t> Words;
  /// The group's distinct addresses, sorted.
  std::vector<int64_t> Addresses;
  /// Bytes of the group's distinct elements (distinct addresses times the
  /// access width).
  unsigned DistinctBytes = 0;
};

/// The words an access of \p Bytes at \p Address touches.
void addWords(std::vector<int64_t> &Words, int64_t Address, unsigned Bytes) {
  int64_t First = floorDiv(Address, BankBytes);
  int64_t Last = floorDiv(Address + std::max(Bytes, 1u) - 1, BankBytes);
  for (int64_t W = First; W <= Last; ++W)
    Words.push_back(W);
}

void sortUnique(std::vector<int64_t> &V) {
  std::sort(V.begin(), V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

/// The most distinct words of \p Words (sorted, unique) in one bank.
unsigned worstBank(const std::vector<int64_t> &Words) {
  std::array<unsigned, BankCount> PerBank{};
  unsigned Worst = 0;
  for (int64_t W : Words)
    Worst = std::max(Worst, ++PerBank[size_t(((W % BankCount) + BankCount) %
                                             BankCount)]);
  return Worst;
}

std::vector<Group> groups(const std::vector<int64_t> &Addresses,
                          uint32_t LaneMask, unsigned AccessBytes) {
  unsigned PerGroup = lanesPerWavefrontGroup(AccessBytes);
  std::vector<Group> G(32 / PerGroup);
  std::vector<std::vector<int64_t>> Distinct(G.size());
  size_t Next = 0;
  for (unsigned Lane = 0; Lane < 32 && Next < Addresses.size(); ++Lane) {
    if (!((LaneMask >> Lane) & 1))
      continue;
    Group &Into = G[Lane / PerGroup];
    Into.Active = true;
    addWords(Into.Words, Addresses[Next], AccessBytes);
    Distinct[Lane / PerGroup].push_back(Addresses[Next]);
    ++Next;
  }
  for (size_t I = 0; I < G.size(); ++I) {
    sortUnique(G[I].Words);
    sortUnique(Distinct[I]);
    G[I].DistinctBytes = unsigned(Distinct[I].size()) * AccessBytes;
    G[I].Addresses = std::move(Distinct[I]);
  }
  return G;
}

bool hasWord(const std::vector<std::pair<int64_t, unsigned>> &Slot,
                    int64_t Word) {
  return std::any_of(Slot.begin(), Slot.end(),
                     [&](const auto &P) { return P.first == Word; });
}

/// Whether two groups (the halves of an 8-byte request, or quarters 0 and 1
/// or 2 and 3 of a 16-byte one) that each need one wavefront share one, as
/// measured on the H200 (docs/bank-model.md): at most 128 bytes of distinct
/// elements between them, no bank holding two of their words, and either
/// no element in common or at most 16 bytes of elements in all (`d[l % 2]`
/// and `q[0]` share; `d[l % 8]` and `q[l % 4]`, the same 64 bytes in both
/// groups, do not). The ideal follows the same rule (Nsight Compute's
/// ideal counts the banks two groups share, `q[l / 8 * 8]`: 4).
bool groupsShare(const Group &A, const Group &B, unsigned AccessBytes) {
  if (A.DistinctBytes + B.DistinctBytes > BankCount * BankBytes)
    return false;
  std::vector<int64_t> Elements = A.Addresses;
  Elements.insert(Elements.end(), B.Addresses.begin(), B.Addresses.end());
  size_t Both = Elements.size();
  sortUnique(Elements);
  bool Disjoint = Elements.size() == Both;
  if (!Disjoint && Elements.size() * AccessBytes > 16)
    return false;
  std::vector<int64_t> Union = A.Words;
  Union.insert(Union.end(), B.Words.begin(), B.Words.end());
  sortUnique(Union);
  return worstBank(Union) <= 1;
}

/// Wavefronts of the groups, \p Cost giving one group's.
template <typename CostFn>
unsigned combine(const std::vector<Group> &G, unsigned AccessBytes,
                 CostFn Cost) {
  unsigned Total = 0;
  if (AccessBytes > BankBytes) {
    for (size_t H = 0; H + 1 < G.size(); H += 2) {
      const Group &A = G[H], &B = G[H + 1];
      if (A.Active && B.Active && Cost(A) == 1 && Cost(B) == 1 &&
          groupsShare(A, B, AccessBytes)) {
        Total += 1;
        continue;
      }
      Total += (A.Active ? Cost(A) : 0) + (B.Active ? Cost(B) : 0);
    }
    return Total;
  }
  for (const Group &X : G)
    if (X.Active)
      Total += Cost(X);
  return Total;
}

} // namespace

unsigned lanesPerWavefrontGroup(unsigned AccessBytes) {
  if (AccessBytes <= BankBytes)
    return 32;
  return std::max(1u, std::min(32u, BankCount * BankBytes /
                                        std::min(AccessBytes, 16u)));
}

unsigned bankOf(int64_t Address) {
  return unsigned(((floorDiv(Address, BankBytes) % BankCount) + BankCount) %
                  BankCount);
}

WorstBank worstBankOf(const std::vector<int64_t> &Addresses, uint32_t LaneMask,
                      unsigned AccessBytes) {
  WorstBank Worst;
  unsigned PerGroup = lanesPerWavefrontGroup(AccessBytes);
  // Per group and bank: the distinct words and the first lane of each.
  std::vector<std::array<std::vector<std::pair<int64_t, unsigned>>, BankCount>>
      Seen(32 / PerGroup);
  size_t Next = 0;
  for (unsigned Lane = 0; Lane < 32 && Next < Addresses.size(); ++Lane) {
    if (!((LaneMask >> Lane) & 1))
      continue;
    std::vector<int64_t> Words;
    addWords(Words, Addresses[Next++], AccessBytes);
    for (int64_t W : Words) {
      unsigned Bank = bankOf(W * BankBytes);
      auto &Slot = Seen[Lane / PerGroup][Bank];
      if (hasWord(Slot, W))
        continue;
      Slot.emplace_back(W, Lane);
      if (Slot.size() > Worst.Ways) {
        Worst.Ways = unsigned(Slot.size());
        Worst.Bank = Bank;
        Worst.Lanes.clear();
        for (const auto &[Word, First] : Slot)
          Worst.Lanes.push_back(First);
      }
    }
  }
  return Worst;
}

unsigned countWavefronts(const std::vector<int64_t> &Addresses,
                         uint32_t LaneMask, unsigned AccessBytes) {
  if (Addresses.empty())
    return 0;
  std::vector<Group> G = groups(Addresses, LaneMask, AccessBytes);
  return combine(G, AccessBytes, [](const Group &X) {
    return std::max(1u, worstBank(X.Words));
  });
}

unsigned idealWavefronts(const std::vector<int64_t> &Addresses,
                         uint32_t LaneMask, unsigned AccessBytes) {
  if (Addresses.empty())
    return 0;
  std::vector<Group> G = groups(Addresses, LaneMask, AccessBytes);
  return combine(G, AccessBytes, [](const Group &) { return 1u; });
}

ActiveLanes activeLanesOf(const WarpRequest &R) {
  ActiveLanes A;
  for (size_t L = 0; L < R.LaneAddresses.size() && L < 32; ++L)
    if (R.LaneAddresses[L]) {
      A.Addresses.push_back(*R.LaneAddresses[L]);
      A.Mask |= uint32_t(1) << L;
    }
  return A;
}

} // namespace coalesce
