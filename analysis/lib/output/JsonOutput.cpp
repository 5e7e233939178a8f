//===- JsonOutput.cpp - The JSON report (schema 1) ------------------------===//
///
/// \file
/// Writes the report described in docs/json-schema.md. Every field is always
/// present (null when absent), numbers are rounded to 4 decimals, and the
/// order of objects is the report's order.
///
//===----------------------------------------------------------------------===//

#include "coalesce/Output.h"

#include "output/TableFor.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <cmath>

namespace coalesce {

namespace {

using llvm::json::OStream;

/// \p V rounded to 4 decimals: an integer when whole, null when not finite.
void writeNumber(OStream &J, double V) {
  if (!std::isfinite(V)) {
    J.value(nullptr);
    return;
  }
  double Rounded = std::round(V * 1e4) / 1e4;
  if (Rounded == std::floor(Rounded) && std::fabs(Rounded) < 9e15) {
    J.value(static_cast<int64_t>(Rounded));
    return;
  }
  // fmt prints the shortest text that reads back as the same double.
  J.rawValue(fmt::format("{}", Rounded));
}

void numberAttr(OStream &J, llvm::StringRef Key, std::optional<double> V) {
  J.attributeBegin(Key);
  if (V)
    writeNumber(J, *V);
  else
    J.value(nullptr);
  J.attributeEnd();
}

void intAttr(OStream &J, llvm::StringRef Key, std::optional<int64_t> V) {
  if (V)
    J.attribute(Key, *V);
  else
    J.attribute(Key, nullptr);
}

/// A string, or null when empty.
void stringAttr(OStream &J, llvm::StringRef Key, const std::string &S) {
  if (S.empty())
    J.attribute(Key, nullptr);
  else
    J.attribute(Key, S);
}

void exprAttr(OStream &J, llvm::StringRef Key, const std::optional<Expr> &E) {
  if (E)
    J.attribute(Key, E->str());
  else
    J.attribute(Key, nullptr);
}

/// "file", "line", "column" of \p Loc; line and column null when unknown.
void locationAttrs(OStream &J, const SourceLocation &Loc) {
  stringAttr(J, "file", Loc.File);
  intAttr(J, "line",
          Loc.valid() ? std::optional<int64_t>(Loc.Line) : std::nullopt);
  intAttr(J, "column",
          Loc.valid() && Loc.Column ? std::optional<int64_t>(Loc.Column)
                                    : std::nullopt);
}

void writeShape(OStream &J, const BlockShape &S) {
  J.object([&] {
    J.attribute("x", int64_t(S.X));
    J.attribute("y", int64_t(S.Y));
    J.attribute("z", int64_t(S.Z));
  });
}

void writeFile(OStream &J, const FileResult &F) {
  J.object([&] {
    J.attribute("file", F.File);
    J.attribute("analyzed", F.Analyzed);
    J.attributeArray("errors", [&] {
      for (const CompileError &E : F.Errors)
        J.object([&] {
          locationAttrs(J, E.Loc);
          J.attribute("message", E.Message);
          J.attribute("in_kernel", E.InKernel);
        });
    });
    stringAttr(J, "fatal_error", F.FatalError);
    // Only when there are some: reports of files without stay as they were.
    if (!F.UninstantiatedKernels.empty())
      J.attributeArray("uninstantiated_kernels", [&] {
        for (const auto &[Name, Loc] : F.UninstantiatedKernels)
          J.object([&] {
            J.attribute("name", Name);
            locationAttrs(J, Loc);
          });
      });
  });
}

/// How a finding was silenced: {kind, file, line, text} or null.
void suppressionAttr(OStream &J, const TriagedFinding &T) {
  J.attributeBegin("suppression");
  if (T.SuppressedBy)
    J.object([&] {
      J.attribute("kind", "in-source");
      locationAttrs(J, SourceLocation{T.SuppressedBy->File,
                                      T.SuppressedBy->Line,
                                      T.SuppressedBy->Column});
      J.attribute("text", T.SuppressedBy->Text);
    });
  else if (T.Baselined)
    J.object([&] {
      J.attribute("kind", "baseline");
      locationAttrs(J, SourceLocation());
      J.attribute("text", nullptr);
    });
  else
    J.value(nullptr);
  J.attributeEnd();
}

void writeFinding(OStream &J, const TriagedFinding *T) {
  if (!T) {
    J.value(nullptr);
    return;
  }
  const Finding *F = &T->F;
  J.object([&] {
    J.attribute("rule", F->RuleId);
    J.attribute("message", F->Message);
    J.attributeArray("notes", [&] {
      for (const Note &N : F->Notes)
        J.object([&] {
          locationAttrs(J, N.Loc);
          J.attribute("message", N.Message);
        });
    });
    stringAttr(J, "suggestion", F->Suggestion);
    bool Shared = T->Access && T->Access->Pattern.Space == AccessSpace::Shared;
    numberAttr(J,
               Shared ? "wasted_wavefronts_per_request"
                      : "wasted_sectors_per_request",
               F->WastedSectors);
    if (F->Cost) {
      const Impact &I = *F->Cost;
      J.attributeObject("impact", [&] {
        numberAttr(J, "excess_bytes", I.ExcessBytes);
        numberAttr(J, "fetched_bytes", I.FetchedBytes);
        if (I.Space == AccessSpace::Shared) {
          // The bytes are wavefronts x costUnitBytes().
          numberAttr(J, "excess_wavefronts",
                     I.ExcessBytes / costUnitBytes(I.Space));
          numberAttr(J, "wavefronts", I.FetchedBytes / costUnitBytes(I.Space));
        }
        J.attribute("per", impactUnitName(I.Unit));
        J.attributeArray("per_iteration_of", [&] {
          for (const std::string &L : I.PerIterationOf)
            J.value(L);
        });
        numberAttr(J, "kernel_traffic_share", I.KernelShare);
        J.attribute("basis", I.Basis);
      });
    } else {
      J.attribute("impact", nullptr);
    }
    J.attribute("severity", severityName(T->Level));
    J.attribute("fingerprint", T->Fingerprint);
    J.attribute("suppressed", !T->reported());
    suppressionAttr(J, *T);
  });
}

void writeAccess(OStream &J, const AccessRecord &A, const TriagedFinding *F) {
  const Prediction &P = A.Predicted;
  J.object([&] {
    locationAttrs(J, A.Loc);
    intAttr(J, "end_column",
            A.EndLoc.valid() && A.EndLoc.Column
                ? std::optional<int64_t>(A.EndLoc.Column)
                : std::nullopt);
    J.attribute("kernel", A.Kernel);
    J.attribute("op", accessOpName(A.Pattern.Op));
    J.attribute("expr", A.Expression);
    J.attribute("base", A.Base);
    J.attribute("elem_bytes", int64_t(A.ElemBytes));
    J.attribute("access_bytes", int64_t(A.Pattern.AccessBytes));
    J.attribute("instructions", int64_t(A.Pattern.Instructions));
    stringAttr(J, "launch", A.Launch);
    J.attribute("space", accessSpaceName(A.Pattern.Space));
    J.attribute("classification", classificationName(P.Class));
    // Shared memory counts wavefronts (BankCounter.h), global sectors.
    bool Shared = A.Pattern.Space == AccessSpace::Shared;
    numberAttr(J, Shared ? "wavefronts_per_request" : "sectors_per_request",
               P.SectorsPerRequest);
    numberAttr(J,
               Shared ? "ideal_wavefronts_per_request"
                      : "ideal_sectors_per_request",
               P.IdealSectorsPerRequest);
    numberAttr(J, "active_lanes_per_request", P.ActiveLanesPerRequest);
    numberAttr(J, "used_bytes_fraction", P.UsedBytesFraction);
    numberAttr(J, "best_sectors_per_request", P.BestSectorsPerRequest);
    numberAttr(J, "worst_sectors_per_request", P.WorstSectorsPerRequest);
    stringAttr(J, "misalignment_term", P.MisalignmentTerm);
    intAttr(J, "lane_stride_bytes", P.LaneStrideBytesValue);
    exprAttr(J, "lane_stride_expr", P.LaneStrideBytes);
    intAttr(J, "row_stride_bytes", P.RowStrideBytesValue);
    exprAttr(J, "row_stride_expr", P.RowStrideBytes);
    J.attributeArray("assumptions", [&] {
      for (const std::string &S : P.Assumptions)
        J.value(S);
    });
    J.attributeObject("assumed_values", [&] {
      for (const auto &[Name, Value] : P.AssumedValues)
        J.attribute(Name, Value);
    });
    stringAttr(J, "reason", P.Reason);
    if (P.Requests) {
      const RequestCount &C = *P.Requests;
      J.attributeObject("requests", [&] {
        numberAttr(J, "per_block", C.PerBlock);
        intAttr(J, "blocks", C.Blocks ? std::optional<int64_t>(*C.Blocks)
                                      : std::nullopt);
        numberAttr(J, "per_launch", C.perLaunch());
        J.attributeArray("per_iteration_of", [&] {
          for (const std::string &L : C.PerIterationOf)
            J.value(L);
        });
        J.attribute("basis", C.Basis);
      });
    } else {
      J.attribute("requests", nullptr);
    }
    J.attributeArray("call_chain", [&] {
      for (const SourceLocation &L : A.CallChain)
        J.object([&] { locationAttrs(J, L); });
    });
    J.attributeBegin("finding");
    writeFinding(J, F);
    J.attributeEnd();
    // Filled by GPU verification (a later step); null in a static run.
    // Measured in the access's unit, as predicted: sectors or wavefronts.
    std::string MeasuredKey = fmt::format("measured_{}s_per_request",
                                          costUnitName(A.Pattern.Space));
    if (A.Measured) {
      const Measurement &M = *A.Measured;
      numberAttr(J, MeasuredKey, M.SectorsPerRequest);
      numberAttr(J, "measured_requests", M.Requests);
      numberAttr(J, "measured_excess_bytes", M.ExcessBytes);
      J.attribute("method", M.Method);
      J.attribute("verdict", M.Verdict);
      J.attribute("verification_note", M.Note);
      if (!M.Launches.empty())
        J.attributeArray("measured_launches", [&] {
          for (const Measurement::Launch &L : M.Launches)
            J.object([&] {
              J.attribute("launch", L.Number);
              numberAttr(J, MeasuredKey, L.SectorsPerRequest);
              numberAttr(J, "measured_requests", L.Requests);
              J.attribute("verdict", L.Verdict);
            });
        });
    } else {
      J.attribute(MeasuredKey, nullptr);
      J.attribute("measured_requests", nullptr);
      J.attribute("measured_excess_bytes", nullptr);
      J.attribute("method", nullptr);
      J.attribute("verdict", nullptr);
      J.attribute("verification_note", nullptr);
    }
  });
}

/// The excluded operations and the census of kernel \p K (--self-check).
void writeCensus(OStream &J, const KernelRecord &K) {
  J.attributeArray("excluded", [&] {
    for (const ExcludedAccess &X : K.Excluded)
      J.object([&] {
        locationAttrs(J, X.Loc);
        J.attribute("op", accessOpName(X.Op));
        J.attribute("expr", X.Expression);
        J.attribute("reason", X.Reason);
      });
  });
  J.attribute("census_entries", int64_t(K.CensusEntries));
  J.attributeArray("census_missing", [&] {
    for (const CensusMiss &M : K.CensusMisses)
      J.object([&] {
        locationAttrs(J, M.Loc);
        J.attribute("op", M.Operation);
        J.attribute("expr", M.Expression);
        J.attribute("rule", M.Rule);
      });
  });
}

} // namespace

unsigned writeJson(const Report &R, const OutputOptions &Opts,
                   llvm::raw_ostream &OS) {
  FindingTable Local;
  const FindingTable &Table = tableFor(R, Opts, Local);
  unsigned Findings = Table.reportedCount();
  OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("tool", "coalesce-lint");
    J.attribute("version", toolVersion());
    J.attribute("schema", int64_t(JsonSchemaVersion));
    J.attributeArray("files", [&] {
      for (const FileResult &F : R.Files)
        writeFile(J, F);
    });
    J.attributeArray("kernels", [&] {
      for (const KernelRecord &K : R.Kernels)
        J.object([&] {
          J.attribute("name", K.Name);
          locationAttrs(J, K.Loc);
          stringAttr(J, "instantiation", K.Instantiation);
          J.attributeBegin("block");
          writeShape(J, K.Block);
          J.attributeEnd();
          J.attribute("block_source", blockShapeSourceName(K.BlockSource));
          J.attributeBegin("launch_grid");
          if (K.LaunchGrid)
            writeShape(J, *K.LaunchGrid);
          else
            J.value(nullptr);
          J.attributeEnd();
          J.attributeArray("accesses", [&] {
            for (const AccessRecord &A : K.Accesses)
              writeAccess(J, A, Table.find(A));
          });
          if (!K.NoAccessReason.empty())
            J.attribute("no_access_reason", K.NoAccessReason);
          if (R.SelfChecked)
            writeCensus(J, K);
        });
    });
    if (R.SelfChecked)
      J.attributeObject("census", [&] {
        J.attribute("entries", int64_t(R.censusEntryCount()));
        J.attribute("missing", int64_t(R.censusMissCount()));
      });
    J.attribute("findings", int64_t(Findings));
    J.attribute("suppressed_findings", int64_t(Table.suppressedCount()));
  });
  OS << "\n";
  return Findings;
}

} // namespace coalesce
