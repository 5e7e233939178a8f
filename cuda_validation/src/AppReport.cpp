//===- AppReport.cpp - Application mode's table and JSON ------------------===//

#include "AppReport.h"
#include "Strings.h"

#include "ResultWriter.h"

#include <cstdio>
#include <map>

namespace coalesce::verify {

namespace {

std::string percent(const std::optional<double> &V) {
  if (!V)
    return "-";
  char B[32];
  std::snprintf(B, sizeof B, "%.1f%%", *V * 100);
  return B;
}

std::string num(double V) {
  char B[32];
  std::snprintf(B, sizeof B, "%.0f", V);
  return B;
}

std::string ratioText(const LineResult &R) {
  if (R.Requests <= 0)
    return "-";
  char B[64];
  std::snprintf(B, sizeof B, "%.2f/%.2f", R.Sectors / R.Requests,
                R.Ideal / R.Requests);
  return B;
}

/// Bytes for a reader: "768 bytes", "12 MiB", "1.5 GiB".
std::string bytesText(double Bytes) {
  const char *Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  unsigned U = 0;
  while (Bytes >= 1024 && U + 1 < sizeof Units / sizeof *Units) {
    Bytes /= 1024;
    ++U;
  }
  char B[48];
  std::snprintf(B, sizeof B, "%.3g %s", Bytes, Units[U]);
  return B;
}

/// The bytes a line of global memory moved beyond its ideal, summed over
/// the profiled launches: (sectors - ideal) x 32; 0 for shared memory
/// (wavefronts move no bytes of their own).
double excessBytes(const LineResult &R, MemSpace Space) {
  if (Space != MemSpace::Global || R.Sectors <= R.Ideal)
    return 0;
  return (R.Sectors - R.Ideal) * 32;
}

std::string jsonValue(const std::optional<double> &V) {
  if (!V)
    return "null";
  char B[32];
  std::snprintf(B, sizeof B, "%.6g", *V);
  return B;
}

} // namespace

void writePairings(const ProfileSplit &S, std::ostream &OS) {
  bool Worth = false;
  unsigned NotProfiled = 0;
  for (const InstancePairing &P : S.Pairings) {
    Worth |= !P.Instance.empty() || P.Launches > 1 || P.Merged;
    NotProfiled += P.Launches == 0;
  }
  if (!Worth)
    return;
  OS << "\ninstances (analyzed -> profiled as, launches):\n";
  for (const InstancePairing &P : S.Pairings) {
    if (P.Launches == 0)
      continue;
    std::string Analyzed = P.Merged             ? P.Kernel + " (merged)"
                           : P.Instance.empty() ? P.Kernel
                                                : P.Instance;
    OS << "  " << Analyzed << " -> " << P.ProfiledAs << "  " << P.Launches
       << " launch" << (P.Launches == 1 ? "" : "es") << "\n";
    if (P.Merged)
      OS << "note: " << P.Note << "\n";
  }
  if (NotProfiled)
    OS << "  " << NotProfiled << " analyzed instance(s) not in the profile\n";
}

void writePairingsJson(const ProfileSplit &S, std::ostream &OS) {
  OS << "  \"instances\": [";
  bool First = true;
  for (const InstancePairing &P : S.Pairings) {
    OS << (First ? "\n" : ",\n")
       << "    {\"kernel\": " << jsonString(P.Kernel) << ", \"instance\": "
       << (P.Instance.empty() ? "null" : jsonString(P.Instance))
       << ", \"profiled_as\": "
       << (P.ProfiledAs.empty() ? "null" : jsonString(P.ProfiledAs))
       << ", \"launches\": " << P.Launches
       << ", \"merged\": " << (P.Merged ? "true" : "false")
       << ", \"note\": " << jsonString(P.Note) << "}";
    First = false;
  }
  OS << (First ? "],\n" : "\n  ],\n");
}

void writeLineTable(const LineComparison &L, std::ostream &OS) {
  bool Shared = L.Space == MemSpace::Shared;
  OS << "\n"
     << (Shared ? "shared memory, per line" : "per line") << " ("
     << (Shared ? "wavefronts" : "sectors") << "/ideal per request, requests"
     << (Shared ? "" : ", bytes moved beyond the ideal") << "):\n";
  for (const LineResult &R : L.Lines) {
    if (R.Verdict == "ok")
      continue;
    OS << "  " << R.File << ":" << R.Line << "  " << R.Verdict << "  "
       << ratioText(R) << "  " << num(R.Requests) << " requests"
       << (excessBytes(R, L.Space) > 0
               ? "  excess " + bytesText(excessBytes(R, L.Space))
               : "")
       << (R.PredictedExcess ? "  (predicted " +
                                   bytesText(*R.PredictedExcess) + ")"
                             : "")
       << (R.Rules.empty() ? "" : "  finding: " + R.Rules)
       << (R.Unpredicted.empty()
               ? ""
               : "  kernel without predictions: " + joined(R.Unpredicted))
       << (R.Note.empty() ? "" : "  (" + R.Note + ")") << "\n";
  }
  for (const std::string &M : L.Moves)
    OS << "note: re-attributed: " << M << "\n";
  OS << (Shared ? "shared lines: " : "lines: ") << L.Wasteful
     << (Shared ? " conflicting, " : " wasteful, ") << L.FlaggedMeasured
     << " flagged and measured, " << L.TruePositives << " true positives, "
     << L.FalseAlarms << " false alarms, " << L.Missed << " missed, "
     << L.FlaggedNotMeasured << " flagged but not measured; precision "
     << percent(L.Precision) << ", recall " << percent(L.Recall) << "\n";
}

namespace {

/// `"<Prefix>lines": [...],\n  "<Prefix>moves": [...]` (no comma after).
void writeLinesJson(const LineComparison &L, const std::string &Prefix,
                    std::ostream &OS) {
  std::string Unit = costUnits(L.Space);
  OS << "  \"" << Prefix << "lines\": [";
  bool First = true;
  for (const LineResult &R : L.Lines) {
    OS << (First ? "\n" : ",\n") << "    {\"file\": " << jsonString(R.File)
       << ", \"line\": " << R.Line << ", \"" << Unit << "\": " << num(R.Sectors)
       << ", \"ideal_" << Unit << "\": " << num(R.Ideal)
       << ", \"requests\": " << num(R.Requests);
    if (L.Space == MemSpace::Global)
      OS << ", \"excess_bytes\": " << num(excessBytes(R, L.Space))
         << ", \"predicted_excess_bytes\": " << jsonValue(R.PredictedExcess);
    OS << ", \"wasteful\": " << (R.Wasteful ? "true" : "false")
       << ", \"findings\": " << jsonString(R.Rules)
       << ", \"verdict\": " << jsonString(R.Verdict)
       << ", \"note\": " << jsonString(R.Note)
       << ", \"unpredicted_kernels\": [";
    for (size_t I = 0; I != R.Unpredicted.size(); ++I)
      OS << (I ? ", " : "") << jsonString(R.Unpredicted[I]);
    OS << "]}";
    First = false;
  }
  OS << (First ? "],\n" : "\n  ],\n") << "  \"" << Prefix << "moves\": [";
  for (size_t I = 0; I != L.Moves.size(); ++I)
    OS << (I ? ", " : "") << jsonString(L.Moves[I]);
  OS << "]";
}

/// The line counts and precision / recall, each member after ", ".
void writeLineSummary(const LineComparison &L, std::ostream &OS) {
  OS << ", \"wasteful_lines\": " << L.Wasteful
     << ", \"flagged_measured_lines\": " << L.FlaggedMeasured
     << ", \"true_positives\": " << L.TruePositives
     << ", \"false_alarms\": " << L.FalseAlarms << ", \"missed\": " << L.Missed
     << ", \"flagged_not_measured\": " << L.FlaggedNotMeasured
     << ", \"precision\": " << jsonValue(L.Precision)
     << ", \"recall\": " << jsonValue(L.Recall);
}

} // namespace

void writeLineJson(const LineComparison &Global, const LineComparison &Shared,
                   const Attribution &A, std::ostream &OS) {
  writeLinesJson(Global, "", OS);
  OS << ",\n";
  std::map<std::string, unsigned> Verdicts;
  for (const AccessResult &R : A.Results)
    ++Verdicts[verdictName(R.Result)];
  OS << "  \"summary\": {\"accesses\": " << A.Results.size();
  for (const auto &[V, N] : Verdicts)
    OS << ", " << jsonString(V) << ": " << N;
  writeLineSummary(Global, OS);
  OS << "},\n";
  writeLinesJson(Shared, "shared_", OS);
  OS << ",\n  \"shared_summary\": {\"space\": \"shared\"";
  writeLineSummary(Shared, OS);
  OS << "},\n";
}

} // namespace coalesce::verify
