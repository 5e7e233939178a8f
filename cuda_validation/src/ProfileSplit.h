//===- ProfileSplit.h - A profile per instance and launch ------*- C++ -*-===//
///
/// \file
/// Application mode: pairs each profiled kernel (one name per template
/// instantiation with ncu's --print-kernel-base demangled) with the
/// manifest's instance of it, and cuts the profile into units that are
/// attributed one at a time:
///
///   one unit per (instance, profiled launch)  when the pairing is certain;
///   one unit per kernel, launches and instantiations summed ("merged",
///     today's behaviour before instances were told apart) when it is not:
///     the manifest does not name instances, or a profiled name matches no
///     analyzed instance or several, or two match the same one;
///   one unit per instance that was not profiled.
///
/// Kernels are paired by unqualified name (KernelName.h).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_PROFILESPLIT_H
#define COALESCE_VERIFY_PROFILESPLIT_H

#include "Manifest.h"
#include "NcuReport.h"

#include <string>
#include <vector>

namespace coalesce::verify {

/// Some accesses of the manifest against the part of the profile that
/// belongs to them.
struct ProfileUnit {
  std::string Kernel;   ///< The manifest's kernel name.
  std::string Instance; ///< The manifest's instance; "" when none or merged.
  /// The profiled function(s) as exported, "; "-separated; "" when none.
  std::string ProfiledAs;
  unsigned Launch = 0;   ///< From 1; 0 when merged or not profiled.
  unsigned Launches = 0; ///< Profiled launches of ProfiledAs (all if merged).
  bool Merged = false;   ///< Instantiations and launches summed.
  std::vector<size_t> Accesses; ///< Indices into the manifest.
  /// The unit's instructions; their Function is renamed to Kernel, so
  /// attribute() pairs them with the accesses by name.
  SourcePage Page;
  /// Why the unit is merged, or which instance was not profiled; "" else.
  std::string Note;
};

/// The pairing of one manifest instance (or one merged kernel).
struct InstancePairing {
  std::string Kernel, Instance, ProfiledAs;
  unsigned Launches = 0; ///< 0: not profiled.
  bool Merged = false;
  std::string Note;
};

/// The units of one profile and how they were paired.
struct ProfileSplit {
  std::vector<ProfileUnit> Units; ///< By kernel, instance, then launch.
  std::vector<InstancePairing> Pairings;
};

/// Splits \p Page for \p Accesses. Profiled functions whose name is no
/// kernel of the manifest are left out (as attribute() leaves them out).
ProfileSplit splitProfile(const std::vector<ManifestAccess> &Accesses,
                          const SourcePage &Page);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_PROFILESPLIT_H
