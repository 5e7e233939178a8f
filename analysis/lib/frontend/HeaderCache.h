//===- HeaderCache.h - The CUDA headers parsed once, reused -----*- C++ -*-===//
///
/// \file
/// Every device-side parse starts with clang's CUDA runtime wrapper, which
/// pulls in the CUDA runtime headers: most of a small file's parse time.
/// The header cache precompiles that prefix once per compile configuration
/// (a PCH keyed by clang's version, the working directory and every
/// argument but the input) under a cache directory, and later parses load it
/// with -include-pch. Clang checks on load that no header changed since; a
/// parse that rejects the PCH is redone without it.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_FRONTEND_HEADERCACHE_H
#define COALESCE_LIB_FRONTEND_HEADERCACHE_H

#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace frontend {

/// Where the PCH for a compile configuration lives (whether or not it was
/// built yet).
struct HeaderPch {
  std::string Path;
  /// The empty header it is built from; kept beside it, because clang
  /// validates the PCH's inputs on load.
  std::string Prefix;
};

/// The cache entry of the parse arguments \p Args (the device-only
/// arguments, without the input file) run in \p Directory, under \p CacheDir.
HeaderPch headerPchFor(const std::string &CacheDir,
                       const std::vector<std::string> &Args,
                       const std::string &Directory);

/// Builds \p Pch if it does not exist (written to a temporary file and
/// renamed, so concurrent runs never see half a file). Returns false when
/// it cannot be built (the headers do not compile with these arguments, the
/// directory is not writable): the parse then goes without it.
bool ensureHeaderPch(const HeaderPch &Pch, const std::vector<std::string> &Args,
                     const std::string &Directory);

/// Whether a run before this one asked for \p Pch without building it; the
/// first call records the request (a marker file beside the entry, pruned
/// with it) and returns false.
bool seenBefore(const HeaderPch &Pch);

/// Whether a compile error of a parse with -include-pch says the PCH was
/// rejected (a header changed, the file is damaged), so the parse must be
/// redone without it.
bool rejectsPch(const std::string &ErrorMessage);

/// Removes cache entries unused for a week and keeps the directory under
/// 2 GiB (llvm::pruneCache; at most once every 20 minutes).
void pruneHeaderCache(const std::string &CacheDir);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_LIB_FRONTEND_HEADERCACHE_H
