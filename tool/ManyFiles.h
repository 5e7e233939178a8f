//===- ManyFiles.h - Which files a run analyzes, and its progress -*- C++ -*-===//
///
/// \file
/// Runs over many files: every CUDA file of a compilation database when no
/// file is named, a stable shard of the files for a CI matrix (--shard K/N),
/// and a progress bar on a terminal.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TOOL_MANYFILES_H
#define COALESCE_TOOL_MANYFILES_H

#include "Options.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace coalesce {
namespace tool {

/// Fills O.Analysis.Files from -p when no file is named, then keeps only
/// the files of --shard K/N.
llvm::Error selectFiles(Options &O);

/// The files of shard \p Index (1-based) of \p Count: the inputs sorted by
/// path and dealt round-robin, so the shards are disjoint, cover every file
/// and do not depend on the order the files were given in.
std::vector<std::string> shardOf(std::vector<std::string> Files,
                                 unsigned Index, unsigned Count);

/// Sets O.Analysis.OnProgress to draw a one-line progress bar on stderr
/// when O.Progress is set and there is more than one file.
void attachProgressBar(Options &O);

/// Clears the progress bar's line, if one was drawn.
void clearProgressBar(const Options &O);

} // namespace tool
} // namespace coalesce

#endif // COALESCE_TOOL_MANYFILES_H
