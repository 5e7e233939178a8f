//===- KernelPrediction.h - Predictions of a kernel's accesses --*- C++ -*-===//
///
/// \file
/// Predicts every access of a kernel for the launches it runs with: the
/// block shapes and argument values found in host code (its own file's, or
/// with a compilation database the project's), else --block, its
/// __launch_bounds__, or an assumed block. An access whose prediction is the
/// same for every launch is reported once; one whose prediction differs is
/// reported once per distinct prediction, naming the launch.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_KERNELPREDICTION_H
#define COALESCE_KERNELPREDICTION_H

#include "coalesce/Config.h"
#include "coalesce/Report.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace coalesce {

/// The distinct predictions of a run, shared by the kernels' plans: the
/// kernels of a file often repeat their accesses (the instantiations of a
/// template, copies of one kernel), and a prediction depends on nothing but
/// the access and the options. Safe to share between threads (two that
/// miss the same input at once both compute it: the same result).
class SharedPredictions {
public:
  SharedPredictions();
  ~SharedPredictions();
  SharedPredictions(const SharedPredictions &) = delete;
  SharedPredictions &operator=(const SharedPredictions &) = delete;
  /// Predictions answered from another kernel's so far.
  size_t hits() const;

private:
  friend class PredictionCache;
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// predictKernel() in three steps, so that the accesses of one large kernel
/// can be predicted on several threads: the plan lists the kernel's
/// distinct predictions (over its accesses and launches), compute() makes
/// any of them on any thread, and finish() puts them together exactly as
/// predictKernel() does.
class KernelPredictionPlan {
public:
  /// Plans the predictions of \p K (a copy is kept; \p ProjectLaunches as
  /// for predictKernel()); \p Shared, when given, answers the predictions
  /// another kernel of the run already made.
  KernelPredictionPlan(const KernelRecord &K, const AnalysisConfig &Config,
                       const std::vector<LaunchSite> &ProjectLaunches,
                       std::shared_ptr<SharedPredictions> Shared = nullptr);
  ~KernelPredictionPlan();
  KernelPredictionPlan(const KernelPredictionPlan &) = delete;
  KernelPredictionPlan &operator=(const KernelPredictionPlan &) = delete;

  /// The number of distinct predictions the kernel needs.
  size_t size() const;
  /// Makes prediction \p I (< size()). Calls for different \p I may run on
  /// different threads at once.
  void compute(size_t I);
  /// The kernel with Block/BlockSource/LaunchGrid and every access's
  /// prediction filled; only after compute() of every prediction, and only
  /// once (the plan's copy of the kernel is moved into the result).
  KernelRecord finish();

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Fills Block/BlockSource/LaunchGrid and the prediction of every access of
/// \p K. \p ProjectLaunches are launches of the kernel found in other files
/// (used when \p K has none of its own).
void predictKernel(KernelRecord &K, const AnalysisConfig &Config,
                   const std::vector<LaunchSite> &ProjectLaunches);

/// Accesses to fields of one naturally aligned 8- or 16-byte element that
/// together cover it (float2 .x and .y) become one access of the element,
/// as the compiler issues them (FieldMerging.cpp).
void mergeVectorFields(KernelRecord &K);

/// Pairs of shared-memory accesses of one kernel that the compiler issues
/// as one access of twice the width: the same array, direction, condition
/// and loops, the second element right after the first, and the first
/// provably aligned to the pair (`D0 = s[i0]; D1 = s[i0 + 1]` with i0 even:
/// one 8-byte LDS.64, measured on the H200 in fastWalshTransform). Both get
/// the pair's address and width, and a note.
void mergeAdjacentElements(KernelRecord &K);

/// The wording of the block-shape assumption, for Prediction::Assumptions
/// (buildFinding turns each assumption into a note), e.g.
/// "block shape 16x16 from the launch at k.cu:42" or
/// "assuming a 1-D block of 256 threads (no launch found; use --block)".
/// \p LaunchLoc is only used for BlockShapeSource::LaunchSite.
std::string describeBlockShape(const BlockShape &Shape,
                               BlockShapeSource Source,
                               const SourceLocation &LaunchLoc = {});

} // namespace coalesce

#endif // COALESCE_KERNELPREDICTION_H
