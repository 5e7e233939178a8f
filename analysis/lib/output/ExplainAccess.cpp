//===- ExplainAccess.cpp - --explain-access: one line's accesses in text --===//
///
/// \file
/// For each access at FILE:LINE[:COL]: what it is, its prediction and
/// finding, then a picture of one warp request (TextPicture.h) and that
/// request's counts. No access there is an error that names the nearest
/// lines holding accesses.
///
//===----------------------------------------------------------------------===//

#include "coalesce/Output.h"

#include "findings/Format.h"
#include "findings/Paths.h"
#include "output/TableFor.h"
#include "output/BankPicture.h"
#include "output/TextPicture.h"
#include "output/WarpPicture.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace coalesce {

namespace {

llvm::Error queryError(const llvm::Twine &Msg) {
  return llvm::createStringError(std::errc::invalid_argument, "%s",
                                 Msg.str().c_str());
}

/// "1, 5 and 9".
std::string joinAnd(const std::vector<unsigned> &V) {
  std::string Out;
  for (size_t I = 0; I < V.size(); ++I)
    Out += (I == 0              ? ""
            : I + 1 == V.size() ? " and "
                                : ", ") +
           std::to_string(V[I]);
  return Out;
}

/// The kernel as users name it: its instantiation for templates.
std::string kernelName(const KernelRecord &K, const AccessRecord &A) {
  if (!K.Instantiation.empty())
    return K.Instantiation;
  return A.Kernel.empty() ? K.Name : A.Kernel;
}

/// The error for a query that matches no access, naming where there are.
llvm::Error noAccessError(const Report &R, const AccessQuery &Q) {
  std::string File = absolutePath(Q.File);
  std::set<unsigned> Lines, Columns;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses)
      if (absolutePath(A.Loc.File) == File) {
        Lines.insert(A.Loc.Line);
        if (A.Loc.Line == Q.Line)
          Columns.insert(A.Loc.Column);
      }
  if (!Columns.empty())
    return queryError(fmt::format(
        "no access at {}:{}:{}; the accesses on line {} start at column{} {}",
        Q.File, Q.Line, Q.Column, Q.Line, Columns.size() > 1 ? "s" : "",
        joinAnd(std::vector<unsigned>(Columns.begin(), Columns.end()))));
  if (Lines.empty())
    return queryError(fmt::format("no access in {}: it has no global-memory "
                                  "access in a kernel that was analyzed",
                                  Q.File));
  std::vector<unsigned> Nearest(Lines.begin(), Lines.end());
  std::stable_sort(Nearest.begin(), Nearest.end(), [&](unsigned A, unsigned B) {
    return std::abs(int(A) - int(Q.Line)) < std::abs(int(B) - int(Q.Line));
  });
  Nearest.resize(std::min<size_t>(Nearest.size(), 3));
  std::sort(Nearest.begin(), Nearest.end());
  return queryError(fmt::format("no access on {}:{}; the nearest line{} with "
                                "accesses: {}",
                                Q.File, Q.Line, Nearest.size() > 1 ? "s" : "",
                                joinAnd(Nearest)));
}

/// What the triage made of \p A: its finding, or why it is none.
void writeVerdict(llvm::raw_ostream &OS, const AccessRecord &A,
                  const TriagedFinding *T) {
  const Prediction &P = A.Predicted;
  if (!T) {
    OS << fmt::format("  not a finding ({})\n", classificationName(P.Class));
    return;
  }
  OS << fmt::format("  {} [{}]: {}\n", severityName(T->Level), T->F.RuleId,
                    T->F.Message);
  if (T->SuppressedBy)
    OS << fmt::format("  suppressed by '{}' at line {}\n",
                      T->SuppressedBy->Text, T->SuppressedBy->Line);
  else if (T->Baselined)
    OS << "  in the baseline (not new)\n";
}

/// The prediction's numbers and assumptions.
void writePrediction(llvm::raw_ostream &OS, const AccessRecord &A) {
  const Prediction &P = A.Predicted;
  if (!P.SectorsPerRequest) {
    OS << fmt::format("  predicted: {}{}\n", classificationName(P.Class),
                      P.Reason.empty() ? "" : ": " + P.Reason);
    return;
  }
  OS << fmt::format("  predicted: {} {}{} per request, ideal {}",
                    formatNumber(*P.SectorsPerRequest),
                    costUnitName(A.Pattern.Space),
                    formatNumber(*P.SectorsPerRequest) == "1" ? "" : "s",
                    formatNumber(P.IdealSectorsPerRequest.value_or(0)));
  if (P.UsedBytesFraction)
    OS << fmt::format(", {}% of fetched bytes used",
                      formatNumber(*P.UsedBytesFraction * 100));
  OS << fmt::format(" ({}; mean over warps, blocks and iterations)\n",
                    classificationName(P.Class));
  // The ideal is Nsight Compute's: the active lanes' bytes as if distinct,
  // contiguous and aligned. Lanes that share addresses fetch less.
  if (P.IdealSectorsPerRequest &&
      *P.SectorsPerRequest + 1e-9 < *P.IdealSectorsPerRequest)
    OS << "  below the ideal: lanes share addresses, and the ideal (Nsight "
          "Compute's) counts every active lane's bytes as distinct, "
          "contiguous and aligned\n";
  for (const std::string &S : P.Assumptions)
    OS << "  " << S << "\n";
}

