//===- Isolation.h - Run work on its own thread, crash- and time-safe -*- C++ -*-===//
///
/// \file
/// The analysis of one file must never take the run down with it: clang and
/// the walkers recurse over the AST (deeply nested inputs overflow a default
/// stack), a bug may crash, and a pathological input may take forever.
/// IsolatedWorkers runs a piece of work on a thread with a large stack inside
/// llvm::CrashRecoveryContext and waits for it at most a given time; its
/// threads are kept for the next piece of work (a file of 213 kernel
/// instantiations is several hundred pieces: a new thread for each cost
/// more than a third of clang's parse in thread set-up and first-touch page
/// faults).
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_DRIVER_ISOLATION_H
#define COALESCE_LIB_DRIVER_ISOLATION_H

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace coalesce {

/// Stack given to isolated work: clang asks for 8 MiB (clang/Basic/Stack.h);
/// the walkers recurse too, so more. Only the pages touched are committed.
constexpr size_t IsolatedStackBytes = 256u << 20;

/// How isolated work ended.
enum class IsolatedOutcome {
  Finished, ///< The work returned.
  Crashed,  ///< A signal (SIGSEGV, SIGABRT, ...) was caught in it.
  TimedOut, ///< It did not return in time; its thread was left running.
};

/// Threads with a large stack that run isolated work, each kept for the next
/// piece once its work returned. A thread whose work crashed ends (crash
/// recovery leaves by longjmp: what the work held may be in any state);
/// one whose work timed out is left running and ends when the work returns.
/// Safe to call run() from several threads at once.
class IsolatedWorkers {
public:
  explicit IsolatedWorkers(size_t StackBytes = IsolatedStackBytes);
  /// Ends the idle threads and waits for them; the caller must not be in
  /// run() on another thread.
  ~IsolatedWorkers();
  IsolatedWorkers(const IsolatedWorkers &) = delete;
  IsolatedWorkers &operator=(const IsolatedWorkers &) = delete;

  /// Runs \p Work on an idle thread (a new one when none is idle) inside
  /// crash recovery and waits for it at most \p Timeout (zero: no limit).
  /// On TimedOut the thread keeps running, so \p Work must own everything
  /// it touches (capture copies or shared_ptrs, never references to the
  /// caller's locals); the caller should end the process without static
  /// destructors (llvm::sys::Process::Exit(Code, true)) while it may still
  /// run.
  IsolatedOutcome run(std::function<void()> Work,
                      std::chrono::milliseconds Timeout);

private:
  struct Worker;
  struct Shared;
  std::shared_ptr<Shared> S;
};

/// Runs \p Work on a new thread with \p StackBytes of stack inside crash
/// recovery, and waits for it at most \p Timeout (zero: no limit). On
/// TimedOut the thread is detached and keeps running, so \p Work must own
/// everything it touches (capture copies or shared_ptrs, never references to
/// the caller's locals); the caller should end the process without static
/// destructors (llvm::sys::Process::Exit(Code, true)) while it may still run.
IsolatedOutcome runIsolated(std::function<void()> Work,
                            std::chrono::milliseconds Timeout,
                            size_t StackBytes = IsolatedStackBytes);

} // namespace coalesce

#endif // COALESCE_LIB_DRIVER_ISOLATION_H
