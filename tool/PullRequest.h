//===- PullRequest.h - Findings on the lines a change touches ---*- C++ -*-===//
///
/// \file
/// --diff-base REV asks git for the change since REV; --diff FILE (or '-'
/// for stdin) reads a unified diff. Either way the report keeps only the
/// findings on added or modified lines (ChangedLines.h).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TOOL_PULLREQUEST_H
#define COALESCE_TOOL_PULLREQUEST_H

#include "Options.h"

#include "coalesce/ChangedLines.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace coalesce {
namespace tool {

/// The changed lines --diff-base or --diff ask for; nullopt when neither was
/// given. Errors (no git, not a repository, an unknown revision, an
/// unreadable or malformed diff) name the cause.
llvm::Expected<std::optional<ChangedLines>> changedLinesOf(const Options &O);

} // namespace tool
} // namespace coalesce

#endif // COALESCE_TOOL_PULLREQUEST_H