/// The picture of the representative request and its counts.
void writePicture(llvm::raw_ostream &OS, const AccessRecord &A) {
  if (A.Pattern.Space == AccessSpace::Shared) {
    const std::optional<WarpRequest> &R = A.Predicted.Representative;
    if (!R) {
      OS << "  no picture: the lanes' addresses are not known\n";
      return;
    }
    OS << fmt::format("  one request drawn (warp {}{}{}), {} byte{} per "
                      "lane\n",
                      R->Warp, R->At.empty() ? "" : ", ",
                      fmt::format("{}", fmt::join(R->At, ", ")),
                      A.Pattern.AccessBytes,
                      A.Pattern.AccessBytes == 1 ? "" : "s");
    OS << drawBankPicture(*R, A.Pattern.AccessBytes, A.Base);
    return;
  }
  std::optional<WarpPicture> Pic = warpPictureOf(A);
  if (!Pic) {
    OS << "  no picture: the lanes' addresses are not known\n";
    return;
  }
  OS << fmt::format("  one request drawn ({}): {} of {} lanes active, {} "
                    "byte{} each\n",
                    Pic->Where, Pic->ActiveLanes, Pic->Lanes.size(),
                    Pic->AccessBytes, Pic->AccessBytes == 1 ? "" : "s");
  OS << drawTextPicture(*Pic, A.Base);
  OS << fmt::format("  sectors touched: {}, ideal {}; bytes requested: {}, "
                    "fetched: {}; efficiency {}%\n",
                    Pic->Sectors.size(), Pic->IdealSectors, Pic->RequestedBytes,
                    Pic->FetchedBytes, formatNumber(Pic->efficiency() * 100));
  if (Pic->UsedBytes != Pic->RequestedBytes)
    OS << fmt::format("  ({} distinct bytes: lanes share addresses)\n",
                      Pic->UsedBytes);
  if (Pic->RequestSectors != Pic->Sectors.size())
    OS << fmt::format("  the request costs {} sectors: float atomics to one "
                      "address are not merged\n",
                      Pic->RequestSectors);
}

} // namespace

llvm::Expected<AccessQuery> parseAccessQuery(llvm::StringRef S) {
  AccessQuery Q;
  auto Number = [](llvm::StringRef T, unsigned &V) {
    return !T.empty() && !T.getAsInteger(10, V) && V > 0;
  };
  auto [Head, Last] = S.rsplit(':');
  unsigned N = 0;
  if (Head == S || !Number(Last, N))
    return queryError("invalid --explain-access '" + S +
                      "': expected FILE:LINE[:COL]");
  auto [File, Middle] = Head.rsplit(':');
  unsigned M = 0;
  if (File != Head && !File.empty() && Number(Middle, M)) {
    Q.File = File.str();
    Q.Line = M;
    Q.Column = N;
  } else {
    Q.File = Head.str();
    Q.Line = N;
  }
  if (Q.File.empty())
    return queryError("invalid --explain-access '" + S +
                      "': expected FILE:LINE[:COL]");
  return Q;
}

llvm::Expected<unsigned> explainAccess(const Report &R, const AccessQuery &Q,
                                       const OutputOptions &Opts,
                                       llvm::raw_ostream &OS) {
  FindingTable Local;
  const FindingTable &Table = tableFor(R, Opts, Local);
  std::string File = absolutePath(Q.File);
  unsigned Explained = 0;
  for (const KernelRecord &K : R.Kernels)
    for (const AccessRecord &A : K.Accesses) {
      if (A.Loc.Line != Q.Line || (Q.Column && A.Loc.Column != Q.Column) ||
          absolutePath(A.Loc.File) != File)
        continue;
      if (Explained++)
        OS << "\n";
      OS << fmt::format("{}: {} of '{}' in kernel '{}'", formatLocation(A.Loc),
                        accessOpName(A.Pattern.Op), A.Expression,
                        kernelName(K, A));
      if (!A.Launch.empty())
        OS << " (launch: " << A.Launch << ")";
      OS << "\n";
      writeVerdict(OS, A, Table.find(A));
      writePrediction(OS, A);
      writePicture(OS, A);
    }
  if (!Explained)
    return noAccessError(R, Q);
  return Explained;
}

} // namespace coalesce
