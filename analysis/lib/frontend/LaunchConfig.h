//===- LaunchConfig.h - Kernel launches found in host code ------*- C++ -*-===//
///
/// \file
/// What the host code of a translation unit says about its kernels: the
/// launches it makes (block shapes, argument values; LaunchConfig.cpp), and
/// the kernels' names, launch bounds and parameters as the report and the
/// harness need them.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_FRONTEND_LAUNCHCONFIG_H
#define COALESCE_LIB_FRONTEND_LAUNCHCONFIG_H

#include "FrontendInternal.h"

namespace coalesce {
namespace frontend {

/// The launches of every kernel made by the host code of a translation
/// unit, found by walking the host functions that launch (LaunchConfig.cpp).
class LaunchConfigFinder {
public:
  LaunchConfigFinder(clang::ASTContext &Ctx, SourceFacts &Facts);
  /// The launches of kernel \p FD with distinct resolved block shapes.
  std::vector<LaunchSite> launchesOf(const clang::FunctionDecl *FD) const;
  /// Every launch found, by kernelKey() of the launched kernel.
  const std::map<std::string, std::vector<LaunchSite>> &all() const {
    return Launches;
  }

private:
  /// The values the launch \p CE passes to \p Kernel's parameters (from
  /// argument \p FirstArg on) into \p Site, and the symbol each other
  /// scalar argument is into \p ArgOf (LaunchConfig.cpp).
  static void readArguments(KernelWalker &W, KernelWalker::Frame &F,
                            const clang::FunctionDecl *Kernel,
                            const clang::CallExpr *CE, unsigned FirstArg,
                            LaunchSite &Site, std::map<Symbol, Expr> &ArgOf);
  /// Drops a site that another at the same launch subsumes: the same shape,
  /// every value it knows known there too, and more (the launcher walked
  /// alone and from a caller that passes constants).
  static void dropSubsumedSites(std::vector<LaunchSite> &Sites);

  std::map<std::string, std::vector<LaunchSite>> Launches;
};

/// The name that identifies kernel \p FD across translation units
/// ("ns::k<float, 4>").
std::string kernelKey(const clang::FunctionDecl *FD);

/// The maximum threads of \p FD's __launch_bounds__, if given.
std::optional<unsigned> launchBoundsOf(const clang::FunctionDecl *FD);

/// The parameters of kernel \p FD, as the harness needs them.
std::vector<KernelParameter> describeParameters(const clang::FunctionDecl *FD);

} // namespace frontend
} // namespace coalesce

#endif // COALESCE_LIB_FRONTEND_LAUNCHCONFIG_H
