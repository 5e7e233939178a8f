//===- IsolationTest.cpp - runIsolated: crashes and timeouts stay contained ===//

#include "driver/Isolation.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <memory>
#include <thread>

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

} // namespace
