//===- VerifyClient.cpp - Runs coalesce-verify and reads its results ------===//

#include "coalesce/Harness.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>

#include <cmath>

namespace coalesce {

namespace {

std::optional<double> optNumber(const llvm::json::Object &O, llvm::StringRef K) {
  if (std::optional<double> V = O.getNumber(K))
    return V;
  return std::nullopt;
}

std::string str(const llvm::json::Object &O, llvm::StringRef K) {
  if (std::optional<llvm::StringRef> V = O.getString(K))
    return V->str();
  return "";
}

std::string formatNum(double V) {
  return V == std::floor(V) ? fmt::format("{:.0f}", V) : fmt::format("{:.2f}", V);
}

} // namespace

llvm::Expected<VerifyRun> parseVerifyJson(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  if (!V)
    return V.takeError();
  const llvm::json::Object *Root = V->getAsObject();
  if (!Root || Root->getInteger("version").value_or(0) != 1)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "not a version-1 coalesce-verify JSON "
                                   "document");
  VerifyRun Run;
  Run.ExitCode = static_cast<int>(Root->getInteger("exit_code").value_or(0));
  Run.Message = str(*Root, "message");
  Run.Device = str(*Root, "device");
  if (const llvm::json::Array *As = Root->getArray("accesses")) {
    for (const llvm::json::Value &E : *As) {
      const llvm::json::Object *O = E.getAsObject();
      if (!O)
        continue;
      AccessMeasurement M;
      M.Id = static_cast<unsigned>(O->getInteger("id").value_or(0));
      M.Kernel = str(*O, "kernel");
      M.File = str(*O, "file");
      M.Line = static_cast<unsigned>(O->getInteger("line").value_or(0));
      M.Column = static_cast<unsigned>(O->getInteger("column").value_or(0));
      M.Op = str(*O, "op");
      M.Predicted = optNumber(*O, "predicted");
      M.ComparedPrediction = optNumber(*O, "compared_prediction");
      // coalesce-verify names the measured cost in the access's unit.
      if (str(*O, "space") == accessSpaceName(AccessSpace::Shared))
        M.Space = AccessSpace::Shared;
      std::string Unit = fmt::format("{}s", costUnitName(M.Space));
      M.MeasuredSectorsPerRequest =
          optNumber(*O, "measured_" + Unit + "_per_request");
      M.MeasuredRequests = O->getNumber("measured_requests").value_or(0);
      M.MeasuredSectors = O->getNumber("measured_" + Unit).value_or(0);
      M.MeasuredIdeal = optNumber(*O, "measured_ideal_" + Unit);
      M.Method = str(*O, "method");
      M.Verdict = str(*O, "verdict");
      M.Note = str(*O, "note");
      M.Launch = static_cast<unsigned>(O->getInteger("launch").value_or(0));
      if (const llvm::json::Array *G = O->getArray("group"))
        for (const llvm::json::Value &Id : *G)
          if (std::optional<int64_t> I = Id.getAsInteger())
            M.Group.push_back(static_cast<unsigned>(*I));
      Run.Accesses.push_back(std::move(M));
    }
  }
  return Run;
}

llvm::Expected<VerifyRun> runVerifier(llvm::StringRef VerifyExe,
                                      llvm::StringRef Dir,
                                      const VerifyOptions &Opts) {
  llvm::SmallString<256> Json(Dir), Log(Dir);
  llvm::sys::path::append(Json, "verify.json");
  llvm::sys::path::append(Log, "verify.log");
  llvm::sys::fs::remove(Json);
  std::vector<std::string> Args = {VerifyExe.str(), "--json", Json.str().str(),
                                   "--tolerance", fmt::format("{}", Opts.Tolerance)};
  if (Opts.AppCommand.empty()) {
    Args.insert(Args.end(), {"--timeout", std::to_string(Opts.TimeoutSeconds),
                             "--method", Opts.Method});
  } else {
    Args.insert(Args.end(),
                {"--app", Opts.AppCommand, "--manifest", Opts.Manifest});
    if (Opts.LaunchCount)
      Args.insert(Args.end(),
                  {"--launch-count", std::to_string(Opts.LaunchCount)});
    if (!Opts.KernelRegex.empty())
      Args.insert(Args.end(), {"--kernel", Opts.KernelRegex});
  }
  if (!Opts.Ncu.empty())
    Args.insert(Args.end(), {"--ncu", Opts.Ncu});
  if (!Opts.FromRecording.empty())
    Args.insert(Args.end(), {"--from-recording", Opts.FromRecording});
  Args.push_back(Dir.str());
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Log.str(),
                                                Log.str()};
  std::string ErrMsg;
  int Rc = llvm::sys::ExecuteAndWait(VerifyExe, Refs, std::nullopt, Redirects,
                                     0, 0, &ErrMsg);
  if (Rc < 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot run %s: %s", VerifyExe.str().c_str(),
                                   ErrMsg.c_str());
  std::string Output;
  if (auto Buf = llvm::MemoryBuffer::getFile(Log))
    Output = (*Buf)->getBuffer().str();
  auto Buf = llvm::MemoryBuffer::getFile(Json);
  if (!Buf) {
    // Usage errors stop coalesce-verify before it writes JSON.
    VerifyRun Run;
    Run.ExitCode = Rc;
    Run.Message = Output;
    Run.Output = Output;
    return Run;
  }
  llvm::Expected<VerifyRun> Run = parseVerifyJson((*Buf)->getBuffer());
  if (!Run)
    return Run.takeError();
  Run->ExitCode = Rc;
  Run->Output = std::move(Output);
  return Run;
}

