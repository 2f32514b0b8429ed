// `renju selfplay --metrics` checks its address before it makes anything:
// a bad one is an error naming the flag, and a worker's metrics need a
// trainer to work for.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::RunRenju;

class SelfplayCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = fs::temp_directory_path() /
           ("renju_selfplay_cmd_" + std::to_string(::getpid()));
    fs::remove_all(out_);
  }
  void TearDown() override { fs::remove_all(out_); }

  std::string Flags() const {
    return std::string("selfplay --config ") + RENJU_SOURCE_DIR +
           "/tests/data/e2e.textproto --out " + out_.string();
  }

  fs::path out_;
};

TEST_F(SelfplayCommandTest, BadMetricsAddressNamesTheFlag) {
  // Port 1 on loopback: nothing listens, and nothing is reached before the
  // address is refused.
  const testing::CommandResult r =
      RunRenju(Flags() + " --trainer 127.0.0.1:1 --metrics nonsense 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("--metrics: \"nonsense\" is not HOST:PORT"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out_)) << "the game folder was created";
}

TEST_F(SelfplayCommandTest, MetricsWithoutATrainerIsAnError) {
  const testing::CommandResult r =
      RunRenju(Flags() + " --metrics 127.0.0.1:0 2>&1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("--metrics serves a worker's metrics and needs "
                       "--trainer"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out_)) << "the game folder was created";
}

}  // namespace
}  // namespace renju
