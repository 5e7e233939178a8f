//===- MergeReports.cpp - Join the reports of CI shards -------------------===//
#include "coalesce/MergeReports.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace json = llvm::json;

namespace coalesce {
namespace {

enum class Kind { Json, Sarif };

llvm::Error notAReport(const ReportText &R, llvm::StringRef Why) {
  return llvm::createStringError(
      std::errc::invalid_argument, "'%s' is not a coalesce-lint report: %s",
      R.Name.c_str(), Why.str().c_str());
}

/// The format of \p V, or an error saying why it is neither.
llvm::Expected<Kind> kindOf(const json::Value &V, const ReportText &R) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return notAReport(R, "not a JSON object");
  if (O->getString("tool") == "coalesce-lint") {
    if (O->getInteger("schema") != 1)
      return notAReport(R, "unsupported JSON schema (this build reads 1)");
    if (!O->getArray("files") || !O->getArray("kernels"))
      return notAReport(R, "no 'files' or 'kernels' array");
    return Kind::Json;
  }
  if (O->getString("version") == "2.1.0" && O->getArray("runs")) {
    for (const json::Value &Run : *O->getArray("runs")) {
      const json::Object *RO = Run.getAsObject();
      const json::Object *Tool = RO ? RO->getObject("tool") : nullptr;
      const json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
      if (!Driver || Driver->getString("name") != "coalesce-lint")
        return notAReport(R, "a SARIF run of another tool");
    }
    return Kind::Sarif;
  }
  return notAReport(R, "neither a JSON report (schema 1) nor SARIF 2.1.0");
}

std::string str(const json::Object *O, llvm::StringRef Key) {
  if (!O)
    return "";
  if (std::optional<llvm::StringRef> S = O->getString(Key))
    return S->str();
  return "";
}

int64_t num(const json::Object *O, llvm::StringRef Key) {
  if (!O)
    return 0;
  return O->getInteger(Key).value_or(0);
}

json::Value mergeJson(std::vector<json::Value> Docs) {
  json::Object &First = *Docs.front().getAsObject();
  json::Array Files, Kernels;
  int64_t Findings = 0, Suppressed = 0;
  std::set<std::string> Seen;
  for (json::Value &D : Docs) {
    json::Object &O = *D.getAsObject();
    for (json::Value &F : *O.getArray("files"))
      if (Seen.insert(str(F.getAsObject(), "file")).second)
        Files.push_back(std::move(F));
    for (json::Value &K : *O.getArray("kernels"))
      Kernels.push_back(std::move(K));
    Findings += num(&O, "findings");
    Suppressed += num(&O, "suppressed_findings");
  }
  std::stable_sort(Files.begin(), Files.end(),
                   [](const json::Value &A, const json::Value &B) {
                     return str(A.getAsObject(), "file") <
                            str(B.getAsObject(), "file");
                   });
  auto KeyOf = [](const json::Value &K) {
    const json::Object *O = K.getAsObject();
    return std::make_tuple(str(O, "file"), num(O, "line"), num(O, "column"),
                           str(O, "name"), str(O, "instantiation"));
  };
  std::stable_sort(Kernels.begin(), Kernels.end(),
                   [&](const json::Value &A, const json::Value &B) {
                     return KeyOf(A) < KeyOf(B);
                   });
  First["files"] = std::move(Files);
  First["kernels"] = std::move(Kernels);
  First["findings"] = Findings;
  First["suppressed_findings"] = Suppressed;
  return std::move(Docs.front());
}

json::Value mergeSarif(std::vector<json::Value> Docs) {
  json::Object &First = *Docs.front().getAsObject();
  json::Object &Run = *(*First.getArray("runs"))[0].getAsObject();
  json::Array Results;
  json::Array Notifications;
  bool Success = true;
  for (json::Value &D : Docs)
    for (json::Value &R : *D.getAsObject()->getArray("runs")) {
      json::Object &RO = *R.getAsObject();
      if (json::Array *Rs = RO.getArray("results"))
        for (json::Value &Res : *Rs)
          Results.push_back(std::move(Res));
      if (json::Array *Invs = RO.getArray("invocations"))
        for (json::Value &Inv : *Invs) {
          json::Object *IO = Inv.getAsObject();
          if (!IO)
            continue;
          Success &= IO->getBoolean("executionSuccessful").value_or(true);
          if (json::Array *Ns = IO->getArray("toolExecutionNotifications"))
            for (json::Value &N : *Ns)
              Notifications.push_back(std::move(N));
        }
    }
  auto KeyOf = [](const json::Value &Res) {
    const json::Object *O = Res.getAsObject();
    const json::Array *Locs = O ? O->getArray("locations") : nullptr;
    const json::Object *Phys =
        Locs && !Locs->empty() && (*Locs)[0].getAsObject()
            ? (*Locs)[0].getAsObject()->getObject("physicalLocation")
            : nullptr;
    const json::Object *Art =
        Phys ? Phys->getObject("artifactLocation") : nullptr;
    const json::Object *Region = Phys ? Phys->getObject("region") : nullptr;
    return std::make_tuple(str(Art, "uri"), num(Region, "startLine"),
                           num(Region, "startColumn"), str(O, "ruleId"));
  };
  std::stable_sort(Results.begin(), Results.end(),
                   [&](const json::Value &A, const json::Value &B) {
                     return KeyOf(A) < KeyOf(B);
                   });
  Run["results"] = std::move(Results);
  Run["invocations"] = json::Array{json::Object{
      {"executionSuccessful", Success},
      {"toolExecutionNotifications", std::move(Notifications)}}};
  json::Array OneRun;
  OneRun.push_back(std::move((*First.getArray("runs"))[0]));
  First["runs"] = std::move(OneRun);
  return std::move(Docs.front());
}

} // namespace

llvm::Expected<std::string> mergeReports(llvm::ArrayRef<ReportText> Reports) {
  if (Reports.empty())
    return llvm::createStringError(std::errc::invalid_argument,
                                   "no reports to merge");
  std::vector<json::Value> Docs;
  std::optional<Kind> Format;
  for (const ReportText &R : Reports) {
    llvm::Expected<json::Value> V = json::parse(R.Text);
    if (!V)
      return notAReport(R, "invalid JSON: " + llvm::toString(V.takeError()));
    llvm::Expected<Kind> K = kindOf(*V, R);
    if (!K)
      return K.takeError();
    if (Format && *Format != *K)
      return llvm::createStringError(
          std::errc::invalid_argument,
          "'%s' is %s but '%s' is %s: merge reports of one format",
          R.Name.c_str(), *K == Kind::Json ? "JSON" : "SARIF",
          Reports.front().Name.c_str(),
          *Format == Kind::Json ? "JSON" : "SARIF");
    Format = *K;
    Docs.push_back(std::move(*V));
  }
  json::Value Merged = *Format == Kind::Json ? mergeJson(std::move(Docs))
                                             : mergeSarif(std::move(Docs));
  return llvm::formatv("{0:2}", Merged).str() + "\n";
}

} // namespace coalesce
