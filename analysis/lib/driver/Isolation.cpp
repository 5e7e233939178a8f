//===- Isolation.cpp - Work on a large-stack thread, crash- and time-safe -===//

#include "driver/Isolation.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/thread.h"

#include <condition_variable>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace coalesce {
namespace {

/// Shared by the caller and the worker, so a detached worker never touches
/// freed memory.
struct WorkState {
  std::function<void()> Work;
  std::mutex M;
  std::condition_variable Done;
  bool Finished = false;
  bool Crashed = false;
  /// Set when the caller stopped waiting (timeout).
  bool Abandoned = false;
};

/// An alternate signal stack for the current thread, so the handler of a
/// SIGSEGV caused by a stack overflow has a stack to run on.
class AltSignalStack {
public:
  AltSignalStack() : Memory(new char[Bytes]) {
    stack_t S{};
    S.ss_sp = Memory.get();
    S.ss_size = Bytes;
    Installed = sigaltstack(&S, &Old) == 0;
  }
  ~AltSignalStack() {
    if (Installed)
      sigaltstack(&Old, nullptr);
  }
  AltSignalStack(const AltSignalStack &) = delete;
  AltSignalStack &operator=(const AltSignalStack &) = delete;

private:
  static constexpr size_t Bytes = 1u << 20;
  std::unique_ptr<char[]> Memory;
  stack_t Old{};
  bool Installed = false;
};

/// The SIGSEGV/SIGBUS handlers llvm::CrashRecoveryContext installed.
struct PreviousHandlers {
  struct sigaction Segv {}, Bus{};
};

PreviousHandlers &previousHandlers() {
  static PreviousHandlers P;
  return P;
}

/// Runs on the alternate stack and hands the signal to crash recovery's
/// handler, which then runs there too (it installs its own without
/// SA_ONSTACK, so a stack overflow would kill the process).
void onAltStack(int Signal, siginfo_t *Info, void *Context) {
  const struct sigaction &Prev = Signal == SIGSEGV ? previousHandlers().Segv
                                                   : previousHandlers().Bus;
  if (Prev.sa_flags & SA_SIGINFO) {
    Prev.sa_sigaction(Signal, Info, Context);
    return;
  }
  if (Prev.sa_handler != SIG_DFL && Prev.sa_handler != SIG_IGN) {
    Prev.sa_handler(Signal);
    return;
  }
  signal(Signal, SIG_DFL);
  raise(Signal);
}

/// Enables crash recovery and moves its SIGSEGV/SIGBUS handling onto the
/// alternate signal stack, once per process (signal handlers are
/// process-wide by nature).
void enableCrashRecovery() {
  static const bool Done = [] {
    llvm::CrashRecoveryContext::Enable();
    struct sigaction Mine {};
    Mine.sa_sigaction = onAltStack;
    Mine.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&Mine.sa_mask);
    sigaction(SIGSEGV, &Mine, &previousHandlers().Segv);
    sigaction(SIGBUS, &Mine, &previousHandlers().Bus);
    return true;
  }();
  (void)Done;
}

} // namespace

/// One thread of IsolatedWorkers and the piece of work handed to it.
struct IsolatedWorkers::Worker {
  std::mutex M;
  std::condition_variable Wake;
  /// Set by run(), taken by the thread.
  std::shared_ptr<WorkState> Job;
  /// Set when the thread is to end instead of waiting for work.
  bool Quit = false;
  llvm::thread Thread;

  /// The thread's life: waits for a job, runs it, and waits again, until it
  /// is told to quit or its job crashed or was abandoned.
  void serve() {
    AltSignalStack Alt;
    for (;;) {
      std::shared_ptr<WorkState> Current;
      {
        std::unique_lock<std::mutex> L(M);
        Wake.wait(L, [&] { return Job || Quit; });
        if (!Job)
          return;
        Current = std::move(Job);
      }
      llvm::CrashRecoveryContext CRC;
      bool Ok = CRC.RunSafely([&] { Current->Work(); });
      bool Abandoned;
      {
        std::lock_guard<std::mutex> L(Current->M);
        Current->Finished = true;
        Current->Crashed = !Ok;
        Abandoned = Current->Abandoned;
      }
      Current->Done.notify_all();
      if (!Ok || Abandoned)
        return;
    }
  }
};

/// What IsolatedWorkers and the runs in progress share.
struct IsolatedWorkers::Shared {
  size_t StackBytes;
  std::mutex M;
  std::vector<std::shared_ptr<Worker>> Idle;
};

IsolatedWorkers::IsolatedWorkers(size_t StackBytes)
    : S(std::make_shared<Shared>()) {
  S->StackBytes = StackBytes;
}

IsolatedWorkers::~IsolatedWorkers() {
  std::vector<std::shared_ptr<Worker>> Idle;
  {
    std::lock_guard<std::mutex> L(S->M);
    Idle.swap(S->Idle);
  }
  for (const std::shared_ptr<Worker> &W : Idle) {
    {
      std::lock_guard<std::mutex> L(W->M);
      W->Quit = true;
    }
    W->Wake.notify_all();
    W->Thread.join();
  }
}

IsolatedOutcome IsolatedWorkers::run(std::function<void()> Work,
                                     std::chrono::milliseconds Timeout) {
  enableCrashRecovery();
  auto State = std::make_shared<WorkState>();
  State->Work = std::move(Work);
  std::shared_ptr<Worker> W;
  {
    std::lock_guard<std::mutex> L(S->M);
    if (!S->Idle.empty()) {
      W = std::move(S->Idle.back());
      S->Idle.pop_back();
    }
  }
  if (!W) {
    W = std::make_shared<Worker>();
    // The thread shares its Worker: one left running by a timeout may
    // outlive both this call and *this.
    W->Thread = llvm::thread(std::optional<unsigned>(S->StackBytes),
                             [W] { W->serve(); });
  }
  {
    std::lock_guard<std::mutex> L(W->M);
    W->Job = State;
  }
  W->Wake.notify_all();
  bool Returned;
  {
    std::unique_lock<std::mutex> L(State->M);
    auto IsDone = [&] { return State->Finished; };
    if (Timeout.count() <= 0) {
      State->Done.wait(L, IsDone);
      Returned = true;
    } else {
      Returned = State->Done.wait_for(L, Timeout, IsDone);
    }
    // Under the lock: the thread sees it when its work returns, and ends.
    if (!Returned)
      State->Abandoned = true;
  }
  if (!Returned) {
    W->Thread.detach();
    return IsolatedOutcome::TimedOut;
  }
  if (State->Crashed) {
    W->Thread.join();
    return IsolatedOutcome::Crashed;
  }
  // The work's captures are released here, not on the next job's arrival.
  State->Work = nullptr;
  std::lock_guard<std::mutex> L(S->M);
  S->Idle.push_back(std::move(W));
  return IsolatedOutcome::Finished;
}

IsolatedOutcome runIsolated(std::function<void()> Work,
                            std::chrono::milliseconds Timeout,
                            size_t StackBytes) {
  IsolatedWorkers Once(StackBytes);
  return Once.run(std::move(Work), Timeout);
}

} // namespace coalesce
