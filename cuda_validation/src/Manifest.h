//===- Manifest.h - The access list coalesce-lint emits ---------*- C++ -*-===//
///
/// \file
/// manifest.tsv, written by `coalesce-lint --emit-harness DIR`: a header row
/// naming the columns, then one row per predicted access. Lines starting with
/// '#' are comments. Columns (by name, in any order; unknown ones ignored):
///
///   id kernel harness file line column end_line op atomic access_bytes
///   elem_bytes predicted ideal classification rule call_sites expr base
///   instance space
///
/// Required: id, kernel, file, line, op. "-" means no value. op is one of
/// load, store, load+store, atomic. call_sites is "file:line;file:line"
/// from the kernel down to the access's function. instance names a template
/// kernel's instantiation as clang prints it ("reduce<float, 256U>"); "-"
/// for a kernel that is no template, absent in older manifests. space is
/// global (predicted and ideal in sectors per request) or shared (in
/// wavefronts per request); absent in older manifests, which list global
/// accesses only.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_MANIFEST_H
#define COALESCE_VERIFY_MANIFEST_H

#include "MemorySpace.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coalesce::verify {

/// One access of the manifest.
struct ManifestAccess {
  unsigned Id = 0;
  std::string Kernel;
  std::string Harness = "harness"; ///< Executable that launches the kernel.
  std::string File;
  unsigned Line = 0, Column = 0, EndLine = 0;
  std::string Op;     ///< load, store, load+store, atomic.
  std::string Atomic; ///< none, integer, float.
  unsigned AccessBytes = 0, ElemBytes = 0;
  std::optional<double> Predicted, Ideal;
  std::string Classification, Rule, Expr;
  std::string Base; ///< The pointer or array accessed ("" when not given).
  /// The template instantiation ("reduce<float, 256U>"); "" for a kernel
  /// that is no template, or a manifest without the column.
  std::string Instance;
  std::vector<std::pair<std::string, unsigned>> CallSites;
  /// Global (Predicted in sectors per request) or shared (in wavefronts).
  MemSpace Space = MemSpace::Global;
  /// The finding's bytes beyond the ideal per launch (global memory, when
  /// the tool knows the grid and the trip counts); nullopt otherwise or in
  /// a manifest without the column.
  std::optional<double> ExcessPerLaunch;

  bool loads() const { return Op == "load" || Op == "load+store"; }
  bool stores() const { return Op == "store" || Op == "load+store"; }
  bool atomic() const { return Op == "atomic"; }
  bool shared() const { return Space == MemSpace::Shared; }
};

/// The column names, in the order coalesce-lint writes them.
const std::vector<std::string> &manifestColumns();

/// Parses manifest text. Returns false with \p Error naming the line.
bool parseManifest(const std::string &Text, std::vector<ManifestAccess> &Out,
                   std::string &Error);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_MANIFEST_H
