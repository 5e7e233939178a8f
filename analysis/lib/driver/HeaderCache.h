//===- HeaderCache.h - The CUDA headers parsed once, reused -----*- C++ -*-===//
///
/// \file
/// Every device-side parse starts with clang's CUDA runtime wrapper, which
/// pulls in the CUDA runtime headers: most of a small file's parse time.
/// The header cache precompiles that prefix once per compile configuration
/// (a PCH keyed by clang's version, the working directory and every
/// argument but the input and the user include directories) under a cache
/// directory, and later parses load it with -include-pch. Clang checks on
/// load that no header changed since; a parse that rejects the PCH is redone
/// without it.
///
/// User include directories (-I, -iquote) differ from file to file (every
/// build adds the source's own directory) but rarely change what the CUDA
/// headers include: the entry is built without them and records every name
/// the headers #include or test with __has_include. A parse whose include
/// directories hold none of those names loads the shared entry; one whose
/// directories could shadow a header gets an entry of its own, keyed by all
/// its arguments, as before.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_DRIVER_HEADERCACHE_H
#define COALESCE_LIB_DRIVER_HEADERCACHE_H

#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace driver {

/// Where the PCH for a compile configuration lives (whether or not it was
/// built yet).
struct HeaderPch {
  /// The entry to load: the shared one, or one keyed by all arguments.
  std::string Path;
  /// When Path is keyed by all arguments (the shared entry does not exist
  /// yet, or a user include directory could shadow a header): the shared
  /// entry of the arguments without user include directories, which
  /// ensureHeaderPch() builds and links to Path when nothing is shadowed.
  std::string Shared;
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
/// directory is not writable): the parse then goes without it, and runs of
/// the next 24 hours do not try again (a marker file beside the entry).
bool ensureHeaderPch(const HeaderPch &Pch, const std::vector<std::string> &Args,
                     const std::string &Directory);

/// Whether a run before this one asked for \p Pch without building it; the
/// first call records the request (a marker file beside the entry, pruned
/// with it) and returns false. Files that differ only in user include
/// directories share the marker (of Pch.Shared when set).
bool seenBefore(const HeaderPch &Pch);

/// Whether a compile error of a parse with -include-pch says the PCH was
/// rejected (a header changed, the file is damaged), so the parse must be
/// redone without it.
bool rejectsPch(const std::string &ErrorMessage);

/// \p Args split into the user include directories (-I, -iquote, in every
/// spelling; returned as written) and the rest (into \p Rest).
std::vector<std::string> userIncludeDirs(const std::vector<std::string> &Args,
                                         std::vector<std::string> &Rest);

/// Whether a file named by one of \p Names (include spellings, relative
/// paths) exists in one of \p Dirs (relative ones under \p Directory).
bool shadowsAny(const std::vector<std::string> &Dirs,
                const std::vector<std::string> &Names,
                const std::string &Directory);

/// Removes cache entries unused for a week and keeps the directory under
/// 2 GiB (llvm::pruneCache; at most once every 20 minutes).
void pruneHeaderCache(const std::string &CacheDir);

} // namespace driver
} // namespace coalesce

#endif // COALESCE_LIB_DRIVER_HEADERCACHE_H
