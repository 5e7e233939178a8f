//===- MemorySpace.h - Global or shared memory, and what it costs -*- C++ -*-===//
///
/// \file
/// coalesce-verify compares two kinds of access: global memory, whose
/// requests cost 32-byte sectors ("L2 Theoretical Sectors Global" on Nsight
/// Compute's source page), and shared memory, whose requests cost wavefronts
/// of the 32 banks ("L1 Wavefronts Shared"). A manifest row and a SASS
/// instruction each say which; counts of the two are never summed together.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_MEMORYSPACE_H
#define COALESCE_VERIFY_MEMORYSPACE_H

namespace coalesce::verify {

/// The memory an access or an instruction reaches.
enum class MemSpace { Global, Shared };

/// "global", "shared" (the manifest's `space` column).
inline const char *memSpaceName(MemSpace S) {
  return S == MemSpace::Shared ? "shared" : "global";
}

/// What one request costs there, plural: "sectors", "wavefronts".
inline const char *costUnits(MemSpace S) {
  return S == MemSpace::Shared ? "wavefronts" : "sectors";
}

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_MEMORYSPACE_H
