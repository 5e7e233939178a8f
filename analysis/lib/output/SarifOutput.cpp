//===- SarifOutput.cpp - SARIF 2.1.0 for GitHub code scanning -------------===//
///
/// \file
/// One run: tool.driver with the rule registry (Rules.def) as rule metadata,
/// one result per finding with a repository-relative location (uriBaseId
/// SRCROOT, the working directory), the notes as related locations, a
/// partial fingerprint that survives line shifts, suppressions for
/// suppressed findings and, with a baseline, each result's baselineState.
/// Compile errors that cost the analysis kernels become tool notifications.
///
//===----------------------------------------------------------------------===//

#include "coalesce/FindingGroups.h"
#include "coalesce/Output.h"
#include "coalesce/Rules.h"

#include "findings/Paths.h"
#include "output/TableFor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <map>
#include <tuple>

#ifndef COALESCE_INFORMATION_URI
#define COALESCE_INFORMATION_URI "https://github.com/coalesce-lint/coalesce-lint"
#endif

namespace coalesce {

namespace {

using llvm::json::OStream;

constexpr const char *SourceRoot = "SRCROOT";
constexpr const char *FingerprintKey = "coalesceFinding/v1";

/// \p Path with the characters a URI may not hold percent-encoded.
std::string uriEscape(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Out += C;
    else
      Out += fmt::format("%{:02X}", C);
  }
  return Out;
}

/// The directory uriBaseId SRCROOT stands for, as a file URI ending in '/'.
std::string sourceRootUri() {
  std::string Dir = absolutePath(".");
  if (Dir.back() != '/')
    Dir += '/';
  return "file://" + uriEscape(Dir);
}

void textObject(OStream &J, llvm::StringRef Key, llvm::StringRef Text) {
  J.attributeObject(Key, [&] { J.attribute("text", Text); });
}

void artifactLocation(OStream &J, llvm::StringRef File) {
  J.attributeObject("artifactLocation", [&] {
    if (std::optional<std::string> Rel = relativePath(File, "")) {
      J.attribute("uri", uriEscape(*Rel));
      J.attribute("uriBaseId", SourceRoot);
    } else {
      J.attribute("uri", "file://" + uriEscape(absolutePath(File)));
    }
  });
}

/// {"physicalLocation": {...}} for \p Begin (and \p End, its last character,
/// when known): SARIF's endColumn is exclusive.
void physicalLocation(OStream &J, const SourceLocation &Begin,
                      const SourceLocation &End = {}) {
  J.attributeObject("physicalLocation", [&] {
    artifactLocation(J, Begin.File);
    if (!Begin.valid())
      return;
    J.attributeObject("region", [&] {
      J.attribute("startLine", int64_t(Begin.Line));
      if (Begin.Column)
        J.attribute("startColumn", int64_t(Begin.Column));
      bool SameFile = End.File.empty() || End.File == Begin.File;
      if (End.valid() && End.Column && SameFile && Begin.Column &&
          (End.Line > Begin.Line ||
           (End.Line == Begin.Line && End.Column >= Begin.Column))) {
        J.attribute("endLine", int64_t(End.Line));
        J.attribute("endColumn", int64_t(End.Column + 1));
      }
    });
  });
}

/// "coalesce-stride" -> "CoalesceStride", SARIF's friendly rule name.
std::string friendlyName(llvm::StringRef Id) {
  std::string Out;
  bool Upper = true;
  for (char C : Id) {
    if (C == '-') {
      Upper = true;
      continue;
    }
    Out += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Out;
}

void writeRule(OStream &J, const RuleInfo &R) {
  J.object([&] {
    J.attribute("id", R.Id);
    J.attribute("name", friendlyName(R.Id));
    textObject(J, "shortDescription", R.Summary);
    textObject(J, "fullDescription", R.Description);
    J.attributeObject("help", [&] {
      J.attribute("text", fmt::format("{}\n\nBad:  {}\nGood: {}",
                                      R.Description, R.Bad, R.Good));
      J.attribute("markdown",
                  fmt::format("{}\n\nBad:\n\n```cuda\n{}\n```\n\nGood:\n\n"
                              "```cuda\n{}\n```",
                              R.Description, R.Bad, R.Good));
    });
    J.attributeObject("defaultConfiguration",
                      [&] { J.attribute("level", "warning"); });
    J.attributeObject("properties", [&] {
      J.attributeArray("tags", [&] {
        J.value("performance");
        J.value("cuda");
      });
    });
  });
}

/// The index of \p Id in the registry (every finding's rule is in it).
int64_t ruleIndex(llvm::StringRef Id) {
  llvm::ArrayRef<RuleInfo> Rules = allRules();
  for (size_t I = 0; I < Rules.size(); ++I)
    if (Id == Rules[I].Id)
      return I;
  return -1;
}

/// Where a result points, and its rank, beyond what the finding holds.
struct Placement {
  /// The kernel's call of the function that holds the access, when its
  /// verdict differs per call site (FindingGroup::AtCallSite).
  std::optional<SourceLocation> CallSite;
  /// 0..100, higher for costlier: by position in the costliest-first order.
  double Rank = 0;
  /// The member whose fingerprint identifies a group's result: the least
  /// (fingerprint, occurrence) of its members, which does not change when
  /// another member becomes the costliest; null: the finding's own.
  const TriagedFinding *Identity = nullptr;
  /// Where the group's verdicts hold and the others of the same access
  /// (verdictLines()), for the message; empty for a single context.
  std::vector<std::string> Contexts;
};

void writeResult(OStream &J, const TriagedFinding &T, bool HasBaseline,
                 const Placement &Where) {
  const AccessRecord &A = *T.Access;
  const Finding &F = T.F;
  J.object([&] {
    J.attribute("ruleId", F.RuleId);
    if (int64_t Index = ruleIndex(F.RuleId); Index >= 0)
      J.attribute("ruleIndex", Index);
    // SARIF's levels are the severities' names: note, warning, error.
    J.attribute("level", severityName(T.Level));
    std::string Text = F.Message + ".";
    for (std::string C : Where.Contexts) {
      C[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(C[0])));
      Text += " " + C + ".";
    }
    if (!F.Suggestion.empty())
      Text += fmt::format(" Suggestion: {}.", F.Suggestion);
    textObject(J, "message", Text);
    J.attributeArray("locations", [&] {
      J.object([&] {
        if (Where.CallSite)
          physicalLocation(J, *Where.CallSite);
        else
          physicalLocation(J, A.Loc, A.EndLoc);
      });
    });
    J.attribute("rank", Where.Rank);
    J.attributeArray("relatedLocations", [&] {
      int64_t Id = 0;
      if (Where.CallSite)
        J.object([&] {
          J.attribute("id", Id++);
          physicalLocation(J, A.Loc, A.EndLoc);
          textObject(J, "message",
                     "the access, in the function this call reaches");
        });
      for (const Note &N : F.Notes) {
        if (N.Loc.File.empty())
          continue;
        J.object([&] {
          J.attribute("id", Id++);
          physicalLocation(J, N.Loc);
          textObject(J, "message", N.Message);
        });
      }
    });
    J.attributeObject("partialFingerprints", [&] {
      const TriagedFinding &Id = Where.Identity ? *Where.Identity : T;
      J.attribute(FingerprintKey,
                  fmt::format("{}:{}", Id.Fingerprint, Id.Occurrence));
    });
    if (HasBaseline)
      J.attribute("baselineState", T.Baselined ? "unchanged" : "new");
    if (T.SuppressedBy || T.Baselined)
      J.attributeArray("suppressions", [&] {
        J.object([&] {
          if (T.SuppressedBy) {
            J.attribute("kind", "inSource");
            J.attribute("justification", T.SuppressedBy->Text);
          } else {
            J.attribute("kind", "external");
            J.attribute("justification", "accepted in the baseline");
          }
        });
      });
    J.attributeObject("properties", [&] {
      J.attribute("kernel", A.Kernel.empty() ? T.Kernel->Name : A.Kernel);
      J.attribute("expression", A.Expression);
      if (A.Predicted.SectorsPerRequest)
        J.attribute("sectorsPerRequest", *A.Predicted.SectorsPerRequest);
      if (A.Predicted.IdealSectorsPerRequest)
        J.attribute("idealSectorsPerRequest",
                    *A.Predicted.IdealSectorsPerRequest);
      if (F.Cost) {
        J.attribute("excessBytes", F.Cost->ExcessBytes);
        J.attribute("fetchedBytes", F.Cost->FetchedBytes);
        J.attribute("impactPer", impactUnitName(F.Cost->Unit));
        if (F.Cost->KernelShare)
          J.attribute("kernelTrafficShare", *F.Cost->KernelShare);
        J.attribute("impact", describeImpact(*F.Cost, A.Pattern.Op));
      }
    });
  });
}

/// Compile errors that cost the analysis something, as notifications.
void writeNotifications(OStream &J, const Report &R) {
  J.attributeArray("toolExecutionNotifications", [&] {
    for (const FileResult &F : R.Files) {
      auto Notify = [&](const SourceLocation &Loc, const std::string &Text) {
        J.object([&] {
          J.attribute("level", "error");
          textObject(J, "message", Text);
          J.attributeArray("locations", [&] {
            J.object([&] { physicalLocation(J, Loc); });
          });
        });
      };
      if (!F.FatalError.empty())
        Notify(SourceLocation{F.File, 0, 0}, F.FatalError);
      for (const CompileError &E : F.Errors)
        if (E.InKernel)
          Notify(E.Loc.File.empty() ? SourceLocation{F.File, 0, 0} : E.Loc,
                 E.Message);
    }
  });
}

} // namespace

