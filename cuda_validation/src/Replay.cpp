//===- Replay.cpp - coalesce-verify --method replay -----------------------===//

#include "Replay.h"

#include "NcuReport.h"

#include <cstdlib>
#include <sstream>

namespace coalesce::verify {

namespace {

/// Splits "k=v k=v reason=free text" into fields; reason and device run to
/// the end of the line.
std::map<std::string, std::string> fields(std::string Rest) {
  std::map<std::string, std::string> F;
  while (!Rest.empty()) {
    size_t Eq = Rest.find('=');
    if (Eq == std::string::npos)
      break;
    std::string Key = Rest.substr(0, Eq);
    std::string Value = Rest.substr(Eq + 1);
    if (Key == "reason" || Key == "device") {
      F[Key] = Value;
      break;
    }
    size_t Space = Value.find(' ');
    F[Key] = Value.substr(0, Space);
    Rest = Space == std::string::npos ? "" : Value.substr(Space + 1);
  }
  return F;
}

bool number(const std::string &S, double &V) {
  if (S.empty())
    return false;
  char *End = nullptr;
  unsigned long long N = std::strtoull(S.c_str(), &End, 10);
  if (End != S.c_str() + S.size() || S[0] == '-')
    return false;
  V = static_cast<double>(N);
  return true;
}

} // namespace

bool parseReplayOutput(const std::string &Text, ReplayOutput &Out,
                       std::string &Error) {
  std::istringstream In(Text);
  std::string Line;
  const std::string Prefix = "coalesce-replay: ";
  for (unsigned No = 1; std::getline(In, Line); ++No) {
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    size_t At = Line.find(Prefix);
    if (At == std::string::npos)
      continue;
    std::map<std::string, std::string> F =
        fields(Line.substr(At + Prefix.size()));
    auto Bad = [&](const std::string &Why) {
      Error = "line " + std::to_string(No) + ": " + Why + ": " + Line;
      return false;
    };
    if (F.count("device")) {
      Out.Device = F["device"];
    } else if (F.count("fatal")) {
      Out.Fatal = F["fatal"];
      Out.FatalReason = F["reason"];
    } else if (F.count("kernel")) {
      if (!F.count("status"))
        return Bad("kernel line without status");
      Out.Kernels[kernelBaseName(F["kernel"])] = {F["status"], F["reason"]};
    } else if (F.count("id")) {
      double Id = 0;
      if (!number(F["id"], Id))
        return Bad("bad id");
      ReplayCount C;
      if (F["status"] == "not-replayed") {
        C.Reason = F["reason"];
      } else if (!number(F["sectors"], C.Sectors) ||
                 !number(F["requests"], C.Requests)) {
        return Bad("sectors= and requests= must be counts");
      } else {
        C.Replayed = true;
        if (F.count("undefined") && !number(F["undefined"], C.Undefined))
          return Bad("bad undefined=");
      }
      Out.Counts[static_cast<unsigned>(Id)] = C;
    } else {
      return Bad("unknown replay line");
    }
  }
  return true;
}

Attribution attributeReplay(const std::vector<ManifestAccess> &Accesses,
                            const ReplayOutput &Replay, double Tolerance) {
  Attribution A;
  for (const ManifestAccess &M : Accesses) {
    AccessResult R;
    R.Access = M;
    R.ComparedPrediction = M.Predicted;
    auto K = Replay.Kernels.find(kernelBaseName(M.Kernel));
    auto C = Replay.Counts.find(M.Id);
    if (K != Replay.Kernels.end() && K->second.Status != "ok") {
      R.Result = Verdict::KernelFailed;
      R.Note = "the replay kernel failed: " + K->second.Reason;
    } else if (C == Replay.Counts.end()) {
      R.Result = Verdict::NotProfiled;
      R.Note = "replay.cu printed nothing for this access (re-emit DIR with "
               "this coalesce-lint)";
    } else if (!C->second.Replayed) {
      R.Result = Verdict::NotReplayed;
      R.Note = "not replayed: " + C->second.Reason;
    } else {
      R.Method = "instrumented-replay";
      R.Sectors = C->second.Sectors;
      R.Requests = C->second.Requests;
      if (R.Requests <= 0) {
        R.Result = Verdict::NotExecuted;
        R.Note = "the model's condition is false for every lane of the "
                 "replayed launch";
      } else {
        R.Measured = R.Sectors / R.Requests;
        R.InstructionValues.push_back(*R.Measured);
        if (!M.Predicted)
          R.Result = Verdict::Unpredicted;
        else
          R.Result = withinTolerance(*M.Predicted, *R.Measured, Tolerance)
                         ? Verdict::Confirmed
                         : Verdict::Mismatch;
        R.Note = "replay of the model's address on the GPU (checks the lane "
                 "model and launch, not the memory system)";
      }
      if (C->second.Undefined > 0)
        R.Note += "; " + std::to_string(static_cast<unsigned long long>(
                             C->second.Undefined)) +
                  " lane evaluations undefined in C (division by zero, "
                  "shift out of range) were left out";
    }
    A.Results.push_back(std::move(R));
  }
  return A;
}

} // namespace coalesce::verify
