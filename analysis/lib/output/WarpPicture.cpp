//===- WarpPicture.cpp - One warp's lanes against its sectors -------------===//

#include "output/WarpPicture.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace coalesce {

namespace {

/// floor(A / SectorBytes) * SectorBytes, also for negative A.
int64_t sectorStart(int64_t A) {
  int64_t S = int64_t(SectorBytes);
  int64_t Q = A / S;
  if (A % S != 0 && A < 0)
    --Q;
  return Q * S;
}

/// The bytes [Begin, End) that fall in the sector starting at \p Sector.
uint32_t maskOf(int64_t Begin, int64_t End, int64_t Sector) {
  int64_t From = std::max(Begin, Sector);
  int64_t To = std::min(End, Sector + int64_t(SectorBytes));
  uint32_t Mask = 0;
  for (int64_t B = From; B < To; ++B)
    Mask |= uint32_t(1) << (B - Sector);
  return Mask;
}

} // namespace

unsigned PictureSector::usedBytes() const {
  unsigned N = 0;
  for (uint32_t M = UsedMask; M; M &= M - 1)
    ++N;
  return N;
}

double WarpPicture::efficiency() const {
  return FetchedBytes ? double(UsedBytes) / double(FetchedBytes) : 0.0;
}

int WarpPicture::sectorOf(int64_t Address) const {
  int64_t Start = sectorStart(Address);
  auto It = std::lower_bound(
      Sectors.begin(), Sectors.end(), Start,
      [](const PictureSector &S, int64_t A) { return S.Address < A; });
  if (It == Sectors.end() || It->Address != Start)
    return -1;
  return int(It - Sectors.begin());
}

uint32_t WarpPicture::laneMask(const PictureLane &L,
                               const PictureSector &Sector) const {
  if (!L.Active)
    return 0;
  return maskOf(L.Address, L.Address + AccessBytes, Sector.Address);
}

WarpPicture
buildWarpPicture(const std::vector<std::optional<int64_t>> &LaneAddresses,
                 unsigned AccessBytes, AtomicKind Atomic) {
  WarpPicture P;
  P.AccessBytes = std::max(AccessBytes, 1u);
  std::vector<int64_t> Active;
  std::set<int64_t> Starts;
  for (size_t I = 0; I < LaneAddresses.size(); ++I) {
    PictureLane L;
    L.Index = unsigned(I);
    L.Active = LaneAddresses[I].has_value();
    if (L.Active) {
      L.Address = *LaneAddresses[I];
      Active.push_back(L.Address);
      int64_t Last = L.Address + P.AccessBytes - 1;
      for (int64_t S = sectorStart(L.Address); S <= Last; S += SectorBytes)
        Starts.insert(S);
    }
    P.Lanes.push_back(L);
  }
  for (int64_t S : Starts)
    P.Sectors.push_back(PictureSector{S, 0});
  for (const PictureLane &L : P.Lanes)
    if (L.Active)
      for (int I = P.sectorOf(L.Address);
           I >= 0 && size_t(I) < P.Sectors.size() &&
           P.Sectors[I].Address < L.Address + int64_t(P.AccessBytes);
           ++I)
        P.Sectors[I].UsedMask |= P.laneMask(L, P.Sectors[I]);

  P.ActiveLanes = unsigned(Active.size());
  // The counts come from the sector counter, as the prediction's do.
  P.RequestSectors = countRequestSectors(Active, P.AccessBytes, Atomic);
  P.IdealSectors = idealSectors(P.ActiveLanes, P.AccessBytes);
  P.RequestedBytes = uint64_t(P.ActiveLanes) * P.AccessBytes;
  for (const PictureSector &S : P.Sectors)
    P.UsedBytes += S.usedBytes();
  P.FetchedBytes = uint64_t(P.Sectors.size()) * SectorBytes;
  return P;
}

std::optional<WarpPicture> warpPictureOf(const AccessRecord &A) {
  const std::optional<WarpRequest> &R = A.Predicted.Representative;
  if (!R)
    return std::nullopt;
  WarpPicture P = buildWarpPicture(R->LaneAddresses, A.Pattern.AccessBytes,
                                   A.Pattern.Atomic);
  P.Where = fmt::format("warp {}", R->Warp);
  for (const std::string &Phrase : R->At)
    P.Where += ", " + Phrase;
  return P;
}

} // namespace coalesce