unsigned writeSarif(const Report &R, const OutputOptions &Opts,
                    llvm::raw_ostream &OS) {
  FindingTable Local;
  const FindingTable &Table = tableFor(R, Opts, Local);
  // One result per source access (or call site), costliest first.
  std::vector<FindingGroup> Groups = groupFindings(Table);
  OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    J.attribute("version", "2.1.0");
    J.attributeArray("runs", [&] {
      J.object([&] {
        J.attributeObject("tool", [&] {
          J.attributeObject("driver", [&] {
            J.attribute("name", "coalesce-lint");
            J.attribute("version", toolVersion());
            J.attribute("semanticVersion", toolVersion());
            J.attribute("informationUri", COALESCE_INFORMATION_URI);
            J.attributeArray("rules", [&] {
              for (const RuleInfo &Rule : allRules())
                writeRule(J, Rule);
            });
          });
        });
        J.attributeObject("originalUriBaseIds", [&] {
          J.attributeObject(SourceRoot,
                            [&] { J.attribute("uri", sourceRootUri()); });
        });
        J.attributeArray("invocations", [&] {
          J.object([&] {
            J.attribute("executionSuccessful", true);
            writeNotifications(J, R);
          });
        });
        J.attributeArray("results", [&] {
          // The groups, the rank falling with the position; then each
          // suppressed finding, which carries its own suppression.
          std::vector<std::pair<const TriagedFinding *, Placement>> Order;
          for (const FindingGroup &G : Groups) {
            Placement Where;
            if (G.AtCallSite)
              Where.CallSite = G.Primary;
            Where.Contexts = verdictLines(G, /*NameOtherRules=*/false);
            for (const Verdict &V : G.Verdicts)
              for (const TriagedFinding *T : V.Members)
                if (!Where.Identity ||
                    std::tie(T->Fingerprint, T->Occurrence) <
                        std::tie(Where.Identity->Fingerprint,
                                 Where.Identity->Occurrence))
                  Where.Identity = T;
            Order.emplace_back(&G.lead(), Where);
          }
          for (const TriagedFinding &T : Table.Findings)
            if (!T.reported())
              Order.emplace_back(&T, Placement());
          for (size_t I = 0; I < Order.size(); ++I) {
            Placement &Where = Order[I].second;
            Where.Rank = std::round(100.0 * double(Order.size() - I) /
                                    double(Order.size()));
            writeResult(J, *Order[I].first, Table.HasBaseline, Where);
          }
        });
      });
    });
  });
  OS << "\n";
  return Groups.size();
}

} // namespace coalesce
