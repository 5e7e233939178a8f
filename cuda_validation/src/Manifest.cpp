//===- Manifest.cpp - The access list coalesce-lint emits -----------------===//

#include "Manifest.h"

#include "Csv.h"

#include <cstdlib>
#include <map>
#include <sstream>

namespace coalesce::verify {

const std::vector<std::string> &manifestColumns() {
  static const std::vector<std::string> Columns = {
      "id",          "kernel",     "harness",   "file",      "line",
      "column",      "end_line",   "op",        "atomic",    "access_bytes",
      "elem_bytes",  "predicted",  "ideal",     "classification",
      "rule",        "call_sites", "expr",      "base",      "instance",
      "space",       "excess_per_launch"};
  return Columns;
}

namespace {

std::vector<std::string> splitTabs(const std::string &Line) {
  std::vector<std::string> Fields;
  std::string F;
  std::istringstream SS(Line);
  while (std::getline(SS, F, '\t'))
    Fields.push_back(F);
  if (!Line.empty() && Line.back() == '\t')
    Fields.emplace_back();
  return Fields;
}

bool parseUnsigned(const std::string &S, unsigned &V) {
  if (S.empty() || S == "-") {
    V = 0;
    return true;
  }
  char *End = nullptr;
  unsigned long L = std::strtoul(S.c_str(), &End, 10);
  V = static_cast<unsigned>(L);
  return End == S.c_str() + S.size();
}

std::vector<std::pair<std::string, unsigned>>
parseCallSites(const std::string &S) {
  std::vector<std::pair<std::string, unsigned>> Sites;
  if (S.empty() || S == "-")
    return Sites;
  std::istringstream SS(S);
  std::string Site;
  while (std::getline(SS, Site, ';')) {
    size_t Colon = Site.find_last_of(':');
    unsigned Line = 0;
    if (Colon != std::string::npos &&
        parseUnsigned(Site.substr(Colon + 1), Line))
      Sites.emplace_back(Site.substr(0, Colon), Line);
  }
  return Sites;
}

} // namespace

bool parseManifest(const std::string &Text, std::vector<ManifestAccess> &Out,
                   std::string &Error) {
  std::istringstream In(Text);
  std::string Line;
  std::map<std::string, size_t> Col;
  unsigned LineNo = 0;
  while (std::getline(In, Line)) {
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (Line.empty() || Line[0] == '#')
      continue;
    std::vector<std::string> Fields = splitTabs(Line);
    if (Col.empty()) {
      for (size_t I = 0; I != Fields.size(); ++I)
        Col[Fields[I]] = I;
      for (const char *Required : {"id", "kernel", "file", "line", "op"})
        if (!Col.count(Required)) {
          Error = "manifest line " + std::to_string(LineNo) +
                  ": header lacks the column '" + Required + "'";
          return false;
        }
      continue;
    }
    auto Get = [&](const char *Name) -> std::string {
      auto It = Col.find(Name);
      return It != Col.end() && It->second < Fields.size() ? Fields[It->second]
                                                          : std::string();
    };
    auto Fail = [&](const std::string &Why) {
      Error = "manifest line " + std::to_string(LineNo) + ": " + Why;
      return false;
    };
    ManifestAccess A;
    if (!parseUnsigned(Get("id"), A.Id) || !parseUnsigned(Get("line"), A.Line) ||
        !parseUnsigned(Get("column"), A.Column) ||
        !parseUnsigned(Get("end_line"), A.EndLine) ||
        !parseUnsigned(Get("access_bytes"), A.AccessBytes) ||
        !parseUnsigned(Get("elem_bytes"), A.ElemBytes))
      return Fail("a numeric column holds something else");
    A.Kernel = Get("kernel");
    A.File = Get("file");
    A.Op = Get("op");
    if (A.Kernel.empty() || A.File.empty() || A.Line == 0)
      return Fail("kernel, file and line must be set");
    if (A.Op != "load" && A.Op != "store" && A.Op != "load+store" &&
        A.Op != "atomic")
      return Fail("op must be load, store, load+store or atomic, not '" +
                  A.Op + "'");
    if (std::string H = Get("harness"); !H.empty() && H != "-")
      A.Harness = H;
    A.Atomic = Get("atomic");
    A.Predicted = parseNcuNumber(Get("predicted"));
    A.Ideal = parseNcuNumber(Get("ideal"));
    A.Classification = Get("classification");
    A.ExcessPerLaunch = parseNcuNumber(Get("excess_per_launch"));
    A.Rule = Get("rule");
    A.Expr = Get("expr");
    if (std::string B = Get("base"); B != "-")
      A.Base = B;
    if (std::string I = Get("instance"); I != "-")
      A.Instance = I;
    if (std::string S = Get("space"); S == "shared")
      A.Space = MemSpace::Shared;
    else if (!S.empty() && S != "global" && S != "-")
      return Fail("space must be global or shared, not '" + S + "'");
    A.CallSites = parseCallSites(Get("call_sites"));
    if (A.EndLine < A.Line)
      A.EndLine = A.Line;
    Out.push_back(std::move(A));
  }
  if (Col.empty()) {
    Error = "manifest is empty (no header row)";
    return false;
  }
  return true;
}

} // namespace coalesce::verify
