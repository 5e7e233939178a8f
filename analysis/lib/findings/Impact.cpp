//===- Impact.cpp - What a finding costs per launch -----------------------===//
//
// Nsight Compute states an uncoalesced access as "N excessive sectors (X% of
// the total)". Before the run: the sectors above the ideal of each request,
// times the requests a launch makes (RequestCount: grid, warps, trip
// counts), times 32 bytes, times the instructions the access is issued as.
// A count that is per block (no grid known) or per pass of a loop (a trip
// count not known) says so and is never compared as a launch's.
//
//===----------------------------------------------------------------------===//

#include "coalesce/Findings.h"

#include "findings/Format.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

namespace coalesce {

namespace {

/// Bytes one request sequence of \p A moves at \p SectorsPerRequest.
std::optional<double> bytesPer(const AccessRecord &A, double SectorsPerRequest,
                               Impact::Per &Unit) {
  const std::optional<RequestCount> &R = A.Predicted.Requests;
  if (!R)
    return std::nullopt;
  double Requests = R->PerBlock;
  Unit = !R->PerIterationOf.empty() ? Impact::Per::Pass
         : R->Blocks               ? Impact::Per::Launch
                                   : Impact::Per::Block;
  if (R->Blocks)
    Requests *= double(*R->Blocks);
  return Requests * SectorsPerRequest * costUnitBytes(A.Pattern.Space) *
         instructionsPerRequest(A);
}

/// "load", "store", "update", "atomic": what the access is, in a sentence.
const char *opNoun(AccessOp Op) {
  return Op == AccessOp::LoadStore ? "update" : accessOpName(Op);
}

int unitRank(const Impact &I) { return static_cast<int>(I.Unit); }

} // namespace

unsigned instructionsPerRequest(const AccessRecord &A) {
  // An update (`p[i].x *= a`) reads and writes: a load and a store request
  // per pass, both counted by Nsight Compute.
  unsigned Directions = A.Pattern.Op == AccessOp::LoadStore ? 2 : 1;
  return A.Pattern.Instructions * Directions;
}

const char *impactUnitName(Impact::Per Unit) {
  switch (Unit) {
  case Impact::Per::Launch:
    return "launch";
  case Impact::Per::Block:
    return "block";
  case Impact::Per::Pass:
    return "pass";
  }
  return "launch";
}

std::optional<Impact> impactOf(const AccessRecord &A, double WastedSectors) {
  const Prediction &P = A.Predicted;
  if (!P.SectorsPerRequest || !P.Requests)
    return std::nullopt;
  Impact I;
  std::optional<double> Fetched = bytesPer(A, *P.SectorsPerRequest, I.Unit);
  std::optional<double> Excess = bytesPer(A, WastedSectors, I.Unit);
  if (!Fetched || !Excess)
    return std::nullopt;
  I.Space = A.Pattern.Space;
  I.FetchedBytes = *Fetched;
  I.ExcessBytes = *Excess;
  I.Basis = P.Requests->Basis;
  I.OverGrid = P.Requests->Blocks.has_value();
  I.PerIterationOf = P.Requests->PerIterationOf;
  return I;
}

std::optional<double> kernelTrafficPerLaunch(const KernelRecord &K) {
  std::optional<double> Total;
  for (const AccessRecord &A : K.Accesses) {
    const Prediction &P = A.Predicted;
    // Global traffic: shared wavefronts are another resource.
    if (!P.SectorsPerRequest || !P.Requests ||
        A.Pattern.Space != AccessSpace::Global)
      continue;
    Impact::Per Unit;
    std::optional<double> B = bytesPer(A, *P.SectorsPerRequest, Unit);
    if (B && Unit == Impact::Per::Launch)
      Total = Total.value_or(0) + *B;
  }
  return Total;
}

std::string describeImpact(const Impact &I, AccessOp Op) {
  std::string Per = "per launch", Why;
  switch (I.Unit) {
  case Impact::Per::Launch:
    break;
  case Impact::Per::Block:
    Per = "per block";
    Why = "no launch gives the grid";
    break;
  case Impact::Per::Pass:
    Per = fmt::format("{} and pass of {}",
                      I.OverGrid ? "per launch" : "per block",
                      fmt::join(I.PerIterationOf, " and "));
    Why = "trip count not known";
    break;
  }
  std::vector<std::string> Parts;
  if (!I.Basis.empty())
    Parts.push_back(I.Basis);
  if (!Why.empty())
    Parts.push_back(Why);
  std::string S =
      I.Space == AccessSpace::Shared
          ? fmt::format("costs about {} wavefronts more than the ideal, of "
                        "the {} this {} needs {}",
                        formatNumber(std::round(I.ExcessBytes /
                                                costUnitBytes(I.Space))),
                        formatNumber(std::round(I.FetchedBytes /
                                                costUnitBytes(I.Space))),
                        opNoun(Op), Per)
          : fmt::format("wastes about {} of the {} this {} fetches {}",
                        formatBytes(I.ExcessBytes), formatBytes(I.FetchedBytes),
                        opNoun(Op), Per);
  if (!Parts.empty())
    S += fmt::format(" ({})", fmt::join(Parts, "; "));
  if (I.KernelShare) {
    double Percent = *I.KernelShare * 100;
    S += Percent < 0.1
             ? std::string("; less than 0.1% of the kernel's predicted traffic")
             : fmt::format("; {}% of the kernel's predicted traffic",
                           formatNumber(std::round(Percent * 10) / 10));
  }
  return S;
}

llvm::Expected<MinImpact> parseMinImpact(llvm::StringRef S) {
  llvm::StringRef T = S.trim();
  MinImpact M;
  auto Bad = [&] {
    return llvm::createStringError(
        std::errc::invalid_argument,
        "'%s' is not an impact: give bytes per launch ('4096', '512KiB', "
        "'1MiB') or a share of the kernel's traffic ('5%%')",
        S.str().c_str());
  };
  double V = 0;
  if (T.consume_back("%")) {
    if (T.trim().getAsDouble(V) || V < 0 || V > 100)
      return Bad();
    M.Share = V / 100;
    return M;
  }
  double Scale = 1;
  static const std::pair<const char *, double> Units[] = {
      {"KiB", 1024.0},       {"MiB", 1048576.0}, {"GiB", 1073741824.0},
      {"k", 1024.0},         {"K", 1024.0},      {"M", 1048576.0},
      {"G", 1073741824.0},   {"B", 1.0}};
  for (const auto &[Suffix, Factor] : Units)
    if (T.consume_back(Suffix)) {
      Scale = Factor;
      break;
    }
  if (T.trim().getAsDouble(V) || V < 0)
    return Bad();
  M.Bytes = V * Scale;
  return M;
}

bool costlier(const Finding &A, const Finding &B) {
  if (A.Cost && B.Cost) {
    if (unitRank(*A.Cost) != unitRank(*B.Cost))
      return unitRank(*A.Cost) < unitRank(*B.Cost);
    if (A.Cost->ExcessBytes != B.Cost->ExcessBytes)
      return A.Cost->ExcessBytes > B.Cost->ExcessBytes;
  } else if (A.Cost || B.Cost) {
    return A.Cost.has_value();
  }
  return A.WastedSectors > B.WastedSectors;
}

} // namespace coalesce
