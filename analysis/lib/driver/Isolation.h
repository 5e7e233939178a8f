//===- Isolation.h - Run work on its own thread, crash- and time-safe -*- C++ -*-===//
///
/// \file
/// The analysis of one file must never take the run down with it: clang and
/// the walkers recurse over the AST (deeply nested inputs overflow a default
/// stack), a bug may crash, and a pathological input may take forever.
/// runIsolated() runs a piece of work on a thread with a large stack inside
/// llvm::CrashRecoveryContext and waits for it at most a given time.
///
//===----------------------------------------------------------------------===//
#ifndef COALESCE_LIB_DRIVER_ISOLATION_H
#define COALESCE_LIB_DRIVER_ISOLATION_H

#include <chrono>
#include <cstddef>
#include <functional>

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
