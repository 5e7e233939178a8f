//===- ResultWriter.cpp - coalesce-verify's table, TSV and JSON -----------===//

#include "ResultWriter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace coalesce::verify {

std::string formatValue(const std::optional<double> &V) {
  if (!V)
    return "-";
  char Buf[64];
  if (*V == std::floor(*V) && std::fabs(*V) < 1e15)
    std::snprintf(Buf, sizeof Buf, "%.0f", *V);
  else
    std::snprintf(Buf, sizeof Buf, "%.2f", *V);
  return Buf;
}

namespace {

std::string location(const ManifestAccess &A) {
  return fileBaseName(A.File) + ":" + std::to_string(A.Line) + ":" +
         std::to_string(A.Column);
}

/// The kernel column: the instance measured (application mode) or the
/// kernel, and which launch when several of it were profiled ("k<int> #2").
std::string kernelLabel(const AccessResult &R) {
  std::string L = R.Instance.empty() ? R.Access.Kernel : R.Instance;
  if (R.Launches > 1 && R.Launch)
    L += " #" + std::to_string(R.Launch);
  return L;
}

/// The op column: "load", or "shared load" for a shared-memory access
/// (whose predicted and measured values are wavefronts per request).
std::string opLabel(const ManifestAccess &A) {
  return A.shared() ? "shared " + A.Op : A.Op;
}

std::string oneLine(std::string S) {
  std::replace(S.begin(), S.end(), '\t', ' ');
  std::replace(S.begin(), S.end(), '\n', ' ');
  return S;
}

std::string jsonNumber(const std::optional<double> &V) {
  if (!V || !std::isfinite(*V))
    return "null";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.6g", *V);
  return Buf;
}

} // namespace

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    case '\r':
      Out += "\\r";
      break;
    default:
      if (C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  return Out + "\"";
}

void writeTable(const Attribution &A, const RunSummary &S, std::ostream &OS) {
  std::vector<std::vector<std::string>> Rows = {
      {"kernel", "line:col", "expr", "op", "predicted", "measured", "verdict",
       "method"}};
  for (const AccessResult &R : A.Results) {
    const ManifestAccess &M = R.Access;
    std::string Expr = oneLine(M.Expr);
    if (Expr.size() > 40)
      Expr = Expr.substr(0, 37) + "...";
    Rows.push_back({kernelLabel(R),
                    std::to_string(M.Line) + ":" + std::to_string(M.Column),
                    Expr.empty() ? "-" : Expr, opLabel(M),
                    formatValue(M.Predicted),
                    formatValue(R.Measured), verdictName(R.Result), R.Method});
  }
  std::vector<size_t> Width(Rows.front().size(), 0);
  for (const auto &Row : Rows)
    for (size_t I = 0; I != Row.size(); ++I)
      Width[I] = std::max(Width[I], Row[I].size());
  for (const auto &Row : Rows) {
    std::string Line;
    for (size_t I = 0; I != Row.size(); ++I) {
      Line += Row[I];
      if (I + 1 != Row.size())
        Line += std::string(Width[I] - Row[I].size() + 2, ' ');
    }
    OS << Line << "\n";
  }
  std::map<Verdict, unsigned> Count;
  for (const AccessResult &R : A.Results)
    ++Count[R.Result];
  std::set<unsigned> Ids;
  for (const AccessResult &R : A.Results)
    Ids.insert(R.Access.Id);
  if (Ids.size() == A.Results.size())
    OS << "\n" << A.Results.size() << " accesses:";
  else // Application mode: one result per access and profiled launch.
    OS << "\n"
       << A.Results.size() << " results (" << Ids.size()
       << " accesses, per profiled launch):";
  bool First = true;
  for (const auto &[V, N] : Count) {
    OS << (First ? " " : ", ") << N << " " << verdictName(V);
    First = false;
  }
  OS << " (tolerance " << S.Tolerance << " x max(1, predicted))\n";
  if (std::any_of(A.Results.begin(), A.Results.end(),
                  [](const AccessResult &R) { return R.Access.shared(); }))
    OS << "note: shared-memory accesses are compared in wavefronts per "
          "request (\"L1 Wavefronts Shared\"), the others in sectors\n";
  std::set<std::string> Printed; // Group notes once per group and launch.
  for (const AccessResult &R : A.Results) {
    // Application mode counts the instances never launched once, under the
    // pairings; a file can have hundreds (the JSON keeps each note).
    bool UnlaunchedInstance =
        R.Result == Verdict::NotProfiled && !R.Instance.empty();
    if (!R.Note.empty() && !UnlaunchedInstance &&
        (R.Group.empty() || Printed.insert(kernelLabel(R) + R.Note).second))
      OS << "note: " << kernelLabel(R) << " " << location(R.Access) << " "
         << oneLine(R.Access.Expr) << ": " << R.Note << "\n";
  }
  if (!A.Unattributed.empty()) {
    OS << "note: " << A.Unattributed.size()
       << " memory instruction(s) match no access of the manifest:";
    for (const UnattributedInstruction &U : A.Unattributed)
      OS << " " << U.Instruction.Function
         << (U.Instruction.Launch > 1
                 ? " #" + std::to_string(U.Instruction.Launch)
                 : std::string())
         << "@" << fileBaseName(U.Instruction.File)
         << ":" << U.Instruction.Line << "("
         << (U.Instruction.Space == MemSpace::Shared ? "shared " : "")
         << memOpName(U.Instruction.Op) << ")";
    OS << "\n";
  }
}

