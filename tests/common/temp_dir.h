// Temporary folders for tests: one per test, under the system's temp
// folder, named after the process and the running test.
#ifndef RENJU_TESTS_COMMON_TEMP_DIR_H_
#define RENJU_TESTS_COMMON_TEMP_DIR_H_

#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace renju::testing {

// A fresh (emptied) folder <temp>/<prefix><pid>_<test name>.
inline std::filesystem::path TestDir(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (prefix + std::to_string(::getpid()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace renju::testing

#endif  // RENJU_TESTS_COMMON_TEMP_DIR_H_
