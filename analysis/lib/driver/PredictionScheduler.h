//===- PredictionScheduler.h - Kernels' predictions on a thread pool -*- C++ -*-===//
///
/// \file
/// Predicts walked kernels on a pool of threads as they are handed over:
/// each kernel's plan (KernelPredictionPlan) is built isolated, then its
/// distinct predictions are made in chunks, about four per thread, each
/// isolated (IsolatedWorkers: large stack, crash recovery), a kernel's
/// chunks sharing one --timeout counted from the first that starts. A large
/// kernel keeps every thread busy while a small one costs two hand-overs to
/// an idle isolated thread.
///
/// Kernels may be handed over while their file is still being walked: in a
/// run on one file, every launch of its kernels is known once the file's
/// host code is read, so the predictions of the first kernel run beside the
/// walk of the next (the walk has the parsed file to itself, on one thread).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_DRIVER_PREDICTIONSCHEDULER_H
#define COALESCE_LIB_DRIVER_PREDICTIONSCHEDULER_H

#include "coalesce/Config.h"
#include "coalesce/Report.h"
#include "Isolation.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace coalesce {

/// The per-file time budget of \p Config (zero: none); a kernel's
/// predictions get the same.
std::chrono::milliseconds timeoutOf(const AnalysisConfig &Config);

/// The number of threads of \p Config (--jobs; 0: one per core).
unsigned threadsOf(const AnalysisConfig &Config);

/// Predicts the kernels given to start() on Config's threads.
class PredictionScheduler {
public:
  /// \p OnKernelDone is called, from any thread, when a kernel's
  /// predictions are all made (or its plan or a chunk failed).
  /// \p Workers run the plans and chunks.
  PredictionScheduler(const AnalysisConfig &Config,
                      std::shared_ptr<IsolatedWorkers> Workers,
                      std::function<void()> OnKernelDone);
  /// Waits for the predictions started.
  ~PredictionScheduler();
  PredictionScheduler(const PredictionScheduler &) = delete;
  PredictionScheduler &operator=(const PredictionScheduler &) = delete;

  /// Starts predicting \p K with \p ProjectLaunches (as predictKernel()'s);
  /// returns the kernel's number. Safe to call from any thread; ignored
  /// (returns SIZE_MAX) once finish() was called.
  size_t start(const KernelRecord &K, std::vector<LaunchSite> ProjectLaunches);

  /// A kernel as its predictions left it.
  struct Outcome {
    /// With every prediction filled when How is Finished, else as given.
    KernelRecord Kernel;
    IsolatedOutcome How = IsolatedOutcome::Finished;
  };
  /// Waits for every kernel started; their outcomes by number. Later
  /// start() calls are ignored.
  std::vector<Outcome> finish();

private:
  struct Impl;
  std::shared_ptr<Impl> P;
};

} // namespace coalesce

#endif // COALESCE_LIB_DRIVER_PREDICTIONSCHEDULER_H