void writeTsv(const Attribution &A, std::ostream &OS) {
  OS << "id\tkernel\tfile\tline\tcolumn\top\texpr\tpredicted\tcompared_"
        "prediction\tmeasured\trequests\tsectors\tmethod\tverdict\tgroup\t"
        "note\tinstance\tlaunch\tspace\n";
  for (const AccessResult &R : A.Results) {
    const ManifestAccess &M = R.Access;
    std::string Group;
    for (unsigned Id : R.Group)
      Group += (Group.empty() ? "" : ",") + std::to_string(Id);
    char Req[64], Sec[64];
    std::snprintf(Req, sizeof Req, "%.0f", R.Requests);
    std::snprintf(Sec, sizeof Sec, "%.0f", R.Sectors);
    OS << M.Id << "\t" << M.Kernel << "\t" << M.File << "\t" << M.Line << "\t"
       << M.Column << "\t" << M.Op << "\t" << oneLine(M.Expr) << "\t"
       << formatValue(M.Predicted) << "\t" << formatValue(R.ComparedPrediction)
       << "\t" << formatValue(R.Measured) << "\t" << Req << "\t" << Sec << "\t"
       << R.Method << "\t" << verdictName(R.Result) << "\t"
       << (Group.empty() ? "-" : Group) << "\t"
       << (R.Note.empty() ? "-" : oneLine(R.Note)) << "\t"
       << (R.Instance.empty() ? "-" : oneLine(R.Instance)) << "\t"
       << (R.Launch ? std::to_string(R.Launch) : "-") << "\t"
       << memSpaceName(M.Space) << "\n";
  }
}

void writeJson(const Attribution &A, const RunSummary &S, std::ostream &OS,
               const std::function<void(std::ostream &)> &Extra) {
  OS << "{\n  \"version\": 1,\n  \"tool\": \"coalesce-verify\",\n";
  if (Extra)
    Extra(OS);
  OS
     << "  \"method\": " << jsonString(S.Method) << ",\n"
     << "  \"device\": " << jsonString(S.Device) << ",\n"
     << "  \"tolerance\": " << jsonNumber(S.Tolerance) << ",\n"
     << "  \"exit_code\": " << S.ExitCode << ",\n"
     << "  \"message\": " << jsonString(S.Message) << ",\n"
     << "  \"kernels\": [";
  bool First = true;
  for (const auto &[Name, K] : S.Kernels) {
    OS << (First ? "\n" : ",\n") << "    {\"name\": " << jsonString(Name)
       << ", \"status\": " << jsonString(K.Status)
       << ", \"reason\": " << jsonString(K.Reason) << "}";
    First = false;
  }
  OS << (First ? "],\n" : "\n  ],\n") << "  \"accesses\": [";
  First = true;
  for (const AccessResult &R : A.Results) {
    const ManifestAccess &M = R.Access;
    OS << (First ? "\n" : ",\n") << "    {\"id\": " << M.Id
       << ", \"kernel\": " << jsonString(M.Kernel)
       << ", \"file\": " << jsonString(M.File) << ", \"line\": " << M.Line
       << ", \"column\": " << M.Column << ", \"op\": " << jsonString(M.Op)
       << ", \"expr\": " << jsonString(M.Expr)
       << ", \"predicted\": " << jsonNumber(M.Predicted)
       << ", \"compared_prediction\": " << jsonNumber(R.ComparedPrediction)
       << ", \"measured_" << costUnits(M.Space)
       << "_per_request\": " << jsonNumber(R.Measured)
       << ", \"measured_requests\": " << jsonNumber(R.Requests)
       << ", \"measured_" << costUnits(M.Space)
       << "\": " << jsonNumber(R.Sectors) << ", \"measured_ideal_"
       << costUnits(M.Space) << "\": " << jsonNumber(R.IdealSectors)
       << ", \"method\": " << jsonString(R.Method)
       << ", \"verdict\": " << jsonString(verdictName(R.Result))
       << ", \"group\": [";
    for (size_t I = 0; I != R.Group.size(); ++I)
      OS << (I ? ", " : "") << R.Group[I];
    OS << "], \"instruction_values\": [";
    for (size_t I = 0; I != R.InstructionValues.size(); ++I)
      OS << (I ? ", " : "") << jsonNumber(R.InstructionValues[I]);
    OS << "], \"note\": " << jsonString(R.Note) << ", \"instance\": "
       << (R.Instance.empty() ? "null" : jsonString(R.Instance))
       << ", \"launch\": "
       << (R.Launch ? std::to_string(R.Launch) : std::string("null"))
       << ", \"launches\": " << R.Launches << ", \"profiled_as\": "
       << (R.ProfiledAs.empty() ? "null" : jsonString(R.ProfiledAs))
       << ", \"space\": " << jsonString(memSpaceName(M.Space)) << "}";
    First = false;
  }
  OS << (First ? "],\n" : "\n  ],\n") << "  \"unattributed\": [";
  First = true;
  for (const UnattributedInstruction &U : A.Unattributed) {
    const SassInstruction &I = U.Instruction;
    OS << (First ? "\n" : ",\n") << "    {\"kernel\": " << jsonString(I.Function)
       << ", \"file\": " << jsonString(I.File) << ", \"line\": " << I.Line
       << ", \"op\": " << jsonString(memOpName(I.Op))
       << ", \"launch\": " << I.Launch
       << ", \"sass\": " << jsonString(I.Sass)
       << ", \"executed\": " << jsonNumber(I.Executed)
       << ", \"" << costUnits(I.Space) << "\": " << jsonNumber(I.Sectors)
       << ", \"space\": " << jsonString(memSpaceName(I.Space)) << "}";
    First = false;
  }
  OS << (First ? "]\n" : "\n  ]\n") << "}\n";
}

} // namespace coalesce::verify
