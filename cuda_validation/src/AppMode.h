//===- AppMode.h - coalesce-verify --app from start to end ------*- C++ -*-===//
///
/// \file
/// Profiles (or loads) an application run, attributes it to the manifest's
/// accesses, compares it per line, and prints and writes the results.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_VERIFY_APPMODE_H
#define COALESCE_VERIFY_APPMODE_H

#include "AppRunner.h"

#include <string>

namespace coalesce::verify {

/// Runs application mode; returns coalesce-verify's exit code (0 all
/// measured accesses confirmed, 1 a mismatch, 2 usage or input error
/// (missing line info too), 4 no GPU or profiler).
int runAppMode(const AppOptions &O, const std::string &ManifestPath,
               double Tolerance, const std::string &JsonFile);

} // namespace coalesce::verify

#endif // COALESCE_VERIFY_APPMODE_H
