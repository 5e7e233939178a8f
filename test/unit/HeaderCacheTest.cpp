//===- HeaderCacheTest.cpp - Which parses share a header cache entry ------===//

#include "driver/HeaderCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace coalesce::driver;

namespace {

using Strings = std::vector<std::string>;

TEST(HeaderCacheTest, UserIncludeDirectoriesInEverySpelling) {
  Strings Rest;
  Strings Dirs = userIncludeDirs(
      {"-x", "cuda", "-Ia", "-I", "b", "-iquote", "c", "-iquoted",
       "--include-directory=e", "--include-directory", "f", "-isystem", "g",
       "-DI=1", "-w", "-I"},
      Rest);
  EXPECT_EQ(Dirs, (Strings{"a", "b", "c", "d", "e", "f"}));
  // System directories and a dangling -I stay in the key.
  EXPECT_EQ(Rest, (Strings{"-x", "cuda", "-isystem", "g", "-DI=1", "-w", "-I"}));
}

TEST(HeaderCacheTest, ArgumentsDifferingInIncludeDirsShareAnEntryKey) {
  Strings A{"-x", "cuda", "-I/src/one", "-DN=1"};
  Strings B{"-x", "cuda", "-I", "/src/two", "-DN=1"};
  Strings C{"-x", "cuda", "-DN=2"};
  // Without a built entry, each gets its own path with the same shared one.
  HeaderPch PA = headerPchFor("/nonexistent-cache", A, "/work");
  HeaderPch PB = headerPchFor("/nonexistent-cache", B, "/work");
  HeaderPch PC = headerPchFor("/nonexistent-cache", C, "/work");
  EXPECT_NE(PA.Path, PB.Path);
  EXPECT_EQ(PA.Shared, PB.Shared);
  EXPECT_FALSE(PA.Shared.empty());
  EXPECT_TRUE(PC.Shared.empty()); // No include directory: the shared entry.
  EXPECT_NE(PC.Path, PA.Shared);
}

TEST(HeaderCacheTest, ADirectoryHoldingAHeaderNameShadowsIt) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("header-cache-test", Dir));
  llvm::SmallString<128> Sub(Dir);
  llvm::sys::path::append(Sub, "crt");
  ASSERT_FALSE(llvm::sys::fs::create_directories(Sub));
  llvm::SmallString<128> File(Sub);
  llvm::sys::path::append(File, "host_config.h");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
  }
  Strings Names{"cuda_runtime.h", "crt/host_config.h", "/abs/cuda.h"};
  EXPECT_TRUE(shadowsAny({Dir.str().str()}, Names, "/"));
  // Relative directories are resolved against the compile directory.
  EXPECT_TRUE(shadowsAny({"."}, Names, Dir.str().str()));
  EXPECT_FALSE(shadowsAny({Sub.str().str()}, Names, "/"));
  EXPECT_FALSE(shadowsAny({Dir.str().str()}, {"cuda_runtime.h"}, "/"));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
