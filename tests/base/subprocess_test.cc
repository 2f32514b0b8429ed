// The launcher's child processes: the CPU time it charges to a run's
// budget (launcher/launcher.cc) while a child runs and after it exited.
#include "base/subprocess.h"

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace renju {
namespace {

TEST(SubprocessTest, CountsTheCpuTimeOfARunningAndOfAnExitedChild) {
  const std::string log =
      (std::filesystem::temp_directory_path() / "renju_subprocess_cpu.log")
          .string();
  // Spins until it has used 0.3 s of its own CPU time, then exits: the
  // figure does not depend on how busy the machine is.
  absl::StatusOr<Subprocess> child = Subprocess::Start(
      {"bash", "-c",
       "hz=$(getconf CLK_TCK); while :; do"
       " read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u s _ < /proc/$$/stat;"
       " (( u + s >= 30 * hz / 100 )) && exit 0; done"},
      log);
  ASSERT_TRUE(child.ok()) << child.status();
  const double while_running = child->CpuSeconds();
  EXPECT_GE(while_running, 0.0);
  ASSERT_TRUE(child->WaitForExit(600000));
  EXPECT_EQ(child->exit_code(), 0);
  EXPECT_GE(child->CpuSeconds(), 0.3);
  EXPECT_GE(child->CpuSeconds(), while_running);
  // The count moves with the handle.
  Subprocess moved = std::move(*child);
  EXPECT_GE(moved.CpuSeconds(), 0.3);
  std::filesystem::remove(log);
}

}  // namespace
}  // namespace renju
