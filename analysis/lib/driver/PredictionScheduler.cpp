//===- PredictionScheduler.cpp - Kernels' predictions on a thread pool ----===//
//
// A kernel's tasks: its plan, then its chunks, queued on one pool as they
// become known; the pool's tasks never own the pool (they hold the
// scheduler's state by pointer, which finish() and the destructor outlive
// by waiting), and what an isolated piece of work touches it owns, since a
// piece that times out is left running.
//
//===----------------------------------------------------------------------===//
#include "PredictionScheduler.h"

#include "coalesce/KernelPrediction.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

namespace coalesce {
namespace {

/// The time budget the chunks of one kernel share, from the first that
/// starts (--timeout applies to a kernel's predictions as a whole).
class KernelBudget {
public:
  /// The time left, none when it is spent; \p Budget zero: no limit.
  std::optional<std::chrono::milliseconds>
  left(std::chrono::milliseconds Budget) {
    if (Budget.count() <= 0)
      return Budget;
    std::lock_guard<std::mutex> Lock(M);
    auto Now = std::chrono::steady_clock::now();
    if (!Start)
      Start = Now;
    auto Left = Budget - std::chrono::duration_cast<std::chrono::milliseconds>(
                             Now - *Start);
    if (Left.count() <= 0)
      return std::nullopt;
    return Left;
  }

private:
  std::mutex M;
  std::optional<std::chrono::steady_clock::time_point> Start;
};

/// One kernel handed to the scheduler.
struct KernelState {
  KernelRecord Kernel;
  std::vector<LaunchSite> Launches;
  std::shared_ptr<KernelPredictionPlan> Plan;
  KernelBudget Budget;
  std::mutex M;
  /// The first failure of its plan or of a chunk.
  IsolatedOutcome How = IsolatedOutcome::Finished;
  size_t ChunksLeft = 0;
};

} // namespace

std::chrono::milliseconds timeoutOf(const AnalysisConfig &Config) {
  return std::chrono::milliseconds(uint64_t(Config.TimeoutSeconds) * 1000);
}

unsigned threadsOf(const AnalysisConfig &Config) {
  return Config.Jobs ? Config.Jobs
                     : llvm::hardware_concurrency().compute_thread_count();
}

struct PredictionScheduler::Impl {
  Impl(const AnalysisConfig &Config, std::shared_ptr<IsolatedWorkers> Workers,
       std::function<void()> OnKernelDone)
      : Config(Config), Workers(std::move(Workers)),
        OnKernelDone(std::move(OnKernelDone)),
        Threads(threadsOf(Config)),
        Pool(llvm::hardware_concurrency(Threads)) {}

  /// Builds the plan of \p K, then queues its chunks.
  void plan(std::shared_ptr<KernelState> K) {
    // The work shares the kernel's state (its record and launches are
    // never written after start()), so one that times out still owns them.
    auto Plan = std::make_shared<std::shared_ptr<KernelPredictionPlan>>();
    IsolatedOutcome How = Workers->run(
        [K, Plan, Config = Config, Shared = Shared] {
          *Plan = std::make_shared<KernelPredictionPlan>(
              K->Kernel, Config, K->Launches, Shared);
        },
        timeoutOf(Config));
    if (How != IsolatedOutcome::Finished) {
      K->How = How;
      OnKernelDone();
      return;
    }
    K->Plan = *Plan;
    size_t N = K->Plan->size();
    if (N == 0) {
      OnKernelDone();
      return;
    }
    size_t Size = std::max<size_t>(1, (N + 4 * Threads - 1) / (4 * Threads));
    K->ChunksLeft = (N + Size - 1) / Size;
    for (size_t Begin = 0; Begin < N; Begin += Size)
      Pool.async([this, K, Begin, End = std::min(N, Begin + Size)] {
        chunk(K, Begin, End);
      });
  }

  /// Makes predictions \p Begin .. \p End - 1 of \p K.
  void chunk(const std::shared_ptr<KernelState> &K, size_t Begin, size_t End) {
    std::optional<std::chrono::milliseconds> Left =
        K->Budget.left(timeoutOf(Config));
    IsolatedOutcome How = IsolatedOutcome::TimedOut;
    if (Left) {
      auto Plan = K->Plan;
      How = Workers->run(
          [Plan, Begin, End] {
            for (size_t J = Begin; J < End; ++J)
              Plan->compute(J);
          },
          *Left);
    }
    bool Done;
    {
      std::lock_guard<std::mutex> Lock(K->M);
      if (How != IsolatedOutcome::Finished &&
          K->How == IsolatedOutcome::Finished)
        K->How = How;
      Done = --K->ChunksLeft == 0;
    }
    if (Done)
      OnKernelDone();
  }

  const AnalysisConfig Config;
  std::shared_ptr<IsolatedWorkers> Workers;
  /// The predictions every kernel of the run shares.
  std::shared_ptr<SharedPredictions> Shared =
      std::make_shared<SharedPredictions>();
  std::function<void()> OnKernelDone;
  unsigned Threads;
  std::mutex M;
  bool Closed = false;
  std::vector<std::shared_ptr<KernelState>> Kernels;
  /// Last: destroyed (its threads joined) before what its tasks use.
  llvm::StdThreadPool Pool;
};

PredictionScheduler::PredictionScheduler(
    const AnalysisConfig &Config, std::shared_ptr<IsolatedWorkers> Workers,
    std::function<void()> OnKernelDone)
    : P(std::make_shared<Impl>(Config, std::move(Workers),
                               std::move(OnKernelDone))) {}

PredictionScheduler::~PredictionScheduler() { P->Pool.wait(); }

size_t PredictionScheduler::start(const KernelRecord &K,
                                  std::vector<LaunchSite> ProjectLaunches) {
  auto State = std::make_shared<KernelState>();
  State->Kernel = K;
  State->Launches = std::move(ProjectLaunches);
  std::lock_guard<std::mutex> Lock(P->M);
  if (P->Closed)
    return SIZE_MAX;
  P->Kernels.push_back(State);
  Impl *I = P.get();
  P->Pool.async([I, State] { I->plan(State); });
  return P->Kernels.size() - 1;
}

std::vector<PredictionScheduler::Outcome> PredictionScheduler::finish() {
  std::vector<std::shared_ptr<KernelState>> Kernels;
  {
    std::lock_guard<std::mutex> Lock(P->M);
    P->Closed = true;
    Kernels = P->Kernels;
  }
  P->Pool.wait();
  std::vector<Outcome> Out;
  for (const std::shared_ptr<KernelState> &K : Kernels) {
    Outcome O;
    O.How = K->How;
    O.Kernel = O.How == IsolatedOutcome::Finished ? K->Plan->finish()
                                                   : K->Kernel;
    Out.push_back(std::move(O));
  }
  return Out;
}

} // namespace coalesce
