//===- Cooperative.h - Which kernels need a cooperative launch --*- C++ -*-===//
///
/// \file
/// Internal to the harness emitter. A kernel that synchronizes the whole
/// grid (cooperative_groups::this_grid().sync()) hangs or fails unless it is
/// launched with cudaLaunchCooperativeKernel; the harness does so when the
/// user's file launches it that way or its body asks for the grid group.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_HARNESS_COOPERATIVE_H
#define COALESCE_HARNESS_COOPERATIVE_H

#include <string>

namespace coalesce {

/// True when \p Source (a whole file) launches kernel \p Name with
/// cudaLaunchCooperativeKernel, or when the body of the kernel defined at
/// 1-based line \p Line uses this_grid() or grid_group.
bool needsCooperativeLaunch(const std::string &Source, const std::string &Name,
                            unsigned Line);

} // namespace coalesce

#endif // COALESCE_HARNESS_COOPERATIVE_H
