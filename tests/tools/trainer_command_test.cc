// `renju trainer` refuses a worker-token file it cannot trust (malformed, or
// open to group or others) before it creates anything. The first case runs the
// binary; the second calls the command in-process (run_command.h says why).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/tools/run_command.h"

namespace renju {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;
using testing::RunRenju;
using testing::Stderr;

class TrainerCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("renju_trainer_cmd_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the trainer with `tokens` as its token file, as a process or
  // in-process; returns its output.
  testing::CommandResult RunWithTokens(const std::string& tokens,
                                       bool process = false,
                                       mode_t mode = 0600) {
    const fs::path file = dir_ / "tokens.txt";
    std::ofstream(file) << tokens;
    ::chmod(file.c_str(), mode);
    const char config[] = RENJU_SOURCE_DIR "/tests/data/e2e.textproto";
    if (process) {
      return RunRenju(std::string("trainer --config ") + config +
                      " --run-dir " + (dir_ / "run").string() +
                      " --listen 127.0.0.1:0 --tokens " + file.string() +
                      " 2>&1");
    }
    return RunCommand(commands::Trainer,
                      {"--config", config, "--run-dir", (dir_ / "run").string(),
                       "--listen", "127.0.0.1:0", "--tokens", file.string()},
                      Stderr::kCaptured);
  }

  fs::path dir_;
};

TEST_F(TrainerCommandTest, TokenFileWithoutTokensIsAnError) {
  const testing::CommandResult r =
      RunWithTokens("# workers\n\n", /*process=*/true);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("tokens.txt: no '<worker-id> <token>' lines"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "run")) << "the run folder was created";
}

TEST_F(TrainerCommandTest, TokenFileOthersCanReadIsRefused) {
  const testing::CommandResult r =
      RunWithTokens("w1 0123456789abcdef\n", /*process=*/false, 0644);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find((dir_ / "tokens.txt").string() + " has mode 0644"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "run")) << "the run folder was created";
}

TEST_F(TrainerCommandTest, ShortOrRepeatedTokensAreErrorsWithTheLine) {
  testing::CommandResult r = RunWithTokens("w1 short\n");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("tokens.txt:1: expected '<worker-id> <token>' with a "
                       "token of 16+ characters"),
            std::string::npos)
      << r.out;
  r = RunWithTokens("w1 0123456789abcdef\n# another\nw2 0123456789abcdef\n");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("tokens.txt:3: token used twice"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace renju