std::vector<VerifiedAccess>
mergeMeasurements(const Report &R, llvm::ArrayRef<AccessMeasurement> M) {
  std::map<unsigned, std::vector<const AccessMeasurement *>> ById;
  for (const AccessMeasurement &A : M)
    ById[A.Id].push_back(&A);
  std::vector<VerifiedAccess> Out;
  for (size_t KI = 0; KI != R.Kernels.size(); ++KI) {
    const KernelRecord &K = R.Kernels[KI];
    for (size_t AI = 0; AI != K.Accesses.size(); ++AI) {
      const AccessRecord &A = K.Accesses[AI];
      VerifiedAccess V{&K, &A, {}};
      auto It = ById.find(accessId(R, KI, AI));
      auto Matches = [&](const AccessMeasurement &X) {
        return X.Kernel == K.Name && X.Line == A.Loc.Line &&
               X.Column == A.Loc.Column &&
               llvm::sys::path::filename(X.File) ==
                   llvm::sys::path::filename(A.Loc.File);
      };
      if (It != ById.end() && Matches(*It->second.front())) {
        V.Measurements = It->second;
      } else {
        // The report changed since the harness was emitted: match by place
        // (the last id measured there, with all of its launches).
        const AccessMeasurement *Last = nullptr;
        for (const AccessMeasurement &X : M)
          if (Matches(X))
            Last = &X;
        if (Last)
          V.Measurements = ById[Last->Id];
      }
      std::stable_sort(V.Measurements.begin(), V.Measurements.end(),
                       [](const AccessMeasurement *L,
                          const AccessMeasurement *R) {
                         return L->Launch < R->Launch;
                       });
      Out.push_back(std::move(V));
    }
  }
  return Out;
}

Measurement
combineLaunches(llvm::ArrayRef<const AccessMeasurement *> Launches) {
  const AccessMeasurement &First = *Launches.front();
  Measurement Out;
  Out.SectorsPerRequest = First.MeasuredSectorsPerRequest;
  Out.Requests = First.MeasuredRequests;
  Out.Method = First.Method;
  Out.Verdict = First.Verdict;
  Out.Note = First.Note;
  if (Launches.size() == 1) {
    if (First.Space == AccessSpace::Global && First.Group.empty() &&
        First.MeasuredSectorsPerRequest && First.MeasuredIdeal)
      Out.ExcessBytes =
          std::max(0.0, First.MeasuredSectors - *First.MeasuredIdeal) * 32;
    return Out;
  }
  double Sectors = 0, Requests = 0;
  bool Measured = false, Mismatch = false, Confirmed = false;
  std::string List;
  for (const AccessMeasurement *L : Launches) {
    Out.Launches.push_back({L->Launch, L->MeasuredSectorsPerRequest,
                            L->MeasuredRequests, L->Verdict});
    List += fmt::format(
        "{}#{} {}", List.empty() ? "" : ", ", L->Launch,
        L->MeasuredSectorsPerRequest ? formatNum(*L->MeasuredSectorsPerRequest)
                                     : L->Verdict);
    if (!L->MeasuredSectorsPerRequest)
      continue;
    Measured = true;
    Sectors += L->MeasuredSectors;
    Requests += L->MeasuredRequests;
    Mismatch |= L->Verdict == "mismatch";
    Confirmed |= L->Verdict == "confirmed";
  }
  if (Measured) {
    Out.SectorsPerRequest =
        Requests > 0 ? std::optional<double>(Sectors / Requests) : std::nullopt;
    Out.Requests = Requests;
    Out.Verdict = Mismatch ? "mismatch" : Confirmed ? "confirmed" : Out.Verdict;
  }
  std::string PerLaunch = fmt::format(
      "{} launches profiled ({}s per request: {})", Launches.size(),
      costUnitName(First.Space), List);
  Out.Note = Out.Note.empty() ? PerLaunch : Out.Note + "; " + PerLaunch;
  return Out;
}

std::string describeMeasurement(const AccessMeasurement &M) {
  if (!M.MeasuredSectorsPerRequest)
    return fmt::format("not measured on the GPU: {}{}", M.Verdict,
                       M.Note.empty() ? "" : " (" + M.Note + ")");
  std::string S = fmt::format(
      "measured on the GPU: {} {}s per request over {} requests ({}): {}",
      formatNum(*M.MeasuredSectorsPerRequest), costUnitName(M.Space),
      formatNum(M.MeasuredRequests),
      M.Method, M.Verdict);
  if (M.Group.size() > 1)
    S += fmt::format(" (measured together with {} other access{} on its line)",
                     M.Group.size() - 1, M.Group.size() > 2 ? "es" : "");
  return S;
}

} // namespace coalesce
