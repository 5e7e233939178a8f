//===- Merge.h - The 'coalesce-lint merge' subcommand -----------*- C++ -*-===//
///
/// \file
/// `coalesce-lint merge [-o FILE] REPORT...` joins the JSON or SARIF reports
/// of --shard runs into one (MergeReports.h).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_TOOL_MERGE_H
#define COALESCE_TOOL_MERGE_H

namespace coalesce {
namespace tool {

/// Runs the subcommand on the arguments after "merge"; returns the exit
/// code (0 merged, 2 usage or input error).
int runMerge(int Argc, const char **Argv);

} // namespace tool
} // namespace coalesce

#endif // COALESCE_TOOL_MERGE_H
