//===- Isolation.cpp - Work on a large-stack thread, crash- and time-safe -===//

#include "driver/Isolation.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/thread.h"

#include <condition_variable>
#include <csignal>
#include <memory>
#include <mutex>
#include <optional>

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

IsolatedOutcome runIsolated(std::function<void()> Work,
                            std::chrono::milliseconds Timeout,
                            size_t StackBytes) {
  enableCrashRecovery();
  auto State = std::make_shared<WorkState>();
  State->Work = std::move(Work);
  llvm::thread Worker(std::optional<unsigned>(StackBytes), [State] {
    AltSignalStack Alt;
    llvm::CrashRecoveryContext CRC;
    bool Ok = CRC.RunSafely([&] { State->Work(); });
    {
      std::lock_guard<std::mutex> L(State->M);
      State->Finished = true;
      State->Crashed = !Ok;
    }
    State->Done.notify_all();
  });
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
  }
  if (!Returned) {
    Worker.detach();
    return IsolatedOutcome::TimedOut;
  }
  Worker.join();
  return State->Crashed ? IsolatedOutcome::Crashed : IsolatedOutcome::Finished;
}

} // namespace coalesce
