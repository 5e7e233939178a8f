//===- IsolationTest.cpp - Isolated work: crashes and timeouts stay contained ===//

#include "driver/Isolation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace coalesce;
using namespace std::chrono_literals;

namespace {

/// Recurses \p Depth times with a frame the compiler cannot elide.
unsigned recurse(unsigned Depth) {
  volatile char Frame[256];
  Frame[0] = char(Depth);
  return Depth == 0 ? Frame[0] : recurse(Depth - 1) + Frame[0];
}

TEST(IsolationTest, FinishedWorkReportsItsResult) {
  auto Result = std::make_shared<int>(0);
  EXPECT_EQ(runIsolated([Result] { *Result = 42; }, 0ms),
            IsolatedOutcome::Finished);
  EXPECT_EQ(*Result, 42);
}

TEST(IsolationTest, ACrashIsCaughtAndTheProcessGoesOn) {
  EXPECT_EQ(runIsolated([] { std::raise(SIGSEGV); }, 0ms),
            IsolatedOutcome::Crashed);
  // And again: the handlers stay in place.
  EXPECT_EQ(runIsolated([] { std::raise(SIGSEGV); }, 0ms),
            IsolatedOutcome::Crashed);
}

TEST(IsolationTest, AStackOverflowIsACrash) {
  // 1 MiB of stack, far more recursion than fits.
  EXPECT_EQ(runIsolated([] { recurse(1u << 20); }, 0ms, 1u << 20),
            IsolatedOutcome::Crashed);
}

TEST(IsolationTest, TheLargeStackHoldsDeepRecursion) {
  // About 40 MiB of frames: more than clang's 8 MiB, less than the default.
  EXPECT_EQ(runIsolated([] { recurse(150000); }, 0ms),
            IsolatedOutcome::Finished);
}

TEST(IsolationTest, SlowWorkTimesOutAndIsLeftRunning) {
  auto Stop = std::make_shared<std::atomic<bool>>(false);
  EXPECT_EQ(runIsolated(
                [Stop] {
                  while (!*Stop)
                    std::this_thread::sleep_for(1ms);
                },
                50ms),
            IsolatedOutcome::TimedOut);
  *Stop = true; // Lets the detached worker end before the test binary does.
}

/// How many pieces of work the calling thread has run (thread ids are
/// recycled once a thread ends, this count is not: a new thread starts at 0).
thread_local unsigned RunsOnThisThread = 0;

/// Runs one piece of work on \p Workers: how many pieces its thread has run,
/// this one included.
unsigned runsOfNextThread(IsolatedWorkers &Workers) {
  auto Runs = std::make_shared<unsigned>(0);
  EXPECT_EQ(Workers.run([Runs] { *Runs = ++RunsOnThisThread; }, 0ms),
            IsolatedOutcome::Finished);
  return *Runs;
}

TEST(IsolatedWorkersTest, AnIdleThreadIsReused) {
  IsolatedWorkers Workers;
  EXPECT_EQ(runsOfNextThread(Workers), 1u);
  EXPECT_EQ(runsOfNextThread(Workers), 2u);
  EXPECT_EQ(runsOfNextThread(Workers), 3u);
  EXPECT_EQ(RunsOnThisThread, 0u); // Never on the caller's thread.
}

TEST(IsolatedWorkersTest, AThreadWhoseWorkCrashedIsNotReused) {
  IsolatedWorkers Workers;
  EXPECT_EQ(runsOfNextThread(Workers), 1u);
  EXPECT_EQ(Workers.run(
                [] {
                  ++RunsOnThisThread;
                  std::raise(SIGSEGV);
                },
                0ms),
            IsolatedOutcome::Crashed);
  // The next piece runs on a new thread, which is then reused.
  EXPECT_EQ(runsOfNextThread(Workers), 1u);
  EXPECT_EQ(runsOfNextThread(Workers), 2u);
}

TEST(IsolatedWorkersTest, AThreadLeftRunningIsNotHandedNewWork) {
  IsolatedWorkers Workers;
  EXPECT_EQ(runsOfNextThread(Workers), 1u);
  auto Stop = std::make_shared<std::atomic<bool>>(false);
  EXPECT_EQ(Workers.run(
                [Stop] {
                  ++RunsOnThisThread;
                  while (!*Stop)
                    std::this_thread::sleep_for(1ms);
                },
                50ms),
            IsolatedOutcome::TimedOut);
  // The slow work still holds its thread: the next piece gets a new one.
  EXPECT_EQ(runsOfNextThread(Workers), 1u);
  *Stop = true;
}

TEST(IsolatedWorkersTest, RunsFromSeveralThreadsAtOnceUseSeveralWorkers) {
  IsolatedWorkers Workers;
  std::mutex M;
  unsigned Runs = 0, FirstRuns = 0;
  std::vector<int> Results(64, 0);
  std::vector<std::thread> Callers;
  for (int C = 0; C < 4; ++C)
    Callers.emplace_back([&, C] {
      for (int I = C; I < 64; I += 4) {
        auto Out = std::make_shared<int>(0);
        auto Nth = std::make_shared<unsigned>(0);
        EXPECT_EQ(Workers.run(
                      [Out, Nth, I] {
                        *Out = I * I;
                        *Nth = ++RunsOnThisThread;
                      },
                      0ms),
                  IsolatedOutcome::Finished);
        Results[I] = *Out;
        std::lock_guard<std::mutex> L(M);
        ++Runs;
        FirstRuns += *Nth == 1;
      }
    });
  for (std::thread &T : Callers)
    T.join();
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(Results[I], I * I);
  // Every piece ran, on never more threads than runs at once.
  EXPECT_EQ(Runs, 64u);
  EXPECT_GE(FirstRuns, 1u);
  EXPECT_LE(FirstRuns, 4u);
}

} // namespace
